// The fetcher's settings: what a caller may set (HttpFetcherConfig), the defaults, and the settings a fetcher
// runs with once the two are merged.
import type { FetchKind } from '../ports/fetcher.js';
import type { Sleep } from './fetch-politeness.js';
import type { LookupAll } from './ssrf-guard.js';

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

/** The config over the defaults: a setting left undefined keeps its default rather than erasing it. */
export function fetcherSettings(config: HttpFetcherConfig) {
  const settings = { ...DEFAULT_FETCHER_SETTINGS, ...withoutUndefined(config) };
  return {
    ...settings,
    maxBytes: { ...DEFAULT_MAX_BYTES, ...withoutUndefined(config.maxBytes ?? {}) },
    /** Connections and requests in flight per host, clamped to 1..2. */
    perHost: Math.min(2, Math.max(1, Math.floor(settings.perHostConcurrency))),
  };
}

export type FetcherSettings = ReturnType<typeof fetcherSettings>;

function withoutUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
