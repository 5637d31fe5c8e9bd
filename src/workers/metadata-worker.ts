// METADATA_QUEUE: builds the snapshot and publishes it to the sync target, one task at a time.
import { z } from 'zod';
import { errorMessage, PermanentError } from '../domain/errors.js';
import type { MetadataService } from '../services/metadata.js';
import type { WorkerDefinition } from './runner.js';

const payloadSchema = z.object({ taskId: z.string().min(1) });

export function metadataWorker(deps: { metadata: MetadataService }): WorkerDefinition {
  const { metadata } = deps;
  return {
    queue: 'METADATA_QUEUE',
    // One at a time in this process; the queue's singleton key keeps processes from interleaving too.
    concurrency: 1,
    async handle(job) {
      const payload = payloadSchema.safeParse(job.payload);
      if (!payload.success) throw new PermanentError('malformed metadata task message');
      await metadata.runSync(payload.data.taskId);
    },
    async onExhausted(job, error) {
      const payload = payloadSchema.safeParse(job.payload);
      if (payload.success) await metadata.failTask(payload.data.taskId, errorMessage(error));
    },
  };
}
