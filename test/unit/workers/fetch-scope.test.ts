import { describe, expect, it } from 'vitest';
import type { Fetcher, FetchOptions } from '../../../src/ports/fetcher.js';
import { scopedFetcher } from '../../../src/services/fetch-scope.js';

function recordingFetcher() {
  const calls: FetchOptions[] = [];
  const delays: Array<[string, number]> = [];
  const fetcher: Fetcher = {
    async fetch(url, options) {
      calls.push(options);
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
    setCrawlDelay: (host, seconds) => void delays.push([host, seconds]),
    async close() {},
  };
  return { fetcher, calls, delays };
}

describe('a domain scope over the shared fetcher', () => {
  it("sends each request with the domain's deadline signal and its place in line", async () => {
    const { fetcher, calls } = recordingFetcher();
    const controller = new AbortController();
    const scoped = scopedFetcher(fetcher, {
      signal: controller.signal,
      priority: (n) => 100 + n,
      extend: () => {},
    });
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
    const scoped = scopedFetcher(fetcher, {
      signal: new AbortController().signal,
      priority: (n, following) => {
        asked.push([n, following]);
        return 100 + n;
      },
      extend: () => {},
    });
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
    const scoped = scopedFetcher(fetcher, {
      signal: new AbortController().signal,
      priority: () => 1,
      extend: (ms) => void extended.push(ms),
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
});
