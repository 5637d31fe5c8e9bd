// The fetcher port: every outbound HTTP request of the engine (liveness, robots, sitemaps, feeds) goes through it,
// so the SSRF guard, size caps, timeouts and per-host politeness live in one adapter.

/** What a request is for: it picks the size cap and the Accept header. */
export type FetchKind = 'html' | 'robots' | 'sitemap' | 'feed' | 'probe';

export const FETCH_KINDS: readonly FetchKind[] = ['html', 'robots', 'sitemap', 'feed', 'probe'];

export interface FetchOptions {
  kind: FetchKind;
  method?: 'GET' | 'HEAD';
  signal?: AbortSignal;
  /**
   * A body over the kind's cap is cut at the cap (and `truncated` set) instead of failing with BODY_TOO_LARGE:
   * for formats read only up to a limit anyway, like robots.txt (RFC 9309 §2.5).
   */
  truncate?: boolean;
  /**
   * When the fetcher's global limit is reached, lower numbers are served first (a domain started earlier
   * finishes first instead of every domain crawling along together). None counts as 0, ahead of every domain
   * (numbered from 1): a network canary or a one-off probe never waits behind a crawl.
   */
  priority?: number;
  /**
   * Requests to the same site the caller already knows will follow this one (a sitemap index's children still
   * to read): a long chain ahead, which a scheduler may start sooner. A hint; the fetcher itself ignores it.
   */
  following?: number;
  /**
   * The validators of an earlier answer for this URL: sent as If-None-Match / If-Modified-Since, so an unchanged
   * resource answers 304 with no body (a re-check's politeness).
   */
  conditional?: Validators;
  /**
   * Told `true` when the request starts waiting in the fetcher's own line (the host's slot, its gap or
   * Crawl-delay, a global slot), `false` when it leaves that line for the wire or gives up; again for each
   * redirect or retry. A domain's deadline stands still meanwhile: that time is ours, not the site's.
   */
  queueing?: (waiting: boolean) => void;
}

/** What an answer said to revalidate it by: its ETag and Last-Modified headers, as sent. */
export interface Validators {
  etag?: string;
  last_modified?: string;
}

export interface FetchResponse {
  /** The URL that was asked for. */
  url: string;
  /** The URL that gave the final answer, after redirects. */
  finalUrl: string;
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Decoded (gzip/deflate/br) and never larger than the kind's cap. Empty for HEAD. */
  body: Buffer;
  /** Set (true) only when `truncate` was asked for and the body was cut at the cap. */
  truncated?: boolean;
  /** Every redirect target followed, in order (finalUrl is the last one when there were any). */
  redirects: string[];
  /**
   * From the call to the last byte read, redirects and retries included, and so is any wait for a global or
   * per-host slot. What the site itself took is `siteTimeMs` (liveness latency, the slow-site judge).
   */
  elapsedMs: number;
  /**
   * The part of elapsedMs spent in our own line: waiting for a global or per-host slot (the host's gap and
   * Crawl-delay included). elapsedMs minus this is the site's own time. Absent when the fetcher does not know.
   */
  waitedMs?: number;
  /**
   * Requests this fetch put on the wire to the site: 1, plus one per redirect hop and per 429/503 retry. Absent
   * when the fetcher does not know (then 1 + redirects is the best guess: countingFetcher).
   */
  requests?: number;
}

/** The site's own time for an answer: elapsedMs less our own wait in line (none when the fetcher did not say). */
export function siteTimeMs(response: FetchResponse): number {
  return Math.max(0, response.elapsedMs - (response.waitedMs ?? 0));
}

export type FetchErrorCode =
  | 'ENOTFOUND'
  | 'ECONNREFUSED'
  | 'TIMEOUT'
  | 'TLS'
  | 'TOO_MANY_REDIRECTS'
  | 'REDIRECT_LOOP'
  | 'SSRF_BLOCKED'
  | 'BODY_TOO_LARGE'
  | 'INVALID_URL'
  | 'ABORTED'
  | 'NETWORK';

export interface FetchErrorDetails {
  url: string;
  /** Set when the failure came after an answer's headers (BODY_TOO_LARGE, a body timeout). */
  status?: number;
  finalUrl?: string;
  cause?: unknown;
  /** Requests that reached the site before the failure (redirects, retries, the failing one if it was sent). */
  requests?: number;
}

export class FetchError extends Error {
  readonly url: string;
  readonly status: number | undefined;
  readonly finalUrl: string | undefined;
  readonly requests: number | undefined;

  constructor(
    readonly code: FetchErrorCode,
    message: string,
    details: FetchErrorDetails,
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.name = 'FetchError';
    this.url = details.url;
    this.status = details.status;
    this.finalUrl = details.finalUrl;
    this.requests = details.requests;
  }
}

export interface Fetcher {
  /** Resolves with any HTTP answer (4xx/5xx included); rejects only with FetchError. */
  fetch(url: string, options: FetchOptions): Promise<FetchResponse>;
  /**
   * Raises the minimum delay between two requests to `host` (robots.txt Crawl-delay, in seconds). It never
   * lowers the fetcher's own floor, and the adapter may cap it.
   */
  setCrawlDelay(host: string, seconds: number): void;
  /**
   * Gets ready to fetch now, so the first request does not wait for it: a fetcher on a thread of its own starts
   * that thread (half a second from source) and resolves once the thread has answered a first message. Called
   * when workers that fetch start, so the service can say when it is ready; optional. Rejects only when the
   * fetcher cannot start (each request would then fail on its own).
   */
  prepare?(): Promise<void>;
  close(): Promise<void>;
}
