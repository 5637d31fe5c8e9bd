// The queue port. Jobs are enqueued inside the caller's database transaction, so a batch row and its
// messages commit together (embedded: the same SQLite database; pg-boss: insert through the same transaction).

import type { QueueName } from '../domain/jobs.js';
import type { DbExecutor } from './database.js';

export { QUEUE_NAMES, type QueueName } from '../domain/jobs.js';

export interface NewJob {
  queue: QueueName;
  payload: Record<string, unknown>;
  /** At most one live job per (queue, singletonKey); a duplicate enqueue is dropped. */
  singletonKey?: string;
  /** Not before this time. */
  runAt?: Date;
  maxAttempts?: number;
}

export interface Job {
  id: string;
  queue: QueueName;
  payload: Record<string, unknown>;
  /** 1 on the first delivery. */
  attempt: number;
  maxAttempts: number;
}

/**
 * Resolve to acknowledge. Throw to fail this attempt: the adapter retries with backoff and jitter unless
 * `isFinalFailure(error, job)` says this was the last try, in which case the job is dead-lettered.
 */
export type JobHandler = (job: Job) => Promise<void>;

export interface ConsumeOptions {
  /** Jobs in flight at most. */
  concurrency: number;
  /** A budget shared with other work of the process: fewer jobs are claimed while it has no room. */
  capacity?: ConsumeCapacity;
}

/** How many more jobs a consumer may claim right now, beyond what its concurrency allows (e.g. domains in flight). */
export interface ConsumeCapacity {
  /** 0 means wait. */
  available(): number;
  /** `listener` is called when available() may have grown; the function returned unsubscribes. */
  subscribe(listener: () => void): () => void;
}

export interface Consumer {
  /** Stop taking new jobs, wait for in-flight ones, release what was not started. Safe to call twice. */
  stop(): Promise<void>;
}

export interface QueueStats {
  queue: QueueName;
  queued: number;
  active: number;
  retrying: number;
  dead: number;
}

export interface JobQueue {
  readonly kind: 'embedded' | 'pg-boss';
  start(): Promise<void>;
  stop(): Promise<void>;
  enqueue(executor: DbExecutor, jobs: readonly NewJob[]): Promise<void>;
  consume(queue: QueueName, options: ConsumeOptions, handler: JobHandler): Consumer;
  /**
   * Puts `payload` on `queue` at every tick of `cron` (five fields, UTC), once per tick however many
   * processes schedule it. The payload gains `slot` (the tick, ISO) where the adapter knows it.
   */
  schedule(queue: QueueName, cron: string, payload: Record<string, unknown>): Promise<void>;
  stats(): Promise<QueueStats[]>;
  ping(): Promise<void>;
}
