import { gzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { discoverSitemaps, parseSitemap } from '../../../src/engine/sitemaps.js';
import { sitemapIndex, urlset } from '../../fixtures/fake-internet/content.js';
import { SITES } from '../../fixtures/fake-internet/index.js';
import { stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const all = () => true;
const NOW = new Date('2025-03-04T05:06:07.000Z');
const now = () => NOW;

describe('parseSitemap', () => {
  it('counts <url> entries, not <urlset>, with or without a prefix', () => {
    const xml =
      '<?xml version="1.0"?><sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9">' +
      '<sm:url><sm:loc>https://a/1</sm:loc></sm:url><sm:url><sm:loc>https://a/2</sm:loc></sm:url></sm:urlset>';
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', count: 2, news: false });
    expect(parseSitemap('<urlset><url>\n<loc>x</loc></url><url/></urlset>')).toMatchObject({ count: 2 });
  });

  it('recognises a Google News sitemap by its namespace', () => {
    const xml =
      '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"><url><loc>https://a/1</loc></url></urlset>';
    expect(parseSitemap(xml)).toEqual({ kind: 'urlset', count: 1, news: true });
  });

  it('reads index locations, entities decoded and whitespace trimmed', () => {
    const xml =
      '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc> https://a/s1.xml?x=1&amp;y=2 </loc></sitemap><sitemap><loc>https://a/s2.xml</loc></sitemap></sitemapindex>';
    expect(parseSitemap(xml)).toEqual({
      kind: 'index',
      locs: ['https://a/s1.xml?x=1&y=2', 'https://a/s2.xml'],
    });
  });

  it('accepts a plain-text sitemap and rejects HTML', () => {
    expect(parseSitemap('https://a/1\nhttps://a/2\n')).toEqual({ kind: 'urlset', count: 2, news: false });
    expect(parseSitemap('<html><body>Not found</body></html>')).toEqual({ kind: 'none' });
    expect(parseSitemap('')).toEqual({ kind: 'none' });
  });
});

describe('discoverSitemaps on the fake internet', () => {
  const web = useFakeInternet();
  /** The sitemap index news.test lists in its robots.txt. */
  const newsIndex = {
    origin: `https://${SITES.news}`,
    listed: [`https://${SITES.news}/sitemap_index.xml`],
    allowed: all,
    now,
  };

  it('counts every URL through a robots-listed index, a nested index and a gzipped child', async () => {
    const found = await discoverSitemaps(web.fetcher, newsIndex);
    expect(found).toMatchObject({
      url: `https://${SITES.news}/sitemap_index.xml`,
      status_code: 200,
      exists: true,
      url_count: 5,
      news: true,
      sitemap_urls: [`https://${SITES.news}/sitemap_index.xml`],
      filesFetched: 4,
      truncated: false,
    });
    expect(found.firstBody?.toString()).toContain('<sitemapindex');
    // A robots-listed sitemap that works means /sitemap.xml is never asked for.
    expect(web.net.hits(SITES.news, '/sitemap.xml')).toBe(0);
  });

  it('falls back to /sitemap.xml', async () => {
    const found = await discoverSitemaps(web.fetcher, {
      origin: `https://${SITES.sitemapOnly}`,
      listed: [],
      allowed: all,
      now,
    });
    expect(found).toMatchObject({
      url: `https://${SITES.sitemapOnly}/sitemap.xml`,
      exists: true,
      url_count: 2,
      news: false,
    });
  });

  it('reports the last tried sitemap when none exists', async () => {
    const found = await discoverSitemaps(web.fetcher, {
      origin: `https://${SITES.bare}`,
      listed: [],
      allowed: all,
      now,
    });
    expect(found).toMatchObject({
      url: `https://${SITES.bare}/sitemap.xml`,
      status_code: 404,
      exists: false,
      url_count: 0,
    });
    expect(found.firstBody).toBeNull();
  });

  it('does not fetch what robots.txt disallows', async () => {
    const before = web.net.hits(SITES.disallow);
    const found = await discoverSitemaps(web.fetcher, {
      origin: `https://${SITES.disallow}`,
      listed: [`https://${SITES.disallow}/sitemap.xml`],
      allowed: () => false,
      now,
    });
    expect(found).toMatchObject({ url: null, exists: false, filesFetched: 0 });
    expect(web.net.hits(SITES.disallow) - before).toBe(0);
  });

  it('stops at the file limit and says the count is partial', async () => {
    const found = await discoverSitemaps(web.fetcher, {
      ...newsIndex,
      limits: { maxFiles: 2 },
    });
    expect(found).toMatchObject({ exists: true, url_count: 3, filesFetched: 2, truncated: true });
  });

  it('stops at the depth limit', async () => {
    const found = await discoverSitemaps(web.fetcher, {
      ...newsIndex,
      limits: { maxDepth: 1 },
    });
    expect(found).toMatchObject({ url_count: 3, truncated: true });
  });
});

describe('discoverSitemaps edge cases', () => {
  // Changed with the streaming reader: a file past its cap is read up to the cap (and the count says it is
  // partial) instead of being skipped whole.
  it('reads a gzip up to its output cap, says so, and reads an index that points at itself once', async () => {
    const bomb = gzipSync(
      Buffer.from(`<urlset>${'<url><loc>https://a/x</loc></url>'.repeat(10_000)}</urlset>`),
    );
    const fetcher = stubFetcher({
      'https://a.example/index.xml': {
        status: 200,
        body: '<sitemapindex><sitemap><loc>https://a.example/index.xml</loc></sitemap><sitemap><loc>/big.xml.gz</loc></sitemap><sitemap><loc>/ok.xml</loc></sitemap></sitemapindex>',
      },
      'https://a.example/big.xml.gz': { status: 200, body: bomb },
      'https://a.example/ok.xml': { status: 200, body: '<urlset><url><loc>https://a/1</loc></url></urlset>' },
    });
    const found = await discoverSitemaps(fetcher, {
      origin: 'https://a.example',
      listed: ['https://a.example/index.xml'],
      allowed: all,
      now,
      limits: { maxUncompressedBytes: 10_000 },
    });
    // The bomb repeats one URL: https://a/x and https://a/1 are the two distinct ones.
    expect(found).toMatchObject({
      url_count: 2,
      truncated: true,
      truncated_reason: 'file_too_large',
      cycles: 1,
    });
    expect(found.aggregates.entries).toBeGreaterThan(100);
    expect(found.aggregates.entries).toBeLessThan(10_000);
    expect(fetcher.calls.filter((u) => u.endsWith('index.xml'))).toHaveLength(1);
  });

  // Changed: the well-known news paths follow, since none of these sitemaps is a news sitemap.
  it('tries /sitemap.xml when every robots-listed sitemap fails', async () => {
    const fetcher = stubFetcher({
      'https://a.example/gone.xml': { status: 404 },
      'https://a.example/broken.xml': { error: 'TIMEOUT' },
      'https://a.example/sitemap.xml': {
        status: 200,
        body: '<urlset><url><loc>https://a/1</loc></url></urlset>',
      },
    });
    const found = await discoverSitemaps(fetcher, {
      origin: 'https://a.example',
      listed: ['https://a.example/gone.xml', 'https://a.example/broken.xml'],
      allowed: all,
      now,
    });
    expect(found).toMatchObject({ url: 'https://a.example/sitemap.xml', exists: true, url_count: 1 });
    expect(fetcher.calls).toEqual([
      'https://a.example/gone.xml',
      'https://a.example/broken.xml',
      'https://a.example/sitemap.xml',
      'https://a.example/news-sitemap.xml',
      'https://a.example/sitemap_news.xml',
      'https://a.example/sitemap-news.xml',
      'https://a.example/news_sitemap.xml',
    ]);
  });
});

describe('reading and fetching side by side', () => {
  it("sends a child's request once the sibling before it has answered, before that sibling is read", async () => {
    const origin = 'https://big.test';
    const stories = (n: number) => Array.from({ length: 20_000 }, (_, i) => `${origin}/story-${n}-${i}`);
    const web = stubFetcher({
      [`${origin}/index.xml`]: {
        status: 200,
        body: sitemapIndex([1, 2, 3].map((n) => `${origin}/part-${n}.xml`)),
      },
      ...Object.fromEntries(
        [1, 2, 3].map((n) => [`${origin}/part-${n}.xml`, { status: 200, body: urlset(stories(n)) }]),
      ),
    });
    // What happened, in order: each request sent, and each time the reader looked at the clock (it does so
    // between the chunks of a file it reads).
    const events: string[] = [];
    const sentSoFar = () => {
      for (const url of web.calls.slice(events.filter((e) => e.startsWith('fetch')).length))
        events.push(`fetch ${new URL(url).pathname}`);
    };
    const found = await discoverSitemaps(web, {
      origin,
      listed: [`${origin}/index.xml`],
      allowed: all,
      now: () => {
        sentSoFar();
        events.push('read');
        return NOW;
      },
    });
    sentSoFar();
    expect(found.url_count).toBe(60_000);
    const sent = events.filter((e) => e.startsWith('fetch /part-'));
    expect(sent).toEqual(['fetch /part-1.xml', 'fetch /part-2.xml', 'fetch /part-3.xml']);
    // part-2 went out the moment part-1 answered, before part-1 was read; part-3 the moment part-2's answer was
    // taken up (part-1 read), before part-2 was read: after it come the readings of two files, before it one.
    const at = (path: string) => events.indexOf(`fetch ${path}`);
    const readsBetween = (from: number, to: number) =>
      events.slice(from, to).filter((e) => e === 'read').length;
    expect(at('/part-2.xml')).toBe(at('/part-1.xml') + 1);
    // No request follows part-3 any more (the news paths are not guessed beside a working named index).
    const nextFetch = events.findIndex((e, i) => i > at('/part-3.xml') && e.startsWith('fetch'));
    const afterPart3 = nextFetch < 0 ? events.length : nextFetch;
    const readingOne = readsBetween(at('/part-2.xml'), at('/part-3.xml'));
    expect(readingOne).toBeGreaterThan(0);
    // readingOne is part-1's reading plus part-2's one look at the clock before its answer is taken; after part-3
    // come two readings and part-3's one look (a guessed news path's visit used to add more looks at the end).
    expect(readsBetween(at('/part-3.xml'), afterPart3)).toBeGreaterThanOrEqual(2 * readingOne - 1);
    // Nothing asked twice.
    expect(new Set(events.filter((e) => e.startsWith('fetch'))).size).toBe(
      events.filter((e) => e.startsWith('fetch')).length,
    );
  });
});
