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
  /** Pushes the deadline back by `ms`: time that is not the site's own is not held against it. */
  extend(ms: number): void;
  /**
   * The deadline stands still until the returned function is called (a request waiting in our own line). Holds
   * may overlap; the clock runs again when the last one ends.
   */
  hold(): () => void;
  /** The domain turned out to have a long chain (a slow site): its later requests go ahead as a long chain's. */
  lengthen(): void;
}

/** Tells whether a site's own time for one answer marks it as slow (robots-lookahead.ts's AnswerTimes). */
export interface SlowSiteJudge {
  isSlow(siteMs: number): boolean;
  /** Learns from one more answer what a typical site's time is. */
  add(siteMs: number): void;
}

export interface ScopeOptions {
  /** With a judge, an answer far slower than the typical site's marks the domain's chain long. */
  judge?: SlowSiteJudge;
  /** Monotonic milliseconds (tests pass their own). */
  now?: () => number;
}

/**
 * The fetcher as one domain sees it. The deadline stops tarpits, not waiting, and not a big sitemap tree:
 * - while a request waits in our own line (the host's gap, a Crawl-delay, a global slot behind other domains)
 *   the deadline stands still: however many domains share the fetcher, a domain is never cut short for
 *   waiting its turn;
 * - reading sitemaps does not count at all: the deadline stands still through each sitemap request, and our
 *   own reading of the file before it is given back (2.6 million URLs take seconds to parse). The sitemap
 *   budgets (files, bytes, time: sitemaps.ts) bound that part, and report what they cut, where a deadline
 *   would fail the whole domain.
 */
export function scopedFetcher(fetcher: Fetcher, scope: FetchScope, options: ScopeOptions = {}): Fetcher {
  const now = options.now ?? (() => performance.now());
  let sent = 0;
  /** When the domain's last answer (or failure) came: what follows until the next request is our own work. */
  let lastAnswerAt: number | null = null;
  return {
    async fetch(url, fetchOptions) {
      const sitemap = fetchOptions.kind === 'sitemap';
      if (sitemap && lastAnswerAt !== null) scope.extend(now() - lastAnswerAt);
      const signal = fetchOptions.signal
        ? AbortSignal.any([fetchOptions.signal, scope.signal])
        : scope.signal;
      const priority = fetchOptions.priority ?? scope.priority(sent, fetchOptions.following ?? 0);
      sent += 1;
      let inLine: (() => void) | null = null;
      const queueing = (waiting: boolean) => {
        inLine?.();
        inLine = waiting ? scope.hold() : null;
        fetchOptions.queueing?.(waiting);
      };
      const wholeRequest = sitemap ? scope.hold() : null;
      let response: FetchResponse;
      try {
        response = await fetcher.fetch(url, { ...fetchOptions, signal, priority, queueing });
      } finally {
        (inLine as (() => void) | null)?.();
        wholeRequest?.();
        lastAnswerAt = now();
      }
      const siteMs = siteTimeMs(response);
      if (options.judge?.isSlow(siteMs)) scope.lengthen();
      options.judge?.add(siteMs);
      return response;
    },
    setCrawlDelay: (host, seconds) => fetcher.setCrawlDelay(host, seconds),
    // The shared fetcher belongs to the process, not to one domain.
    async close() {},
  };
}
