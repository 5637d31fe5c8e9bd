// Politeness as a site sees it: a local server timestamps every request's arrival and names the connection
// it came on, while the real fetcher (real sleeps) works under a contended global limit. Run twice: the fetcher
// on the calling thread, and on its own thread (fetch-thread.ts), which must look the same to a site.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createThreadedFetcher } from '../../../src/adapters/fetch-thread.js';
import { createHttpFetcher, type HttpFetcherConfig } from '../../../src/adapters/http-fetcher.js';
import { discoverContract } from '../../../src/engine/contract-discovery.js';
import type { Fetcher } from '../../../src/ports/fetcher.js';
import { TEST_USER_AGENT } from '../../fixtures/fake-internet/test-fetcher.js';

interface Arrival {
  host: string;
  path: string;
  at: number;
  connection: number;
}

const arrivals: Arrival[] = [];

/** A site whose robots.txt asks for CRAWL_DELAY_S between requests, with a sitemap and a feed to read. */
const CRAWL_DELAY_S = 0.4;
function delayedSitePage(host: string, path: string): { status: number; type: string; body: string } {
  const origin = `http://${host}`;
  switch (path) {
    case '/robots.txt':
      return {
        status: 200,
        type: 'text/plain',
        body: `User-agent: *\nCrawl-delay: ${CRAWL_DELAY_S}\nSitemap: ${origin}/sitemap.xml\n`,
      };
    case '/':
      return {
        status: 200,
        type: 'text/html',
        body: `<html><head><title>Delayed</title><link rel="alternate" type="application/rss+xml" href="${origin}/rss.xml"></head><body></body></html>`,
      };
    case '/sitemap.xml':
      return {
        status: 200,
        type: 'application/xml',
        body: `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>${origin}/a</loc></url></urlset>`,
      };
    case '/rss.xml':
      return {
        status: 200,
        type: 'application/rss+xml',
        body: `<?xml version="1.0"?><rss version="2.0"><channel><title>Delayed</title><link>${origin}/</link><item><title>A</title><link>${origin}/a</link></item></channel></rss>`,
      };
    default:
      return { status: 404, type: 'text/plain', body: 'not found' };
  }
}
const sockets = new Set<Socket>();
let server: http.Server;
let port = 0;

beforeAll(async () => {
  const ids = new WeakMap<Socket, number>();
  let connections = 0;
  server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://x');
    arrivals.push({
      host: String(req.headers.host).replace(/:\d+$/, ''),
      path: url.pathname,
      at: performance.now(),
      connection: ids.get(req.socket) ?? -1,
    });
    // Each answer takes ?ms= milliseconds, like a site across the world.
    setTimeout(
      () => {
        const site = String(req.headers.host).replace(/:\d+$/, '');
        const page = site.startsWith('delayed.') ? delayedSitePage(site, url.pathname) : null;
        res.writeHead(page?.status ?? 200, { 'content-type': page?.type ?? 'text/plain' });
        res.end(page?.body ?? `${url.pathname}\n`);
      },
      Number(url.searchParams.get('ms') ?? 0),
    );
  });
  server.on('connection', (socket: Socket) => {
    connections += 1;
    ids.set(socket, connections);
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const of = (host: string) => arrivals.filter((a) => a.host === host);

const FETCHERS: Array<[string, (config: HttpFetcherConfig) => Fetcher]> = [
  ['on the calling thread', createHttpFetcher],
  ['on its own thread', createThreadedFetcher],
];

describe.each(FETCHERS)('politeness on the wire, the fetcher %s', (_, createFetcher) => {
  beforeEach(() => {
    arrivals.length = 0;
  });

  /**
   * A fetcher that has been asked once already (a host of its own): a fetch thread starts with its first request,
   * and the tests time requests from when they are asked for. Only the start matters, not the answer (a cold
   * thread's first request may pass a test's short timeout).
   */
  async function warm(fetcher: Fetcher): Promise<Fetcher> {
    await fetcher.fetch('http://warm-up.wire.test/', { kind: 'html' }).catch(() => undefined);
    return fetcher;
  }

  function wireFetcher(
    globalConcurrency: number,
    perHostMinDelayMs: number,
    totalTimeoutMs?: number,
  ): Promise<Fetcher> {
    return warm(
      createFetcher({
        userAgent: TEST_USER_AGENT,
        resolve: `*.wire.test=127.0.0.1:${port}`,
        globalConcurrency,
        perHostConcurrency: 1,
        perHostMinDelayMs,
        ...(totalTimeoutMs ? { totalTimeoutMs } : {}),
      }),
    );
  }

  it('keeps the per-host gap between arrivals however contended the global limit is', async () => {
    const gap = 120;
    const fetcher = await wireFetcher(2, gap);
    const hosts = ['a', 'b', 'c', 'd', 'e'].map((h) => `${h}.wire.test`);
    try {
      // Five sites, four requests each, two slots in all: every request waits for a slot, some for long.
      await Promise.all(
        hosts.map(async (host, i) => {
          for (let n = 0; n < 4; n += 1) {
            await fetcher.fetch(`http://${host}/${n}?ms=${40 + 20 * i}`, { kind: 'html' });
          }
        }),
      );
    } finally {
      await fetcher.close();
    }
    for (const host of hosts) {
      const times = of(host).map((a) => a.at);
      expect(times).toHaveLength(4);
      for (let i = 1; i < times.length; i += 1) {
        expect(times[i]! - times[i - 1]!, `${host}, request ${i}`).toBeGreaterThanOrEqual(gap);
      }
    }
  });

  it('does not let a long wait for the global slot shorten the gap to the next request', async () => {
    const gap = 120;
    const fetcher = await wireFetcher(1, gap);
    try {
      // A slow site holds the only slot for 300 ms: the first request to the quick site leaves only then,
      // and its second request must still wait a whole gap after that, not after the first one was asked for.
      const slow = fetcher.fetch('http://slow.wire.test/?ms=300', { kind: 'html' });
      await new Promise((resolve) => setTimeout(resolve, 10));
      await fetcher.fetch('http://quick.wire.test/1?ms=5', { kind: 'html' });
      await fetcher.fetch('http://quick.wire.test/2?ms=5', { kind: 'html' });
      await slow;
    } finally {
      await fetcher.close();
    }
    const [first, second] = of('quick.wire.test').map((a) => a.at);
    expect(second! - first!).toBeGreaterThanOrEqual(gap);
  });

  it("says how much of a request was our own wait for a slot, apart from the site's time", async () => {
    const fetcher = await wireFetcher(1, 0);
    try {
      const started = performance.now();
      // One global slot: the quick site's request waits for the slow one's 300 ms answer.
      const slow = fetcher.fetch('http://slow.wire.test/?ms=300', { kind: 'html' });
      const quick = fetcher.fetch('http://quick.wire.test/?ms=5', { kind: 'html' });
      const [first, answer] = await Promise.all([slow, quick]);
      const wall = performance.now() - started;
      expect(first.waitedMs).toBeLessThan(100);
      expect(answer.waitedMs).toBeGreaterThanOrEqual(250);
      expect(answer.waitedMs).toBeLessThanOrEqual(answer.elapsedMs);
      // What is left is the site's: well under the wait, and within the run's whole time.
      expect(answer.elapsedMs - (answer.waitedMs as number)).toBeLessThan(wall - 250);
    } finally {
      await fetcher.close();
    }
  });

  it('tells the caller while a request waits in its own line, and when it leaves it for the wire', async () => {
    const fetcher = await wireFetcher(1, 0);
    const told: Array<[boolean, number]> = [];
    try {
      const started = performance.now();
      const slow = fetcher.fetch('http://slow.wire.test/?ms=300', { kind: 'html' });
      await fetcher.fetch('http://quick.wire.test/?ms=5', {
        kind: 'html',
        queueing: (waiting) => void told.push([waiting, performance.now() - started]),
      });
      await slow;
    } finally {
      await fetcher.close();
    }
    // In line at once; out of it only when the slow answer freed the one slot.
    expect(told.map(([waiting]) => waiting)).toEqual([true, false]);
    expect(told[0]![1]).toBeLessThan(100);
    expect(told[1]![1]).toBeGreaterThanOrEqual(250);
  });

  it('times a request out by its time on the wire, never by its wait in our own line', async () => {
    const fetcher = await wireFetcher(1, 0, 200);
    try {
      // The one slot is held 150 ms, then 120 ms: the third request waits 270 ms in line, past the 200 ms limit.
      const first = fetcher.fetch('http://one.wire.test/?ms=150', { kind: 'html' });
      const second = fetcher.fetch('http://two.wire.test/?ms=120', { kind: 'html' });
      const third = fetcher.fetch('http://three.wire.test/?ms=5', { kind: 'html' });
      const answers = await Promise.all([first, second, third]);
      expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
      expect(answers[2]!.waitedMs).toBeGreaterThan(200);
      // A site that itself takes longer than the limit is still cut off.
      await expect(fetcher.fetch('http://slow.wire.test/?ms=400', { kind: 'html' })).rejects.toMatchObject({
        code: 'TIMEOUT',
      });
    } finally {
      await fetcher.close();
    }
  });

  it("sends a site's requests over one kept-alive connection", async () => {
    const fetcher = await wireFetcher(8, 30);
    const host = 'reuse.wire.test';
    try {
      for (const path of ['/', '/robots.txt', '/sitemap.xml', '/feed']) {
        await fetcher.fetch(`http://${host}${path}?ms=20`, { kind: 'html' });
      }
    } finally {
      await fetcher.close();
    }
    const seen = of(host);
    expect(seen.map((a) => a.path)).toEqual(['/', '/robots.txt', '/sitemap.xml', '/feed']);
    expect(new Set(seen.map((a) => a.connection)).size).toBe(1);
  });

  it('keeps a connection as long as the server says it will (Keep-Alive: timeout), past our own default', async () => {
    // Node's server announces `Keep-Alive: timeout=5`: kept 3 s (2 s short of it), though ours would be 300 ms.
    const fetcher = await warm(
      createFetcher({
        userAgent: TEST_USER_AGENT,
        resolve: `*.wire.test=127.0.0.1:${port}`,
        perHostMinDelayMs: 0,
        keepAliveTimeoutMs: 300,
      }),
    );
    const host = 'patient.wire.test';
    try {
      const first = await fetcher.fetch(`http://${host}/1`, { kind: 'html' });
      expect(first.headers['keep-alive']).toBe('timeout=5');
      await new Promise((resolve) => setTimeout(resolve, 900));
      await fetcher.fetch(`http://${host}/2`, { kind: 'html' });
    } finally {
      await fetcher.close();
    }
    expect(new Set(of(host).map((a) => a.connection)).size).toBe(1);
  });

  it("reads robots.txt first and keeps its Crawl-delay between every later request, the homepage's included", async () => {
    // Our own gap is far below the site's Crawl-delay, so only the Crawl-delay can explain the arrivals' gaps.
    const fetcher = await wireFetcher(8, 20);
    const host = 'delayed.wire.test';
    let found: Awaited<ReturnType<typeof discoverContract>>;
    try {
      found = await discoverContract(fetcher, {
        domainId: `other:intl:${host}`,
        registrableDomain: host,
        country: 'intl',
        category: 'news',
      });
    } finally {
      await fetcher.close();
    }
    expect(found.metadata.robots.crawl_delay).toBe(CRAWL_DELAY_S);
    expect(found.draft?.fetch.urls).toEqual([`http://${host}/rss.xml`]);
    const seen = of(host);
    // https is not spoken here: robots.txt is read over plain http, before the homepage.
    expect(seen[0]?.path).toBe('/robots.txt');
    expect(seen.map((a) => a.path)).toEqual(expect.arrayContaining(['/', '/sitemap.xml', '/rss.xml']));
    for (let i = 1; i < seen.length; i += 1) {
      const gap = seen[i]!.at - seen[i - 1]!.at;
      expect(gap, `${seen[i - 1]!.path} → ${seen[i]!.path}`).toBeGreaterThanOrEqual(CRAWL_DELAY_S * 1000);
    }
  });
});
