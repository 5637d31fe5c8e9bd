import type { LookupAddress } from 'node:dns';
import { describe, expect, it } from 'vitest';
import {
  createHttpFetcher,
  type HttpFetcherConfig,
  parseRetryAfter,
} from '../../../src/adapters/http-fetcher.js';
import { FetchError, type FetchErrorCode, type Fetcher } from '../../../src/ports/fetcher.js';
import { HUGE_BODY_BYTES, SITES } from '../../fixtures/fake-internet/index.js';
import { TEST_USER_AGENT, type TestFetcher, testFetcher } from '../../fixtures/fake-internet/test-fetcher.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const web = useFakeInternet();

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const err = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(FetchError);
  return err as FetchError;
}

async function expectCode(url: string, code: FetchErrorCode, f: Fetcher = web.fetcher): Promise<FetchError> {
  const err = await failure(f.fetch(url, { kind: 'html' }));
  expect(err.code).toBe(code);
  return err;
}

/** A fetcher of the test's own, with these settings, closed after it. */
async function withTestFetcher(
  overrides: Partial<HttpFetcherConfig>,
  use: (own: TestFetcher) => Promise<void>,
): Promise<void> {
  const own = testFetcher(web.net, overrides);
  try {
    await use(own);
  } finally {
    await own.fetcher.close();
  }
}

describe('HTTP fetcher on the fake internet', () => {
  it('sends our user agent and reads a gzip-encoded page', async () => {
    const res = await web.fetcher.fetch(`https://${SITES.news}/`, { kind: 'html' });
    expect(res.status).toBe(200);
    expect(res.body.toString()).toContain('<title>News Test Daily</title>');
    const seen = web.net.requests.filter((r) => r.host === SITES.news && r.path === '/');
    expect(seen.length).toBeGreaterThan(0);
    expect(seen.every((r) => r.userAgent === TEST_USER_AGENT)).toBe(true);
  });

  it('follows redirects, records them and decodes brotli', async () => {
    const res = await web.fetcher.fetch(`https://${SITES.atom}/`, { kind: 'html' });
    expect(res.url).toBe(`https://${SITES.atom}/`);
    expect(res.finalUrl).toBe(`https://${SITES.atom}/home/`);
    expect(res.redirects).toEqual([`https://${SITES.atom}/home/`]);
    expect(res.body.toString()).toContain('<title>Atom Test</title>');
  });

  it('returns 4xx answers instead of throwing', async () => {
    const res = await web.fetcher.fetch(`https://${SITES.forbidden}/`, { kind: 'html' });
    expect(res.status).toBe(403);
  });

  it('reads nothing for HEAD', async () => {
    const res = await web.fetcher.fetch(`https://${SITES.bare}/`, { kind: 'probe', method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(0);
  });

  it('detects a redirect loop', async () => {
    const err = await expectCode(`https://${SITES.loop}/`, 'REDIRECT_LOOP');
    expect(err.message).toContain('/a');
  });

  it('stops after five redirects', async () => {
    const before = web.net.hits(SITES.chain);
    await expectCode(`https://${SITES.chain}/`, 'TOO_MANY_REDIRECTS');
    expect(web.net.hits(SITES.chain) - before).toBe(6);
  });

  it('refuses a redirect to a private address without touching it', async () => {
    const err = await expectCode(`https://${SITES.ssrf}/`, 'SSRF_BLOCKED');
    expect(err.message).toContain('127.0.0.1');
    expect(web.net.privateHits()).toBe(0);
  });

  it.each([
    (port: number) => `http://127.0.0.1:${port}/`,
    (port: number) => `http://[::1]:${port}/`,
    (port: number) => `http://[::ffff:127.0.0.1]:${port}/`,
    (port: number) => `http://0x7f000001:${port}/`,
    (port: number) => `http://2130706433:${port}/`,
    (port: number) => `http://localhost:${port}/`,
  ])('refuses private literals and localhost (%#)', async (build) => {
    await expectCode(build(web.net.privatePort), 'SSRF_BLOCKED');
    expect(web.net.privateHits()).toBe(0);
  });

  it('refuses a name that DNS points at a private address (rebinding)', async () => {
    const lookup = async (): Promise<LookupAddress[]> => [{ address: '127.0.0.1', family: 4 }];
    await withTestFetcher({ lookup }, async ({ fetcher: rebound }) => {
      await expectCode(`http://rebind.example:${web.net.privatePort}/`, 'SSRF_BLOCKED', rebound);
      expect(web.net.privateHits()).toBe(0);
    });
  });

  it('does not let the resolve map open other hosts or ports', async () => {
    // *.test is only mapped on 80 and 443: port 8080 goes to real DNS, which knows nothing of .test.
    await expectCode(`http://${SITES.bare}:8080/`, 'ENOTFOUND');
  });

  it('caps a 600 MB body without reading it', async () => {
    const err = await expectCode(`https://${SITES.huge}/`, 'BODY_TOO_LARGE');
    expect(err.status).toBe(200);
    expect(err.message).toContain(String(5 * 1024 * 1024));
    expect(HUGE_BODY_BYTES).toBeGreaterThan(500 * 1024 * 1024);
  });

  it('caps the decoded size of a gzip bomb', async () => {
    const err = await failure(web.fetcher.fetch(`https://${SITES.gzipBomb}/`, { kind: 'probe' }));
    expect(err.code).toBe('BODY_TOO_LARGE');
    expect(err.message).toContain(String(2 * 1024 * 1024));
  });

  it('cuts a body at the cap instead of failing when asked to truncate', async () => {
    const huge = await web.fetcher.fetch(`https://${SITES.huge}/`, { kind: 'robots', truncate: true });
    expect(huge.status).toBe(200);
    expect(huge.truncated).toBe(true);
    expect(huge.body).toEqual(Buffer.alloc(512 * 1024, 'a'));
    const bomb = await web.fetcher.fetch(`https://${SITES.gzipBomb}/`, { kind: 'robots', truncate: true });
    expect(bomb.truncated).toBe(true);
    expect(bomb.body.length).toBeLessThanOrEqual(512 * 1024);
    const small = await web.fetcher.fetch(`https://${SITES.news}/robots.txt`, {
      kind: 'robots',
      truncate: true,
    });
    expect(small.truncated).toBeUndefined();
  });

  it('honours a smaller cap per kind', async () => {
    await withTestFetcher({ maxBytes: { html: 100 } }, async ({ fetcher: tiny }) => {
      await expectCode(`https://${SITES.news}/`, 'BODY_TOO_LARGE', tiny);
      const feed = await tiny.fetch(`https://${SITES.news}/rss.xml`, { kind: 'feed' });
      expect(feed.status).toBe(200);
    });
  });

  it('times out on a server that never answers', async () => {
    await expectCode(`https://${SITES.hang}/`, 'TIMEOUT');
  });

  it('reports no such host for .invalid', async () => {
    const err = await expectCode(`https://${SITES.unresolvable}/`, 'ENOTFOUND');
    expect(err.message).toContain(SITES.unresolvable);
  });

  it('reports a refused connection', async () => {
    await expectCode(`https://${SITES.httpOnly}/`, 'ECONNREFUSED');
  });

  it('turns a certificate for another name into TLS', async () => {
    const err = await expectCode(`https://${SITES.badCert}/`, 'TLS');
    expect(err.message.length).toBeLessThan(300);
  });

  it('does not trust the test CA unless told to', async () => {
    await withTestFetcher({ extraCa: [] }, async ({ fetcher: strict }) => {
      await expectCode(`https://${SITES.news}/`, 'TLS', strict);
    });
  });

  it('refuses non-http URLs', async () => {
    await expectCode('ftp://example.org/', 'INVALID_URL');
    await expectCode('not a url', 'INVALID_URL');
  });

  it('reports a cancelled request as ABORTED', async () => {
    const controller = new AbortController();
    const pending = web.fetcher.fetch(`https://${SITES.hang}/slow`, {
      kind: 'html',
      signal: controller.signal,
    });
    setTimeout(() => controller.abort(), 20);
    const err = await failure(pending);
    expect(err.code).toBe('ABORTED');
  });

  it('retries a 503 after its Retry-After, a bounded number of times', async () => {
    const before = web.net.hits(SITES.unavailable);
    web.sleeps.length = 0;
    const res = await web.fetcher.fetch(`https://${SITES.unavailable}/`, { kind: 'html' });
    expect(res.status).toBe(503);
    expect(web.net.hits(SITES.unavailable) - before).toBe(3);
    expect(web.sleeps.filter((ms) => ms > 900 && ms <= 1000)).toHaveLength(2);
  });

  it('does not wait for a Retry-After longer than the cap', async () => {
    await withTestFetcher({ maxRetryWaitMs: 500 }, async ({ fetcher: impatient, sleeps: waits }) => {
      const before = web.net.hits(SITES.unavailable);
      const res = await impatient.fetch(`https://${SITES.unavailable}/`, { kind: 'html' });
      expect(res.status).toBe(503);
      expect(web.net.hits(SITES.unavailable) - before).toBe(1);
      expect(waits).toEqual([]);
    });
  });

  it('spaces requests to a host by its crawl delay', async () => {
    await withTestFetcher({}, async ({ fetcher: polite, sleeps: waits }) => {
      polite.setCrawlDelay(SITES.crawlDelay, 5);
      await polite.fetch(`https://${SITES.crawlDelay}/`, { kind: 'html' });
      expect(waits).toEqual([]);
      await polite.fetch(`https://${SITES.crawlDelay}/sitemap.xml`, { kind: 'sitemap' });
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeGreaterThan(0);
      expect(waits[0]).toBeLessThanOrEqual(5_000);
      // Another host is not slowed down.
      await polite.fetch(`https://${SITES.bare}/`, { kind: 'html' });
      expect(waits).toHaveLength(1);
    });
  });

  it('caps an enormous crawl delay', async () => {
    await withTestFetcher({ maxCrawlDelayMs: 2_000 }, async ({ fetcher: polite, sleeps: waits }) => {
      polite.setCrawlDelay(SITES.crawlDelay, 3_600);
      await polite.fetch(`https://${SITES.crawlDelay}/`, { kind: 'html' });
      await polite.fetch(`https://${SITES.crawlDelay}/`, { kind: 'html' });
      expect(waits).toHaveLength(1);
      expect(waits[0]).toBeLessThanOrEqual(2_000);
    });
  });

  it('refuses a bad SEEDBED_FETCH_RESOLVE at construction', () => {
    expect(() => createHttpFetcher({ userAgent: TEST_USER_AGENT, resolve: '*=127.0.0.1:80' })).toThrow(
      /SEEDBED_FETCH_RESOLVE/,
    );
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates', () => {
    const now = Date.parse('2024-01-01T00:00:00Z');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter('Mon, 01 Jan 2024 00:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 31 Dec 2023 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('soon', now)).toBeNull();
    expect(parseRetryAfter(undefined, now)).toBeNull();
  });
});
