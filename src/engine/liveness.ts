// Liveness: is there a working website at a domain? One GET of https://{domain}/ (then http:// when https could
// not be reached) classified into alive | blocked | dead | error, always with a reason when not alive, and with
// the evidence a verdict rests on (the challenge recognised, the status that blocked us, the network canary).
import { STATUS_CODES } from 'node:http';
import type { LivenessState } from '../domain/seed-facts.js';
import { FetchError, type Fetcher, type FetchResponse, siteTimeMs } from '../ports/fetcher.js';
import { type ChallengeMatch, recogniseChallenge } from './challenge.js';
import type { CanaryProbe, NetworkCanary } from './network-canary.js';

export type { LivenessState };

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
  /** What the verdict rests on; null for an alive site and wherever the status or error code says it all. */
  evidence: LivenessEvidence | null;
  checked_at: string;
}

/**
 * challenge: an anti-bot page was recognised (error_code CHALLENGE). status: blocked by a 401/403/429/451
 * without a recognisable page (error_code HTTP_4xx). network: a failure that our own network could have caused
 * was checked against the canary — up (the site really is unreachable) or down (NETWORK_UNAVAILABLE).
 */
export type LivenessEvidence =
  | {
      kind: 'challenge';
      signature: string;
      vendor: string;
      page: ChallengeMatch['page'];
      matched: string;
      status: number;
      server: string | null;
    }
  | { kind: 'status'; status: number; server: string | null }
  | { kind: 'network'; network_up: boolean; canary_checked_at: string; canary: CanaryProbe[] };

export interface LivenessOptions {
  now?: () => Date;
  /**
   * Asked before a failure that could be our own network's (NETWORK_SUSPECT_CODES) is reported; when it is down
   * too the answer is error / NETWORK_UNAVAILABLE, never dead. Absent or null: never asked (the old verdicts).
   */
  canary?: NetworkCanary | null;
}

/** The error code of an answer that says nothing about the domain: retry it later, never store it as a verdict. */
export const NETWORK_UNAVAILABLE = 'NETWORK_UNAVAILABLE';

export function isNetworkUnavailable(result: Pick<LivenessResult, 'error_code'>): boolean {
  return result.error_code === NETWORK_UNAVAILABLE;
}

export interface LivenessProbe {
  result: LivenessResult;
  /** The answer that decided it, when its body was read: contract discovery reuses the homepage. */
  response: FetchResponse | null;
}

/**
 * Failures that look the same whether the domain is gone or our own network is: no DNS answer, refused, timed
 * out, or a connection that broke (EAI_AGAIN is NETWORK). TLS, redirects and the guard need a working network.
 */
export const NETWORK_SUSPECT_CODES: ReadonlySet<string> = new Set([
  'ENOTFOUND',
  'ECONNREFUSED',
  'TIMEOUT',
  'NETWORK',
]);

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

/** True when the answer is an anti-bot challenge or block page (see challenge-signatures.ts). */
export function isChallengePage(status: number, headers: Record<string, string>, body: Buffer): boolean {
  return recogniseChallenge(status, headers, body) !== null;
}

type Verdict = Pick<LivenessResult, 'state' | 'error_code' | 'error_message' | 'evidence'>;

/**
 * An HTTP answer's state: a recognised challenge or block page is blocked (CHALLENGE), whatever its status;
 * else 2xx/3xx alive; 401/403/429/451 blocked (HTTP_4xx); 5xx and 404/410 (nothing at the homepage) dead; any
 * other status an error.
 */
export function classifyAnswer(
  status: number,
  headers: Record<string, string>,
  body: Buffer,
  url: string,
): Verdict {
  const said = `${url} answered ${status} ${STATUS_CODES[status] ?? ''}`.trim();
  const server = headers['server'] ?? null;
  const challenge = recogniseChallenge(status, headers, body);
  if (challenge) {
    const what = challenge.page === 'block' ? 'an anti-bot block page' : `an anti-bot ${challenge.page} page`;
    return {
      state: 'blocked',
      error_code: 'CHALLENGE',
      error_message: `${said} with ${what} (${challenge.signature}: ${challenge.matched})`,
      evidence: {
        kind: 'challenge',
        signature: challenge.signature,
        vendor: challenge.vendor,
        page: challenge.page,
        matched: challenge.matched,
        status,
        server,
      },
    };
  }
  if (status >= 200 && status < 400)
    return { state: 'alive', error_code: null, error_message: null, evidence: null };
  const code = `HTTP_${status}`;
  if (BLOCKED_STATUSES.has(status)) {
    return {
      state: 'blocked',
      error_code: code,
      error_message: said,
      evidence: { kind: 'status', status, server },
    };
  }
  if (status >= 500 || GONE_STATUSES.has(status))
    return { state: 'dead', error_code: code, error_message: said, evidence: null };
  return { state: 'error', error_code: code, error_message: said, evidence: null };
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
    // A homepage over the probe cap is read up to the cap and kept (`truncated`), not refused: news homepages run
    // past 2 MiB, and their head (title, languages, feeds) is at the start. The cap still bounds the memory.
    const response = await fetcher.fetch(url, { kind: 'probe', truncate: true });
    const verdict = classifyAnswer(response.status, response.headers, response.body, response.finalUrl);
    return {
      kind: 'answer',
      response,
      verdict,
      status: response.status,
      finalUrl: response.finalUrl,
      // The site's own time: a wait in our own line (a busy fetcher, the host's gap) says nothing about it.
      latencyMs: siteTimeMs(response),
    };
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    // A fetcher that refuses a body over the cap anyway (truncate is asked for above): the homepage is still an
    // answer; only its body (for challenge checks, title, languages and feeds) is lost.
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
    evidence: fields.evidence,
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

/** The failure's own verdict, or NETWORK_UNAVAILABLE when the canary says our network is down too. */
async function failureVerdict(error: FetchError, canary: NetworkCanary | null): Promise<Verdict> {
  const own: Verdict = {
    state: failureState(error.code),
    error_code: error.code,
    error_message: error.message,
    evidence: null,
  };
  if (!canary || !NETWORK_SUSPECT_CODES.has(error.code)) return own;
  const report = await canary.check();
  const evidence: LivenessEvidence = {
    kind: 'network',
    network_up: report.up,
    canary_checked_at: report.checked_at,
    canary: report.probes,
  };
  if (report.up) return { ...own, evidence };
  const failed = report.probes.map((p) => `${p.url}: ${p.error_code ?? p.status}`).join(', ');
  return {
    state: 'error',
    error_code: NETWORK_UNAVAILABLE,
    error_message: `${error.message}; the network canary failed too (${failed}), so Seedbed's own network looks down: retry later`,
    evidence,
  };
}

export async function probeLiveness(
  fetcher: Fetcher,
  domain: string,
  options: LivenessOptions = {},
): Promise<LivenessProbe> {
  const now = options.now ?? (() => new Date());
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
      evidence: null,
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
    ...(await failureVerdict(chosen.error, options.canary ?? null)),
    // A failure has no final answer, even when a redirect status came before it.
    http_status: null,
    final_url: null,
    https: false,
    latency_ms: null,
  });
  return { result, response: null };
}

export async function checkLiveness(
  fetcher: Fetcher,
  domain: string,
  options: LivenessOptions = {},
): Promise<LivenessResult> {
  return (await probeLiveness(fetcher, domain, options)).result;
}
