// Health and root: /health, /health/ready, /health/live and the JSON summary at /.
import type { FastifyInstance } from 'fastify';
import type { HealthService } from '../../services/health.js';
import {
  apiSummarySchema,
  healthSchema,
  processLivenessSchema,
  readinessSchema,
} from '../response-schemas.js';
import { json } from '../responses.js';
import { noQuery } from '../schemas.js';

export async function healthRoutes(
  app: FastifyInstance,
  deps: {
    health: HealthService;
    name: string;
    version: string;
    endpoints: () => Array<{ method: string; path: string }>;
    healthBody: () => string;
  },
) {
  const { health } = deps;
  const publicRoute = { rateLimit: false } as const;

  app.get(
    '/health',
    {
      config: publicRoute,
      schema: {
        querystring: noQuery,
        tags: ['health'],
        summary: 'Service status',
        response: { 200: json(healthSchema, 'The service answers') },
      },
    },
    // The HTTP server answers a plain GET /health itself, before the router (src/http/health-fast-path.ts); this
    // route answers the rest (a HEAD, a trailing slash, inject in tests) with the same text. It is sent as JSON
    // text rather than checked against its schema on every call: the answer is a constant and the clock, the
    // schema documents it and the API tests check real answers against it (docs/profiles.md).
    (_request, reply) => reply.type('application/json; charset=utf-8').send(deps.healthBody()),
  );

  app.get(
    '/health/ready',
    {
      config: publicRoute,
      schema: {
        querystring: noQuery,
        tags: ['health'],
        summary: 'Whether the service can receive traffic',
        response: {
          200: json(readinessSchema, 'Ready: every dependency answers'),
          503: json(readinessSchema, 'Not ready: the failing checks say which'),
        },
      },
    },
    async (_request, reply) => {
      const readiness = await health.ready();
      return reply.code(readiness.status === 'ready' ? 200 : 503).send(readiness);
    },
  );

  app.get(
    '/health/live',
    {
      config: publicRoute,
      schema: {
        querystring: noQuery,
        tags: ['health'],
        summary: 'Whether the process is alive',
        response: { 200: json(processLivenessSchema, 'The process runs') },
      },
    },
    async () => ({
      status: 'alive',
      timestamp: new Date().toISOString(),
      uptime_seconds: Math.round(process.uptime()),
    }),
  );

  app.get(
    '/',
    {
      config: publicRoute,
      schema: {
        querystring: noQuery,
        tags: ['health'],
        summary: 'API summary',
        response: { 200: json(apiSummarySchema, 'Name, version, docs and every endpoint') },
      },
    },
    async () => ({
      name: deps.name,
      version: deps.version,
      docs: '/docs',
      openapi: '/openapi.json',
      endpoints: deps.endpoints(),
    }),
  );
}
