// The shape every batch-chunk worker shares: read the message, claim the chunk, do the work; when the
// retries run out, fail the chunk so its batch can still finish.
import { z } from 'zod';
import { errorMessage, PermanentError } from '../domain/errors.js';
import type { QueueName } from '../ports/queue.js';
import type { BatchService, ChunkMessage, ChunkWork } from '../services/batches.js';
import type { WorkerDefinition } from './runner.js';

const chunkMessageSchema = z.object({ batchId: z.string().min(1), chunk: z.number().int().positive() });

export function parseChunkMessage(payload: unknown): ChunkMessage {
  const parsed = chunkMessageSchema.safeParse(payload);
  if (!parsed.success) throw new PermanentError(`malformed chunk message: ${parsed.error.message}`);
  return parsed.data;
}

export function chunkWorker(options: {
  queue: QueueName;
  concurrency: number;
  batches: BatchService;
  process(work: ChunkWork, message: ChunkMessage): Promise<void>;
}): WorkerDefinition {
  return {
    queue: options.queue,
    concurrency: options.concurrency,
    async handle(job) {
      const message = parseChunkMessage(job.payload);
      const work = await options.batches.beginChunk(message, job.attempt);
      // A redelivered message whose chunk already finished has nothing left to do.
      if (work) await options.process(work, message);
    },
    async onExhausted(job, error) {
      const message = chunkMessageSchema.safeParse(job.payload);
      if (message.success) await options.batches.failChunk(message.data, errorMessage(error));
    },
  };
}
