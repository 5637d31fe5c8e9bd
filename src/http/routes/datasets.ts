// /api/v1/datasets: raw dataset chunks (EnhancedResearchDataset) by country/category/date/chunk.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { enhancedResearchDatasetSchema } from '../../domain/dataset.js';
import { categorySchema, countrySchema } from '../../domain/identifiers.js';
import type { DatasetService } from '../../services/datasets.js';
import {
  datasetChunkSchema,
  datasetPartitionSchema,
  datasetStatsSchema,
  partitionChunksSchema,
  storedDatasetSchema,
} from '../response-schemas.js';
import { empty, json, pageOf, problems } from '../responses.js';
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
        response: { 200: json(pageOf(datasetPartitionSchema), 'A page of partitions') },
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
      schema: {
        querystring: noQuery,
        tags: ['datasets'],
        summary: 'Dataset statistics',
        response: { 200: json(datasetStatsSchema, 'Totals, by country and by category') },
      },
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
        response: {
          200: json(partitionChunksSchema, 'The stored chunks of the partition'),
          ...problems(404),
        },
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
        response: { 200: json(storedDatasetSchema, 'The chunk, byte for byte as stored'), ...problems(404) },
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
        response: {
          201: json(datasetChunkSchema, 'Stored; Location names the chunk'),
          ...problems(409, 422),
        },
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
        response: { 204: empty('Deleted'), ...problems(404) },
        params: chunkParams,
      },
    },
    async (request, reply) => {
      const { chunk, ...partition } = request.params;
      await datasets.remove(partition, chunk);
      return reply.code(204).send(null);
    },
  );
}
