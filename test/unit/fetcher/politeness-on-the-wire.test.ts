// Politeness as a site sees it: a local server timestamps every request's arrival and names the connection
// it came on, while the real fetcher (real sleeps) works under a contended global limit.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpFetcher } from '../../../src/adapters/http-fetcher.js';
import type { Fetcher } from '../../../src/ports/fetcher.js';
import { TEST_USER_AGENT } from '../../fixtures/fake-internet/test-fetcher.js';

interface Arrival {
  host: string;
  path: string;
  at: number;
  connection: number;
}

const arrivals: Arrival[] = [];
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
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`${url.pathname}\n`);
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

function wireFetcher(globalConcurrency: number, perHostMinDelayMs: number): Fetcher {
  return createHttpFetcher({
    userAgent: TEST_USER_AGENT,
    resolve: `*.wire.test=127.0.0.1:${port}`,
    globalConcurrency,
    perHostConcurrency: 1,
    perHostMinDelayMs,
  });
}

const of = (host: string) => arrivals.filter((a) => a.host === host);

describe('politeness on the wire', () => {
  it('keeps the per-host gap between arrivals however contended the global limit is', async () => {
    const gap = 120;
    const fetcher = wireFetcher(2, gap);
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
    const fetcher = wireFetcher(1, gap);
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

  it("sends a site's requests over one kept-alive connection", async () => {
    const fetcher = wireFetcher(8, 30);
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
});
