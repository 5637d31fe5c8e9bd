// Issue 22: a contract run asks a site only for what it named, guesses only where it named nothing, stops each
// kind of guess at its first hit, and keeps to a small budget under a long Crawl-delay; `requests` says what it cost.
import { describe, expect, it } from 'vitest';
import { discoverContract } from '../../../src/engine/contract-discovery.js';
import { COMMON_FEED_PATHS } from '../../../src/engine/feeds.js';
import { SLOW_SITE_BUDGET } from '../../../src/engine/request-budget.js';
import { WELL_KNOWN_NEWS_SITEMAP_PATHS, WELL_KNOWN_SITEMAP_PATHS } from '../../../src/engine/sitemaps.js';
import { type StubAnswer, stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';

const NOW = new Date('2026-11-20T12:00:00Z');
const now = () => NOW;
const O = 'https://a.example';

const input = {
  domainId: 'other:intl:a.example',
  registrableDomain: 'a.example',
  country: 'intl',
  category: 'news',
};

const urlset = (urls: string[], news = false) =>
  `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"${news ? ' xmlns:news="http://www.google.com/schemas/sitemap-news/0.9"' : ''}>${urls
    .map(
      (u) =>
        `<url><loc>${u}</loc>${news ? '<news:news><news:publication><news:name>A</news:name><news:language>en</news:language></news:publication><news:publication_date>2026-11-20T08:00:00Z</news:publication_date><news:title>T</news:title></news:news>' : ''}</url>`,
    )
    .join('')}</urlset>`;
const index = (locs: string[]) =>
  `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${locs
    .map((l) => `<sitemap><loc>${O}${l}</loc></sitemap>`)
    .join('')}</sitemapindex>`;
const rss = (title: string) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>${O}/</link><item><title>One</title><link>${O}/2026/11/one</link><pubDate>Fri, 20 Nov 2026 08:00:00 GMT</pubDate></item></channel></rss>`;
const page = (head: string, body = '') =>
  `<!doctype html><html lang="en"><head><title>A Example News</title>${head}</head><body>${body}</body></html>`;
const html = (text: string): StubAnswer => ({
  status: 200,
  body: text,
  headers: { 'content-type': 'text/html; charset=utf-8' },
});
const xml = (text: string): StubAnswer => ({
  status: 200,
  body: text,
  headers: { 'content-type': 'application/xml' },
});

const guessedSitemaps = (calls: string[]) =>
  calls.filter((c) => (WELL_KNOWN_SITEMAP_PATHS as readonly string[]).includes(new URL(c).pathname));
const guessedNews = (calls: string[]) =>
  calls.filter((c) => (WELL_KNOWN_NEWS_SITEMAP_PATHS as readonly string[]).includes(new URL(c).pathname));

describe('guesses only where the site named nothing', () => {
  it('a robots.txt sitemap index holding a news sitemap: no well-known or news path is guessed', async () => {
    const web = stubFetcher({
      [`${O}/robots.txt`]: {
        status: 200,
        body: `User-agent: *\nAllow: /\nSitemap: ${O}/sitemaps/index.xml\n`,
      },
      [`${O}/`]: html(page(`<link rel="alternate" type="application/rss+xml" href="/rss.xml">`)),
      [`${O}/sitemaps/index.xml`]: xml(index(['/sitemaps/pages.xml', '/sitemaps/news.xml'])),
      [`${O}/sitemaps/pages.xml`]: xml(urlset([`${O}/about`])),
      [`${O}/sitemaps/news.xml`]: xml(urlset([`${O}/2026/11/one`], true)),
      [`${O}/rss.xml`]: xml(rss('A Example News')),
    });
    const found = await discoverContract(web, input, { now });
    expect(found.metadata.sitemap).toMatchObject({ exists: true, news: true, url_count: 2 });
    expect(guessedSitemaps(web.calls)).toEqual([]);
    expect(guessedNews(web.calls)).toEqual([]);
    expect(found.metadata.requests).toBe(web.calls.length);
  });

  it('a named sitemap without news is the whole answer: no news path is guessed beside it', async () => {
    const web = stubFetcher({
      [`${O}/robots.txt`]: { status: 200, body: `User-agent: *\nAllow: /\nSitemap: ${O}/pages.xml\n` },
      [`${O}/`]: html(page(`<link rel="alternate" type="application/rss+xml" href="/rss.xml">`)),
      [`${O}/pages.xml`]: xml(urlset([`${O}/about`])),
      [`${O}/rss.xml`]: xml(rss('A Example News')),
    });
    const found = await discoverContract(web, input, { now });
    expect(found.metadata.sitemap).toMatchObject({ exists: true, news: false });
    // Until issue 22 the four news paths were asked here, each a 404.
    expect(guessedNews(web.calls)).toEqual([]);
    expect(found.metadata.requests).toBe(web.calls.length);
  });

  it('a site naming nothing gets the guesses, each kind stopping at its first hit', async () => {
    const web = stubFetcher({
      [`${O}/robots.txt`]: { status: 200, body: 'User-agent: *\nAllow: /\n' },
      [`${O}/`]: html(page('', '<p>No feed here.</p>')),
      // The second well-known path answers; the third and later are never asked.
      [`${O}/sitemap_index.xml`]: xml(index(['/pages.xml'])),
      [`${O}/pages.xml`]: xml(urlset([`${O}/about`])),
      // The second news path answers as a sitemap (with no news entry): the first hit ends the news guesses.
      [`${O}/sitemap_news.xml`]: xml(urlset([`${O}/2026/01/old`])),
      // The third common feed path answers.
      [`${O}${COMMON_FEED_PATHS[2]}`]: xml(rss('A Example News')),
    });
    const found = await discoverContract(web, input, { now });
    expect(guessedSitemaps(web.calls)).toEqual([`${O}/sitemap.xml`, `${O}/sitemap_index.xml`]);
    expect(guessedNews(web.calls)).toEqual([`${O}/news-sitemap.xml`, `${O}/sitemap_news.xml`]);
    const feedGuesses = web.calls.filter((c) => COMMON_FEED_PATHS.some((p) => `${O}${p}` === c));
    expect(feedGuesses).toEqual(COMMON_FEED_PATHS.slice(0, 3).map((p) => `${O}${p}`));
    expect(found.metadata.feeds.map((f) => f.url)).toEqual([`${O}${COMMON_FEED_PATHS[2]}`]);
    expect(found.metadata.sitemap).toMatchObject({ exists: true, url_count: 2 });
    expect(found.metadata.requests).toBe(web.calls.length);
  });

  it('a homepage that announces a section feed gets no feed guess', async () => {
    const web = stubFetcher({
      [`${O}/robots.txt`]: { status: 200, body: `User-agent: *\nAllow: /\nSitemap: ${O}/pages.xml\n` },
      [`${O}/`]: html(
        page(`<link rel="alternate" type="application/rss+xml" title="News" href="/category/news/feed/">`),
      ),
      [`${O}/pages.xml`]: xml(urlset([`${O}/about`])),
      [`${O}/category/news/feed/`]: xml(rss('A Example » News')),
      [`${O}/feed`]: xml(rss('A Example News')),
    });
    const found = await discoverContract(web, input, { now });
    expect(found.metadata.feeds.map((f) => f.role)).toEqual(['section']);
    expect(found.draft?.fetch).toEqual({ type: 'rss', urls: [`${O}/category/news/feed/`] });
    expect(web.calls.filter((c) => COMMON_FEED_PATHS.some((p) => `${O}${p}` === c))).toEqual([]);
  });

  it('a homepage that announces only a comments feed still gets the guesses: comments are never content', async () => {
    const web = stubFetcher({
      [`${O}/robots.txt`]: { status: 200, body: `User-agent: *\nAllow: /\nSitemap: ${O}/pages.xml\n` },
      [`${O}/`]: html(
        page(
          `<link rel="alternate" type="application/rss+xml" title="A Example » Comments Feed" href="/comments/feed/">`,
        ),
      ),
      [`${O}/pages.xml`]: xml(urlset([`${O}/about`])),
      [`${O}/comments/feed/`]: xml(rss('Comments on: A Example')),
      [`${O}/feed`]: xml(rss('A Example News')),
    });
    const found = await discoverContract(web, input, { now });
    expect(found.metadata.feeds.map((f) => f.role)).toEqual(['main', 'comments']);
    expect(web.calls.filter((c) => COMMON_FEED_PATHS.some((p) => `${O}${p}` === c))).toEqual([`${O}/feed`]);
  });
});

describe('under a long Crawl-delay', () => {
  it('a Crawl-delay: 10 site gets what it names plus one guess of each kind, and no TDMRep or article sample', async () => {
    const children = Array.from({ length: 20 }, (_, i) => `/sitemap-${i}.xml`);
    const anchors = Array.from({ length: 8 }, (_, i) => `<a href="/rss/section-${i}.xml">RSS ${i}</a>`).join(
      '',
    );
    const articles = Array.from({ length: 6 }, (_, i) => `<a href="/2026/11/story-${i}">Story ${i}</a>`).join(
      '',
    );
    const answers: Record<string, StubAnswer> = {
      [`${O}/robots.txt`]: { status: 200, body: 'User-agent: *\nCrawl-delay: 10\n' },
      [`${O}/`]: html(
        page(`<link rel="alternate" type="application/rss+xml" href="/feed">`, anchors + articles),
      ),
      [`${O}/feed`]: xml(rss('A Example News')),
      [`${O}/sitemap.xml`]: xml(index(children)),
      [`${O}/.well-known/tdmrep.json`]: { status: 200, body: '[{"location":"/","tdm-reservation":1}]' },
      ...Object.fromEntries(children.map((c, i) => [`${O}${c}`, xml(urlset([`${O}/p/${i}`]))])),
      ...Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [`${O}/rss/section-${i}.xml`, xml(rss(`Section ${i}`))]),
      ),
    };
    const web = stubFetcher(answers);
    const found = await discoverContract(web, input, { now });
    expect(web.crawlDelays.get('a.example')).toBe(10);
    // robots.txt, the homepage, the sitemap budget (its one guess included) and the feed budget.
    const budget = 2 + (SLOW_SITE_BUDGET.sitemapFiles ?? 0) + SLOW_SITE_BUDGET.feedFetches;
    expect(web.calls.length).toBeLessThanOrEqual(budget);
    expect(guessedSitemaps(web.calls)).toEqual([`${O}/sitemap.xml`]);
    expect(guessedNews(web.calls)).toEqual([]);
    expect(web.calls).not.toContain(`${O}/.well-known/tdmrep.json`);
    expect(web.calls.filter((c) => c.includes('/2026/11/story-'))).toEqual([]);
    expect(found.metadata.sampled_articles).toEqual([]);
    // The contract still stands on what was read: a feed, and a sitemap whose count is a lower bound.
    expect(found.draft?.fetch.type).toBe('rss');
    expect(found.metadata.sitemap).toMatchObject({
      exists: true,
      truncated: true,
      truncated_reason: 'max_files',
    });
    expect(found.metadata.requests).toBe(web.calls.length);
  });

  it('a Crawl-delay: 45 site gets robots.txt, its homepage, one sitemap file and one feed: about three minutes', async () => {
    const children = Array.from({ length: 3 }, (_, i) => `/sitemap-${i}.xml`);
    const answers: Record<string, StubAnswer> = {
      [`${O}/robots.txt`]: {
        status: 200,
        body: `User-agent: *\nCrawl-delay: 45\nSitemap: ${O}/sitemap_index.xml\n`,
      },
      [`${O}/`]: html(
        page(
          `<link rel="alternate" type="application/rss+xml" href="/feed">` +
            `<link rel="alternate" type="application/rss+xml" href="/news/feed">`,
          '<a href="/2026/11/story-1">Story 1</a>',
        ),
      ),
      [`${O}/feed`]: xml(rss('A Example News')),
      [`${O}/news/feed`]: xml(rss('A Example News: news')),
      [`${O}/sitemap_index.xml`]: xml(index(children)),
      ...Object.fromEntries(children.map((c, i) => [`${O}${c}`, xml(urlset([`${O}/p/${i}`]))])),
    };
    const web = stubFetcher(answers);
    const found = await discoverContract(web, input, { now });
    expect(web.calls).toEqual([`${O}/robots.txt`, `${O}/`, `${O}/sitemap_index.xml`, `${O}/feed`]);
    expect(found.draft?.fetch).toEqual({ type: 'rss', urls: [`${O}/feed`] });
    expect(found.metadata.sitemap).toMatchObject({
      exists: true,
      truncated: true,
      truncated_reason: 'max_files',
    });
    expect(found.metadata.requests).toBe(4);
  });

  it('a Crawl-delay: 60 site that names nothing gets one guess of each kind', async () => {
    const web = stubFetcher({
      [`${O}/robots.txt`]: { status: 200, body: 'User-agent: *\nCrawl-delay: 60\n' },
      [`${O}/`]: html(page('<meta name="generator" content="WordPress 6.6">')),
      [`${O}/feed/`]: xml(rss('A Example News')),
    });
    const found = await discoverContract(web, input, { now });
    expect(web.calls).toEqual([`${O}/robots.txt`, `${O}/`, `${O}/sitemap.xml`, `${O}/feed/`]);
    expect(found.draft?.fetch).toEqual({ type: 'rss', urls: [`${O}/feed/`] });
  });

  it('below 5 s the full budget holds', async () => {
    const web = stubFetcher({
      [`${O}/robots.txt`]: { status: 200, body: 'User-agent: *\nCrawl-delay: 4\n' },
      [`${O}/`]: html(page('')),
    });
    await discoverContract(web, input, { now });
    expect(guessedNews(web.calls)).toEqual(WELL_KNOWN_NEWS_SITEMAP_PATHS.map((p) => `${O}${p}`));
    expect(web.calls).toContain(`${O}/.well-known/tdmrep.json`);
  });
});
