// /api/v1/seeds: seeds (how to fetch), their review (patch, promote, archive) and orchestration from raw chunks.

import { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SOURCE_TYPES } from '../../domain/domains.js';
import { categorySchema, countrySchema, dateSchema } from '../../domain/identifiers.js';
import { EVIDENCE_FILES } from '../../domain/keys.js';
import { AT_ONCE_LIMIT, archiveSchema, promoteSchema, type SeedAction } from '../../domain/seed-actions.js';
import { EXPORT_FORMATS, EXPORT_MEDIA_TYPES } from '../../domain/seed-export.js';
import {
  aiFilterSchema,
  freshnessFilterSchema,
  healthFilterSchema,
  languageFilterSchema,
  SEED_SORTS,
  SEED_STATUSES,
  seedCreateSchema,
  seedPatchSchema,
  verdictFilterSchema,
} from '../../domain/seeds.js';
import type { EvidenceService } from '../../services/evidence.js';
import type { OrchestrationService } from '../../services/orchestration.js';
import type { SeedActionService } from '../../services/seed-actions.js';
import { exportSeeds } from '../../services/seed-export.js';
import type { SeedService } from '../../services/seeds.js';
import {
  archiveResultSchema,
  batchSchema,
  evidenceListSchema,
  orchestrateResultSchema,
  promoteResultSchema,
  seedSchema,
} from '../response-schemas.js';
import { cursorPageOf, json, problems } from '../responses.js';
import { cursorPaginationSchema, idempotencyHeaders, noQuery, strictQuery } from '../schemas.js';
import { API_V1, batchLocation } from './paths.js';
import { respond } from './queues.js';

const seedParams = z.object({ seedId: z.string().min(1).max(400) });

/** An evidence file is sent as stored, with the media type of its kind. */
const evidenceFile = {
  description: 'The file, as stored',
  content: {
    'text/plain': { schema: z.string().meta({ description: 'robots.txt' }) },
    'application/xml': { schema: z.string().meta({ description: 'sitemap.xml' }) },
    'application/json': {
      schema: z.looseObject({}).meta({ description: 'domain_metadata.json (docs/design.md §4)' }),
    },
  },
};
const seedFilterShape = {
  country: countrySchema.optional(),
  status: z.enum(SEED_STATUSES).optional(),
  source_type: z.enum(SOURCE_TYPES).optional(),
  category: categorySchema.optional(),
  language: languageFilterSchema.optional(),
  ai: aiFilterSchema.optional(),
  freshness: freshnessFilterSchema.optional(),
  health: healthFilterSchema.optional(),
  verdict: verdictFilterSchema.optional(),
};
const seedSortSchema = z.enum(SEED_SORTS).meta({
  description:
    'found: oldest found first; -found: newest found first (ties by seed id, descending); -rate: highest publication rate (items per day) first, unmeasured last. Default: by seed id',
});

/** An export is streamed as written, never through the serialiser: each format with its media type. */
const seedExport = {
  description: 'Every seed matching the filters, streamed in the format asked for',
  content: {
    [EXPORT_MEDIA_TYPES.jsonl]: {
      schema: z
        .string()
        .meta({ description: 'JSON lines: one seed a line, as GET /seeds/{seedId} shows it' }),
    },
    [EXPORT_MEDIA_TYPES.csv]: {
      schema: z.string().meta({ description: 'CSV (RFC 4180) with a header row; lists space-separated' }),
    },
    [EXPORT_MEDIA_TYPES.opml]: {
      schema: z.string().meta({ description: 'OPML 2.0: one rss outline per main feed of each seed' }),
    },
  },
};

export const orchestrateSchema = z
  .object({
    country: countrySchema,
    category: categorySchema,
    date: dateSchema,
    force: z.boolean().default(false),
  })
  .strict()
  .meta({ id: 'OrchestrateRequest' });

export async function seedRoutes(
  app: FastifyInstance,
  deps: {
    seeds: SeedService;
    seedActions: SeedActionService;
    orchestration: OrchestrationService;
    evidence: EvidenceService;
    clock: () => Date;
  },
) {
  const { seeds, seedActions, orchestration, evidence, clock } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  /** Done at once (200, per seed), or a batch (202 and its Location): docs/api.md, "Promote and archive". */
  const moveRoute =
    (action: SeedAction) =>
    async (
      request: {
        body: unknown;
        headers: Record<string, unknown>;
        principal?: { name: string } | null;
        routeOptions: { url?: string };
      },
      reply: FastifyReply,
    ) => {
      const key = request.headers['idempotency-key'] as string | undefined;
      const author = request.principal?.name ?? 'anonymous';
      const outcome = await seedActions.run(action, request.body as Parameters<SeedActionService['run']>[1], {
        idempotencyKey: key ? `${author}:${request.routeOptions.url}:${key}` : null,
        author,
      });
      if (outcome.kind === 'answer') return reply.code(200).send(outcome.answer);
      return respond(reply, outcome.batch, outcome.created);
    };
  const batchAnswer = json(
    batchSchema,
    'More seeds than one request moves, or an Idempotency-Key: a batch, named by Location',
  );

  r.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['seeds'],
        summary: 'List seeds',
        response: { 200: json(cursorPageOf(seedSchema), 'A page of seeds') },
        querystring: cursorPaginationSchema.extend({ ...seedFilterShape, sort: seedSortSchema.optional() }),
      },
    },
    (request) => seeds.list(request.query),
  );

  r.get(
    '/export',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['seeds'],
        summary: 'Export the seeds matching the list filters as JSON lines, CSV or OPML (streamed)',
        response: { 200: seedExport },
        querystring: strictQuery({
          format: z
            .enum(EXPORT_FORMATS)
            .default('jsonl')
            .meta({ description: 'jsonl (default), csv or opml' }),
          ...seedFilterShape,
        }),
      },
    },
    async (request, reply) => {
      const { format, ...filter } = request.query;
      const stamp = clock().toISOString().slice(0, 10);
      return (
        reply
          .type(`${EXPORT_MEDIA_TYPES[format]}; charset=utf-8`)
          .header('content-disposition', `attachment; filename="seeds-${stamp}.${format}"`)
          // Streamed as written: the declaration above documents it; the serialiser never sees it.
          .send(Readable.from(exportSeeds(seeds, format, filter, clock)) as unknown as string)
      );
    },
  );

  r.get(
    '/:seedId',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['seeds'],
        summary: 'Retrieve one seed',
        response: { 200: json(seedSchema, 'The seed'), ...problems(404) },
        params: seedParams,
      },
    },
    (request) => seeds.get(request.params.seedId),
  );

  r.get(
    '/:seedId/evidence',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['seeds'],
        summary: "The evidence files stored by the contract run the seed's contract came from",
        response: { 200: json(evidenceListSchema, 'The files, and where they are stored'), ...problems(404) },
        params: seedParams,
      },
    },
    (request) => evidence.list(request.params.seedId),
  );

  r.get(
    '/:seedId/evidence/:name',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['seeds'],
        summary: 'One evidence file, streamed as stored',
        response: { 200: evidenceFile, ...problems(404) },
        params: seedParams.extend({ name: z.enum(EVIDENCE_FILES) }),
      },
    },
    async (request, reply) => {
      const file = await evidence.open(request.params.seedId, request.params.name);
      // Third-party content served from our origin: never sniffed, never run as a page.
      return (
        reply
          .type(file.contentType)
          .header('content-length', file.bytes)
          .header('x-content-type-options', 'nosniff')
          .header('content-security-policy', "default-src 'none'; sandbox")
          // A stream goes out as stored, never through the serialiser; the schema documents what it holds.
          .send(file.stream as unknown as string)
      );
    },
  );

  r.post(
    '/',
    {
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['seeds'],
        summary: 'Create a seed in draft status',
        response: { 201: json(seedSchema, 'Created as a draft; Location names the seed'), ...problems(409) },
        body: seedCreateSchema,
      },
    },
    async (request, reply) => {
      const seed = await seeds.create(request.body, request.principal?.name ?? 'anonymous');
      return reply
        .code(201)
        .header('Location', `${API_V1}/seeds/${encodeURIComponent(seed.seed_id)}`)
        .send(seed);
    },
  );

  r.patch(
    '/:seedId',
    {
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['seeds'],
        summary: 'Modify a seed',
        response: { 200: json(seedSchema, 'The seed as modified'), ...problems(404, 409) },
        params: seedParams,
        body: seedPatchSchema,
      },
    },
    (request) => seeds.patch(request.params.seedId, request.body, request.principal?.name ?? 'anonymous'),
  );

  r.post(
    '/promote',
    {
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['seeds'],
        summary: `Promote draft seeds to active: explicit ids, or every draft a filter matches (a batch past ${AT_ONCE_LIMIT})`,
        response: {
          200: json(promoteResultSchema, 'Done at once: promoted or skipped, per seed'),
          202: batchAnswer,
          ...problems(422),
        },
        body: promoteSchema,
        headers: idempotencyHeaders,
      },
    },
    moveRoute('promote'),
  );

  r.post(
    '/archive',
    {
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['seeds'],
        summary: `Archive seeds: explicit ids, or every seed a filter matches (a batch past ${AT_ONCE_LIMIT})`,
        response: {
          200: json(archiveResultSchema, 'Done at once: archived or skipped, per seed'),
          202: batchAnswer,
          ...problems(422),
        },
        body: archiveSchema,
        headers: idempotencyHeaders,
      },
    },
    moveRoute('archive'),
  );

  r.post(
    '/orchestrate',
    {
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['seeds'],
        summary: 'List raw chunks of a partition and put one SEED_QUEUE message per unprocessed file',
        response: {
          202: json(orchestrateResultSchema, 'Accepted; Location names the batch'),
          ...problems(422),
        },
        body: orchestrateSchema,
        headers: idempotencyHeaders,
      },
    },
    async (request, reply) => {
      const key = request.headers['idempotency-key'] as string | undefined;
      const result = await orchestration.orchestrate(request.body, {
        idempotencyKey: key ? `${request.principal?.name ?? 'anonymous'}:orchestrate:${key}` : null,
      });
      const { created, ...body } = result;
      if (!created) reply.header('Idempotent-Replayed', 'true');
      return reply.code(202).header('Location', batchLocation(result.batchId)).send(body);
    },
  );
}
