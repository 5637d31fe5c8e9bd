// One domain's view of the shared fetcher: every request it sends carries the domain's deadline (an
// AbortSignal) and its place in line (a priority), so the engine needs no parameter for either.
import { type Fetcher, type FetchResponse, siteTimeMs } from '../ports/fetcher.js';

export interface FetchScope {
  /** Aborts when the domain's deadline passes. */
  signal: AbortSignal;
  /**
   * The place in line of the domain's n-th request (0-based) when the fetcher's global limit is reached:
   * lower goes first. `following`: requests the engine knows will come after this one (FetchOptions).
   */
  priority(n: number, following?: number): number;
  /** Pushes the deadline back by `ms`: waits the site itself asked for are not held against it. */
  extend(ms: number): void;
  /** The domain turned out to have a long chain (a slow site): its later requests go ahead as a long chain's. */
  lengthen(): void;
}

/** Tells whether a site's own time for one answer marks it as slow (robots-lookahead.ts's AnswerTimes). */
export interface SlowSiteJudge {
  isSlow(siteMs: number): boolean;
}

/** The fetcher caps a Crawl-delay at a minute (its maxCrawlDelayMs); a deadline is never stretched further. */
const MAX_EXTENSION_MS = 60_000;

export interface ScopeOptions {
  /** With a judge, an answer far slower than the typical site's marks the domain's chain long. */
  judge?: SlowSiteJudge;
  /** Monotonic milliseconds (tests pass their own). */
  now?: () => number;
}

/**
 * The fetcher as one domain sees it. The deadline stops tarpits, not waiting, and not a big sitemap tree:
 * - a robots.txt Crawl-delay makes each later request wait that long, so each of them extends the domain's
 *   deadline by the delay up front;
 * - whatever else a request spent in our own line (behind other domains for a global slot) is given back once
 *   it is answered;
 * - reading sitemaps does not count at all: each sitemap request's whole time is given back, and so is our own
 *   reading of the file before it (2.6 million URLs take seconds to parse). The sitemap budgets (files, bytes,
 *   time: sitemaps.ts) bound that part, and report what they cut, where a deadline would fail the whole domain.
 */
export function scopedFetcher(fetcher: Fetcher, scope: FetchScope, options: ScopeOptions = {}): Fetcher {
  const now = options.now ?? (() => performance.now());
  let crawlDelayMs = 0;
  let sent = 0;
  /** When the domain's last answer (or failure) came: what follows until the next request is our own work. */
  let lastAnswerAt: number | null = null;
  return {
    async fetch(url, fetchOptions) {
      const sitemap = fetchOptions.kind === 'sitemap';
      const readingMs = sitemap && lastAnswerAt !== null ? now() - lastAnswerAt : 0;
      if (readingMs > 0) scope.extend(readingMs);
      const extended = crawlDelayMs;
      if (extended > 0) scope.extend(extended);
      const signal = fetchOptions.signal
        ? AbortSignal.any([fetchOptions.signal, scope.signal])
        : scope.signal;
      const priority = fetchOptions.priority ?? scope.priority(sent, fetchOptions.following ?? 0);
      sent += 1;
      const asked = now();
      let response: FetchResponse;
      try {
        response = await fetcher.fetch(url, { ...fetchOptions, signal, priority });
      } finally {
        lastAnswerAt = now();
        const tookMs = lastAnswerAt - asked;
        if (sitemap && tookMs > extended) scope.extend(tookMs - extended);
      }
      const waitedMs = response.waitedMs ?? 0;
      if (!sitemap && waitedMs > extended) scope.extend(waitedMs - extended);
      if (options.judge?.isSlow(siteTimeMs(response))) scope.lengthen();
      return response;
    },
    setCrawlDelay(host, seconds) {
      fetcher.setCrawlDelay(host, seconds);
      if (Number.isFinite(seconds) && seconds > 0)
        crawlDelayMs = Math.min(MAX_EXTENSION_MS, Math.max(crawlDelayMs, seconds * 1000));
    },
    // The shared fetcher belongs to the process, not to one domain.
    async close() {},
  };
}
