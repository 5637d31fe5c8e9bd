// Bearer-key authentication and scope checks. Routes declare the scope they need in their config;
// /health*, / and the API docs are public. With no key at all the service runs open, until a key exists.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
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

export interface AuthOptions {
  /** Whether the service started with no key at all. */
  open: boolean;
  /** Told once, when open mode ends because a key now exists. */
  onOpenModeEnded?: () => void;
}

/**
 * Open mode ends the moment a key exists (docs/design.md §7): `seedbed keys create` run against the service's database
 * is enforced on the next request, without a restart. Only a request that would otherwise be refused pays for
 * the check (one indexed `SELECT … LIMIT 1`), and only while the service is still open: once a key has been
 * seen, the service stays closed until it restarts, even if every key is revoked meanwhile (failing closed).
 */
export function registerAuth(app: FastifyInstance, keys: ApiKeyService, options: AuthOptions): Authenticator {
  let open = options.open;
  const close = () => {
    open = false;
    options.onOpenModeEnded?.();
  };
  async function stillOpen(): Promise<boolean> {
    if (open && (await keys.hasAnyKeys())) close();
    return open;
  }

  app.decorateRequest('principal', null);
  // The check is a hook of every route that declares a scope, added as the route is registered, so a public
  // route (/health, /) does not pay for a hook that would only find it has nothing to check. It goes first
  // among the route's own hooks: a request without a valid key is refused before the rate limit counts it.
  app.addHook('onRoute', (route) => {
    const needed = route.config?.scope;
    if (!needed) return;
    const own = route.onRequest === undefined ? [] : [route.onRequest].flat();
    if (!own.includes(authenticate)) route.onRequest = [authenticate, ...own];
  });
  async function authenticate(request: FastifyRequest, reply: FastifyReply) {
    const needed = request.routeOptions.config?.scope;
    if (!needed) return;
    const token = bearerToken(request);
    const principal = token ? await keys.authenticate(token) : null;
    if (!principal) {
      if (await stillOpen()) {
        // Open mode ignores a header it cannot check: there is nothing to check it against.
        request.principal = OPEN_PRINCIPAL;
        return;
      }
      if (!token) {
        reply.header('WWW-Authenticate', 'Bearer realm="seedbed"');
        return sendProblem(
          reply,
          problem(401, 'unauthorized', 'send an API key as Authorization: Bearer <key>'),
        );
      }
      reply.header('WWW-Authenticate', 'Bearer realm="seedbed", error="invalid_token"');
      return sendProblem(reply, problem(401, 'invalid_key', 'the API key is not valid'));
    }
    // A valid key proves one exists: open mode is over.
    if (open) close();
    if (!allows(principal, needed)) {
      return sendProblem(
        reply,
        problem(403, 'insufficient_scope', `this key lacks the ${needed} scope`, { required_scope: needed }),
      );
    }
    request.principal = principal;
  }

  // The review page (/ui) sends its key in a cookie, not a header: the same keys, the same open mode.
  return {
    async principalFor(token) {
      const principal = token ? await keys.authenticate(token) : null;
      if (principal) {
        if (open) close();
        return principal;
      }
      return (await stillOpen()) ? OPEN_PRINCIPAL : null;
    },
  };
}

/** Who a key is, for callers that carry it elsewhere than the Authorization header. */
export interface Authenticator {
  /** The key's principal; the open-mode principal while no key exists; null for no key or an unknown one. */
  principalFor(token: string | null): Promise<Principal | null>;
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)$/i.exec(header.trim());
  return match?.[1] ?? null;
}
