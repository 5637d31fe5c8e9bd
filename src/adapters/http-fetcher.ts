// The undici-backed Fetcher: one Agent whose connect step applies the resolve map and the SSRF guard, manual
// redirects, retries on 429/503, size caps per kind, and per-host politeness. It only moves bytes.
// Connections are kept alive per origin (one per host slot), so a site's requests share one socket.
import { isIP } from 'node:net';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { matchResolve, parseResolveSpec } from '../domain/fetch-resolve.js';
import {
  FetchError,
  type Fetcher,
  type FetchKind,
  type FetchOptions,
  type FetchResponse,
} from '../ports/fetcher.js';
import { readBodyUpTo } from './fetch-body.js';
import { AfterHeadersError, toFetchError } from './fetch-errors.js';
import { HostPoliteness, type Pass, realSleep, Semaphore, type Sleep } from './fetch-politeness.js';
import { createBlockList, type LookupAll, resolvePublicAddresses, systemLookup } from './ssrf-guard.js';

export const DEFAULT_MAX_BYTES: Readonly<Record<FetchKind, number>> = {
  html: 5 * 1024 * 1024,
  // Google reads the first 500 KiB of a robots.txt; RFC 9309 asks for at least 500 KiB.
  robots: 512 * 1024,
  // The sitemap protocol's own limit for one (uncompressed) file.
  sitemap: 50 * 1024 * 1024,
  feed: 10 * 1024 * 1024,
  // Enough for a homepage's head and a challenge page; a bigger page is still an answer (see liveness).
  probe: 2 * 1024 * 1024,
};

export const DEFAULT_FETCHER_SETTINGS = {
  connectTimeoutMs: 10_000,
  headersTimeoutMs: 15_000,
  /** Idle time between two body chunks. */
  bodyTimeoutMs: 20_000,
  /** Whole request, redirects and retries included: stops a server that drips one byte at a time. */
  totalTimeoutMs: 60_000,
  maxRedirects: 5,
  /** Requests in flight across all hosts (SEEDBED_FETCH_CONCURRENCY; see docs/fetching.md for the size). */
  globalConcurrency: 128,
  perHostConcurrency: 1,
  /** An idle kept-alive connection is closed after this (a site's next request usually comes sooner). */
  keepAliveTimeoutMs: 10_000,
  /**
   * A server that says how long it keeps an idle connection (`Keep-Alive: timeout=N`) has it kept that long,
   * less 2 s, up to this: under a busy global budget a site's next request can wait longer than 10 s in line.
   */
  keepAliveMaxTimeoutMs: 60_000,
  perHostMinDelayMs: 250,
  maxCrawlDelayMs: 60_000,
  /** Extra attempts after a 429 or 503. */
  maxRetries: 2,
  retryBaseMs: 1_000,
  /** A Retry-After longer than this is not waited for: the 429/503 answer is returned as it is. */
  maxRetryWaitMs: 30_000,
} as const;

export interface HttpFetcherConfig {
  /** `SeedbedBot/<version> (+<docs url>)`. */
  userAgent: string;
  /** SEEDBED_FETCH_RESOLVE. */
  resolve?: string;
  /**
   * PEM CA certificates trusted on top of the bundled roots. Node's `ca` option replaces its default store,
   * NODE_EXTRA_CA_CERTS included, so when both are wanted pass that file's contents here too.
   */
  extraCa?: string[];
  connectTimeoutMs?: number;
  headersTimeoutMs?: number;
  bodyTimeoutMs?: number;
  totalTimeoutMs?: number;
  maxRedirects?: number;
  maxBytes?: Partial<Record<FetchKind, number>>;
  globalConcurrency?: number;
  /** Clamped to 1..2: politeness, not throughput. */
  perHostConcurrency?: number;
  perHostMinDelayMs?: number;
  keepAliveTimeoutMs?: number;
  keepAliveMaxTimeoutMs?: number;
  maxCrawlDelayMs?: number;
  maxRetries?: number;
  retryBaseMs?: number;
  maxRetryWaitMs?: number;
  /** DNS for hosts the resolve map does not cover (tests inject a fake to exercise the guard). */
  lookup?: LookupAll;
  sleep?: Sleep;
  /** Monotonic milliseconds for the politeness gaps (tests pair it with their `sleep`). */
  now?: () => number;
  random?: () => number;
}

const ACCEPT: Record<FetchKind, string> = {
  html: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
  probe: 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.5',
  robots: 'text/plain,*/*;q=0.5',
  sitemap: 'application/xml,text/xml;q=0.9,application/gzip;q=0.8,*/*;q=0.5',
  feed: 'application/rss+xml,application/atom+xml,application/feed+json,application/xml;q=0.9,application/json;q=0.8,*/*;q=0.5',
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/** Seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | undefined, now: number): number | null {
  if (value === undefined || value.trim() === '') return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? null : Math.max(0, at - now);
}

/** If-None-Match / If-Modified-Since from the validators of an earlier answer (RFC 9110 §13.1). */
function conditionalHeaders(validators: FetchOptions['conditional']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.last_modified) headers['if-modified-since'] = validators.last_modified;
  return headers;
}

function flattenHeaders(raw: Dispatcher.ResponseData['headers']): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw)) {
    if (value === undefined) continue;
    out[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function parseHttpUrl(text: string, base?: URL): URL | null {
  try {
    const url = base ? new URL(text, base) : new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

function createConnector(
  config: HttpFetcherConfig,
  connectTimeoutMs: number,
  lookup: LookupAll,
): buildConnector.connector {
  const entries = parseResolveSpec(config.resolve);
  const blockList = createBlockList();
  const extraCa = config.extraCa ?? [];
  const base = buildConnector({
    timeout: connectTimeoutMs,
    // One context for every connection: a `ca` list alone makes Node parse every root certificate again for
    // each new connection, milliseconds of CPU per site.
    ...(extraCa.length > 0
      ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...extraCa] }) }
      : {}),
  });
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    // SNI and the certificate check keep the URL's host even when we connect to a mapped address.
    const servername = isIP(options.hostname) === 0 ? options.hostname : undefined;
    const connectTo = (address: string, toPort: number) =>
      base(
        { ...options, hostname: address, port: String(toPort), ...(servername ? { servername } : {}) },
        callback,
      );
    const mapped = matchResolve(entries, options.hostname, port);
    // An operator-mapped host is trusted as mapped: that is how a local fake internet is reached.
    if (mapped) return connectTo(mapped.address, mapped.port);
    resolvePublicAddresses(options.hostname, { lookup, timeoutMs: connectTimeoutMs, blockList }).then(
      // Connect to the address that was checked, never to the name: a second lookup could answer differently.
      (addresses) => connectTo(addresses[0]!.address, port),
      (err: Error) => callback(err, null),
    );
  };
}

/**
 * The whole-request timeout's clock: it runs only while the request is out of our own line (connecting, on the
 * wire, reading), so a long wait for a slot behind other domains never times a request out before it was sent.
 */
interface WireClock {
  run(): void;
  pause(): void;
}

function wireClock(limitMs: number, onTimeout: () => void): WireClock {
  let left = limitMs;
  let runningSince = 0;
  let timer: NodeJS.Timeout | undefined;
  return {
    run() {
      if (timer) return;
      runningSince = performance.now();
      timer = setTimeout(onTimeout, Math.max(0, left));
    },
    pause() {
      if (!timer) return;
      clearTimeout(timer);
      timer = undefined;
      left -= performance.now() - runningSince;
    },
  };
}

/** A request's time in our own line (the politeness waits), told to the caller and added up. */
interface OwnLine {
  enter(): void;
  leave(waitedMs: number): void;
}

type HopResult =
  | { kind: 'redirect'; status: number; location: string }
  | { kind: 'retry'; waitMs: number }
  | { kind: 'final'; status: number; headers: Record<string, string>; body: Buffer; truncated: boolean };

export function createHttpFetcher(config: HttpFetcherConfig): Fetcher {
  const s = { ...DEFAULT_FETCHER_SETTINGS, ...withoutUndefined(config) };
  const maxBytes = { ...DEFAULT_MAX_BYTES, ...withoutUndefined(config.maxBytes ?? {}) };
  const sleep = config.sleep ?? realSleep;
  const random = config.random ?? Math.random;
  const perHost = Math.min(2, Math.max(1, Math.floor(s.perHostConcurrency)));
  const agent = new Agent({
    connect: createConnector(config, s.connectTimeoutMs, config.lookup ?? systemLookup),
    headersTimeout: s.headersTimeoutMs,
    bodyTimeout: s.bodyTimeoutMs,
    // One socket per host slot, kept alive between a site's requests: no second handshake per site.
    connections: perHost,
    pipelining: 1,
    keepAliveTimeout: s.keepAliveTimeoutMs,
    keepAliveMaxTimeout: s.keepAliveMaxTimeoutMs,
  });
  // Calls a request's `sent` when undici writes it to its socket: the moment the per-host gap counts from.
  const onStart = new WeakMap<object, () => void>();
  const dispatcher = agent.compose(onRequestStart(onStart));
  const politeness = new HostPoliteness({
    perHostConcurrency: perHost,
    minDelayMs: s.perHostMinDelayMs,
    maxCrawlDelayMs: s.maxCrawlDelayMs,
    global: new Semaphore(Math.max(1, s.globalConcurrency)),
    sleep,
    now: config.now ?? (() => performance.now()),
  });

  /** One request to one URL, holding the host and global slots until its body is read or discarded. */
  async function hop(
    url: URL,
    method: 'GET' | 'HEAD',
    kind: FetchKind,
    truncate: boolean,
    attempt: number,
    signal: AbortSignal,
    priority: number,
    conditional: Record<string, string>,
    line: OwnLine,
  ) {
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
          'user-agent': config.userAgent,
          accept: ACCEPT[kind],
          'accept-encoding': 'gzip, deflate, br',
          ...conditional,
        },
      };
      onStart.set(request, pass.sent);
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
                maxBytes[kind] ?? DEFAULT_MAX_BYTES.html,
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
  }

  async function run(
    requested: string,
    options: FetchOptions,
    signal: AbortSignal,
    wire: WireClock,
  ): Promise<FetchResponse> {
    const started = performance.now();
    const method = options.method ?? 'GET';
    let current = parseHttpUrl(requested);
    if (current === null) {
      throw new FetchError('INVALID_URL', `not an http(s) URL: ${requested}`, { url: requested });
    }
    const redirects: string[] = [];
    const seen = new Set([current.href]);
    const conditional = conditionalHeaders(options.conditional);
    let waitedMs = 0;
    const line: OwnLine = {
      enter() {
        wire.pause();
        options.queueing?.(true);
      },
      leave(ms) {
        waitedMs += ms;
        wire.run();
        options.queueing?.(false);
      },
    };
    let attempt = 0;
    for (;;) {
      let result: HopResult;
      try {
        result = await hop(
          current,
          method,
          options.kind,
          options.truncate === true,
          attempt,
          signal,
          options.priority ?? 0,
          conditional,
          line,
        );
      } catch (err) {
        throw toFetchError(err, {
          url: requested,
          finalUrl: current.href,
          signal,
          callerSignal: options.signal,
        });
      }
      if (result.kind === 'retry') {
        attempt += 1;
        politeness.pushBack(current.hostname, result.waitMs);
        continue;
      }
      if (result.kind === 'final') {
        return {
          url: requested,
          finalUrl: current.href,
          status: result.status,
          headers: result.headers,
          body: result.body,
          ...(result.truncated ? { truncated: true } : {}),
          redirects,
          elapsedMs: Math.round(performance.now() - started),
          waitedMs: Math.round(waitedMs),
        };
      }
      const next = parseHttpUrl(result.location, current);
      if (next === null) {
        throw new FetchError('INVALID_URL', `redirect to a non-http(s) location: ${result.location}`, {
          url: requested,
          finalUrl: current.href,
          status: result.status,
        });
      }
      if (seen.has(next.href)) {
        throw new FetchError('REDIRECT_LOOP', `redirect loop: ${[...redirects, next.href].join(' -> ')}`, {
          url: requested,
          finalUrl: current.href,
          status: result.status,
        });
      }
      if (redirects.length >= s.maxRedirects) {
        throw new FetchError(
          'TOO_MANY_REDIRECTS',
          `more than ${s.maxRedirects} redirects from ${requested}`,
          {
            url: requested,
            finalUrl: current.href,
            status: result.status,
          },
        );
      }
      redirects.push(next.href);
      seen.add(next.href);
      current = next;
      attempt = 0;
    }
  }

  return {
    async fetch(url, options) {
      // One controller and one timer per request: AbortSignal.timeout and AbortSignal.any cost far more, and a
      // crawler sends thousands of requests a second.
      const controller = new AbortController();
      const wire = wireClock(s.totalTimeoutMs, () =>
        controller.abort(new DOMException('the whole request took too long', 'TimeoutError')),
      );
      const caller = options.signal;
      const onCallerAbort = () => controller.abort(caller?.reason);
      if (caller?.aborted) onCallerAbort();
      else caller?.addEventListener('abort', onCallerAbort, { once: true });
      try {
        return await run(url, options, controller.signal, wire);
      } finally {
        wire.pause();
        caller?.removeEventListener('abort', onCallerAbort);
      }
    },
    setCrawlDelay(host, seconds) {
      politeness.setCrawlDelay(host, seconds);
    },
    async close() {
      await agent.close();
    },
  };
}

/** An interceptor that calls the hook registered for a request's options when undici writes it to its socket. */
function onRequestStart(hooks: WeakMap<object, () => void>): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(opts, {
      onRequestStart(controller, context) {
        hooks.get(opts)?.();
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: handler.onRequestUpgrade?.bind(handler),
      onResponseStart: handler.onResponseStart?.bind(handler),
      onResponseData: handler.onResponseData?.bind(handler),
      onResponseEnd: handler.onResponseEnd?.bind(handler),
      onResponseError: handler.onResponseError?.bind(handler),
    });
}

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
