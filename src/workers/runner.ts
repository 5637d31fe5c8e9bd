// The worker runner: wraps each queue's handler with exhaustion accounting, logging and metrics, and
// starts/stops the consumers. Retry, lease and dead-letter mechanics belong to the queue adapter.
import type { Logger } from 'pino';
import { errorMessage, isBackendUnavailable, isFinalFailure, PermanentError } from '../domain/errors.js';
import type { ConsumeCapacity, Consumer, Job, JobQueue, QueueName } from '../ports/queue.js';

export interface WorkerDefinition {
  queue: QueueName;
  concurrency: number;
  /** A budget shared with other queues of the process (domains in flight) that gates claims. */
  capacity?: ConsumeCapacity;
  handle(job: Job): Promise<void>;
  /** Called once when a job will not be retried any more: its work is accounted for as failed. */
  onExhausted?(job: Job, error: unknown): Promise<void>;
}

export interface JobMetrics {
  observe(queue: QueueName, outcome: 'succeeded' | 'retry' | 'dead', seconds: number): void;
}

export interface WorkerPool {
  readonly queues: readonly QueueName[];
  stop(): Promise<void>;
}

export function wrapHandler(definition: WorkerDefinition, logger: Logger, metrics?: JobMetrics) {
  return async (job: Job): Promise<void> => {
    const started = process.hrtime.bigint();
    const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
    if (job.attempt > job.maxAttempts) {
      // The worker holding the final attempt died: the lease expired and nobody may retry it again.
      const error = new PermanentError(`worker lost during the final attempt (${job.maxAttempts})`);
      await definition.onExhausted?.(job, error);
      metrics?.observe(job.queue, 'dead', seconds());
      throw error;
    }
    try {
      await definition.handle(job);
      metrics?.observe(job.queue, 'succeeded', seconds());
    } catch (error) {
      const final = isFinalFailure(error, job.attempt, job.maxAttempts);
      const log = { queue: job.queue, jobId: job.id, attempt: job.attempt, err: errorMessage(error) };
      if (final) {
        logger.warn(log, 'job failed for good');
        try {
          await definition.onExhausted?.(job, error);
        } catch (accountingError) {
          logger.error(
            { ...log, accountingError: errorMessage(accountingError) },
            'could not record the failure',
          );
        }
      } else if (isBackendUnavailable(error)) {
        logger.warn(log, 'backend unavailable, job handed back with its attempt unspent');
      } else {
        logger.info(log, 'job failed, will retry');
      }
      metrics?.observe(job.queue, final ? 'dead' : 'retry', seconds());
      throw error;
    }
  };
}

export function startWorkers(
  queue: JobQueue,
  definitions: readonly WorkerDefinition[],
  logger: Logger,
  metrics?: JobMetrics,
): WorkerPool {
  const consumers: Consumer[] = definitions.map((definition) =>
    queue.consume(
      definition.queue,
      {
        concurrency: definition.concurrency,
        ...(definition.capacity ? { capacity: definition.capacity } : {}),
      },
      wrapHandler(definition, logger, metrics),
    ),
  );
  let stopping: Promise<void> | null = null;
  return {
    queues: definitions.map((d) => d.queue),
    stop() {
      stopping ??= Promise.all(consumers.map((c) => c.stop())).then(() => undefined);
      return stopping;
    },
  };
}
