// /api/v1/research: research records (where to look), their index and synchronous creation.
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { categorySchema, countrySchema, dateSchema } from '../../domain/identifiers.js';
import { type ResearchService, researchCreateSchema } from '../../services/research.js';
import {
  researchCreatedSchema,
  researchDetailSchema,
  researchIndexSchema,
  researchRecordSchema,
} from '../response-schemas.js';
import { json, pageOf, problems } from '../responses.js';
import { idempotencyHeaders, noQuery, paginationSchema, partitionParams } from '../schemas.js';
import { API_V1 } from './paths.js';
import { QUEUE_BODY_LIMIT } from './queues.js';

export async function researchRoutes(app: FastifyInstance, deps: { research: ResearchService }) {
  const { research } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['research'],
        summary: 'List research records',
        response: { 200: json(pageOf(researchRecordSchema), 'A page of research records') },
        querystring: paginationSchema.extend({
          country: countrySchema.optional(),
          category: categorySchema.optional(),
          date: dateSchema.optional(),
        }),
      },
    },
    (request) => research.list(request.query),
  );

  r.get(
    '/index',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['research'],
        summary: 'Research index: country → category → dates, with counts',
        response: { 200: json(researchIndexSchema, 'The table of contents') },
      },
    },
    () => research.index(),
  );

  r.get(
    '/:country/:category/:date',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['research'],
        summary: 'One research record, with its sources (paginated by limit/offset)',
        response: {
          200: json(researchDetailSchema, 'The record and a page of its sources'),
          ...problems(404),
        },
        params: partitionParams,
        querystring: paginationSchema,
      },
    },
    (request) => research.detail(request.params, request.query),
  );

  r.post(
    '/',
    {
      bodyLimit: QUEUE_BODY_LIMIT * 2,
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['research'],
        summary: 'Create or merge into a research record, synchronously',
        response: {
          201: json(researchCreatedSchema, 'Ingested; Location names the record'),
          ...problems(422),
        },
        description:
          'With an Idempotency-Key, a retry (after a timeout or a crash) resumes the same claims and answers the same URLs as new.',
        headers: idempotencyHeaders,
        body: researchCreateSchema,
      },
    },
    async (request, reply) => {
      const key = (request.headers['idempotency-key'] as string | undefined) ?? null;
      const created = await research.create(request.body, {
        idempotencyKey: key ? `${request.principal?.name ?? 'anonymous'}:${key}` : null,
      });
      const { country, category, date } = created.record;
      return reply
        .code(201)
        .header('Location', `${API_V1}/research/${country}/${category}/${date}`)
        .send(created);
    },
  );
}
