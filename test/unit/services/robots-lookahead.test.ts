import { describe, expect, it } from 'vitest';
import type { Fetcher, FetchOptions } from '../../../src/ports/fetcher.js';
import { AnswerTimes, robotsLookahead } from '../../../src/services/robots-lookahead.js';

/** Answers every URL from `bodies` (404 otherwise) and records what was asked. */
function siteFetcher(bodies: Record<string, string>, elapsedMs = 100, waitedMs = 0) {
  const asked: Array<{ url: string; options: FetchOptions }> = [];
  const delays: Array<[string, number]> = [];
  const fetcher: Fetcher = {
    async fetch(url, options) {
      asked.push({ url, options });
      const body = bodies[url];
      return {
        url,
        finalUrl: url,
        status: body === undefined ? 404 : 200,
        headers: {},
        body: Buffer.from(body ?? ''),
        redirects: [],
        elapsedMs,
        waitedMs,
      };
    },
    setCrawlDelay: (host, seconds) => void delays.push([host, seconds]),
    async close() {},
  };
  return { fetcher, asked, delays };
}

const ROBOTS = 'https://slow.test/robots.txt';

describe('robots.txt read while a domain waits for a slot', () => {
  it('finds a Crawl-delay, tells the fetcher at once and reports a long chain', async () => {
    const { fetcher, asked, delays } = siteFetcher({ [ROBOTS]: 'User-agent: *\nCrawl-delay: 2\n' });
    const early = robotsLookahead(fetcher, 'slow.test', new AnswerTimes());
    const chainMs = await early.read(0.5);
    expect(asked).toEqual([{ url: ROBOTS, options: { kind: 'robots', truncate: true, priority: 0.5 } }]);
    expect(delays).toEqual([['slow.test', 2]]);
    // Twelve requests two seconds apart, or thereabouts.
    expect(chainMs).toBeGreaterThanOrEqual(12 * 2000);
  });

  it('reports an ordinary site as 0, and a site far slower than the recent ones as long', async () => {
    const times = new AnswerTimes();
    for (let i = 0; i < 10; i += 1) {
      const { fetcher } = siteFetcher({ [ROBOTS]: 'User-agent: *\nAllow: /\n' }, 100);
      expect(await robotsLookahead(fetcher, 'slow.test', times).read(0.5)).toBe(0);
    }
    // Nine times slower, but by less than a second: a busy main thread can make that much of an answer.
    const { fetcher: lagging } = siteFetcher({}, 900);
    expect(await robotsLookahead(lagging, 'lagging.test', times).read(0.5)).toBe(0);
    const { fetcher } = siteFetcher({}, 1_500);
    expect(await robotsLookahead(fetcher, 'slow.test', times).read(0.5)).toBeGreaterThan(0);
  });

  it('judges a site by its own time, not by how long the read waited in our line', async () => {
    const times = new AnswerTimes();
    // At a batch's start every early read waits seconds for a slot: the sites themselves took 100 ms.
    for (let i = 0; i < 10; i += 1) {
      const { fetcher } = siteFetcher({ [ROBOTS]: 'User-agent: *\n' }, 4_100, 4_000);
      expect(await robotsLookahead(fetcher, 'quick.test', times).read(0.5)).toBe(0);
    }
    // A read that waited less yet took 1.5 s of the site's own time is a slow site...
    const slow = siteFetcher({ [ROBOTS]: 'User-agent: *\n' }, 2_000, 500);
    expect(await robotsLookahead(slow.fetcher, 'slow.test', times).read(0.5)).toBeGreaterThanOrEqual(
      12 * 1_000,
    );
    // ...and one that waited longer than the others for its turn is not.
    const queued = siteFetcher({ [ROBOTS]: 'User-agent: *\n' }, 9_100, 9_000);
    expect(await robotsLookahead(queued.fetcher, 'queued.test', times).read(0.5)).toBe(0);
  });

  it("answers the discovery's read of that robots.txt with the early one, once, and nothing else", async () => {
    const site = siteFetcher({ [ROBOTS]: 'User-agent: *\nAllow: /\n' });
    const early = robotsLookahead(site.fetcher, 'slow.test', new AnswerTimes());
    await early.read(0.5);
    const later = siteFetcher({ [ROBOTS]: 'User-agent: *\nDisallow: /\n' });
    const discovery = early.wrap(later.fetcher);
    const first = await discovery.fetch(ROBOTS, { kind: 'robots', truncate: true });
    expect(first.body.toString()).toContain('Allow: /');
    expect(later.asked).toEqual([]);
    // Read again, or revalidated, or another URL: the network answers.
    await discovery.fetch(ROBOTS, { kind: 'robots', truncate: true });
    await discovery.fetch('https://slow.test/', { kind: 'probe' });
    expect(later.asked.map((a) => a.url)).toEqual([ROBOTS, 'https://slow.test/']);
  });

  it('leaves the discovery to read robots.txt itself when nothing was read early or the read failed', async () => {
    const failing: Fetcher = {
      fetch: async () => Promise.reject(new Error('refused')),
      setCrawlDelay: () => {},
      async close() {},
    };
    const early = robotsLookahead(failing, 'slow.test', new AnswerTimes());
    expect(await early.read(0.5)).toBe(0);
    const later = siteFetcher({ [ROBOTS]: 'User-agent: *\n' });
    await early.wrap(later.fetcher).fetch(ROBOTS, { kind: 'robots' });
    const unread = robotsLookahead(failing, 'slow.test', new AnswerTimes());
    await unread.wrap(later.fetcher).fetch(ROBOTS, { kind: 'robots' });
    expect(later.asked.map((a) => a.url)).toEqual([ROBOTS, ROBOTS]);
  });
});

describe('typical answer time', () => {
  it('is the lower quartile of the last 256 answers, the oldest forgotten first', () => {
    const times = new AnswerTimes();
    for (let i = 0; i < 7; i += 1) times.add(100);
    expect(times.typical()).toBeNull();
    times.add(100);
    expect(times.typical()).toBe(100);
    // Half the answers quick (101, 103, … 227), the slow half arriving last: the quartile is a quick one.
    const mixed = new AnswerTimes();
    for (let i = 1; i < 128; i += 2) mixed.add(100 + i);
    for (let i = 0; i < 64; i += 1) mixed.add(5_000);
    expect(mixed.typical()).toBe(100 + 2 * 32 + 1);
    // Three quarters slow: slow is what is typical, and nothing stands out.
    for (let i = 0; i < 128; i += 1) mixed.add(5_000);
    expect(mixed.typical()).toBe(5_000);
    expect(mixed.isSlow(5_000)).toBe(false);
    // Once they are all forgotten, the answers that came after decide.
    for (let i = 0; i < 256; i += 1) mixed.add(1_000);
    expect(mixed.typical()).toBe(1_000);
    expect(mixed.isSlow(5_000)).toBe(true);
  });
});
