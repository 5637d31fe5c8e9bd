// The scale-out queue: pg-boss 10 on the application's PostgreSQL. Jobs are inserted through the caller's
// Kysely transaction (a batch and its messages commit together); retries, leases and dead-letter follow
// the embedded queue's semantics. docs/databases.md explains the mapping and the few direct SQL statements.
import { EventEmitter } from 'node:events';
import PgBoss from 'pg-boss';
import { type BackoffPolicy, DEFAULT_BACKOFF, failedAttempt } from '../domain/errors.js';
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
import { groupFlush } from './group-flush.js';
import { type BossDelivery, executorDb, pgBossSql } from './pg-boss-sql.js';
import { consumerSet, type QueueDriver } from './poll-loop.js';

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
  /** Jobs claimed ahead per consumer, beyond its free slots (see poll-loop); default its concurrency, 0 for none. */
  prefetch?: number;
  onError?: (error: unknown) => void;
}

/** The per-queue dead-letter queue pg-boss moves a job to once it has failed for good. */
export function deadLetterQueueName(queue: QueueName): string {
  return `${queue}__dead`;
}

/** A fetched job plus the fencing token of this delivery. */
interface Delivery extends BossDelivery {
  job: Job;
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

  const sql = pgBossSql(schema);
  /** pg-boss's own pool (its Db answers undefined, not an error, when it is not open). */
  const bossDb: PgBoss.Db = {
    async executeSql(text, values) {
      const result = await boss.getDb().executeSql(text, values);
      if (!result) throw new Error('the pg-boss queue is not running');
      return result;
    },
  };

  const wake = new EventEmitter();
  wake.setMaxListeners(0);
  const consumers = consumerSet();
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
    for (const key of [...seen].sort()) await sql.lockKey(db, `singleton:${key}`);
    const keyed = kept.flatMap((j) =>
      j.singletonKey === undefined ? [] : [{ queue: j.queue, key: j.singletonKey }],
    );
    const live = await sql.liveSingletons(db, keyed);
    return kept.filter(
      (j) => j.singletonKey === undefined || !live.has(JSON.stringify([j.queue, j.singletonKey])),
    );
  }

  async function insertJobs(executor: DbExecutor, jobs: readonly NewJob[]): Promise<void> {
    const db = executorDb(executor);
    const kept = await dropLiveSingletons(db, jobs);
    const rows: PgBoss.JobInsert[] = kept.map((j, index) => ({
      name: j.queue,
      data: j.payload,
      // The jobs of one enqueue share a start time (the transaction's now()): the claim breaks the tie on this,
      // so a batch's chunks are taken in the order they were made (sql.claim).
      priority: kept.length - index,
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
    if (!ready) return [];
    const fetched = await sql.claim(bossDb, queue, batchSize);
    return fetched.map((j) => ({
      job: {
        id: j.id,
        queue,
        payload: (j.data ?? {}) as Record<string, unknown>,
        attempt: j.retry_count + 1,
        maxAttempts: j.retry_limit,
      },
      queue,
      id: j.id,
      retryCount: j.retry_count,
      startedOn: j.started_on,
    }));
  }

  // Completions are the common case: every job that finished while the last statement ran is completed by the
  // next one, fenced per delivery in its WHERE clause.
  const completions = groupFlush<Delivery>((deliveries) => sql.completeOwned(bossDb, deliveries));

  /**
   * Completes a delivery (grouped with others), or fails it in one transaction that first locks the job row;
   * fenced either way: a worker whose lease was lost (the job expired, maybe already refetched) must not
   * settle somebody else's attempt.
   */
  async function settle(d: Delivery, failure: { error: unknown } | null): Promise<void> {
    if (failure === null) {
      await completions.submit(d);
      return;
    }
    await database.transaction(async (trx) => {
      const db = executorDb(trx);
      if (!(await sql.lockOwned(db, d))) return;
      const { error } = failure;
      const { final, delayMs, message } = failedAttempt(error, d.job, backoff);
      // A permanent error, or the last attempt, goes to the dead-letter queue now instead of after more tries.
      if (final) await sql.makeFinal(db, d);
      const output = { name: error instanceof Error ? error.name : typeof error, message };
      await boss.fail(d.job.queue, d.job.id, output, { db });
      if (!final) await sql.retryAfter(db, d, delayMs);
    });
  }

  const driver: QueueDriver<Delivery> = {
    fetch: fetchJobs,
    job: (d) => d.job,
    settle,
    renew: (deliveries) => sql.renew(bossDb, deliveries, leaseSeconds),
    release: (d, delayMs) => sql.release(bossDb, d, delayMs),
  };

  function consume(queue: QueueName, consumeOptions: ConsumeOptions, handler: JobHandler): Consumer {
    const concurrency = positiveInteger('concurrency', consumeOptions.concurrency);
    if (stopped) throw new Error('the pg-boss queue is stopped');
    const loop = consumers.start(queue, driver, handler, {
      concurrency,
      ...(consumeOptions.capacity ? { capacity: consumeOptions.capacity } : {}),
      // A claim is a round trip to PostgreSQL: the next slots' jobs are claimed while these run.
      prefetch: options.prefetch ?? concurrency,
      pollIntervalMs,
      heartbeatMs: Math.max(1000, (leaseSeconds * 1000) / 3),
      drainTimeoutMs,
      outageBackoff: backoff,
      wake,
      onError,
    });
    return loop;
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
        await consumers.stopAll();
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
      const rows = await sql.countsByState(bossDb, names);
      const count = (name: string, states: string[]) =>
        rows.filter((r) => r.name === name && states.includes(r.state)).reduce((sum, r) => sum + r.n, 0);
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
      await bossDb.executeSql('SELECT 1', []);
    },
  };
}

function positiveInteger(name: string, value: number): number {
  if (!Number.isInteger(value) || value < 1)
    throw new Error(`${name} must be a positive integer, got ${value}`);
  return value;
}
