// METADATA_QUEUE: builds the snapshot and publishes it to the sync target, one task at a time.
import { z } from 'zod';
import { errorMessage, PermanentError } from '../domain/errors.js';
import type { MetadataService } from '../services/metadata.js';
import type { WorkerDefinition } from './runner.js';

/** A sync asked for through the API (its task exists), or a cron tick (its task is opened here). */
const payloadSchema = z.union([
  z.object({ taskId: z.string().min(1) }),
  z.object({ scheduled: z.literal(true), slot: z.string().max(40).optional() }),
]);

export function metadataWorker(deps: { metadata: MetadataService }): WorkerDefinition {
  const { metadata } = deps;
  return {
    queue: 'METADATA_QUEUE',
    // One at a time in this process; the queue's singleton key keeps processes from interleaving too.
    concurrency: 1,
    async handle(job) {
      const payload = payloadSchema.safeParse(job.payload);
      if (!payload.success) throw new PermanentError('malformed metadata task message');
      if ('taskId' in payload.data) return metadata.runSync(payload.data.taskId);
      const slot = payload.data.slot;
      const opened = await metadata.openScheduledTask(slot);
      if (opened) return metadata.runSync(opened);
      // The tick's task exists: carry on only if it is this job's own unfinished attempt, never run a tick twice.
      const existing = slot ? await metadata.getTask(`cron-${slot}`) : null;
      if (existing && ['queued', 'running', 'retrying'].includes(existing.status))
        await metadata.runSync(existing.taskId);
    },
    async onExhausted(job, error) {
      const payload = payloadSchema.safeParse(job.payload);
      if (!payload.success) return;
      const taskId =
        'taskId' in payload.data
          ? payload.data.taskId
          : payload.data.slot
            ? `cron-${payload.data.slot}`
            : null;
      if (taskId) await metadata.failTask(taskId, errorMessage(error));
    },
  };
}
