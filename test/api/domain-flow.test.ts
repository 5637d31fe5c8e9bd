// Contract and liveness batches at the level of domains: every domain of a chunk runs at once, chunks are
// claimed while the process's domain pool has room, a domain's result counts the moment it is done, and a
// domain past its deadline fails alone. A fetcher that holds chosen hosts until the test lets them go makes
// every step observable without timing.

import { afterEach, describe, expect, it } from 'vitest';
import { FetchError, type Fetcher, type FetchOptions, type FetchResponse } from '../../src/ports/fetcher.js';
import { sitemapIndex, urlset } from '../fixtures/fake-internet/content.js';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';
import { domainIdOf } from '../support/ids.js';
import { until } from '../support/waiting.js';

interface HeldFetcher extends Fetcher {
  /** Hosts with a request waiting right now. */
  waiting(): string[];
  /** Every request seen: its host and the options it came with. */
  seen: Array<{ host: string; path: string; options: FetchOptions }>;
  hold(host: string): void;
  release(host: string): void;
}

/**
 * Every site is a bare homepage (and the robots.txt given for it, if any); requests to a held host wait until it
 * is released (or their signal aborts).
 */
function heldFetcher(robots: Record<string, string> = {}): HeldFetcher {
  const held = new Map<string, Array<() => void>>();
  const seen: HeldFetcher['seen'] = [];
  return {
    seen,
    waiting: () => [...held].filter(([, w]) => w.length > 0).map(([host]) => host),
    hold(host) {
      if (!held.has(host)) held.set(host, []);
    },
    release(host) {
      const waiters = held.get(host) ?? [];
      held.delete(host);
      for (const go of waiters) go();
    },
    async fetch(url, options): Promise<FetchResponse> {
      const { hostname, pathname } = new URL(url);
      seen.push({ host: hostname, path: pathname, options });
      // Like the real fetcher: a request on a signal already aborted (a domain past its deadline) fails at once.
      if (options.signal?.aborted)
        throw new FetchError('ABORTED', `request to ${url} was cancelled`, { url });
      const waiters = held.get(hostname);
      if (waiters) {
        await new Promise<void>((resolve, reject) => {
          const go = () => resolve();
          waiters.push(go);
          options.signal?.addEventListener('abort', () => {
            waiters.splice(waiters.indexOf(go), 1);
            reject(new FetchError('ABORTED', `request to ${url} was cancelled`, { url }));
          });
        });
      }
      const home = pathname === '/';
      const rules = pathname === '/robots.txt' ? robots[hostname] : undefined;
      if (rules !== undefined)
        return {
          url,
          finalUrl: url,
          status: 200,
          headers: {},
          body: Buffer.from(rules),
          redirects: [],
          elapsedMs: 1,
        };
      return {
        url,
        finalUrl: url,
        status: home ? 200 : 404,
        headers: { 'content-type': 'text/html' },
        body: Buffer.from(home ? `<html><head><title>${hostname}</title></head></html>` : 'not found'),
        redirects: [],
        elapsedMs: 1,
      };
    },
    setCrawlDelay() {},
    async close() {},
  };
}

describe('domains in flight', () => {
  let t: TestSeedbed | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function start(env: Record<string, string>, fetcher: Fetcher) {
    t = await createTestSeedbed(env, { fetcher });
    t.startWorkers(['CONTRACT_QUEUE', 'LIVENESS_QUEUE']);
    return t;
  }

  async function post(app: TestSeedbed, url: string, payload: object) {
    const response = await app.app.inject({ method: 'POST', url, payload });
    expect(response.statusCode, response.body).toBe(202);
    return response.json();
  }

  const view = async (app: TestSeedbed, batchId: string) =>
    (await app.app.inject({ url: `/api/v1/queues/batch/${batchId}` })).json();

  it("counts each domain as it finishes, while the chunk's slowest domain is still running", async () => {
    const fetcher = heldFetcher();
    fetcher.hold('slow.test');
    const app = await start({}, fetcher);
    const hosts = ['a.test', 'b.test', 'slow.test', 'c.test'];
    const batch = await post(app, '/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: hosts.map((host) => domainIdOf(host)),
    });
    const midway = await until('three domains are recorded', async () => {
      const v = await view(app, batch.batchId);
      return v.items.succeeded === 3 && v;
    });
    expect(midway.status).toBe('running');
    expect(midway.chunks).toMatchObject({ total: 1, running: 1, succeeded: 0 });
    expect(midway.items).toEqual({ succeeded: 3, failed: 0, skipped: 0, running: 1, pending: 0 });
    expect(fetcher.waiting()).toEqual(['slow.test']);
    fetcher.release('slow.test');
    const done = await app.waitForBatch(batch.batchId);
    expect(done.status).toBe('completed');
    expect(done.items).toEqual({ succeeded: 4, failed: 0, skipped: 0, running: 0, pending: 0 });
  });

  it('keeps as many domains in flight as the pool allows, across chunks, and no more', async () => {
    const fetcher = heldFetcher();
    const hosts = Array.from({ length: 7 }, (_, i) => `d${i}.test`);
    for (const host of hosts) fetcher.hold(host);
    // The pool takes four domains: two chunks of two, and no third chunk while those four run (none claimed
    // ahead to wait for a slot either: that is the next test's).
    const app = await start({ SEEDBED_DOMAIN_CONCURRENCY: '4', SEEDBED_DOMAIN_LOOKAHEAD: '0' }, fetcher);
    const batch = await post(app, '/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: hosts.map((host) => domainIdOf(host)),
      chunkSize: 2,
    });
    await until('four domains wait', async () => fetcher.waiting().length === 4);
    // Nothing more is claimed while the pool is full.
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(fetcher.waiting()).toHaveLength(4);
    expect((await view(app, batch.batchId)).chunks).toMatchObject({ running: 2, pending: 2 });
    const first = fetcher.waiting();
    for (const host of first) fetcher.release(host);
    await until('the other three wait', async () => fetcher.waiting().length === 3);
    expect(fetcher.waiting().some((host) => first.includes(host))).toBe(false);
    for (const host of hosts) fetcher.release(host);
    const done = await app.waitForBatch(batch.batchId);
    expect(done.items.succeeded).toBe(7);
    // Each domain's requests carry its deadline and its place in line, earlier domains first.
    const priorities = new Map<string, number>();
    for (const { host, options } of fetcher.seen) {
      expect(options.signal).toBeInstanceOf(AbortSignal);
      expect(typeof options.priority).toBe('number');
      if (!priorities.has(host)) priorities.set(host, options.priority as number);
    }
    const firstPriorities = first.map((h) => priorities.get(h) as number);
    const laterPriorities = hosts.filter((h) => !first.includes(h)).map((h) => priorities.get(h) as number);
    expect(Math.max(...firstPriorities)).toBeLessThan(Math.min(...laterPriorities));
  });

  it('lets a crawl-delayed domain waiting for a slot start first, its robots.txt read once while it waited', async () => {
    const fetcher = heldFetcher({ 'slowpoke.test': 'User-agent: *\nCrawl-delay: 3\n' });
    const hosts = ['r1.test', 'r2.test', 'plain.test', 'slowpoke.test'];
    fetcher.hold('r1.test');
    fetcher.hold('r2.test');
    // Two slots, two domains claimed ahead of them.
    const app = await start({ SEEDBED_DOMAIN_CONCURRENCY: '2', SEEDBED_DOMAIN_LOOKAHEAD: '2' }, fetcher);
    // r1 and r2 take the slots first: chunks claimed together begin in any order on PostgreSQL (each begins in
    // a transaction of its own, side by side), so the two waiting domains come in a batch of their own after.
    const running = await post(app, '/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: hosts.slice(0, 2).map((host) => domainIdOf(host)),
      chunkSize: 1,
    });
    await until('r1 and r2 hold the slots', async () => fetcher.waiting().length === 2);
    const batch = await post(app, '/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: hosts.slice(2).map((host) => domainIdOf(host)),
      chunkSize: 1,
    });
    // The two running domains hold their slots; the crawl-delayed one is let in anyway and finishes.
    const midway = await until('the crawl-delayed domain is recorded', async () => {
      const v = await view(app, batch.batchId);
      return v.items.succeeded === 1 && v;
    });
    expect(midway.items).toMatchObject({ succeeded: 1, running: 1 });
    const requestsTo = (host: string) => fetcher.seen.filter((s) => s.host === host).length;
    expect(requestsTo('slowpoke.test')).toBeGreaterThan(1);
    // The ordinary one waits for a slot, its robots.txt read and nothing else.
    expect(requestsTo('plain.test')).toBe(1);
    expect(fetcher.waiting().sort()).toEqual(['r1.test', 'r2.test']);
    fetcher.release('r1.test');
    fetcher.release('r2.test');
    expect((await app.waitForBatch(running.batchId)).items.succeeded).toBe(2);
    expect((await app.waitForBatch(batch.batchId)).items.succeeded).toBe(2);
    // robots.txt once per site: the early read is the discovery's.
    for (const host of hosts) {
      const reads = fetcher.seen.filter((s) => s.host === host && s.path === '/robots.txt');
      expect(reads, host).toHaveLength(1);
    }
  });

  it('runs one-domain chunks (an orchestration fans out so) as many at once as the pool allows', async () => {
    const fetcher = heldFetcher();
    const hosts = Array.from({ length: 6 }, (_, i) => `o${i}.test`);
    for (const host of hosts) fetcher.hold(host);
    // SEEDBED_WORKER_CONCURRENCY (jobs per queue) does not bound the domain queues: the pool does.
    const app = await start(
      { SEEDBED_DOMAIN_CONCURRENCY: '5', SEEDBED_WORKER_CONCURRENCY: '1', SEEDBED_DOMAIN_LOOKAHEAD: '0' },
      fetcher,
    );
    const batch = await post(app, '/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: hosts.map((host) => domainIdOf(host)),
      chunkSize: 1,
    });
    await until('five domains wait', async () => fetcher.waiting().length === 5);
    for (const host of hosts) fetcher.release(host);
    expect((await app.waitForBatch(batch.batchId)).items.succeeded).toBe(6);
  });

  it('fails a domain that outlives its deadline, alone, with the reason, and frees its slot', async () => {
    const fetcher = heldFetcher();
    fetcher.hold('tarpit.test');
    // 3 s, not 1: the deadline covers the domain's writes too, and on PostgreSQL + s3rver on a busy machine
    // after.test's own writes took over a second (it failed as well). tarpit.test never answers, so any will do.
    const app = await start(
      { SEEDBED_DOMAIN_DEADLINE_SECONDS: '3', SEEDBED_DOMAIN_CONCURRENCY: '1' },
      fetcher,
    );
    const batch = await post(app, '/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: ['tarpit.test', 'after.test'].map((host) => domainIdOf(host)),
    });
    const done = await app.waitForBatch(batch.batchId);
    expect(done.status).toBe('completed_with_errors');
    expect(done.items, JSON.stringify(done.errors)).toMatchObject({ succeeded: 1, failed: 1 });
    expect(done.errors).toEqual([
      {
        item_index: 0,
        input: domainIdOf('tarpit.test'),
        reason: expect.stringMatching(/^deadline exceeded/),
      },
    ]);
    expect(fetcher.waiting()).toEqual([]);
  });

  it('reads a sitemap tree that takes longer than the deadline whole: its budgets bound it, not the deadline', async () => {
    // Every sitemap file takes 400 ms to answer; four of them are past the domain's 1 s deadline.
    const origin = 'https://tree.test';
    const stories = (n: number) => Array.from({ length: 5 }, (_, i) => `${origin}/story-${n}-${i}`);
    const files: Record<string, string> = {
      '/robots.txt': `User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap_index.xml\n`,
      '/': '<html><head><title>Tree</title></head></html>',
      '/sitemap_index.xml': sitemapIndex([1, 2, 3].map((n) => `${origin}/sitemap-${n}.xml`)),
      ...Object.fromEntries([1, 2, 3].map((n) => [`/sitemap-${n}.xml`, urlset(stories(n))])),
    };
    const fetcher: Fetcher = {
      async fetch(url, options) {
        const { pathname } = new URL(url);
        if (options.kind === 'sitemap') await new Promise((resolve) => setTimeout(resolve, 400));
        if (options.signal?.aborted)
          throw new FetchError('ABORTED', `request to ${url} was cancelled`, { url });
        const body = files[pathname];
        return {
          url,
          finalUrl: url,
          status: body === undefined ? 404 : 200,
          headers: { 'content-type': pathname.endsWith('.xml') ? 'application/xml' : 'text/html' },
          body: Buffer.from(body ?? 'not found'),
          redirects: [],
          elapsedMs: options.kind === 'sitemap' ? 400 : 1,
        };
      },
      setCrawlDelay() {},
      async close() {},
    };
    const app = await start({ SEEDBED_DOMAIN_DEADLINE_SECONDS: '1' }, fetcher);
    const batch = await post(app, '/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: [domainIdOf('tree.test')],
    });
    const done = await app.waitForBatch(batch.batchId);
    expect(done.errors).toEqual([]);
    const items = (await app.app.inject({ url: `/api/v1/queues/batch/${batch.batchId}/items` })).json();
    expect(items.data[0].result).toMatchObject({ sitemap_urls: 15, sitemap_truncated: false });
  });

  it('runs liveness checks the same way, item by item', async () => {
    const fetcher = heldFetcher();
    fetcher.hold('slow.test');
    const app = await start({}, fetcher);
    const batch = await post(app, '/api/v1/queues/liveness', {
      country: 'sg',
      domains: ['a.test', 'slow.test', 'b.test', 'a.test', 'not a host'],
    });
    const midway = await until('the quick checks are recorded', async () => {
      const v = await view(app, batch.batchId);
      return v.items.succeeded === 2 && v;
    });
    expect(midway.items).toMatchObject({ running: 3, pending: 0 });
    fetcher.release('slow.test');
    const done = await app.waitForBatch(batch.batchId);
    expect(done.items).toEqual({ succeeded: 3, failed: 1, skipped: 1, running: 0, pending: 0 });
    expect(done.summary.outcomes).toMatchObject({ alive: 3, duplicate: 1, invalid: 1 });
  });
});
