// The scale-out queue: pg-boss 10 on the application's PostgreSQL. Jobs are inserted through the caller's
// Kysely transaction (a batch and its messages commit together); retries, leases and dead-letter follow
// the embedded queue's semantics. docs/databases.md explains the mapping and the few direct SQL statements.
import { EventEmitter } from 'node:events';
import { CompiledQuery } from 'kysely';
import PgBoss from 'pg-boss';
import {
  type BackoffPolicy,
  DEFAULT_BACKOFF,
  errorMessage,
  isFinalFailure,
  retryDelayMs,
} from '../domain/errors.js';
import type { Database, DbExecutor } from '../ports/database.js';
import type {
  ConsumeOptions,
  Consumer,
  Job,
  JobHandler,
  JobQueue,
  NewJob,
  QueueName,
  QueueStats,
} from '../ports/queue.js';
import { QUEUE_NAMES } from '../ports/queue.js';
import { drainWithin } from './drain.js';

export interface PgBossQueueOptions {
  connectionString: string;
  /** pg-boss's own schema (default 'pgboss'), created and migrated by start(). */
  schema?: string;
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  /** A running job whose worker sends no heartbeat for this long is given to another worker. */
  leaseSeconds?: number;
  /** How often an idle consumer asks for work (a local enqueue wakes it at once). */
  pollIntervalMs?: number;
  /** How often pg-boss expires lost leases and archives old jobs (one process does it per interval). */
  maintenanceIntervalSeconds?: number;
  /** How long stop() waits for running jobs before handing them back. */
  drainTimeoutMs?: number;
  poolSize?: number;
  onError?: (error: unknown) => void;
}

/** The per-queue dead-letter queue pg-boss moves a job to once it has failed for good. */
export function deadLetterQueueName(queue: QueueName): string {
  return `${queue}__dead`;
}

/** A fetched job plus the fencing token of this delivery: a refetch bumps retry_count and started_on. */
interface Delivery {
  job: Job;
  retryCount: number;
  startedOn: Date;
}

const INSERT_ROWS_PER_STATEMENT = 1000;
const BOSS_SCHEMA_NAME = /^[A-Za-z_]\w{0,49}$/;

export function createPgBossQueue(database: Database, options: PgBossQueueOptions): JobQueue {
  if (database.dialect !== 'postgres') throw new Error('the pg-boss queue needs the PostgreSQL database');
  const schema = options.schema ?? 'pgboss';
  if (!BOSS_SCHEMA_NAME.test(schema)) throw new Error(`invalid pg-boss schema name "${schema}"`);
  const defaultMaxAttempts = positiveInteger('maxAttempts', options.maxAttempts ?? 4);
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const leaseSeconds = positiveInteger('leaseSeconds', options.leaseSeconds ?? 60);
  // pg-boss refuses expirations of a day or more.
  if (leaseSeconds >= 86_400) throw new Error('leaseSeconds must be under a day');
  const pollIntervalMs = options.pollIntervalMs ?? 2_000;
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  const onError = options.onError ?? (() => {});

  const boss = new PgBoss({
    connectionString: options.connectionString,
    schema,
    max: options.poolSize ?? 10,
    application_name: 'seedbed-pg-boss',
    // pg-boss's timekeeper runs the cron schedules: one job per tick across every process.
    schedule: true,
    maintenanceIntervalSeconds: options.maintenanceIntervalSeconds ?? 30,
  });
  // An EventEmitter 'error' without a listener throws: maintenance failures must not kill the process.
  boss.on('error', onError);

  const job = `${schema}.job`;
  // This delivery still owns the job: not completed, failed, expired or refetched since we took it.
  // started_on is compared at millisecond precision because that is all a JS Date keeps of it.
  const OWNED = `name = $1 AND id = $2 AND state = 'active' AND retry_count = $3
    AND date_trunc('milliseconds', started_on) = $4`;
  const owned = (d: Delivery) => [d.job.queue, d.job.id, d.retryCount, d.startedOn];
  /** A statement on pg-boss's own pool (its Db answers undefined, not an error, when it is not open). */
  async function bossSql(text: string, values: unknown[]): Promise<{ rows: Record<string, unknown>[] }> {
    const result = await boss.getDb().executeSql(text, values);
    if (!result) throw new Error('the pg-boss queue is not running');
    return result;
  }

  const wake = new EventEmitter();
  wake.setMaxListeners(0);
  const consumers = new Set<Consumer>();
  let started: Promise<void> | null = null;
  let ready = false;
  let stopped: Promise<void> | null = null;

  async function createQueues(): Promise<void> {
    await boss.start();
    for (const queue of QUEUE_NAMES) {
      const dead = deadLetterQueueName(queue);
      await boss.createQueue(dead, { name: dead });
      const policy: PgBoss.Queue = {
        name: queue,
        // One attempt more than maxAttempts: see the comment on fetchJobs.
        retryLimit: defaultMaxAttempts,
        // pg-boss applies these only to a lease that expired; a failed attempt gets retryDelayMs() (settle).
        retryDelay: Math.max(1, Math.round(backoff.baseMs / 1000)),
        retryBackoff: true,
        expireInSeconds: leaseSeconds,
        deadLetter: dead,
      };
      // createQueue leaves an existing queue alone; updateQueue applies changed options to new jobs.
      await boss.createQueue(queue, policy);
      await boss.updateQueue(queue, policy);
    }
    ready = true;
  }

  /** Keeps the first job per (queue, singletonKey) and drops any whose key already has a live job. */
  async function dropLiveSingletons(db: PgBoss.Db, jobs: readonly NewJob[]): Promise<NewJob[]> {
    const seen = new Set<string>();
    const kept = jobs.filter((j) => {
      if (j.singletonKey === undefined) return true;
      const key = JSON.stringify([j.queue, j.singletonKey]);
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
    if (seen.size === 0) return kept;
    // A transaction-scoped lock per key (in a fixed order, so two enqueues cannot deadlock) makes a
    // concurrent enqueue of the same key wait for our commit, then see our job in the check below.
    for (const key of [...seen].sort()) {
      await db.executeSql('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [`singleton:${key}`]);
    }
    const keyed = kept.filter((j) => j.singletonKey !== undefined);
    const { rows } = await db.executeSql(
      `SELECT name, singleton_key FROM ${job} WHERE state < 'completed'
        AND (name, singleton_key) IN (SELECT * FROM unnest($1::text[], $2::text[]))`,
      [keyed.map((j) => j.queue), keyed.map((j) => j.singletonKey)],
    );
    const live = new Set(
      rows.map((r: { name: string; singleton_key: string }) => JSON.stringify([r.name, r.singleton_key])),
    );
    return kept.filter(
      (j) => j.singletonKey === undefined || !live.has(JSON.stringify([j.queue, j.singletonKey])),
    );
  }

  async function insertJobs(executor: DbExecutor, jobs: readonly NewJob[]): Promise<void> {
    const db = executorDb(executor);
    const rows: PgBoss.JobInsert[] = (await dropLiveSingletons(db, jobs)).map((j) => ({
      name: j.queue,
      data: j.payload,
      retryLimit: positiveInteger('maxAttempts', j.maxAttempts ?? defaultMaxAttempts),
      ...(j.singletonKey !== undefined ? { singletonKey: j.singletonKey } : {}),
      ...(j.runAt ? { startAfter: j.runAt.toISOString() } : {}),
    }));
    for (let i = 0; i < rows.length; i += INSERT_ROWS_PER_STATEMENT) {
      await boss.insert(rows.slice(i, i + INSERT_ROWS_PER_STATEMENT), { db });
    }
  }

  /**
   * The port's attempt is pg-boss's retryCount + 1, and maxAttempts is the job's retryLimit: pg-boss keeps
   * one delivery in reserve. A handler failure on attempt maxAttempts is dead-lettered by settle(), so the
   * reserve is only ever used when a worker died on the final attempt: pg-boss expires that lease and
   * delivers the job once more with attempt = maxAttempts + 1, for the runner to record as exhausted.
   */
  async function fetchJobs(queue: QueueName, batchSize: number): Promise<Delivery[]> {
    const fetched = await boss.fetch<Record<string, unknown>>(queue, { batchSize, includeMetadata: true });
    return fetched.map((j) => ({
      job: { id: j.id, queue, payload: j.data ?? {}, attempt: j.retryCount + 1, maxAttempts: j.retryLimit },
      retryCount: j.retryCount,
      startedOn: j.startedOn,
    }));
  }

  /** pg-boss 10 has no lease renewal: the heartbeat stretches expire_in so the lease ends leaseSeconds from now. */
  async function renewLease(d: Delivery): Promise<void> {
    await bossSql(
      `UPDATE ${job} SET expire_in = (now() - started_on) + make_interval(secs => $5) WHERE ${OWNED}`,
      [...owned(d), leaseSeconds],
    );
  }

  /**
   * Completes or fails one delivery in one transaction that first locks the job row, fenced: a worker whose
   * lease was lost (the job expired, maybe already refetched) must not settle somebody else's attempt.
   */
  async function settle(d: Delivery, failure: { error: unknown } | null): Promise<void> {
    await database.transaction(async (trx) => {
      const db = executorDb(trx);
      const { rows } = await db.executeSql(`SELECT 1 FROM ${job} WHERE ${OWNED} FOR UPDATE`, owned(d));
      if (rows.length === 0) return;
      if (failure === null) {
        await boss.complete(d.job.queue, d.job.id, {}, { db });
        return;
      }
      const { error } = failure;
      const byId = [d.job.queue, d.job.id];
      const final = isFinalFailure(error, d.job.attempt, d.job.maxAttempts);
      // pg-boss fails a job for good (and moves it to its dead-letter queue) once retry_count reaches
      // retry_limit: a permanent error, or the last attempt, gets there now instead of after more tries.
      if (final)
        await db.executeSql(`UPDATE ${job} SET retry_limit = retry_count WHERE name = $1 AND id = $2`, byId);
      const message = errorMessage(error).slice(0, 2000);
      const output = { name: error instanceof Error ? error.name : typeof error, message };
      await boss.fail(d.job.queue, d.job.id, output, { db });
      if (!final) {
        // The one retry policy (domain/errors.ts), Retry-After included, rather than pg-boss's whole seconds.
        await db.executeSql(
          `UPDATE ${job} SET start_after = now() + make_interval(secs => $3::double precision / 1000)
            WHERE name = $1 AND id = $2 AND state = 'retry'`,
          [...byId, retryDelayMs(error, d.job.attempt, backoff)],
        );
      }
    });
  }

  /** Hands a job back without counting the attempt (a shutdown that could not wait for it). */
  async function release(d: Delivery): Promise<void> {
    // With started_on cleared, pg-boss's next fetch does not bump retry_count: the attempt is not used up.
    await bossSql(
      `UPDATE ${job} SET started_on = NULL, start_after = now(), state = CASE WHEN retry_count = 0
          THEN 'created'::${schema}.job_state ELSE 'retry'::${schema}.job_state END
        WHERE ${OWNED}`,
      owned(d),
    );
  }

  function consume(queue: QueueName, consumeOptions: ConsumeOptions, handler: JobHandler): Consumer {
    const concurrency = positiveInteger('concurrency', consumeOptions.concurrency);
    if (stopped) throw new Error('the pg-boss queue is stopped');
    let stopping = false;
    let stoppedConsumer: Promise<void> | null = null;
    let requestStop!: () => void;
    // Ends a wait for a free slot too: with every slot held by a hung job, the drain timeout must still run.
    const stopRequested = new Promise<void>((resolve) => {
      requestStop = resolve;
    });
    const inFlight = new Set<Promise<void>>();
    const running = new Map<string, Delivery>();
    let idle: (() => void) | null = null;
    const onWake = (name: string) => {
      if (name === queue) idle?.();
    };
    wake.on('enqueued', onWake);

    async function run(d: Delivery): Promise<void> {
      const renewEveryMs = Math.max(1000, (leaseSeconds * 1000) / 3);
      const heartbeat = setInterval(() => renewLease(d).catch(onError), renewEveryMs);
      running.set(d.job.id, d);
      let failure: { error: unknown } | null = null;
      try {
        await handler(d.job);
      } catch (error) {
        failure = { error };
      } finally {
        clearInterval(heartbeat);
      }
      try {
        await settle(d, failure);
      } catch (error) {
        // The job stays active; its lease expires and it is delivered again (at-least-once).
        onError(error);
      } finally {
        running.delete(d.job.id);
      }
    }

    async function loop(): Promise<void> {
      while (!stopping) {
        if (inFlight.size >= concurrency) {
          await Promise.race([...inFlight, stopRequested]);
          continue;
        }
        let fetched: Delivery[] = [];
        try {
          if (ready) fetched = await fetchJobs(queue, concurrency - inFlight.size);
        } catch (error) {
          onError(error);
        }
        if (stopping) {
          await Promise.allSettled(fetched.map((d) => release(d)));
          break;
        }
        if (fetched.length > 0) {
          for (const d of fetched) {
            const task = run(d).finally(() => inFlight.delete(task));
            inFlight.add(task);
          }
          continue;
        }
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, pollIntervalMs);
          idle = () => {
            clearTimeout(timer);
            resolve();
          };
        });
        idle = null;
      }
      const drained = await drainWithin(inFlight, drainTimeoutMs);
      if (!drained) await Promise.allSettled([...running.values()].map((d) => release(d)));
    }

    const looping = loop();
    const consumer: Consumer = {
      stop() {
        if (!stoppedConsumer) {
          stopping = true;
          requestStop();
          idle?.();
          wake.off('enqueued', onWake);
          stoppedConsumer = looping.finally(() => {
            consumers.delete(consumer);
          });
        }
        return stoppedConsumer;
      },
    };
    consumers.add(consumer);
    return consumer;
  }

  return {
    kind: 'pg-boss',
    async schedule(queue: QueueName, cron: string, payload: Record<string, unknown>) {
      await (started ?? Promise.reject(new Error('start() the pg-boss queue before scheduling')));
      // Keyed by queue name: scheduling again (every process does at start) replaces, never duplicates.
      await boss.schedule(queue, cron, payload, { tz: 'UTC' });
    },
    start() {
      started ??= createQueues();
      return started;
    },
    stop() {
      stopped ??= (async () => {
        await Promise.all([...consumers].map((consumer) => consumer.stop()));
        await started?.catch(() => {});
        // Our consumers have drained, so pg-boss has no work in progress left to wait for.
        await boss.stop({ graceful: true, wait: true, close: true });
      })();
      return stopped;
    },
    async enqueue(executor: DbExecutor, jobs: readonly NewJob[]): Promise<void> {
      if (jobs.length === 0) return;
      // pg-boss silently skips a job whose queue does not exist yet; start() creates them all.
      if (!ready) throw new Error('start() the pg-boss queue before enqueueing');
      const needsTransaction = jobs.some((j) => j.singletonKey !== undefined) && !executor.isTransaction;
      if (needsTransaction) await executor.transaction().execute((trx) => insertJobs(trx, jobs));
      else await insertJobs(executor, jobs);
      for (const queue of new Set(jobs.map((j) => j.queue))) wake.emit('enqueued', queue);
    },
    consume,
    async stats(): Promise<QueueStats[]> {
      const names = QUEUE_NAMES.flatMap((queue) => [queue, deadLetterQueueName(queue)]);
      const { rows } = await bossSql(
        `SELECT name, state::text AS state, count(*) AS n FROM ${job}
          WHERE name = ANY($1::text[]) AND state < 'completed' GROUP BY name, state`,
        [names],
      );
      const count = (name: string, states: string[]) =>
        rows
          .filter((r) => r['name'] === name && states.includes(String(r['state'])))
          .reduce((sum, r) => sum + Number(r['n']), 0);
      return QUEUE_NAMES.map((queue) => ({
        queue,
        queued: count(queue, ['created']),
        active: count(queue, ['active']),
        retrying: count(queue, ['retry']),
        // Nothing consumes a dead-letter queue: its jobs wait there for a person (or its retention) to act.
        dead: count(deadLetterQueueName(queue), ['created', 'retry', 'active']),
      }));
    },
    async ping() {
      if (!ready) throw new Error('the pg-boss queue is not started');
      await bossSql('SELECT 1', []);
    },
  };
}

/** pg-boss's whole database contract, over a Kysely executor: its statements join the caller's transaction. */
function executorDb(executor: DbExecutor): PgBoss.Db {
  return {
    async executeSql(text: string, values: unknown[] = []) {
      const result = await executor.executeQuery(CompiledQuery.raw(text, values));
      return { rows: [...result.rows] };
    },
  };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got ${value}`);
  return value;
}
