// The review page's session: the API key a person typed once, kept in an HttpOnly, SameSite=Strict cookie
// (Secure over https) scoped to /ui, checked on every request like a bearer key; POSTs must come from our origin.
import type { FastifyReply, FastifyRequest } from 'fastify';
import { allows, type Principal } from '../../../services/api-keys.js';
import type { Authenticator } from '../../auth.js';

export const KEY_COOKIE = 'seedbed_key';
/** Twelve hours: a working day of reviewing, then the key is asked again. */
const COOKIE_MAX_AGE_S = 12 * 3600;

/**
 * Every response of the page: scripts and styles only from our own files, no inline code, no framing, forms
 * post only here. Kept to /ui: under it swagger-ui at /docs renders but its bundle's inline styles are refused
 * (it would need style-src 'unsafe-inline'), so /docs keeps its own headers.
 */
export const UI_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
].join('; ');

export function cookieValue(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (!header) return null;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return null;
}

function cookie(request: FastifyRequest, value: string, maxAge: number): string {
  const secure = request.protocol === 'https' ? '; Secure' : '';
  return `${KEY_COOKIE}=${encodeURIComponent(value)}; Path=/ui; HttpOnly; SameSite=Strict; Max-Age=${maxAge}${secure}`;
}

export function setKeyCookie(reply: FastifyReply, request: FastifyRequest, key: string): void {
  reply.header('set-cookie', cookie(request, key, COOKIE_MAX_AGE_S));
}

export function clearKeyCookie(reply: FastifyReply, request: FastifyRequest): void {
  reply.header('set-cookie', cookie(request, '', 0));
}

/**
 * CSRF: the cookie is SameSite=Strict, so another site's form does not carry it; on top, a POST must name our
 * own origin in Origin (every current browser sends it on a form POST), or in Referer when Origin is absent.
 */
export function sameOrigin(request: FastifyRequest): boolean {
  const host = request.headers.host;
  const source = request.headers.origin ?? request.headers.referer;
  if (!host || !source || source === 'null') return false;
  try {
    return new URL(source).host === host;
  } catch {
    return false;
  }
}

/** The person behind this request: their key's principal, the open-mode one, or null (ask for a key). */
export async function uiPrincipal(
  request: FastifyRequest,
  authenticator: Authenticator,
): Promise<Principal | null> {
  return authenticator.principalFor(cookieValue(request, KEY_COOKIE));
}

export const canDecide = (principal: Principal | null): boolean =>
  principal !== null && allows(principal, 'write');

/** Only paths of the page itself are followed after a login (never another origin). */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/ui(\/|$|\?)/.test(next) && !next.startsWith('//') ? next : '/ui';
}
