// METADATA_QUEUE: builds the snapshot and publishes it to the sync target, one task at a time.
import { errorMessage } from '../domain/errors.js';
import { JOBS, type MetadataJob } from '../domain/jobs.js';
import { UNFINISHED_TASK_STATUSES } from '../domain/metadata-tasks.js';
import type { MetadataService } from '../services/metadata.js';
import type { WorkerDefinition } from './runner.js';

const job = JOBS.METADATA_QUEUE;

/** The task a job settles: the one the API opened, or the cron tick's own. */
function taskIdOf(payload: MetadataJob): string | null {
  if ('taskId' in payload) return payload.taskId;
  return payload.slot ? `cron-${payload.slot}` : null;
}

export function metadataWorker(deps: { metadata: MetadataService }): WorkerDefinition {
  const { metadata } = deps;
  return {
    queue: job.queue,
    // One at a time in this process; the queue's singleton key keeps processes from interleaving too.
    concurrency: 1,
    async handle(delivery) {
      const payload = job.parse(delivery.payload);
      if ('taskId' in payload) return metadata.runSync(payload.taskId);
      const opened = await metadata.openScheduledTask(payload.slot);
      if (opened) return metadata.runSync(opened);
      // The tick's task exists: carry on only if it is this job's own unfinished attempt, never run a tick twice.
      const taskId = taskIdOf(payload);
      const existing = taskId ? await metadata.getTask(taskId) : null;
      if (existing && UNFINISHED_TASK_STATUSES.includes(existing.status))
        await metadata.runSync(existing.taskId);
    },
    async onExhausted(delivery, error) {
      const payload = job.schema.safeParse(delivery.payload);
      const taskId = payload.success ? taskIdOf(payload.data) : null;
      if (taskId) await metadata.failTask(taskId, errorMessage(error));
    },
  };
}
