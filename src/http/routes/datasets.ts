// /api/v1/datasets: raw dataset chunks (EnhancedResearchDataset) by country/category/date/chunk.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { enhancedResearchDatasetSchema } from '../../domain/dataset.js';
import { categorySchema, countrySchema } from '../../domain/identifiers.js';
import type { DatasetService } from '../../services/datasets.js';
import { chunkParams, noQuery, paginationSchema, partitionParams } from '../schemas.js';

export function datasetRoutes(
  app: FastifyInstance,
  deps: { datasets: DatasetService; maxDatasetBytes: number },
) {
  const { datasets } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/v1/datasets',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['datasets'],
        summary: 'List dataset partitions',
        querystring: paginationSchema.extend({
          country: countrySchema.optional(),
          category: categorySchema.optional(),
        }),
      },
    },
    (request) => datasets.listPartitions(request.query),
  );

  r.get(
    '/api/v1/datasets/stats',
    {
      config: { scope: 'read' },
      schema: { querystring: noQuery, tags: ['datasets'], summary: 'Dataset statistics' },
    },
    () => datasets.stats(),
  );

  r.get(
    '/api/v1/datasets/:country/:category/:date',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['datasets'],
        summary: 'List the chunks of one date partition',
        params: partitionParams,
      },
    },
    async (request) => ({ ...request.params, chunks: await datasets.listChunks(request.params) }),
  );

  r.get(
    '/api/v1/datasets/:country/:category/:date/:chunk',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['datasets'],
        summary: 'Retrieve one chunk (streamed as stored)',
        params: chunkParams,
      },
    },
    async (request, reply) => {
      const { chunk, ...partition } = request.params;
      const { stream, info } = await datasets.open(partition, chunk);
      return reply
        .type('application/json')
        .header('content-length', info.bytes)
        .header('x-seedbed-dataset-id', info.dataset_id)
        .send(stream);
    },
  );

  r.post(
    '/api/v1/datasets',
    {
      bodyLimit: deps.maxDatasetBytes,
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['datasets'],
        summary: 'Store a dataset as a new immutable chunk',
        body: enhancedResearchDatasetSchema,
      },
    },
    async (request, reply) => {
      const stored = await datasets.store(request.body);
      return reply
        .code(201)
        .header(
          'Location',
          `/api/v1/datasets/${stored.country}/${stored.category}/${stored.date}/${stored.chunk}`,
        )
        .send(stored);
    },
  );

  r.delete(
    '/api/v1/datasets/:country/:category/:date/:chunk',
    {
      config: { scope: 'admin' },
      schema: {
        querystring: noQuery,
        tags: ['datasets'],
        summary: 'Delete one chunk and its checkpoint',
        params: chunkParams,
      },
    },
    async (request, reply) => {
      const { chunk, ...partition } = request.params;
      await datasets.remove(partition, chunk);
      return reply.code(204).send();
    },
  );
}
