// What every operation answers besides its own results, added in one place when a route is registered: the
// problems that come from the request pipeline (bad query string, auth, rate limit, body parsing, a bug), and
// the security requirement in the OpenAPI document (none for public operations).
import type { FastifyInstance, RouteOptions } from 'fastify';
import { problems } from './responses.js';

type Schema = NonNullable<RouteOptions['schema']> & {
  response?: Record<string, unknown>;
  security?: Array<Record<string, string[]>>;
  hide?: boolean;
};

/**
 * An onRoute hook of this context: every operation registered in it, or in a plugin it registers, gets the
 * defaults (routes/api.ts calls it first). @fastify/swagger keeps each route's options and reads them only when
 * the document is built, so the document sees the complete operations.
 */
export function registerOperationDefaults(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const schema = route.schema as Schema | undefined;
    if (!schema || schema.hide || !schema.response) return;
    const scope = route.config?.scope;
    const statuses = [400, 500];
    if (scope) statuses.push(401, 403, 429);
    if (schema.body) statuses.push(413, 415);
    if (route.url.includes(':')) statuses.push(414);
    // The route's own declaration wins (a 503 of readiness is its body, not a problem).
    schema.response = { ...problems(...statuses), ...schema.response };
    // OpenAPI 3.1 lets a bearer requirement name roles: the scope this operation needs.
    schema.security = scope ? [{ bearer: [scope] }] : [];
  });
}
