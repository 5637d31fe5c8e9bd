// The queues and the contract of every job on them: one zod schema per queue, checked where a job is made
// and again where it is consumed, so no handler ever reads an unchecked payload.
import { z } from 'zod';
import { chunkMessageSchema } from './batches.js';
import { PermanentError } from './errors.js';

import { QUEUE_NAMES, type QueueName } from './queue-names.js';

export { QUEUE_NAMES, type QueueName };

export interface JobDefinition<Payload> {
  readonly queue: QueueName;
  readonly schema: z.ZodType<Payload>;
  /** The payload of a delivered job; a malformed one is a permanent error (retrying cannot fix it). */
  parse(payload: unknown): Payload;
  /** A checked payload, ready for the queue port. */
  payload(value: Payload): Record<string, unknown>;
}

export function defineJob<Payload extends Record<string, unknown>>(
  queue: QueueName,
  schema: z.ZodType<Payload>,
): JobDefinition<Payload> {
  return {
    queue,
    schema,
    parse(payload) {
      const parsed = schema.safeParse(payload);
      if (!parsed.success) {
        const first = parsed.error.issues[0];
        throw new PermanentError(
          `malformed ${queue} message: ${first ? `${first.path.join('.') || '(root)'}: ${first.message}` : 'invalid'}`,
        );
      }
      return parsed.data;
    },
    payload(value) {
      return schema.parse(value);
    },
  };
}

/** A metadata sync asked for through the API (its task exists), or a cron tick (its task is opened then). */
export const metadataJobSchema = z.union([
  z.object({ taskId: z.string().min(1) }),
  z.object({ scheduled: z.literal(true), slot: z.string().max(40).optional() }),
]);
export type MetadataJob = z.infer<typeof metadataJobSchema>;

/** A tick of SEEDBED_RECHECK_CRON (`slot` is the tick, where the queue adapter knows it). */
export const recheckJobSchema = z.object({
  scheduled: z.literal(true),
  slot: z.string().max(40).optional(),
});
export type RecheckJob = z.infer<typeof recheckJobSchema>;

export const CHUNK_QUEUES = [
  'RESEARCH_QUEUE',
  'LIVENESS_QUEUE',
  'CONTRACT_QUEUE',
  'SEED_QUEUE',
  'DISCOVERY_QUEUE',
  'SEED_ACTION_QUEUE',
] as const;
export type ChunkQueueName = (typeof CHUNK_QUEUES)[number];

export const JOBS = {
  RESEARCH_QUEUE: defineJob('RESEARCH_QUEUE', chunkMessageSchema),
  LIVENESS_QUEUE: defineJob('LIVENESS_QUEUE', chunkMessageSchema),
  CONTRACT_QUEUE: defineJob('CONTRACT_QUEUE', chunkMessageSchema),
  SEED_QUEUE: defineJob('SEED_QUEUE', chunkMessageSchema),
  DISCOVERY_QUEUE: defineJob('DISCOVERY_QUEUE', chunkMessageSchema),
  SEED_ACTION_QUEUE: defineJob('SEED_ACTION_QUEUE', chunkMessageSchema),
  METADATA_QUEUE: defineJob('METADATA_QUEUE', metadataJobSchema),
  RECHECK_QUEUE: defineJob('RECHECK_QUEUE', recheckJobSchema),
} as const;
