// The JobQueue contract on pg-boss, plus what only pg-boss adds (fenced settling, lease renewal, its
// dead-letter queues). Each test gets a fresh application schema and a fresh pg-boss schema, dropped after.

import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import { afterEach, describe, expect, it } from 'vitest';
import {
  createPgBossQueue,
  deadLetterQueueName,
  type PgBossQueueOptions,
} from '../../src/adapters/pg-boss-queue.js';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { PermanentError } from '../../src/domain/errors.js';
import type { Job } from '../../src/ports/queue.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';
import { gate, until } from '../support/waiting.js';
import { type QueueFixture, runQueueContract } from './queue.contract.js';

const up = await pgAvailable();

async function makeFixture(options: Partial<PgBossQueueOptions> = {}): Promise<
  QueueFixture & {
    expireLeases: () => Promise<void>;
    expire: () => Promise<void>;
    bossSql: (text: string) => Promise<unknown[]>;
  }
> {
  const schema = uniqueSchemaName('seedbed_q');
  const bossSchema = `${schema}_boss`;
  const database = createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 4 });
  await database.migrate();
  const queue = createPgBossQueue(database, {
    connectionString: TEST_DATABASE_URL,
    schema: bossSchema,
    poolSize: 4,
    pollIntervalMs: 50,
    backoff: { baseMs: 10, maxMs: 50 },
    leaseSeconds: 30,
    // A failing test must not hold its hung handlers for the default 30 s.
    drainTimeoutMs: 5_000,
    ...options,
  });
  const bossSql = async (text: string) =>
    (await database.db.executeQuery(CompiledQuery.raw(text.replaceAll('$boss', bossSchema)))).rows;
  /** pg-boss's lease expiry, as its maintenance runs it every interval. */
  const expire = async () => {
    const maintenance = new PgBoss({
      connectionString: TEST_DATABASE_URL,
      schema: bossSchema,
      max: 1,
      migrate: false,
      supervise: false,
      schedule: false,
    });
    await maintenance.start();
    try {
      await maintenance.expire();
    } finally {
      await maintenance.stop({ graceful: false });
    }
  };
  return {
    database,
    queue,
    bossSql,
    expire,
    async expireLeases() {
      // What a dead worker looks like: the lease of every running job is long over.
      await bossSql(`UPDATE $boss.job SET started_on = started_on - interval '1 day' WHERE state = 'active'`);
      await expire();
    },
    async cleanup() {
      await database.close();
      await dropSchemas([schema, bossSchema]);
    },
  };
}

describe.skipIf(!up)('pg-boss queue', () => {
  runQueueContract('pg-boss on PostgreSQL', () => makeFixture());

  describe('beyond the contract', () => {
    let fixture: Awaited<ReturnType<typeof makeFixture>>;
    afterEach(async () => {
      await fixture.queue.stop();
      await fixture.cleanup();
    });

    it('lets no worker that lost its lease settle the job that another worker now holds', async () => {
      fixture = await makeFixture();
      const { database, queue, bossSql } = fixture;
      await queue.start();
      await database.transaction((trx) => queue.enqueue(trx, [{ queue: 'SEED_QUEUE', payload: {} }]));
      const stale = gate();
      const current = gate();
      const attempts: number[] = [];
      const slow = queue.consume('SEED_QUEUE', { concurrency: 1 }, async (job) => {
        attempts.push(job.attempt);
        await stale.wait;
        throw new PermanentError('a late verdict from a worker whose lease is gone');
      });
      await until('the job is tried', () => attempts.length === 1);
      await fixture.expireLeases();
      const rescuer = queue.consume('SEED_QUEUE', { concurrency: 1 }, async (job) => {
        attempts.push(job.attempt);
        await current.wait;
      });
      await until('the job is tried again', () => attempts.length === 2);
      stale.open();
      await slow.stop();
      // The late PermanentError changed nothing: the job is still the rescuer's.
      expect(await bossSql(`SELECT state, retry_count FROM $boss.job WHERE name = 'SEED_QUEUE'`)).toEqual([
        { state: 'active', retry_count: 1 },
      ]);
      current.open();
      await rescuer.stop();
      expect(attempts).toEqual([1, 2]);
      expect(await bossSql(`SELECT state FROM $boss.job WHERE name = 'SEED_QUEUE'`)).toEqual([
        { state: 'completed' },
      ]);
    });

    it('renews the lease of a job that runs longer than the lease, so pg-boss does not expire it', async () => {
      fixture = await makeFixture({ leaseSeconds: 3 });
      const { database, queue, bossSql } = fixture;
      await queue.start();
      await database.transaction((trx) => queue.enqueue(trx, [{ queue: 'RESEARCH_QUEUE', payload: {} }]));
      const slow = gate();
      const attempts: number[] = [];
      const consumer = queue.consume('RESEARCH_QUEUE', { concurrency: 1 }, async (job) => {
        attempts.push(job.attempt);
        await slow.wait;
      });
      await until('the job is tried', () => attempts.length === 1);
      // Running for longer than the 3 s lease it was given when fetched.
      await until('the job has run past its lease', async () => {
        const rows = await bossSql(
          `SELECT 1 FROM $boss.job WHERE name = 'RESEARCH_QUEUE' AND started_on < now() - interval '4 seconds'`,
        );
        return rows.length === 1;
      });
      await fixture.expire();
      expect(await bossSql(`SELECT state FROM $boss.job WHERE name = 'RESEARCH_QUEUE'`)).toEqual([
        { state: 'active' },
      ]);
      slow.open();
      await consumer.stop();
      expect(attempts).toEqual([1]);
      expect(await bossSql(`SELECT state FROM $boss.job WHERE name = 'RESEARCH_QUEUE'`)).toEqual([
        { state: 'completed' },
      ]);
    });

    it('gives back, with the attempt unspent, a job still running when stop() stops waiting', async () => {
      fixture = await makeFixture({ drainTimeoutMs: 200 });
      const { database, queue, bossSql } = fixture;
      await queue.start();
      await database.transaction((trx) => queue.enqueue(trx, [{ queue: 'LIVENESS_QUEUE', payload: {} }]));
      const never = gate();
      const attempts: number[] = [];
      const hung = queue.consume('LIVENESS_QUEUE', { concurrency: 1 }, async (job) => {
        attempts.push(job.attempt);
        await never.wait;
      });
      await until('the job is tried', () => attempts.length === 1);
      // Every slot of this consumer is held by a job that never ends: stop() must still come back.
      await hung.stop();
      expect(await bossSql(`SELECT state, started_on FROM $boss.job WHERE name = 'LIVENESS_QUEUE'`)).toEqual([
        { state: 'created', started_on: null },
      ]);
      const next = queue.consume('LIVENESS_QUEUE', { concurrency: 1 }, async (job) => {
        attempts.push(job.attempt);
      });
      await until('the job is tried again', () => attempts.length === 2);
      await next.stop();
      never.open();
      expect(attempts).toEqual([1, 1]);
    });

    it('keeps one singleton when two transactions enqueue the same key at once', async () => {
      fixture = await makeFixture();
      const { database, queue, bossSql } = fixture;
      await queue.start();
      const job = { queue: 'METADATA_QUEUE' as const, payload: {}, singletonKey: 'sync' };
      const enqueued = gate();
      const commit = gate();
      const first = database.transaction(async (trx) => {
        await queue.enqueue(trx, [job]);
        enqueued.open();
        await commit.wait;
      });
      await enqueued.wait;
      // The second enqueue waits for the first transaction's lock on the key...
      const second = database.transaction((trx) => queue.enqueue(trx, [job]));
      try {
        await until('the second enqueue waits on the advisory lock', async () => {
          const waiting = await bossSql(
            `SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND wait_event = 'advisory'
              AND query LIKE '%pg_advisory_xact_lock(hashtextextended%'`,
          );
          return waiting.length > 0;
        });
      } finally {
        // ...and, once it commits, sees its job and drops the duplicate.
        commit.open();
      }
      await Promise.all([first, second]);
      expect((await queue.stats()).find((s) => s.queue === 'METADATA_QUEUE')).toMatchObject({ queued: 1 });
    });

    it("moves a job that failed for good into its queue's pg-boss dead-letter queue, payload intact", async () => {
      fixture = await makeFixture();
      const { database, queue, bossSql } = fixture;
      await queue.start();
      await database.transaction((trx) =>
        queue.enqueue(trx, [{ queue: 'CONTRACT_QUEUE', payload: { domain: 'a.fr' }, maxAttempts: 3 }]),
      );
      const seen: Job[] = [];
      const consumer = queue.consume('CONTRACT_QUEUE', { concurrency: 1 }, async (job) => {
        seen.push(job);
        throw new PermanentError('robots.txt is not a domain');
      });
      await until(
        'the contract job is dead',
        async () => (await queue.stats()).find((s) => s.queue === 'CONTRACT_QUEUE')?.dead === 1,
      );
      await consumer.stop();
      expect(seen.map((job) => job.attempt)).toEqual([1]);
      const dead = deadLetterQueueName('CONTRACT_QUEUE');
      expect(await bossSql(`SELECT data FROM $boss.job WHERE name = '${dead}'`)).toEqual([
        { data: { domain: 'a.fr' } },
      ]);
      expect(
        await bossSql(
          `SELECT state, output->>'message' AS message FROM $boss.job WHERE name = 'CONTRACT_QUEUE'`,
        ),
      ).toEqual([{ state: 'failed', message: 'robots.txt is not a domain' }]);
    });

    it('keeps cron schedules in pg-boss, one per queue, replaced when scheduled again', async () => {
      fixture = await makeFixture();
      const { queue, bossSql } = fixture;
      await queue.start();
      await queue.schedule('METADATA_QUEUE', '0 */6 * * *', { scheduled: true });
      // A second process scheduling the same queue at start replaces the schedule, it does not add one.
      await queue.schedule('METADATA_QUEUE', '30 1 * * *', { scheduled: true });
      expect(await bossSql(`SELECT name, cron, timezone, data FROM $boss.schedule`)).toEqual([
        { name: 'METADATA_QUEUE', cron: '30 1 * * *', timezone: 'UTC', data: { scheduled: true } },
      ]);
    });
  });
});
