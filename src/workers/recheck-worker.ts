// RECHECK_QUEUE: one job per tick of SEEDBED_RECHECK_CRON turns into the tick's recheck batches (their chunks run
// on CONTRACT_QUEUE). A tick retried after a crash makes no batch twice: the batches are keyed by the tick.
import { JOBS } from '../domain/jobs.js';
import type { RecheckService } from '../services/recheck.js';
import type { WorkerDefinition } from './runner.js';

const job = JOBS.RECHECK_QUEUE;

export function recheckWorker(deps: { recheck: RecheckService }): WorkerDefinition {
  return {
    queue: job.queue,
    concurrency: 1,
    async handle(delivery) {
      const payload = job.parse(delivery.payload);
      const slot = payload.slot ? new Date(payload.slot) : null;
      await deps.recheck.runTick(slot && !Number.isNaN(slot.getTime()) ? slot : null);
    },
  };
}
