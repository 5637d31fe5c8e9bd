// Turns whatever undici, node:net, node:tls, DNS or the body reader threw into one FetchError code, so the
// engine (and the liveness states built on it) never has to know which layer failed.

import { errorChain } from '../domain/errors.js';
import { FetchError, type FetchErrorCode } from '../ports/fetcher.js';
import { BodyDecodeError, BodyTooLargeError } from './fetch-body.js';

/** A failure after the status line arrived (body too large, body timeout): the status is kept. */
export class AfterHeadersError extends Error {
  constructor(
    readonly inner: unknown,
    readonly status: number,
  ) {
    super('the response failed after its headers', { cause: inner });
    this.name = 'AfterHeadersError';
  }
}

const NOT_FOUND = new Set(['ENOTFOUND', 'EAI_NONAME', 'EAI_NODATA', 'EAI_FAIL']);
const TIMEOUTS = new Set([
  'ETIMEDOUT',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);
// OpenSSL verification results and Node's TLS codes (certificate, hostname, protocol mismatch).
const TLS_CODE =
  /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED|SELF_SIGNED_CERT|HOSTNAME_MISMATCH|INVALID_CA|INVALID_PURPOSE|PATH_LENGTH_EXCEEDED)/;

interface Context {
  url: string;
  finalUrl: string;
  /** The combined signal (caller + total deadline). */
  signal: AbortSignal;
  callerSignal: AbortSignal | undefined;
  /** Hops put on the wire so far, the failing one included when it got as far as its connection. */
  requests?: number;
}

/** Failures of the connection itself: the failing hop's request never reached the site's HTTP server. */
const NEVER_SENT: ReadonlySet<FetchErrorCode> = new Set(['ENOTFOUND', 'ECONNREFUSED', 'TLS', 'SSRF_BLOCKED']);

function classify(errors: Array<Error & { code?: unknown }>): FetchErrorCode {
  const codes = errors.map((e) => (typeof e.code === 'string' ? e.code : ''));
  if (codes.includes('SSRF_BLOCKED')) return 'SSRF_BLOCKED';
  if (errors.some((e) => e instanceof BodyTooLargeError) || codes.includes('UND_ERR_RES_EXCEEDED_MAX_SIZE')) {
    return 'BODY_TOO_LARGE';
  }
  if (codes.some((c) => TLS_CODE.test(c))) return 'TLS';
  // A handshake cut off by the server, or TLS spoken to a plain-HTTP port, surfaces as EPROTO/ECONNRESET.
  if (errors.some((e) => /before secure TLS connection|SSL routines|wrong version number/i.test(e.message))) {
    return 'TLS';
  }
  if (codes.some((c) => NOT_FOUND.has(c))) return 'ENOTFOUND';
  if (codes.includes('ECONNREFUSED')) return 'ECONNREFUSED';
  if (codes.some((c) => TIMEOUTS.has(c))) return 'TIMEOUT';
  return 'NETWORK';
}

function describe(code: FetchErrorCode, host: string, inner: Error | undefined): string {
  // Certificate errors quote every altname; a reason is for people and logs, so keep it short.
  const full = inner?.message ?? 'unknown failure';
  const detail = full.length > 200 ? `${full.slice(0, 200)}…` : full;
  switch (code) {
    case 'ENOTFOUND':
      return `${host} does not resolve (${detail})`;
    case 'ECONNREFUSED':
      return `${host} refused the connection`;
    case 'TIMEOUT':
      return `${host} timed out (${detail})`;
    case 'TLS':
      return `TLS failure with ${host}: ${detail}`;
    default:
      return detail;
  }
}

export function toFetchError(err: unknown, context: Context): FetchError {
  const made = classifyError(err, context);
  if (context.requests === undefined || made.requests !== undefined) return made;
  const requests = Math.max(0, context.requests - (NEVER_SENT.has(made.code) ? 1 : 0));
  return new FetchError(made.code, made.message, {
    url: made.url,
    finalUrl: made.finalUrl,
    status: made.status,
    cause: made.cause,
    requests,
  });
}

function classifyError(err: unknown, context: Context): FetchError {
  if (err instanceof FetchError) return err;
  let status: number | undefined;
  let inner = err;
  if (err instanceof AfterHeadersError) {
    status = err.status;
    inner = err.inner;
  }
  const details = { url: context.url, finalUrl: context.finalUrl, status, cause: inner };
  let host = context.finalUrl;
  try {
    host = new URL(context.finalUrl).host;
  } catch {
    // keep the raw text
  }
  if (context.callerSignal?.aborted) {
    return new FetchError('ABORTED', `request to ${context.finalUrl} was cancelled`, details);
  }
  const errors = errorChain(inner);
  if (context.signal.aborted && !errors.some((e) => e instanceof BodyTooLargeError)) {
    return new FetchError('TIMEOUT', `${host} timed out (whole request took too long)`, details);
  }
  const code = classify(errors);
  if (code === 'NETWORK' && errors.some((e) => e instanceof BodyDecodeError)) {
    return new FetchError('NETWORK', errors[0]?.message ?? 'undecodable body', details);
  }
  if (code === 'NETWORK' && errors.some((e) => e.code === 'EAI_AGAIN')) {
    // A resolver that could not answer is not proof that the name does not exist.
    return new FetchError('NETWORK', `temporary DNS failure for ${host} (EAI_AGAIN)`, details);
  }
  const last = errors.find((e) => typeof e.code === 'string') ?? errors[0];
  return new FetchError(code, describe(code, host, last), details);
}
