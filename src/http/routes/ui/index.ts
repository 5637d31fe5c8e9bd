// The review page at /ui (docs/design.md §10): server-rendered HTML over the services, in its own encapsulated plugin
// so its form parser, error pages, session check and Content-Security-Policy stay on /ui and off the API.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError } from '../../../domain/errors.js';
import type { BatchService } from '../../../services/batches.js';
import type { ChangeService } from '../../../services/changes.js';
import type { EvidenceService } from '../../../services/evidence.js';
import type { LivenessService } from '../../../services/liveness.js';
import type { SeedService } from '../../../services/seeds.js';
import type { Authenticator } from '../../auth.js';
import { toProblem } from '../../errors.js';
import { APP_CSS, APP_JS } from './assets.js';
import { batchRoutes } from './batches.js';
import { changeRoutes } from './changes.js';
import { dashboardRoutes } from './dashboard.js';
import { html } from './html.js';
import { page } from './layout.js';
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
    batches: BatchService;
    evidence: EvidenceService;
    liveness: LivenessService;
    changes: ChangeService;
  };
}

/** Paths served to anyone: the sign-in form and the page's own files. */
const PUBLIC = new Set(['/ui/login', '/ui/assets/app.js', '/ui/assets/app.css']);
const FORM_LIMIT = 256 * 1024;

function htmlPage(
  reply: FastifyReply,
  request: FastifyRequest,
  status: number,
  title: string,
  message: string,
) {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .send(
      page({
        title,
        principal: request.principal,
        body: html`<p class="error" role="alert">${message}</p><p><a href="/ui">Back to the dashboard</a></p>`,
      }),
    );
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
      return htmlPage(
        reply,
        request,
        403,
        'Refused',
        'This form was not sent from this site (Origin check).',
      );
    if (PUBLIC.has(path)) return;
    const principal = await uiPrincipal(request, authenticator);
    if (!principal) {
      if (request.method === 'GET')
        return reply.redirect(`/ui/login?next=${encodeURIComponent(request.url)}`, 303);
      return htmlPage(
        reply,
        request,
        401,
        'Sign in',
        'Your key is missing or no longer valid: sign in again.',
      );
    }
    request.principal = principal;
  });

  app.setErrorHandler((error, request, reply) => {
    const problem = toProblem(error as Error, request);
    return htmlPage(reply, request, problem.status, problem.title, problem.detail);
  });

  app.get('/ui/assets/app.js', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/javascript; charset=utf-8').header('cache-control', 'public, max-age=300').send(APP_JS),
  );
  app.get('/ui/assets/app.css', { schema: { hide: true } }, (_request, reply) =>
    reply.type('text/css; charset=utf-8').header('cache-control', 'public, max-age=300').send(APP_CSS),
  );

  loginRoutes(app, { authenticator });
  dashboardRoutes(app, { ...services, clock: options.clock });
  batchRoutes(app, { batches: services.batches });
  seedListRoutes(app, { seeds: services.seeds });
  seedActionRoutes(app, { seeds: services.seeds });
  seedEditRoutes(app, { seeds: services.seeds });
  seedPageRoutes(app, services);
  revisionRoutes(app, { revisions: services.seeds.revisions });
  changeRoutes(app, { changes: services.changes });
  // An unknown page under /ui is an HTML 404 (after the key check), not the API's problem+json.
  app.get('/ui/*', { schema: { hide: true } }, async (request) => {
    throw new NotFoundError(`no page ${request.url.split('?')[0]}`);
  });
}
