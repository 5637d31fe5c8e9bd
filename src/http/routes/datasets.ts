// /api/v1/datasets: raw dataset chunks (EnhancedResearchDataset) by country/category/date/chunk.
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { enhancedResearchDatasetSchema } from '../../domain/dataset.js';
import { categorySchema, countrySchema } from '../../domain/identifiers.js';
import type { DatasetService } from '../../services/datasets.js';
import {
  createUploadSlots,
  removeSpool,
  type SpooledDataset,
  spoolDataset,
  spooledBody,
} from '../dataset-upload.js';
import { problem, sendProblem } from '../errors.js';
import {
  datasetChunkSchema,
  datasetPartitionSchema,
  datasetStatsSchema,
  partitionChunksSchema,
  storedDatasetSchema,
} from '../response-schemas.js';
import { empty, json, pageOf, problems } from '../responses.js';
import {
  chunkParams,
  noQuery,
  paginationSchema,
  partitionParams,
  streamedBodyValidator,
} from '../schemas.js';
import { API_V1 } from './paths.js';

const UPLOAD_RETRY_AFTER_SECONDS = 5;
/** Uploads declared at most this large need no slot (SEEDBED_MAX_CONCURRENT_UPLOADS counts larger ones). */
export const SMALL_UPLOAD_BYTES = 1024 * 1024;

function isSpooled(body: unknown): body is SpooledDataset {
  return typeof body === 'object' && body !== null && 'recordsPath' in body && 'dir' in body;
}

/** Reading and deleting chunks; the upload is datasetUploadRoutes, a plugin of its own. */
export async function datasetRoutes(app: FastifyInstance, deps: { datasets: DatasetService }) {
  const { datasets } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
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
    '/stats',
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
    '/:country/:category/:date',
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
    '/:country/:category/:date/:chunk',
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

  r.delete(
    '/:country/:category/:date/:chunk',
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

/**
 * The upload reads its own body (a stream, never the whole dataset in memory): its own JSON parser in a plugin
 * of its own, and its body schema kept for the OpenAPI document only (the spool checked it).
 */
export async function datasetUploadRoutes(
  app: FastifyInstance,
  deps: {
    datasets: DatasetService;
    maxDatasetBytes: number;
    maxConcurrentUploads: number;
    /** Where uploads are spooled; the system temporary directory by default. */
    uploadTmpDir?: string;
  },
) {
  const { datasets } = deps;
  const slots = createUploadSlots(deps.maxConcurrentUploads);
  const releases = new WeakMap<FastifyRequest, () => void>();
  const release = (request: FastifyRequest) => releases.get(request)?.();
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', (request: FastifyRequest, payload: unknown) =>
    spoolDataset(request, payload as Readable, {
      limit: deps.maxDatasetBytes,
      ...(deps.uploadTmpDir ? { tmpDir: deps.uploadTmpDir } : {}),
    }),
  );
  // A hook of the route, not of this plugin: auth (a route hook too, first) refuses a request without a
  // valid key before it can take a slot.
  const claimUploadSlot = async (request: FastifyRequest, reply: FastifyReply) => {
    // A small body costs little whatever the number; a large one, or one of unknown length, takes a slot.
    const declared = Number(request.headers['content-length'] ?? Number.NaN);
    if (declared <= SMALL_UPLOAD_BYTES) return;
    const slot = slots.tryAcquire();
    if (!slot) {
      // Closing the connection spares reading a body that would only be thrown away.
      reply.header('retry-after', String(UPLOAD_RETRY_AFTER_SECONDS)).header('connection', 'close');
      return sendProblem(
        reply,
        problem(
          503,
          'uploads_busy',
          `${deps.maxConcurrentUploads} dataset uploads are in progress (SEEDBED_MAX_CONCURRENT_UPLOADS); retry after ${UPLOAD_RETRY_AFTER_SECONDS} s`,
        ),
      );
    }
    releases.set(request, slot);
  };
  const finish = async (request: FastifyRequest) => {
    release(request);
    if (isSpooled(request.body)) await removeSpool(request.body);
  };
  app.addHook('onResponse', finish);
  app.addHook('onRequestAbort', finish);

  app.withTypeProvider<ZodTypeProvider>().post(
    '/',
    {
      bodyLimit: deps.maxDatasetBytes,
      config: { scope: 'write' },
      onRequest: claimUploadSlot,
      validatorCompiler: streamedBodyValidator,
      schema: {
        querystring: noQuery,
        tags: ['datasets'],
        summary: 'Store a dataset as a new immutable chunk',
        response: {
          201: json(datasetChunkSchema, 'Stored; Location names the chunk'),
          ...problems(409, 422, 503),
        },
        body: enhancedResearchDatasetSchema,
      },
    },
    async (request, reply) => {
      const spooled = request.body as unknown as SpooledDataset;
      const stored = await datasets.storeSerialized(spooled.meta, spooled.recordCount, (meta) =>
        spooledBody(spooled, meta),
      );
      return reply
        .code(201)
        .header(
          'Location',
          `${API_V1}/datasets/${stored.country}/${stored.category}/${stored.date}/${stored.chunk}`,
        )
        .send(stored);
    },
  );
}
