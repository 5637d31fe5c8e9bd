import { describe, expect, it } from 'vitest';
import type { Fetcher, FetchOptions, FetchResponse } from '../../../src/ports/fetcher.js';
import { type FetchScope, scopedFetcher } from '../../../src/services/fetch-scope.js';
import { AnswerTimes } from '../../../src/services/robots-lookahead.js';

/** A domain's scope that asks nothing of the test; a test overrides what it watches. */
function scopeWith(overrides: Partial<FetchScope>): FetchScope {
  return {
    signal: new AbortController().signal,
    priority: () => 1,
    extend: () => {},
    hold: () => () => {},
    lengthen: () => {},
    ...overrides,
  };
}

/** A 200 answer with no body, at once. */
function answered(url: string): FetchResponse {
  return { url, finalUrl: url, status: 200, headers: {}, body: Buffer.alloc(0), redirects: [], elapsedMs: 1 };
}

/** A fetcher whose every request first runs `before` (which may throw), then answers 200 at once. */
function fetcherThat(before: (url: string, options: FetchOptions) => void): Fetcher {
  return {
    async fetch(url, options) {
      before(url, options);
      return answered(url);
    },
    setCrawlDelay: () => {},
    async close() {},
  };
}

/** A scope that counts the holds on its deadline under way. */
function countingHolds(): FetchScope & { holds: number } {
  const scope = {
    ...scopeWith({}),
    holds: 0,
    hold() {
      scope.holds += 1;
      return () => {
        scope.holds -= 1;
      };
    },
  };
  return scope;
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
        ...answered(url),
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

  it('passes a Crawl-delay on, and leaves its waits to the hold (no extension of its own)', async () => {
    const { fetcher, delays } = recordingFetcher();
    const extended: number[] = [];
    const scoped = scopedFetcher(fetcher, scopeWith({ extend: (ms) => void extended.push(ms) }));
    await scoped.fetch('https://a.test/', { kind: 'probe' });
    scoped.setCrawlDelay('a.test', 5);
    await scoped.fetch('https://a.test/feed', { kind: 'feed' });
    expect(delays).toEqual([['a.test', 5]]);
    expect(extended).toEqual([]);
  });

  it('holds the deadline while a request waits in our own line, for each hop of it', async () => {
    const scope = countingHolds();
    const seen: Array<[boolean, number]> = [];
    const fetcher = fetcherThat((_url, options) => {
      // Two hops (a redirect): each waits in line, then goes on the wire.
      for (let hop = 0; hop < 2; hop += 1) {
        options.queueing?.(true);
        seen.push([true, scope.holds]);
        options.queueing?.(false);
        seen.push([false, scope.holds]);
      }
    });
    const own: boolean[] = [];
    await scopedFetcher(fetcher, scope).fetch('https://a.test/', {
      kind: 'html',
      queueing: (waiting) => void own.push(waiting),
    });
    expect(seen).toEqual([
      [true, 1],
      [false, 0],
      [true, 1],
      [false, 0],
    ]);
    expect(scope.holds).toBe(0);
    // The caller's own hook still hears it.
    expect(own).toEqual([true, false, true, false]);
  });

  it('lets go of its hold when a request fails while still in line', async () => {
    const scope = countingHolds();
    const fetcher = fetcherThat((_url, options) => {
      options.queueing?.(true);
      throw new Error('aborted in line');
    });
    await expect(scopedFetcher(fetcher, scope).fetch('https://a.test/', { kind: 'html' })).rejects.toThrow();
    expect(scope.holds).toBe(0);
  });

  it('marks the domain long once an answer took the site itself far longer than the typical one', async () => {
    const { fetcher } = recordingFetcher([
      { waitedMs: 9_000, siteMs: 200 },
      { waitedMs: 0, siteMs: 5_000 },
      { waitedMs: 0, siteMs: 200 },
    ]);
    const judged: number[] = [];
    const learned: number[] = [];
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
          add: (siteMs) => void learned.push(siteMs),
        },
      },
    );
    await scoped.fetch('https://a.test/robots.txt', { kind: 'robots' });
    // A long wait in our own line is not the site's slowness.
    expect(lengthened).toBe(0);
    await scoped.fetch('https://a.test/', { kind: 'probe' });
    expect(lengthened).toBe(1);
    expect(judged).toEqual([200, 5_000]);
    // Every answer teaches the judge, each judged before it counts: no domain need wait for a look-ahead read.
    expect(learned).toEqual([200, 5_000]);
  });

  it('finds a slow site among ordinary ones from their own answers, with no look-ahead read at all', async () => {
    const times = new AnswerTimes();
    const lengthened: string[] = [];
    async function domain(host: string, siteMs: number) {
      const { fetcher } = recordingFetcher([{ waitedMs: 3_000, siteMs }]);
      const scope = scopeWith({ lengthen: () => void lengthened.push(host) });
      await scopedFetcher(fetcher, scope, { judge: times }).fetch(`https://${host}/robots.txt`, {
        kind: 'robots',
      });
    }
    for (let i = 0; i < 12; i += 1) await domain(`s${i}.test`, 150 + i);
    await domain('slow.test', 5_000);
    await domain('ordinary.test', 400);
    expect(lengthened).toEqual(['slow.test']);
  });

  it('does not count reading sitemaps against the deadline: their requests, and our parsing before each', async () => {
    let clock = 0;
    const scope = countingHolds();
    const extended: number[] = [];
    scope.extend = (ms) => void extended.push(ms);
    const heldDuring: Record<string, number> = {};
    const fetcher = fetcherThat((url) => {
      heldDuring[new URL(url).pathname] = scope.holds;
      clock += 1_000;
    });
    const scoped = scopedFetcher(fetcher, scope, { now: () => clock });
    await scoped.fetch('https://a.test/', { kind: 'html' });
    clock += 500; // reading the homepage
    await scoped.fetch('https://a.test/sitemap_index.xml', { kind: 'sitemap' });
    clock += 6_000; // parsing a big index
    await scoped.fetch('https://a.test/sitemap-1.xml', { kind: 'sitemap' });
    clock += 7_000; // parsing a big child
    await scoped.fetch('https://a.test/feed', { kind: 'feed' });
    // The deadline stands still through each sitemap request, not through the others.
    expect(heldDuring).toEqual({ '/': 0, '/sitemap_index.xml': 1, '/sitemap-1.xml': 1, '/feed': 0 });
    expect(scope.holds).toBe(0);
    // The time before each sitemap request is given back; the reading of the last one counts (a budget of
    // sitemaps.ts bounds that), as do the homepage and the feed.
    expect(extended).toEqual([500, 6_000]);
  });
});
