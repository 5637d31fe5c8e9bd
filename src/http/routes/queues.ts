// /api/v1/queues: research, liveness and contract batches, batch status and items, metadata-sync trigger.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  BATCH_STATUSES,
  BATCH_TYPES,
  type BatchType,
  type BatchView,
  ITEM_STATUSES,
} from '../../domain/batches.js';
import { categorySchema, countrySchema } from '../../domain/identifiers.js';
import type { ChunkQueueName } from '../../domain/jobs.js';
import type { BatchService } from '../../services/batches.js';
import type { MetadataService } from '../../services/metadata.js';
import {
  batchItemSchema,
  batchListItemSchema,
  batchSchema,
  metadataTaskSchema,
} from '../response-schemas.js';
import { cursorPageOf, json, problems } from '../responses.js';
import { cursorPaginationSchema, idempotencyHeaders, noQuery, timeBound } from '../schemas.js';
import { batchLocation } from './paths.js';

const MAX_CHUNK_SIZE = 1000;
const itemString = z.string().max(4096);
const chunkSize = (fallback: number) =>
  z
    .number()
    .int()
    .min(1)
    .max(MAX_CHUNK_SIZE)
    .default(fallback)
    .meta({ description: `Items per chunk, 1..${MAX_CHUNK_SIZE}, default ${fallback}` });

export const researchBatchSchema = z
  .object({
    country: countrySchema,
    category: categorySchema,
    urls: z.array(itemString).min(1).max(10_000),
    chunkSize: chunkSize(100),
  })
  .strict()
  .meta({ id: 'ResearchBatchRequest' });
export const livenessBatchSchema = z
  .object({
    country: countrySchema,
    domains: z.array(itemString).min(1).max(10_000),
    chunkSize: chunkSize(50),
  })
  .strict()
  .meta({ id: 'LivenessBatchRequest' });
export const contractBatchSchema = z
  .object({
    country: countrySchema,
    category: categorySchema,
    domainIds: z.array(itemString).min(1).max(1000),
    chunkSize: chunkSize(20),
    force: z.boolean().default(false).meta({
      description:
        'Discover again a domain already collected for this partition (today); without it such a domain is skipped as already_collected',
    }),
  })
  .strict()
  .meta({ id: 'ContractBatchRequest' });

/** Bodies of 10,000 URLs of the longest allowed length fit; anything larger is a 413. */
export const QUEUE_BODY_LIMIT = 10_000 * (4096 + 16) + 64 * 1024;

const batchParams = z.object({ batchId: z.string().min(1).max(100) });

export async function queueRoutes(
  app: FastifyInstance,
  deps: { batches: BatchService; metadata: MetadataService; today: () => string },
) {
  const { batches, metadata } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  async function accept(
    request: FastifyRequest,
    reply: FastifyReply,
    input: {
      type: BatchType;
      queue: ChunkQueueName;
      country: string;
      category?: string;
      items: readonly unknown[];
      chunkSize: number;
    },
  ) {
    const key = (request.headers['idempotency-key'] as string | undefined) ?? null;
    const { batch, created } = await batches.create({
      ...input,
      // Research and contracts write into a date partition: the day the batch was accepted.
      date: input.type === 'liveness' ? null : deps.today(),
      idempotencyKey: key
        ? `${request.principal?.name ?? 'anonymous'}:${request.routeOptions.url}:${key}`
        : null,
      request: request.body,
    });
    return respond(reply, batch, created);
  }

  r.post(
    '/research',
    {
      bodyLimit: QUEUE_BODY_LIMIT,
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['queues'],
        summary: 'Create a research discovery batch over URLs',
        response: { 202: json(batchSchema, 'Accepted; Location names the batch'), ...problems(422) },
        body: researchBatchSchema,
        headers: idempotencyHeaders,
      },
    },
    (request, reply) => {
      const { country, category, urls, chunkSize } = request.body;
      return accept(request, reply, {
        type: 'research',
        queue: 'RESEARCH_QUEUE',
        country,
        category,
        items: urls,
        chunkSize,
      });
    },
  );

  r.post(
    '/liveness',
    {
      bodyLimit: QUEUE_BODY_LIMIT,
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['queues'],
        summary: 'Create a domain liveness-check batch',
        response: { 202: json(batchSchema, 'Accepted; Location names the batch'), ...problems(422) },
        body: livenessBatchSchema,
        headers: idempotencyHeaders,
      },
    },
    (request, reply) => {
      const { country, domains, chunkSize } = request.body;
      return accept(request, reply, {
        type: 'liveness',
        queue: 'LIVENESS_QUEUE',
        country,
        items: domains,
        chunkSize,
      });
    },
  );

  r.post(
    '/contract',
    {
      bodyLimit: QUEUE_BODY_LIMIT,
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['queues'],
        summary: 'Create a seed-contract generation batch',
        response: { 202: json(batchSchema, 'Accepted; Location names the batch'), ...problems(422) },
        body: contractBatchSchema,
        headers: idempotencyHeaders,
      },
    },
    (request, reply) => {
      const { country, category, domainIds, chunkSize, force } = request.body;
      return accept(request, reply, {
        type: 'contract',
        queue: 'CONTRACT_QUEUE',
        country,
        category,
        // A forced item carries its force (as an orchestration's do); a plain one stays a domain id.
        items: force ? domainIds.map((domain_id) => ({ domain_id, force: true })) : domainIds,
        chunkSize,
      });
    },
  );

  r.get(
    '/batches',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['queues'],
        summary: 'List batches, newest first (by type, status and creation time)',
        response: { 200: json(cursorPageOf(batchListItemSchema), 'A page of batches, newest first') },
        querystring: cursorPaginationSchema
          .extend({
            type: z.enum(BATCH_TYPES).optional(),
            status: z.enum(BATCH_STATUSES).optional(),
            from: timeBound('from').optional(),
            to: timeBound('to').optional(),
          })
          .refine((q) => !q.from || !q.to || q.from <= q.to, {
            message: 'must not be before from',
            path: ['to'],
          }),
      },
    },
    (request) => {
      const { type, status, from, to, limit, offset, cursor } = request.query;
      return batches.list({
        ...(type ? { type } : {}),
        ...(status ? { status } : {}),
        ...(from ? { createdFrom: from } : {}),
        ...(to ? { createdTo: to } : {}),
        limit,
        offset,
        ...(cursor ? { cursor } : {}),
      });
    },
  );

  r.get(
    '/batch/:batchId',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['queues'],
        summary: 'Status, progress and summary of a batch',
        response: { 200: json(batchSchema, 'The batch'), ...problems(404) },
        params: batchParams,
      },
    },
    (request) => batches.get(request.params.batchId),
  );

  r.get(
    '/batch/:batchId/items',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['queues'],
        summary: 'Per-item results of a batch',
        response: { 200: json(cursorPageOf(batchItemSchema), 'A page of item results'), ...problems(404) },
        params: batchParams,
        querystring: cursorPaginationSchema.extend({ status: z.enum(ITEM_STATUSES).optional() }),
      },
    },
    (request) => batches.items(request.params.batchId, request.query),
  );

  r.post(
    '/trigger/metadata-sync',
    {
      config: { scope: 'admin' },
      schema: {
        querystring: noQuery,
        tags: ['queues'],
        summary: 'Trigger metadata synchronisation',
        response: { 202: json(metadataTaskSchema, 'The sync task, queued'), ...problems(409) },
      },
    },
    async (_request, reply) => reply.code(202).send(await metadata.requestSync('trigger')),
  );
}

export function respond(reply: FastifyReply, batch: BatchView, created: boolean) {
  reply.header('Location', batchLocation(batch.batchId));
  if (!created) reply.header('Idempotent-Replayed', 'true');
  return reply.code(202).send(batch);
}
