// A domain waiting for a slot in the domain pool reads its robots.txt early (one small request): its Crawl-delay
// and how slowly it answered say how long its chain will be, so the pool can give the next free slot to the
// longest one — the longest-first rule of a perfectly parallel client. The answer is handed to the domain's
// discovery when it runs, so the site sees no extra request; the host's gap and Crawl-delay hold as always,
// since every request still goes through the fetcher's politeness.

import { parseRobots } from '../engine/robots.js';
import { type Fetcher, type FetchOptions, type FetchResponse, siteTimeMs } from '../ports/fetcher.js';

/** Requests a domain's contract usually takes (robots.txt, homepage, a few sitemaps and feeds). */
const TYPICAL_REQUESTS = 12;
/** Seedbed's own gap between two requests to a host (the fetcher's perHostMinDelayMs). */
const HOST_GAP_MS = 250;
/** An early answer is kept for the discovery only up to this size; a bigger file is read again then. */
const MAX_KEPT_BYTES = 64 * 1024;
/**
 * An answer this many times slower than the typical one, and by this margin at least, marks a slow site. The
 * margin keeps a busy main thread (an answer read late looks slow) from calling ordinary sites slow when all
 * answer quickly; a site that much slower than the others has a chain worth starting early.
 */
const SLOW_FACTOR = 3;
const SLOW_MARGIN_MS = 1_000;
/**
 * Answers remembered. Slow sites answer last, so the most recent few are theirs: a long memory and its lower
 * quartile keep "typical" the ordinary site's time even while a run of slow answers comes in.
 */
const RECENT_ANSWERS = 256;

/** The typical time a site took to answer an early robots.txt read (our own waits left out). */
export class AnswerTimes {
  /** In arrival order, to forget the oldest. */
  private readonly recent: number[] = [];
  /** The same answers in ascending order: every answer of a batch is judged, so the quartile is kept at hand. */
  private readonly sorted: number[] = [];

  add(ms: number): void {
    this.recent.push(ms);
    this.sorted.splice(this.placeOf(ms), 0, ms);
    if (this.recent.length > RECENT_ANSWERS) {
      const oldest = this.recent.shift() as number;
      this.sorted.splice(this.placeOf(oldest), 1);
    }
  }

  /** Whether an answer that took the site `siteMs` of its own marks it as slow; never before a few are known. */
  isSlow(siteMs: number): boolean {
    const typical = this.typical();
    return typical !== null && siteMs > SLOW_FACTOR * typical && siteMs > typical + SLOW_MARGIN_MS;
  }

  /** The lower quartile of the recent answers; null until there are a few. */
  typical(): number | null {
    if (this.sorted.length < 8) return null;
    return this.sorted[Math.floor(this.sorted.length / 4)] as number;
  }

  /** The first index in `sorted` whose value is not below `ms`. */
  private placeOf(ms: number): number {
    let low = 0;
    let high = this.sorted.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if ((this.sorted[mid] as number) < ms) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}

export interface RobotsLookahead {
  /**
   * Reads `https://{host}/robots.txt` now, with the given place in line. Resolves with the domain's expected
   * chain in ms when it is long (a Crawl-delay above the host gap, or a slow answer), else 0; never rejects.
   */
  read(priority: number): Promise<number>;
  /** The fetcher for the domain's discovery: its read of that robots.txt is answered by the early one. */
  wrap(fetcher: Fetcher): Fetcher;
}

export function robotsLookahead(fetcher: Fetcher, host: string, times: AnswerTimes): RobotsLookahead {
  const robotsUrl = `https://${host}/robots.txt`;
  let early: Promise<FetchResponse | null> | null = null;

  async function readEarly(priority: number): Promise<{ response: FetchResponse | null; chainMs: number }> {
    let response: FetchResponse;
    try {
      response = await fetcher.fetch(robotsUrl, { kind: 'robots', truncate: true, priority });
    } catch {
      // Refused, not spoken, timed out: the discovery finds out for itself (and may try http).
      return { response: null, chainMs: 0 };
    }
    // The site's own time: a wait in our line says nothing about the site (at the start of a batch every
    // early read waits behind hundreds of others, so their elapsed times hide a slow site).
    const siteMs = siteTimeMs(response);
    const slow = times.isSlow(siteMs);
    times.add(siteMs);
    const ok = response.status >= 200 && response.status < 300;
    const crawlDelay = ok ? parseRobots(robotsUrl, response.body, response.status).crawl_delay : null;
    if (crawlDelay !== null && crawlDelay > 0) {
      // Told to the fetcher now, as the discovery would: it holds from the host's next request on.
      fetcher.setCrawlDelay(host, crawlDelay);
      const servedBy = new URL(response.finalUrl).hostname;
      if (servedBy !== host) fetcher.setCrawlDelay(servedBy, crawlDelay);
    }
    const gapMs = Math.max(HOST_GAP_MS, (crawlDelay ?? 0) * 1000);
    const long = gapMs > HOST_GAP_MS || slow;
    const chainMs = long ? TYPICAL_REQUESTS * (gapMs + siteMs) : 0;
    // Bounded memory while the domain waits: a small file is kept for the discovery, a big one read again.
    return { response: response.body.length <= MAX_KEPT_BYTES ? response : null, chainMs };
  }

  return {
    read(priority) {
      const reading = readEarly(priority);
      early = reading.then((r) => r.response);
      return reading.then((r) => r.chainMs);
    },
    wrap(inner) {
      return {
        async fetch(url: string, options: FetchOptions) {
          const pending = early;
          // The first read of that very file, unconditional (a revalidation sends its validators itself).
          if (pending && url === robotsUrl && options.kind === 'robots' && !options.conditional) {
            early = null;
            const response = await pending;
            if (response) return response;
          }
          return inner.fetch(url, options);
        },
        setCrawlDelay: (h, seconds) => inner.setCrawlDelay(h, seconds),
        close: () => inner.close(),
      };
    },
  };
}
