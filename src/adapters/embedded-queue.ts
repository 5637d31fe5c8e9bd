// The embedded queue: a job table in the application's own database, so jobs commit in the same
// transaction as the rows that need them. Leases, retries with backoff and jitter, and a dead state.
import { EventEmitter } from 'node:events';
import { Cron } from 'croner';
import { CompiledQuery, type ExpressionBuilder } from 'kysely';
import { type BackoffPolicy, DEFAULT_BACKOFF, failedAttempt } from '../domain/errors.js';
import { uuidv7 } from '../domain/ids.js';
import {
  type Database,
  type DbExecutor,
  type Dialect,
  executeCompiled,
  type JobTable,
  type Tables,
} from '../ports/database.js';
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
import { consumerSet, type QueueDriver } from './poll-loop.js';

export interface EmbeddedQueueOptions {
  leaseMs?: number;
  pollIntervalMs?: number;
  maxAttempts?: number;
  backoff?: BackoffPolicy;
  now?: () => number;
  onError?: (error: unknown) => void;
  /** How long stop() waits for running jobs before handing their leases back. */
  drainTimeoutMs?: number;
}

const INSERT_ROWS_PER_STATEMENT = 500;

/**
 * Claims up to a limit of ready jobs (queued and due, or active with a lapsed lease: a worker that died stops
 * renewing it), oldest first, returning their rows. Parameters: the new lease's end, the queue, now twice, the
 * limit. On PostgreSQL concurrent claimers skip each other's rows.
 */
const CLAIM_TEXT: Record<Dialect, string> = {
  // The ready jobs and the expired leases as two ranges of the (queue, state, run_at) index, each read in order and
  // stopped at the limit: as one `or`, SQLite read and sorted every job of the queue (0.5 ms a claim with 200 jobs
  // waiting; docs/profiles.md). Among jobs due at once (a batch enqueues its chunks with one run_at), the order they
  // were enqueued in: index entries end with the rowid, so that order costs no sort.
  sqlite:
    `update "jobs" set "state" = 'active', "attempts" = "attempts" + 1, "lease_until" = ? where "id" in ` +
    `(select "id" from (` +
    `select * from (select "id", "run_at", rowid as "r" from "jobs" where "queue" = ? and "state" = 'queued' ` +
    `and "run_at" <= ? order by "run_at", rowid limit ?) union all ` +
    `select * from (select "id", "run_at", rowid as "r" from "jobs" where "queue" = ? and "state" = 'active' ` +
    `and "lease_until" < ? order by "run_at", rowid limit ?)` +
    `) order by "run_at", "r" limit ?) returning *`,
  postgres:
    `update "jobs" set "state" = 'active', "attempts" = "attempts" + 1, "lease_until" = $1 where "id" in ` +
    `(select "id" from "jobs" where "queue" = $2 and (("state" = 'queued' and "run_at" <= $3) or ` +
    `("state" = 'active' and "lease_until" < $4)) order by "run_at", "id" limit $5 for update skip locked) ` +
    `returning *`,
};

/** A finished job's row, of this delivery only (as `thisDelivery` below): its id and attempt. */
const DELETE_DELIVERY: Record<Dialect, string> = {
  sqlite: `delete from "jobs" where "id" = ? and "attempts" = ? and "state" = 'active'`,
  postgres: `delete from "jobs" where "id" = $1 and "attempts" = $2 and "state" = 'active'`,
};

/** CLAIM_TEXT's parameters, in its dialect's order. */
function claimParameters(
  dialect: Dialect,
  claim: { queue: string; at: number; leaseUntil: number; limit: number },
): unknown[] {
  const { queue, at, leaseUntil, limit } = claim;
  return dialect === 'sqlite'
    ? [leaseUntil, queue, at, limit, queue, at, limit, limit]
    : [leaseUntil, queue, at, at, limit];
}

/** A job's settle waiting to commit. */
interface WaitingSettle {
  write: (executor: DbExecutor) => Promise<void>;
  resolve: () => void;
  reject: (error: unknown) => void;
}

export function createEmbeddedQueue(database: Database, options: EmbeddedQueueOptions = {}): JobQueue {
  const leaseMs = options.leaseMs ?? 60_000;
  const pollIntervalMs = options.pollIntervalMs ?? 250;
  const defaultMaxAttempts = options.maxAttempts ?? 4;
  const backoff = options.backoff ?? DEFAULT_BACKOFF;
  const now = options.now ?? Date.now;
  const onError = options.onError ?? (() => {});
  const drainTimeoutMs = options.drainTimeoutMs ?? 30_000;
  // Wakes idle consumers of this process at once when a job is enqueued here; other processes poll.
  const wake = new EventEmitter();
  wake.setMaxListeners(0);
  const consumers = consumerSet();
  const schedules: Cron[] = [];

  // Settles wait for the consumer's next claim, which follows a finished job at once, and commit with it: one
  // durable write where there were two. Those no claim takes by the next turn of the event loop commit alone.
  let waitingSettles: WaitingSettle[] = [];
  let flushScheduled = false;

  function scheduleFlush(): void {
    if (flushScheduled) return;
    flushScheduled = true;
    setImmediate(() => {
      flushScheduled = false;
      const group = waitingSettles;
      waitingSettles = [];
      if (group.length === 0) return;
      database
        .transaction(async (trx) => {
          for (const g of group) await g.write(trx);
        })
        .then(
          () => {
            for (const g of group) g.resolve();
          },
          (error: unknown) => {
            for (const g of group) g.reject(error);
          },
        );
    });
  }

  function deferSettle(write: WaitingSettle['write']): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      waitingSettles.push({ write, resolve, reject });
      scheduleFlush();
    });
  }

  /** Runs `work` in one transaction with the settles waiting, or on its own when none wait. */
  async function withWaitingSettles<T>(work: (executor: DbExecutor) => Promise<T>): Promise<T> {
    const group = waitingSettles;
    waitingSettles = [];
    // In a transaction even alone: SQLite commits it with whatever else is ready in the same turn (a chunk's
    // claim, say), where an autocommit statement would be an fsync of its own.
    if (group.length === 0) return database.transaction(work);
    try {
      const result = await database.transaction(async (trx) => {
        for (const g of group) await g.write(trx);
        return work(trx);
      });
      for (const g of group) g.resolve();
      return result;
    } catch (error) {
      // The claim's failure need not be theirs: the settles go back, to commit on their own.
      waitingSettles = group.concat(waitingSettles);
      scheduleFlush();
      throw error;
    }
  }

  /** Claims up to `limit` ready jobs in one statement (fewer round trips than one claim per job). */
  function claim(queue: QueueName, limit: number): Promise<Job[]> {
    return withWaitingSettles((executor) => claimIn(executor, queue, limit));
  }

  async function claimIn(executor: DbExecutor, queue: QueueName, limit: number): Promise<Job[]> {
    const at = now();
    // As text (CLAIM_TEXT): every consumer asks every poll interval, and an idle claim's time was mostly
    // Kysely building the statement.
    const { rows } = await executeCompiled<JobTable>(
      executor,
      CompiledQuery.raw(
        CLAIM_TEXT[database.dialect],
        claimParameters(database.dialect, { queue, at, leaseUntil: at + leaseMs, limit }),
      ),
    );
    return rows.sort(byRunAtThenId).map((row) => ({
      id: row.id,
      queue,
      payload: JSON.parse(row.payload) as Record<string, unknown>,
      attempt: Number(row.attempts),
      maxAttempts: Number(row.max_attempts),
    }));
  }

  /**
   * Settles only this delivery: a worker whose lease expired (and whose job another worker now holds, or the
   * queue dead-lettered) must change nothing. The attempt number is the fencing token.
   */
  const thisDelivery = (job: Job) => (eb: ExpressionBuilder<Tables, 'jobs'>) =>
    eb.and([eb('id', '=', job.id), eb('attempts', '=', job.attempt), eb('state', '=', 'active')]);

  function settle(job: Job, error: unknown | null): Promise<void> {
    if (error === null)
      return deferSettle(async (executor) => {
        // As text (DELETE_DELIVERY): one per job, and Kysely's builder cost more than the delete.
        await executeCompiled(
          executor,
          CompiledQuery.raw(DELETE_DELIVERY[database.dialect], [job.id, job.attempt]),
        );
      });
    const { final, delayMs, message } = failedAttempt(error, job, backoff);
    return deferSettle(async (executor) => {
      await executor
        .updateTable('jobs')
        .set({
          state: final ? 'dead' : 'queued',
          run_at: final ? now() : now() + delayMs,
          lease_until: null,
          last_error: message,
        })
        .where(thisDelivery(job))
        .execute();
    });
  }

  /** Hands a running job back to the queue without counting the attempt (shutdown that could not drain). */
  async function release(job: Job, delayMs = 0): Promise<void> {
    await database.db
      .updateTable('jobs')
      .set((eb) => ({
        state: 'queued',
        run_at: now() + delayMs,
        lease_until: null,
        attempts: eb('attempts', '-', 1),
      }))
      .where(thisDelivery(job))
      .execute();
  }

  async function renewLeases(jobIds: string[]): Promise<void> {
    if (jobIds.length === 0) return;
    await database.db
      .updateTable('jobs')
      .set({ lease_until: now() + leaseMs })
      .where('id', 'in', jobIds)
      .where('state', '=', 'active')
      .execute();
  }

  async function enqueue(executor: DbExecutor, jobs: readonly NewJob[]): Promise<void> {
    if (jobs.length === 0) return;
    const at = now();
    const rows = jobs.map((job) => ({
      id: uuidv7(at),
      queue: job.queue,
      payload: JSON.stringify(job.payload),
      state: 'queued' as const,
      singleton_key: job.singletonKey ?? null,
      attempts: 0,
      max_attempts: job.maxAttempts ?? defaultMaxAttempts,
      run_at: job.runAt ? job.runAt.getTime() : at,
      lease_until: null,
      last_error: null,
      created_at: at,
    }));
    for (let i = 0; i < rows.length; i += INSERT_ROWS_PER_STATEMENT) {
      await executor
        .insertInto('jobs')
        .values(rows.slice(i, i + INSERT_ROWS_PER_STATEMENT))
        // The only unique index a new job can hit is the live-singleton one: a duplicate is dropped.
        .onConflict((oc) => oc.doNothing())
        .execute();
    }
    for (const queue of new Set(jobs.map((job) => job.queue))) wake.emit('enqueued', queue);
  }

  const driver: QueueDriver<Job> = {
    fetch: claim,
    job: (job) => job,
    settle: (job, failure) => settle(job, failure === null ? null : failure.error),
    renew: (jobs) => renewLeases(jobs.map((job) => job.id)),
    release,
  };

  function consume(queue: QueueName, consumeOptions: ConsumeOptions, handler: JobHandler): Consumer {
    const loop = consumers.start(queue, driver, handler, {
      concurrency: consumeOptions.concurrency,
      ...(consumeOptions.capacity ? { capacity: consumeOptions.capacity } : {}),
      // The next jobs are claimed while these run: started at once when a slot frees, and their claim commits
      // with the chunk work of the same turn.
      prefetch: consumeOptions.concurrency,
      pollIntervalMs,
      heartbeatMs: Math.max(1000, leaseMs / 3),
      drainTimeoutMs,
      outageBackoff: backoff,
      wake,
      onError,
    });
    return loop;
  }

  return {
    kind: 'embedded',
    async start() {},
    async stop() {
      for (const cron of schedules.splice(0)) cron.stop();
      await consumers.stopAll();
    },
    async schedule(queue: QueueName, cron: string, payload: Record<string, unknown>) {
      // Every process that schedules runs the timer; the tick's singleton key lets one job per tick through.
      schedules.push(
        new Cron(cron, { timezone: 'UTC', protect: true }, async (self: Cron) => {
          const slot = (self.currentRun() ?? new Date(now())).toISOString();
          try {
            await database.transaction((trx) =>
              enqueue(trx, [{ queue, payload: { ...payload, slot }, singletonKey: `cron:${slot}` }]),
            );
          } catch (error) {
            onError(error);
          }
        }),
      );
    },
    enqueue,
    consume,
    async stats(): Promise<QueueStats[]> {
      const rows = await database.db
        .selectFrom('jobs')
        .select(['queue', 'state', (eb) => eb.fn.countAll().as('n')])
        .groupBy(['queue', 'state'])
        .execute();
      const retrying = await database.db
        .selectFrom('jobs')
        .select(['queue', (eb) => eb.fn.countAll().as('n')])
        .where('state', '=', 'queued')
        .where('attempts', '>', 0)
        .groupBy('queue')
        .execute();
      return QUEUE_NAMES.map((queue) => {
        const count = (state: string) =>
          Number(rows.find((r) => r.queue === queue && r.state === state)?.n ?? 0);
        const retry = Number(retrying.find((r) => r.queue === queue)?.n ?? 0);
        return {
          queue,
          queued: count('queued') - retry,
          active: count('active'),
          retrying: retry,
          dead: count('dead'),
        };
      });
    },
    async ping() {
      await database.ping();
    },
  };
}

/** Jobs in the order they are claimed: the oldest due first (ids are time-ordered UUIDv7). */
function byRunAtThenId(
  a: { run_at: number | string; id: string },
  b: { run_at: number | string; id: string },
) {
  return Number(a.run_at) - Number(b.run_at) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);
}
