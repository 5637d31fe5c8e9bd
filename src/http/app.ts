// The Fastify application: validation through the shared zod schemas, OpenAPI from those schemas,
// auth, rate limits, metrics and the single error mapping. The routes are plugins of src/http/routes: the API
// (routes/api.ts) and the review page under /ui (routes/ui/index.ts).
import { createHash } from 'node:crypto';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, LogController } from 'fastify';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics.js';
import type { ApiKeyService } from '../services/api-keys.js';
import type { BatchService } from '../services/batches.js';
import type { CandidateService } from '../services/candidates/index.js';
import type { ChangeService } from '../services/changes.js';
import type { DatasetService } from '../services/datasets.js';
import type { DiscoveryService } from '../services/discovery.js';
import type { EvidenceService } from '../services/evidence.js';
import type { HealthService } from '../services/health.js';
import type { LivenessService } from '../services/liveness.js';
import type { MetadataService } from '../services/metadata.js';
import type { OrchestrationService } from '../services/orchestration.js';
import type { RecheckService } from '../services/recheck.js';
import type { ResearchService } from '../services/research.js';
import type { SeedActionService } from '../services/seed-actions.js';
import type { SeedService } from '../services/seeds.js';
import { registerAuth } from './auth.js';
import { answerAfterDrain } from './body-drain.js';
import { createClientErrorHandler, MAX_HEADER_BYTES } from './client-errors.js';
import { problem, sendProblem, toProblem } from './errors.js';
import { createHealthFastPath } from './health-fast-path.js';
import { registerJsonBodyParser } from './json-body.js';
import { openApiTransformObject } from './openapi-document.js';
import { apiRoutes } from './routes/api.js';
import { uiRoutes } from './routes/ui/index.js';
import { noQuery } from './schemas.js';
import { refuseUnstorableParameters } from './text-guard.js';

export interface HttpDeps {
  name: string;
  version: string;
  logger: Logger;
  metrics: Metrics;
  auth: { keys: ApiKeyService; open: boolean };
  limits: {
    requestTimeoutMs: number;
    rateLimitPerMinute: number;
    maxDatasetBytes: number;
    maxConcurrentUploads: number;
    maxImportBytes: number;
  };
  services: {
    health: HealthService;
    batches: BatchService;
    datasets: DatasetService;
    research: ResearchService;
    seeds: SeedService;
    orchestration: OrchestrationService;
    metadata: MetadataService;
    liveness: LivenessService;
    evidence: EvidenceService;
    changes: ChangeService;
    recheck: RecheckService;
    candidates: CandidateService;
    discovery: DiscoveryService;
    seedActions: SeedActionService;
  };
  today: () => string;
  /** When an export says it was made. */
  clock: () => Date;
}

const DEFAULT_BODY_LIMIT = 1024 * 1024;

export async function buildHttpApp(deps: HttpDeps): Promise<FastifyInstance> {
  let closing = false;
  const healthFastPath = createHealthFastPath({
    version: deps.version,
    closing: () => closing,
    answered: () => deps.metrics.countHealthAnswer(),
  });
  const app: FastifyInstance = Fastify({
    serverFactory: healthFastPath.serverFactory,
    loggerInstance: deps.logger as FastifyBaseLogger,
    bodyLimit: DEFAULT_BODY_LIMIT,
    requestTimeout: deps.limits.requestTimeoutMs,
    connectionTimeout: deps.limits.requestTimeoutMs,
    // Requests are counted in metrics; per-request log lines would double the cost of a cheap request.
    logController: new LogController({ disableRequestLogging: true }),
    onProtoPoisoning: 'error',
    onConstructorPoisoning: 'error',
    // Errors Fastify raises before routing (bad percent-encoding, over-long parameters) are problems too.
    frameworkErrors: (error, request, reply) => sendProblem(reply, toProblem(error, request)),
    // What the HTTP parser refuses is a problem too (client-errors.ts); a missing Host is refused below
    // rather than by Node, which would answer an empty 400.
    clientErrorHandler: createClientErrorHandler(() => app.log),
    http: { requireHostHeader: false, maxHeaderSize: MAX_HEADER_BYTES },
    // Fastify's own 503 while closing is not problem+json: the closing hook below answers instead.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 500 },
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  registerJsonBodyParser(app);

  app.addHook('preClose', async () => {
    closing = true;
  });
  // The hooks every request runs are plain callbacks, not async functions: a promise per hook per request was
  // a measurable share of a cheap request (docs/profiles.md). Answering from a callback hook means sending
  // and not calling done.
  app.addHook('onRequest', (request, reply, done) => {
    if (closing) {
      reply.header('connection', 'close').header('retry-after', '5');
      sendProblem(reply, problem(503, 'shutting_down', 'the service is shutting down; retry shortly'));
      return;
    }
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400; the socket closes with the answer.
    if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
      reply.header('connection', 'close');
      sendProblem(reply, problem(400, 'missing_host', 'an HTTP/1.1 request needs a Host header'));
      return;
    }
    done();
  });

  const endpoints: Array<{ method: string; path: string }> = [];
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (route.url.startsWith('/docs') || route.url.startsWith('/ui') || route.url === '/openapi.json') return;
    for (const method of methods) if (method !== 'HEAD') endpoints.push({ method, path: route.url });
  });

  app.setErrorHandler((error, request, reply) => {
    const body = toProblem(error as Error, request);
    // A body over the limit: read the rest (bounded) first, so the client sees the 413, not a broken pipe.
    if (body.status === 413) return answerAfterDrain(request, reply, () => sendProblem(reply, body));
    return sendProblem(reply, body);
  });
  app.setNotFoundHandler((request, reply) =>
    sendProblem(reply, problem(404, 'not_found', `no route ${request.method} ${request.url.split('?')[0]}`)),
  );

  app.addHook('onResponse', (request, reply, done) => {
    const route = request.routeOptions.url ?? 'unmatched';
    deps.metrics.observeRequest(request.method, route, reply.statusCode, reply.elapsedTime / 1000);
    if (reply.statusCode >= 500)
      request.log.error({ method: request.method, route, status: reply.statusCode }, 'request failed');
    done();
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Seedbed API',
        version: deps.version,
        description: 'News-source discovery: research, liveness, seed contracts, raw datasets and metadata.',
      },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: openApiTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(rateLimit, {
    max: deps.limits.rateLimitPerMinute,
    timeWindow: 60_000,
    // Per key when one is sent (hashed, never logged), per client address otherwise.
    keyGenerator: (request) => {
      const auth = request.headers.authorization;
      return auth
        ? `key:${createHash('sha256').update(auth).digest('hex').slice(0, 24)}`
        : `ip:${request.ip}`;
    },
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      message: `rate limit of ${context.max} requests per minute exceeded; retry in ${Math.ceil(context.ttl / 1000)} s`,
    }),
  });

  const authenticator = registerAuth(app, deps.auth.keys, {
    open: deps.auth.open,
    onOpenModeEnded: () =>
      deps.logger.info('an API key now exists: open mode has ended, every request needs a key'),
  });

  // Before every route's schema: a NUL or lone surrogate in a query or path parameter is a 400 naming it.
  app.addHook('preValidation', refuseUnstorableParameters);

  const { services } = deps;
  await app.register(apiRoutes, {
    healthBody: healthFastPath.body,
    name: deps.name,
    version: deps.version,
    limits: deps.limits,
    services,
    today: deps.today,
    clock: deps.clock,
    endpoints: () => endpoints,
  });
  await app.register(uiRoutes, { prefix: '/ui', authenticator, services, clock: deps.clock });

  app.get(
    '/openapi.json',
    { config: { rateLimit: false }, schema: { hide: true, querystring: noQuery } },
    async () => app.swagger(),
  );
  app.get(
    '/metrics',
    { config: { scope: 'read' }, schema: { hide: true, querystring: noQuery } },
    async (_request, reply) =>
      reply.type(deps.metrics.registry.contentType).send(await deps.metrics.registry.metrics()),
  );

  return app;
}
