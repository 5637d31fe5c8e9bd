// Every statement Seedbed runs against pg-boss 10's own tables, in one place: pg-boss has no API for lease
// renewal, fenced settles, a chosen retry delay or releasing a job, so these reach into `{schema}.job`.
// Moving to another pg-boss major means re-reading this file against its schema, and nothing else.
import { CompiledQuery } from 'kysely';
import type PgBoss from 'pg-boss';
import type { DbExecutor } from '../ports/database.js';

/** One delivery of a job: a refetch bumps retry_count and started_on, so together they fence this attempt. */
export interface BossDelivery {
  queue: string;
  id: string;
  retryCount: number;
  startedOn: Date;
}

/**
 * OWNED for many deliveries at once, as `$1..$4` arrays joined to the job table `j` (see ownedManyParams):
 * each row is touched only while its delivery still owns it.
 */
const OWNED_MANY = `FROM unnest($1::text[], $2::uuid[], $3::int[], $4::timestamptz[]) AS d(name, id, retry_count, started_on)
          WHERE j.name = d.name AND j.id = d.id AND j.state = 'active' AND j.retry_count = d.retry_count
            AND date_trunc('milliseconds', j.started_on) = d.started_on`;

function ownedManyParams(deliveries: BossDelivery[]): unknown[] {
  return [
    deliveries.map((d) => d.queue),
    deliveries.map((d) => d.id),
    deliveries.map((d) => d.retryCount),
    deliveries.map((d) => d.startedOn),
  ];
}

export function pgBossSql(schema: string) {
  const job = `${schema}.job`;
  // This delivery still owns the job: not completed, failed, expired or refetched since we took it.
  // started_on is compared at millisecond precision because that is all a JS Date keeps of it.
  const OWNED = `name = $1 AND id = $2 AND state = 'active' AND retry_count = $3
    AND date_trunc('milliseconds', started_on) = $4`;
  const owned = (d: BossDelivery) => [d.queue, d.id, d.retryCount, d.startedOn];

  return {
    /** Names (queue, singleton key) of the given keys that already have a live job. */
    async liveSingletons(db: PgBoss.Db, keys: Array<{ queue: string; key: string }>): Promise<Set<string>> {
      const { rows } = await db.executeSql(
        `SELECT name, singleton_key FROM ${job} WHERE state < 'completed'
          AND (name, singleton_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
        [keys.map((k) => k.queue), keys.map((k) => k.key)],
      );
      return new Set(
        rows.map((r: { name: string; singleton_key: string }) => JSON.stringify([r.name, r.singleton_key])),
      );
    },

    /** A transaction-scoped lock per key: a concurrent enqueue of the same key waits for our commit. */
    async lockKey(db: PgBoss.Db, key: string): Promise<void> {
      await db.executeSql('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
    },

    /** pg-boss 10 has no lease renewal: stretch expire_in so each lease ends `seconds` from now. */
    async renew(db: PgBoss.Db, deliveries: BossDelivery[], seconds: number): Promise<void> {
      await db.executeSql(
        `UPDATE ${job} AS j SET expire_in = (now() - j.started_on) + make_interval(secs => $5)
          ${OWNED_MANY}`,
        [...ownedManyParams(deliveries), seconds],
      );
    },

    /**
     * Claims up to `limit` ready jobs of a queue, as pg-boss's fetch does (state, started_on, the retry count
     * of a job delivered again), but taken in the order of pg-boss's own fetch index (name, start_after): its
     * fetch sorts every waiting job by priority on each claim, milliseconds with thousands waiting, and Seedbed
     * uses the priority only as the tie-break of one enqueue's jobs (their start time is the same: without it a
     * batch's chunks came in any order, a short last chunk first, and the domain pool, which sizes its next
     * claim by the last chunk, claimed too many). The index includes priority, so the tie-break is an
     * incremental sort of equal start times, and the claimed jobs are handed over in that order. Singleton and
     * stately queue policies, which the fetch also handles, are not used by Seedbed.
     */
    async claim(
      db: PgBoss.Db,
      queue: string,
      limit: number,
    ): Promise<
      Array<{ id: string; data: unknown; retry_count: number; retry_limit: number; started_on: Date }>
    > {
      const { rows } = await db.executeSql(
        `WITH next AS (
          SELECT id FROM ${job}
          WHERE name = $1 AND state < 'active' AND start_after < now()
          ORDER BY start_after, priority DESC
          LIMIT $2
          FOR UPDATE SKIP LOCKED
        ),
        claimed AS (
          UPDATE ${job} AS j SET state = 'active', started_on = now(),
            retry_count = CASE WHEN j.started_on IS NOT NULL THEN j.retry_count + 1 ELSE j.retry_count END
          FROM next WHERE j.name = $1 AND j.id = next.id
          RETURNING j.id, j.data, j.retry_count, j.retry_limit, j.started_on, j.start_after, j.priority
        )
        -- RETURNING comes in no particular order: the jobs are started in the order they were chosen.
        SELECT id, data, retry_count, retry_limit, started_on FROM claimed ORDER BY start_after, priority DESC`,
        [queue, limit],
      );
      return rows;
    },

    /**
     * Completes many deliveries in one statement, each only while it still owns its job (pg-boss's own
     * complete, fenced): a delivery whose lease was lost changes nothing.
     */
    async completeOwned(db: PgBoss.Db, deliveries: BossDelivery[]): Promise<void> {
      await db.executeSql(
        `UPDATE ${job} AS j SET completed_on = now(), state = 'completed', output = '{}'::jsonb
          ${OWNED_MANY}`,
        [...ownedManyParams(deliveries)],
      );
    },

    /** Locks the job row for a settle; false when this delivery no longer owns the job. */
    async lockOwned(db: PgBoss.Db, d: BossDelivery): Promise<boolean> {
      const { rows } = await db.executeSql(`SELECT 1 FROM ${job} WHERE ${OWNED} FOR UPDATE`, owned(d));
      return rows.length > 0;
    },

    /** pg-boss fails a job for good (to its dead-letter queue) once retry_count reaches retry_limit. */
    async makeFinal(db: PgBoss.Db, d: BossDelivery): Promise<void> {
      await db.executeSql(`UPDATE ${job} SET retry_limit = retry_count WHERE name = $1 AND id = $2`, [
        d.queue,
        d.id,
      ]);
    },

    /** Our retry policy's delay (Retry-After included) instead of pg-boss's whole seconds. */
    async retryAfter(db: PgBoss.Db, d: BossDelivery, delayMs: number): Promise<void> {
      await db.executeSql(
        `UPDATE ${job} SET start_after = now() + make_interval(secs => $3::double precision / 1000)
          WHERE name = $1 AND id = $2 AND state = 'retry'`,
        [d.queue, d.id, delayMs],
      );
    },

    /** With started_on cleared, pg-boss's next fetch does not bump retry_count: the attempt is not used up. */
    async release(db: PgBoss.Db, d: BossDelivery, delayMs = 0): Promise<void> {
      await db.executeSql(
        `UPDATE ${job} SET started_on = NULL,
            start_after = now() + make_interval(secs => $5::double precision / 1000),
            state = CASE WHEN retry_count = 0
            THEN 'created'::${schema}.job_state ELSE 'retry'::${schema}.job_state END
          WHERE ${OWNED}`,
        [...owned(d), delayMs],
      );
    },

    async countsByState(
      db: PgBoss.Db,
      names: string[],
    ): Promise<Array<{ name: string; state: string; n: number }>> {
      const { rows } = await db.executeSql(
        `SELECT name, state::text AS state, count(*) AS n FROM ${job}
          WHERE name = ANY($1::text[]) AND state < 'completed' GROUP BY name, state`,
        [names],
      );
      return rows.map((r) => ({ name: String(r['name']), state: String(r['state']), n: Number(r['n']) }));
    },
  };
}

/** pg-boss's whole database contract, over a Kysely executor: its statements join the caller's transaction. */
export function executorDb(executor: DbExecutor): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = await executor.executeQuery(CompiledQuery.raw(text, values));
      return { rows: [...result.rows] };
    },
  };
}
