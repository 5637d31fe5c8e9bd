// /api/v1/metadata: the snapshot for CI, per-country views, sync and its tasks.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { countrySchema } from '../../domain/identifiers.js';
import { TASK_STATUSES } from '../../domain/metadata-tasks.js';
import type { MetadataService } from '../../services/metadata.js';
import { countryMetadataSchema, metadataTaskSchema, snapshotSchema } from '../response-schemas.js';
import { json, pageOf, problems } from '../responses.js';
import { noQuery, paginationSchema } from '../schemas.js';

export async function metadataRoutes(app: FastifyInstance, deps: { metadata: MetadataService }) {
  const { metadata } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/snapshot',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['metadata'],
        summary: 'Full snapshot metadata, for a CI workflow to synchronise',
        response: { 200: json(snapshotSchema, 'The snapshot') },
      },
    },
    () => metadata.snapshot(),
  );

  r.post(
    '/sync',
    {
      config: { scope: 'admin' },
      schema: {
        querystring: noQuery,
        tags: ['metadata'],
        summary: 'Synchronise the snapshot to the configured git repository',
        response: { 202: json(metadataTaskSchema, 'The sync task, queued'), ...problems(409) },
      },
    },
    async (_request, reply) => reply.code(202).send(await metadata.requestSync('api')),
  );

  r.get(
    '/by-country/:country',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['metadata'],
        summary: 'Metadata of one country',
        response: {
          200: json(countryMetadataSchema, 'The country subtree of the snapshot'),
          ...problems(404),
        },
        params: z.object({ country: countrySchema }),
      },
    },
    (request) => metadata.byCountry(request.params.country),
  );

  r.get(
    '/tasks',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['metadata'],
        summary: 'Metadata tasks (snapshot builds and syncs) and their status',
        response: { 200: json(pageOf(metadataTaskSchema), 'A page of tasks, newest first') },
        querystring: paginationSchema.extend({
          status: z.enum(TASK_STATUSES).optional(),
        }),
      },
    },
    (request) => metadata.tasks(request.query),
  );
}
