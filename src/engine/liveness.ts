// Liveness: is there a working website at a domain? One GET of https://{domain}/ (then http:// when https could
// not be reached) classified into alive | blocked | dead | error, always with a reason when not alive.
import { STATUS_CODES } from 'node:http';
import { FetchError, type Fetcher, type FetchResponse } from '../ports/fetcher.js';

export type LivenessState = 'alive' | 'blocked' | 'dead' | 'error';

export interface LivenessResult {
  domain: string;
  alive: boolean;
  state: LivenessState;
  http_status: number | null;
  final_url: string | null;
  https: boolean;
  latency_ms: number | null;
  error_code: string | null;
  error_message: string | null;
  checked_at: string;
}

export interface LivenessProbe {
  result: LivenessResult;
  /** The answer that decided it, when its body was read: contract discovery reuses the homepage. */
  response: FetchResponse | null;
}

/**
 * https failures after which plain http is tried: the https side could not be reached or spoken to, while
 * port 80 may still serve the site. Not after ENOTFOUND or SSRF_BLOCKED (http resolves the same name), and
 * never after any HTTP answer, even a 5xx: a server that answers over https is the site.
 */
export const HTTP_FALLBACK_CODES: ReadonlySet<string> = new Set([
  'ECONNREFUSED',
  'TIMEOUT',
  'TLS',
  'NETWORK',
]);

const BLOCKED_STATUSES = new Set([401, 403, 429, 451]);
const GONE_STATUSES = new Set([404, 410]);

// Markers that only a bot wall's interstitial carries, so they count even on a 200. (Cloudflare also injects
// /cdn-cgi/challenge-platform/ scripts into ordinary pages, which is why that one is only a weak marker.)
const STRONG_MARKERS = [
  '_cf_chl_opt',
  '<title>just a moment...</title>',
  'attention required! | cloudflare',
  'captcha-delivery.com',
  'px-captcha',
];
// Markers that prove a challenge only on an error status: plenty of real pages mention a captcha.
const WEAK_MARKERS = [
  'cf-chl',
  '/cdn-cgi/challenge-platform/',
  '_incapsula_resource',
  'ddos-guard',
  'captcha',
  'verify you are human',
  'checking your browser',
];

export function isChallengePage(status: number, headers: Record<string, string>, body: Buffer): boolean {
  if ((headers['cf-mitigated'] ?? '').toLowerCase() === 'challenge') return true;
  const text = body
    .subarray(0, 256 * 1024)
    .toString('latin1')
    .toLowerCase();
  if (STRONG_MARKERS.some((m) => text.includes(m))) return true;
  return status >= 400 && WEAK_MARKERS.some((m) => text.includes(m));
}

type Verdict = Pick<LivenessResult, 'state' | 'error_code' | 'error_message'>;

/**
 * An HTTP answer's state: 2xx/3xx alive; 401/403/429/451 or a challenge page blocked; 5xx and 404/410
 * (nothing at the homepage) dead; any other status an error.
 */
export function classifyAnswer(
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  url: string,
): Verdict {
  const said = `${url} answered ${status} ${STATUS_CODES[status] ?? ''}`.trim();
  if (isChallengePage(status, headers, body)) {
    return { state: 'blocked', error_code: 'CHALLENGE', error_message: `${said} with a bot challenge page` };
  }
  if (status >= 200 && status < 400) return { state: 'alive', error_code: null, error_message: null };
  const code = `HTTP_${status}`;
  if (BLOCKED_STATUSES.has(status)) return { state: 'blocked', error_code: code, error_message: said };
  if (status >= 500 || GONE_STATUSES.has(status))
    return { state: 'dead', error_code: code, error_message: said };
  return { state: 'error', error_code: code, error_message: said };
}

/** dead: the host is not there or not answering; error: it is there but we could not (or must not) talk to it. */
function failureState(code: string): LivenessState {
  return code === 'ENOTFOUND' || code === 'ECONNREFUSED' || code === 'TIMEOUT' ? 'dead' : 'error';
}

type Attempt =
  | {
      kind: 'answer';
      response: FetchResponse | null;
      verdict: Verdict;
      status: number;
      finalUrl: string;
      latencyMs: number | null;
    }
  | { kind: 'failure'; error: FetchError };

async function attempt(fetcher: Fetcher, url: string): Promise<Attempt> {
  try {
    const response = await fetcher.fetch(url, { kind: 'probe' });
    const verdict = classifyAnswer(response.status, response.headers, response.body, response.finalUrl);
    return {
      kind: 'answer',
      response,
      verdict,
      status: response.status,
      finalUrl: response.finalUrl,
      latencyMs: response.elapsedMs,
    };
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    // A homepage bigger than the probe cap is still an answer; only its body (for challenge checks) is lost.
    if (err.code === 'BODY_TOO_LARGE' && err.status !== undefined) {
      const finalUrl = err.finalUrl ?? url;
      const verdict = classifyAnswer(err.status, {}, Buffer.alloc(0), finalUrl);
      return { kind: 'answer', response: null, verdict, status: err.status, finalUrl, latencyMs: null };
    }
    return { kind: 'failure', error: err };
  }
}

/** Failures that happen before any server spoke rank below the ones after (TLS, redirects, guard on a hop). */
function depth(a: Attempt): number {
  if (a.kind === 'answer') return 2;
  return failureState(a.error.code) === 'dead' ? 0 : 1;
}

function livenessResult(
  domain: string,
  checkedAt: string,
  fields: Omit<LivenessResult, 'domain' | 'alive' | 'checked_at'>,
): LivenessResult {
  // Built field by field so the JSON reads in the documented order.
  return {
    domain,
    alive: fields.state === 'alive',
    state: fields.state,
    http_status: fields.http_status,
    final_url: fields.final_url,
    https: fields.https,
    latency_ms: fields.latency_ms,
    error_code: fields.error_code,
    error_message: fields.error_message,
    checked_at: checkedAt,
  };
}

function validHost(host: string): boolean {
  try {
    return host !== '' && new URL(`https://${host}/`).hostname === host;
  } catch {
    return false;
  }
}

export async function probeLiveness(
  fetcher: Fetcher,
  domain: string,
  now: () => Date = () => new Date(),
): Promise<LivenessProbe> {
  const host = domain.trim().toLowerCase().replace(/\.$/, '');
  const checkedAt = now().toISOString();
  if (!validHost(host)) {
    const result = livenessResult(host, checkedAt, {
      state: 'error',
      http_status: null,
      final_url: null,
      https: false,
      latency_ms: null,
      error_code: 'INVALID_URL',
      error_message: `not a host name: ${JSON.stringify(domain)}`,
    });
    return { result, response: null };
  }

  let chosen = await attempt(fetcher, `https://${host}/`);
  if (chosen.kind === 'failure' && HTTP_FALLBACK_CODES.has(chosen.error.code)) {
    const plain = await attempt(fetcher, `http://${host}/`);
    // Report the attempt that got further; on a tie the https one (its failure says more about the site).
    if (depth(plain) > depth(chosen)) chosen = plain;
  }

  if (chosen.kind === 'answer') {
    const result = livenessResult(host, checkedAt, {
      ...chosen.verdict,
      http_status: chosen.status,
      final_url: chosen.finalUrl,
      https: chosen.finalUrl.startsWith('https:'),
      latency_ms: chosen.latencyMs,
    });
    return { result, response: chosen.response };
  }
  const result = livenessResult(host, checkedAt, {
    state: failureState(chosen.error.code),
    // A failure has no final answer, even when a redirect status came before it.
    http_status: null,
    final_url: null,
    https: false,
    latency_ms: null,
    error_code: chosen.error.code,
    error_message: chosen.error.message,
  });
  return { result, response: null };
}

export async function checkLiveness(
  fetcher: Fetcher,
  domain: string,
  now: () => Date = () => new Date(),
): Promise<LivenessResult> {
  return (await probeLiveness(fetcher, domain, now)).result;
}
