// Bearer-key authentication and scope checks. Routes declare the scope they need in their config;
// /health*, / and the API docs are public. With no key configured at all the service runs open.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type ApiKeyService, allows, type Principal, type Scope } from '../services/api-keys.js';
import { problem, sendProblem } from './errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The scope a route needs; undefined = public. */
    scope?: Scope;
  }
  interface FastifyRequest {
    principal: Principal | null;
  }
}

export const OPEN_PRINCIPAL: Principal = { name: 'anonymous (open mode)', scopes: new Set(['admin']) };

export function registerAuth(app: FastifyInstance, keys: ApiKeyService, mode: { open: boolean }): void {
  app.decorateRequest('principal', null);
  app.addHook('onRequest', async (request, reply) => {
    const needed = request.routeOptions.config?.scope;
    if (!needed) return;
    if (mode.open) {
      request.principal = OPEN_PRINCIPAL;
      return;
    }
    const token = bearerToken(request);
    if (!token) {
      reply.header('WWW-Authenticate', 'Bearer realm="seedbed"');
      return sendProblem(
        reply,
        problem(401, 'unauthorized', 'send an API key as Authorization: Bearer <key>'),
      );
    }
    const principal = await keys.authenticate(token);
    if (!principal) {
      reply.header('WWW-Authenticate', 'Bearer realm="seedbed", error="invalid_token"');
      return sendProblem(reply, problem(401, 'invalid_key', 'the API key is not valid'));
    }
    if (!allows(principal, needed)) {
      return sendProblem(
        reply,
        problem(403, 'insufficient_scope', `this key lacks the ${needed} scope`, { required_scope: needed }),
      );
    }
    request.principal = principal;
  });
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}
