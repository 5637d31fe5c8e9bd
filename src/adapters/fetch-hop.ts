// One hop on the wire: one request to one URL, after its turn in the host's line, answered as a redirect to
// follow, a 429/503 to retry after a wait, or the final answer with its body read up to the kind's cap.
import type { Dispatcher } from 'undici';
import type { FetchKind } from '../ports/fetcher.js';
import type { FetchAgent } from './fetch-agent.js';
import { readBodyUpTo } from './fetch-body.js';
import { AfterHeadersError } from './fetch-errors.js';
import type { HostPoliteness, Pass } from './fetch-politeness.js';
import { DEFAULT_MAX_BYTES, type FetcherSettings } from './fetch-settings.js';

const ACCEPT: Record<FetchKind, string> = {
  html: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
  probe: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
  robots: 'text/plain,*/*;q=0.5',
  sitemap: 'application/xml,text/xml;q=0.9,application/gzip;q=0.8,*/*;q=0.5',
  feed: 'application/rss+xml,application/atom+xml,application/feed+json,application/xml;q=0.9,application/json;q=0.8,*/*;q=0.5',
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** A request's time in our own line (the politeness waits), told to the caller and added up. */
export interface OwnLine {
  enter(): void;
  leave(waitedMs: number): void;
}

export type HopResult =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'retry'; waitMs: number }
  | { kind: 'final'; status: number; headers: Record<string, string>; body: Buffer; truncated: boolean };

/** What one hop asks for. */
export interface HopRequest {
  url: URL;
  method: 'GET' | 'HEAD';
  kind: FetchKind;
  /** Cut a body over the kind's cap and answer what was read, instead of failing. */
  truncate: boolean;
  /** Retries of this URL so far (0 on the first try): the backoff doubles with each. */
  attempt: number;
  signal: AbortSignal;
  /** The request's place in the host's line. */
  priority: number;
  /** If-None-Match / If-Modified-Since, or nothing. */
  conditional: Record<string, string>;
  line: OwnLine;
  /** Called as the request is handed to its connection: the caller counts what the site was sent. */
  onWire?: () => void;
}

export type Hop = (request: HopRequest) => Promise<HopResult>;

/** What every hop of a fetcher shares. */
export interface HopWiring {
  settings: Pick<FetcherSettings, 'userAgent' | 'maxBytes' | 'maxRetries' | 'retryBaseMs' | 'maxRetryWaitMs'>;
  connections: Pick<FetchAgent, 'dispatcher' | 'onStart'>;
  politeness: HostPoliteness;
  random: () => number;
}

/** Seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

export function createHop({ settings: s, connections, politeness, random }: HopWiring): Hop {
  const { dispatcher, onStart } = connections;
  /** One request to one URL, holding the host and global slots until its body is read or discarded. */
  return async function hop({
    url,
    method,
    kind,
    truncate,
    attempt,
    signal,
    priority,
    conditional,
    line,
    onWire,
  }) {
    const asked = performance.now();
    line.enter();
    let pass: Pass;
    try {
      pass = await politeness.acquire(url.hostname, signal, priority);
    } finally {
      line.leave(performance.now() - asked);
    }
    try {
      // The gap is measured from the moment the request goes on the wire (after a new connection's
      // handshake), which is when undici starts the request on its socket.
      const request: Dispatcher.RequestOptions = {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method,
        signal,
        headers: {
          'user-agent': s.userAgent,
          accept: ACCEPT[kind],
          'accept-encoding': 'gzip, deflate, br',
          ...conditional,
        },
      };
      onStart.set(request, pass.sent);
      onWire?.();
      const res = await dispatcher.request(request);
      const headers = flattenHeaders(res.headers);
      const location = headers['location'];
      if (REDIRECTS.has(res.statusCode) && location !== undefined) {
        await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
        return { kind: 'redirect', status: res.statusCode, location } satisfies HopResult;
      }
      if ((res.statusCode === 429 || res.statusCode === 503) && attempt < s.maxRetries) {
        const asked = parseRetryAfter(headers['retry-after'], Date.now());
        const backoff = s.retryBaseMs * 2 ** attempt * (0.5 + random());
        const waitMs = asked ?? Math.min(backoff, s.maxRetryWaitMs);
        if (waitMs <= s.maxRetryWaitMs) {
          await res.body.dump({ limit: 64 * 1024 }).catch(() => undefined);
          return { kind: 'retry', waitMs } satisfies HopResult;
        }
      }
      try {
        const read =
          method === 'HEAD'
            ? { body: Buffer.alloc(0), truncated: false }
            : await readBodyUpTo(
                res.body,
                headers['content-encoding'],
                s.maxBytes[kind] ?? DEFAULT_MAX_BYTES.html,
                truncate,
              );
        return { kind: 'final', status: res.statusCode, headers, ...read } satisfies HopResult;
      } catch (err) {
        res.body.destroy();
        throw new AfterHeadersError(err, res.statusCode);
      }
    } finally {
      pass.release();
    }
  };
}

function flattenHeaders(raw: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  // for…in rather than Object.entries: no array of pairs per answer (undici's headers are a plain object).
  for (const name in raw) {
    const value = raw[name];
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}
