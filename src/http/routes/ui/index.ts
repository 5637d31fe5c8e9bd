// The review page at /ui (docs/design.md §10): server-rendered HTML over the services, in its own encapsulated plugin
// so its form parser, error pages, session check and Content-Security-Policy stay on /ui and off the API.
import type { FastifyInstance, FastifyReply } from 'fastify';
import { NotFoundError } from '../../../domain/errors.js';
import type { BatchService } from '../../../services/batches.js';
import type { CandidateService } from '../../../services/candidates/index.js';
import type { ChangeService } from '../../../services/changes.js';
import type { EvidenceService } from '../../../services/evidence.js';
import type { LivenessService } from '../../../services/liveness.js';
import type { SeedActionService } from '../../../services/seed-actions.js';
import type { SeedService } from '../../../services/seeds.js';
import type { Authenticator } from '../../auth.js';
import { toProblem } from '../../errors.js';
import { APP_CSS, APP_JS } from './assets.js';
import { batchRoutes } from './batches.js';
import { candidateActionRoutes } from './candidate-actions.js';
import { candidateListRoutes } from './candidate-list.js';
import { candidatePageRoutes } from './candidate-page.js';
import { changeRoutes } from './changes.js';
import { dashboardRoutes } from './dashboard.js';
import { html } from './html.js';
import { sendHtml } from './layout.js';
import { loginRoutes } from './login.js';
import { seedActionRoutes } from './seed-actions.js';
import { seedEditRoutes } from './seed-edit.js';
import { seedListRoutes } from './seed-list.js';
import { seedPageRoutes } from './seed-page.js';
import { revisionRoutes } from './seed-revisions.js';
import { sameOrigin, UI_CSP, uiPrincipal } from './session.js';

export interface UiOptions {
  authenticator: Authenticator;
  clock: () => Date;
  services: {
    seeds: SeedService;
    seedActions: SeedActionService;
    batches: BatchService;
    evidence: EvidenceService;
    liveness: LivenessService;
    changes: ChangeService;
    candidates: CandidateService;
  };
}

/** Paths served to anyone: the sign-in form and the page's own files. */
const PUBLIC = new Set(['/ui/login', '/ui/assets/app.js', '/ui/assets/app.css']);
const FORM_LIMIT = 256 * 1024;

function errorPage(reply: FastifyReply, status: number, title: string, message: string) {
  const body = html`<p class="error" role="alert">${message}</p><p><a href="/ui">Back to the dashboard</a></p>`;
  return sendHtml(reply, { title, body }, status);
}

export async function uiRoutes(app: FastifyInstance, options: UiOptions): Promise<void> {
  const { authenticator, services } = options;

  // Forms post urlencoded; a repeated name (the selected seeds) becomes a list.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: FORM_LIMIT },
    (_request, body, done) => {
      const form: Record<string, string | string[]> = {};
      for (const [key, value] of new URLSearchParams(body as string)) {
        const seen = form[key];
        form[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
      }
      done(null, form);
    },
  );

  app.addHook('onSend', async (_request, reply, payload) => {
    // The evidence route sets its own sandboxing policy; everything else gets the page's.
    if (!reply.hasHeader('content-security-policy')) reply.header('content-security-policy', UI_CSP);
    reply.header('x-content-type-options', 'nosniff');
    reply.header('referrer-policy', 'same-origin');
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('cache-control')) reply.header('cache-control', 'no-store');
    return payload;
  });

  app.addHook('onRequest', async (request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    if (request.method === 'POST' && !sameOrigin(request))
      return errorPage(reply, 403, 'Refused', 'This form was not sent from this site (Origin check).');
    if (PUBLIC.has(path)) return;
    const principal = await uiPrincipal(request, authenticator);
    if (!principal) {
      if (request.method === 'GET')
        return reply.redirect(`/ui/login?next=${encodeURIComponent(request.url)}`, 303);
      return errorPage(reply, 401, 'Sign in', 'Your key is missing or no longer valid: sign in again.');
    }
    request.principal = principal;
  });

  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error as Error, request);
    return errorPage(reply, problem.status, problem.title, problem.detail);
  });

  app.get('/assets/app.js', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(APP_JS),
  );
  app.get('/assets/app.css', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(APP_CSS),
  );

  // Each part of the page is a plugin under its own prefix; it inherits the hooks, parser and error pages above.
  await app.register(loginRoutes, { authenticator });
  await app.register(dashboardRoutes, { ...services, clock: options.clock });
  await app.register(batchRoutes, { prefix: '/batches', batches: services.batches });
  await app.register(seedListRoutes, { prefix: '/seeds', seeds: services.seeds });
  await app.register(seedActionRoutes, {
    prefix: '/seeds',
    seeds: services.seeds,
    seedActions: services.seedActions,
  });
  await app.register(seedEditRoutes, { prefix: '/seeds', seeds: services.seeds });
  await app.register(seedPageRoutes, { prefix: '/seeds', ...services });
  await app.register(revisionRoutes, { prefix: '/seeds', revisions: services.seeds.revisions });
  await app.register(changeRoutes, { prefix: '/changes', changes: services.changes });
  const { candidates } = services;
  await app.register(candidateListRoutes, { prefix: '/candidates', candidates });
  await app.register(candidateActionRoutes, { prefix: '/candidates', candidates });
  await app.register(candidatePageRoutes, { prefix: '/candidates', candidates });
  // An unknown page under /ui is an HTML 404 (after the key check), not the API's problem+json.
  app.get('/*', { schema: { hide: true } }, async (request) => {
    throw new NotFoundError(`no page ${request.url.split('?')[0]}`);
  });
}
