import { describe, expect, it } from 'vitest';
import type { Fetcher, FetchOptions } from '../../../src/ports/fetcher.js';
import { type FetchScope, scopedFetcher } from '../../../src/services/fetch-scope.js';

/** A domain's scope that asks nothing of the test; a test overrides what it watches. */
function scopeWith(overrides: Partial<FetchScope>): FetchScope {
  return {
    signal: new AbortController().signal,
    priority: () => 1,
    extend: () => {},
    lengthen: () => {},
    ...overrides,
  };
}

/** Answers every request at once, each after the given own wait and the site's time (ms). */
function recordingFetcher(times: Array<{ waitedMs: number; siteMs: number }> = []) {
  const calls: FetchOptions[] = [];
  const delays: Array<[string, number]> = [];
  const fetcher: Fetcher = {
    async fetch(url, options) {
      const time = times[calls.length];
      calls.push(options);
      return {
        url,
        finalUrl: url,
        status: 200,
        headers: {},
        body: Buffer.alloc(0),
        redirects: [],
        elapsedMs: 1,
        ...(time ? { elapsedMs: time.waitedMs + time.siteMs, waitedMs: time.waitedMs } : {}),
      };
    },
    setCrawlDelay: (host, seconds) => void delays.push([host, seconds]),
    async close() {},
  };
  return { fetcher, calls, delays };
}

describe('a domain scope over the shared fetcher', () => {
  it("sends each request with the domain's deadline signal and its place in line", async () => {
    const { fetcher, calls } = recordingFetcher();
    const controller = new AbortController();
    const scoped = scopedFetcher(fetcher, scopeWith({ signal: controller.signal, priority: (n) => 100 + n }));
    await scoped.fetch('https://a.test/', { kind: 'probe' });
    await scoped.fetch('https://a.test/robots.txt', { kind: 'robots' });
    expect(calls.map((c) => c.priority)).toEqual([100, 101]);
    expect(calls[0]?.signal).toBe(controller.signal);
    // The engine's own signal still counts, alongside the deadline.
    const own = new AbortController();
    await scoped.fetch('https://a.test/feed', { kind: 'feed', signal: own.signal });
    own.abort();
    expect(calls[2]?.signal?.aborted).toBe(true);
    controller.abort();
    expect(calls[0]?.signal?.aborted).toBe(true);
  });

  it('tells the place in line how many requests the engine knows will follow', async () => {
    const { fetcher, calls } = recordingFetcher();
    const asked: Array<[number, number | undefined]> = [];
    const scoped = scopedFetcher(
      fetcher,
      scopeWith({
        priority: (n, following) => {
          asked.push([n, following]);
          return 100 + n;
        },
      }),
    );
    await scoped.fetch('https://a.test/sitemap_index.xml', { kind: 'sitemap' });
    await scoped.fetch('https://a.test/sitemap-1.xml', { kind: 'sitemap', following: 39 });
    expect(asked).toEqual([
      [0, 0],
      [1, 39],
    ]);
    expect(calls.map((c) => c.priority)).toEqual([100, 101]);
  });

  it('passes a Crawl-delay on, and extends the deadline by it for every later request (capped)', async () => {
    const { fetcher, delays } = recordingFetcher();
    const extended: number[] = [];
    // A clock that stands still: only the Crawl-delay can extend here.
    const scoped = scopedFetcher(fetcher, scopeWith({ extend: (ms) => void extended.push(ms) }), {
      now: () => 0,
    });
    await scoped.fetch('https://a.test/', { kind: 'probe' });
    scoped.setCrawlDelay('a.test', 5);
    await scoped.fetch('https://a.test/sitemap.xml', { kind: 'sitemap' });
    await scoped.fetch('https://a.test/feed', { kind: 'feed' });
    scoped.setCrawlDelay('a.test', 3_600);
    await scoped.fetch('https://a.test/atom', { kind: 'feed' });
    expect(delays).toEqual([
      ['a.test', 5],
      ['a.test', 3_600],
    ]);
    expect(extended).toEqual([5_000, 5_000, 60_000]);
  });

  it('gives back what a request waited in our own line beyond the Crawl-delay already granted', async () => {
    const { fetcher } = recordingFetcher([
      { waitedMs: 0, siteMs: 100 },
      { waitedMs: 4_000, siteMs: 100 },
      { waitedMs: 2_500, siteMs: 100 },
    ]);
    const extended: number[] = [];
    const scoped = scopedFetcher(fetcher, scopeWith({ extend: (ms) => void extended.push(ms) }));
    await scoped.fetch('https://a.test/robots.txt', { kind: 'robots' });
    await scoped.fetch('https://a.test/', { kind: 'probe' });
    scoped.setCrawlDelay('a.test', 2);
    await scoped.fetch('https://a.test/feed', { kind: 'feed' });
    // Nothing for the unwaited first; 4 s for the second; the third's 2 s Crawl-delay up front, the rest after.
    expect(extended).toEqual([4_000, 2_000, 500]);
  });

  it('marks the domain long once an answer took the site itself far longer than the typical one', async () => {
    const { fetcher } = recordingFetcher([
      { waitedMs: 9_000, siteMs: 200 },
      { waitedMs: 0, siteMs: 5_000 },
      { waitedMs: 0, siteMs: 200 },
    ]);
    const judged: number[] = [];
    let lengthened = 0;
    const scoped = scopedFetcher(
      fetcher,
      scopeWith({
        lengthen() {
          lengthened += 1;
        },
      }),
      {
        judge: {
          isSlow(siteMs) {
            judged.push(siteMs);
            return siteMs > 1_000;
          },
        },
      },
    );
    await scoped.fetch('https://a.test/robots.txt', { kind: 'robots' });
    // A long wait in our own line is not the site's slowness.
    expect(lengthened).toBe(0);
    await scoped.fetch('https://a.test/', { kind: 'probe' });
    expect(lengthened).toBe(1);
    expect(judged).toEqual([200, 5_000]);
  });

  it('does not count reading sitemaps against the deadline: their requests, and our parsing before each', async () => {
    let clock = 0;
    const took: Record<string, number> = { '/': 200, '/sitemap_index.xml': 3_000, '/sitemap-1.xml': 4_000 };
    const fetcher: Fetcher = {
      async fetch(url) {
        clock += took[new URL(url).pathname] ?? 100;
        return {
          url,
          finalUrl: url,
          status: 200,
          headers: {},
          body: Buffer.alloc(0),
          redirects: [],
          elapsedMs: 1,
        };
      },
      setCrawlDelay: () => {},
      async close() {},
    };
    const extended: number[] = [];
    const scoped = scopedFetcher(fetcher, scopeWith({ extend: (ms) => void extended.push(ms) }), {
      now: () => clock,
    });
    await scoped.fetch('https://a.test/', { kind: 'html' });
    clock += 500; // reading the homepage
    await scoped.fetch('https://a.test/sitemap_index.xml', { kind: 'sitemap' });
    clock += 6_000; // parsing a big index
    await scoped.fetch('https://a.test/sitemap-1.xml', { kind: 'sitemap' });
    clock += 7_000; // parsing a big child
    await scoped.fetch('https://a.test/feed', { kind: 'feed' });
    // The homepage and the feed count; so does the reading of the last sitemap file (a budget of sitemaps.ts
    // bounds that): only the time before each sitemap request and the request itself are given back.
    expect(extended).toEqual([500, 3_000, 6_000, 4_000]);
  });
});
