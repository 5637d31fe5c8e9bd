// /api/v1/candidates: the sites discovery found (or a person imported) that are not seeds — list, one with its
// evidence, accept into draft seeds, reject with a reason, and import a list as a gap report. POST
// /api/v1/queues/discovery (a discovery batch) is registered with the other queues, from here.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  IMPORT_FORMATS,
  importFormatOf,
  MAX_IMPORT_ENTRIES,
  readImport,
} from '../../domain/candidate-import.js';
import {
  acceptRequestSchema,
  CANDIDATE_STATES,
  candidateFilterShape,
  candidateSchema,
  discoveryRequestSchema,
  rejectRequestSchema,
} from '../../domain/candidates.js';
import { ValidationError } from '../../domain/errors.js';
import { countrySchema } from '../../domain/identifiers.js';
import type { CandidateService } from '../../services/candidates/index.js';
import type { DiscoveryService } from '../../services/discovery.js';
import { assertUtf8Charset, decodeUtf8 } from '../body-encoding.js';
import { batchSchema } from '../response-schemas.js';
import { cursorPageOf, json, problems } from '../responses.js';
import { cursorPaginationSchema, idempotencyHeaders, noQuery, strictQuery } from '../schemas.js';
import { respond } from './queues.js';

/** An imported list of 10,000 lines of long URLs fits. */
const IMPORT_BODY_LIMIT = 16 * 1024 * 1024;

const domainParams = z.object({ domain: z.string().min(1).max(253) });

const acceptResultSchema = z
  .object({
    results: z.array(
      z.object({
        domain: z.string(),
        result: z.enum(['accepted', 'skipped']),
        seed_id: z.string().optional(),
        reason: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'CandidateAcceptResult' });

const rejectResultSchema = z
  .object({
    results: z.array(
      z.object({
        domain: z.string(),
        result: z.enum(['rejected', 'skipped']),
        reason: z.string().optional(),
      }),
    ),
  })
  .meta({ id: 'CandidateRejectResult' });

const IMPORT_OUTCOMES = ['new', 'candidate', 'seed', 'platform', 'invalid'] as const;
const importResultSchema = z
  .object({
    format: z.enum(IMPORT_FORMATS),
    summary: z.record(z.enum(IMPORT_OUTCOMES), z.number().int()),
    results: z.array(
      z.object({
        line: z.number().int(),
        input: z.string(),
        domain: z.string().nullable(),
        result: z.enum(IMPORT_OUTCOMES),
        state: z.enum(CANDIDATE_STATES).optional(),
        seed_ids: z.array(z.string()).optional(),
        reason: z.string().optional(),
      }),
    ),
  })
  .meta({
    id: 'CandidateImportResult',
    description: 'Per line: already a seed, already a candidate, or new',
  });

const importQuery = strictQuery({
  source: z.string().trim().min(1).max(100).default('import').meta({ description: 'A label for the list' }),
  country: countrySchema.default('intl').meta({ description: 'The country its new candidates are for' }),
});

/** The key of a discovery batch's Idempotency-Key: one per caller and route, as for the other queues. */
function idempotencyKey(request: FastifyRequest): string | null {
  const key = request.headers['idempotency-key'] as string | undefined;
  return key ? `${request.principal?.name ?? 'anonymous'}:${request.routeOptions.url}:${key}` : null;
}

export async function discoveryQueueRoutes(app: FastifyInstance, deps: { discovery: DiscoveryService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.post(
    '/discovery',
    {
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['queues'],
        summary:
          'Create a discovery batch: read a country’s seeds for links, then qualify the candidates found',
        response: { 202: json(batchSchema, 'Accepted; Location names the batch'), ...problems(422) },
        body: discoveryRequestSchema,
        headers: idempotencyHeaders,
      },
    },
    async (request, reply) => {
      const { batch, created } = await deps.discovery.create(request.body, idempotencyKey(request));
      return respond(reply, batch, created);
    },
  );
}

export async function candidateRoutes(app: FastifyInstance, deps: { candidates: CandidateService }) {
  const { candidates } = deps;
  const r = app.withTypeProvider<ZodTypeProvider>();

  // A list comes as text in one of the import formats; the content type names which.
  app.addContentTypeParser(
    [
      'application/x-ndjson',
      'application/jsonl',
      'application/x-jsonlines',
      'text/csv',
      'text/x-opml',
      'application/xml',
      'text/xml',
      'text/plain',
    ],
    { parseAs: 'buffer', bodyLimit: IMPORT_BODY_LIMIT },
    (request: FastifyRequest, body: string | Buffer, done) => {
      try {
        assertUtf8Charset(request.headers['content-type']);
        done(null, typeof body === 'string' ? body : decodeUtf8(body));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );

  r.get(
    '/',
    {
      config: { scope: 'read' },
      schema: {
        tags: ['candidates'],
        summary: 'List candidates: sites seen that are not seeds',
        querystring: cursorPaginationSchema.extend(candidateFilterShape),
        response: { 200: json(cursorPageOf(candidateSchema), 'A page of candidates') },
      },
    },
    (request) => candidates.list(request.query),
  );

  r.get(
    '/:domain',
    {
      config: { scope: 'read' },
      schema: {
        querystring: noQuery,
        tags: ['candidates'],
        summary: 'One candidate with its evidence: verdict, country guess and who cites it',
        params: domainParams,
        response: { 200: json(candidateSchema, 'The candidate'), ...problems(404) },
      },
    },
    (request) => candidates.get(request.params.domain),
  );

  r.post(
    '/accept',
    {
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['candidates'],
        summary: 'Accept candidates: draft seeds built from their qualification, one answer per domain',
        body: acceptRequestSchema,
        response: { 200: json(acceptResultSchema, 'One answer per domain') },
      },
    },
    (request) => candidates.accept(request.body, request.principal?.name ?? 'anonymous'),
  );

  r.post(
    '/reject',
    {
      config: { scope: 'write' },
      schema: {
        querystring: noQuery,
        tags: ['candidates'],
        summary: 'Reject candidates with a reason; they are never proposed again',
        body: rejectRequestSchema,
        response: { 200: json(rejectResultSchema, 'One answer per domain') },
      },
    },
    (request) => candidates.reject(request.body, request.principal?.name ?? 'anonymous'),
  );

  r.post(
    '/import',
    {
      bodyLimit: IMPORT_BODY_LIMIT,
      config: { scope: 'write' },
      schema: {
        tags: ['candidates'],
        summary: `Import a list (JSON lines, CSV, OPML or plain lines; at most ${MAX_IMPORT_ENTRIES.toLocaleString('en')}): which of these sources the directory is missing`,
        querystring: importQuery,
        response: { 200: json(importResultSchema, 'One answer per line'), ...problems(415) },
      },
    },
    async (request) => {
      const format = importFormatOf(request.headers['content-type']);
      if (format === null || typeof request.body !== 'string')
        throw ValidationError.field('body', 'send application/x-ndjson, text/csv, text/x-opml or text/plain');
      const entries = readImport(format, request.body);
      const answer = await candidates.importList(entries, request.query);
      return { format, ...answer };
    },
  );
}
