import { describe, expect, it } from 'vitest';
import { AI_CRAWLERS } from '../../../src/engine/ai-policy.js';
import { discoverContract, scheduleFor } from '../../../src/engine/contract-discovery.js';
import { cronFor } from '../../../src/engine/freshness.js';
import { isNetworkUnavailable } from '../../../src/engine/liveness.js';
import { createNetworkCanary } from '../../../src/engine/network-canary.js';
import { CANARY_URL, SITES } from '../../fixtures/fake-internet/index.js';
import { stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const NOW = new Date('2025-03-04T05:06:07.000Z');
const now = () => NOW;

const web = useFakeInternet();

function input(domain: string, source?: { batch_id?: string; raw_file_path?: string }) {
  return {
    domainId: `other:intl:${domain}`,
    registrableDomain: domain,
    country: 'intl',
    category: 'news',
    source,
  };
}

/** The one feed news.test announces, as metadata and the draft record it (one undated item). */
const NEWS_FEED = {
  url: 'https://news.test/rss.xml',
  type: 'rss',
  title: 'News Test Daily RSS',
  role: 'main',
  item_count: 1,
  newest_item_at: null,
};

/** news.test's stories are all dated 2024-01-01, over a year before the test clock: stale. */
const NEWS_FRESHNESS = {
  newest_item_at: '2024-01-01T00:00:00.000Z',
  items_last_7d: 0,
  items_per_day: 0,
  measured_at: NOW.toISOString(),
  stale: true,
  based_on: 'news_sitemap',
};
const NEWS_LANGUAGES = [{ code: 'en', sources: ['news_sitemap'] }];
/** news.test's robots.txt names no AI crawler and its pages say nothing about TDM. */
const NEWS_AI = {
  crawler_list: expect.any(String),
  robots: 'read',
  disallowed_agents: [],
  allowed_agents: [...AI_CRAWLERS],
  named: [],
  tdm_reservation: null,
  tdm_policy_url: null,
  tdm_source: null,
  noai: false,
  noimageai: false,
  status: 'allowed',
};

describe('discoverContract', () => {
  it('builds the full record for a news site with a feed and a sitemap index', async () => {
    const served = web.net.requests.length;
    const found = await discoverContract(web.fetcher, input(SITES.news, { batch_id: '01JTESTBATCH' }), {
      now,
    });
    expect(found.reason).toBeNull();
    expect(found.metadata).toEqual({
      domain_id: 'other:intl:news.test',
      registrable_domain: 'news.test',
      country: 'intl',
      category: 'news',
      collected_at: NOW.toISOString(),
      robots: {
        url: 'https://news.test/robots.txt',
        status_code: 200,
        exists: true,
        crawl_delay: null,
        sitemap_urls: ['https://news.test/sitemap_index.xml'],
      },
      // Grown with the sitemap reader: truncation, per-sitemap counts and the aggregates the freshness needs.
      sitemap: {
        url: 'https://news.test/sitemap_index.xml',
        status_code: 200,
        exists: true,
        url_count: 5,
        news: true,
        truncated: false,
        truncated_reason: null,
        files_read: 4,
        files_failed: 0,
        bytes_read: expect.any(Number),
        sitemaps: [
          {
            url: 'https://news.test/sitemap_index.xml',
            source: 'robots',
            kind: 'index',
            status_code: 200,
            url_count: 5,
            news: true,
          },
        ],
        aggregates: {
          entries: 5,
          invalid: 0,
          distinct: 5,
          lastmod: {
            count: 2,
            newest: '2024-01-01T00:00:00.000Z',
            oldest: '2024-01-01T00:00:00.000Z',
            last_7d: 0,
            future: 0,
          },
          news: {
            url_count: 3,
            newest_publication_date: '2024-01-01T00:00:00.000Z',
            oldest_publication_date: '2024-01-01T00:00:00.000Z',
            published_last_7d: 0,
            window_days: 2,
            published_in_window: 0,
            future: 0,
            languages: { en: 3 },
            publications: { 'News Test': 3 },
            sample_titles: ['Story'],
          },
          hreflang: {},
        },
      },
      feeds: [NEWS_FEED],
      homepage: { final_url: 'https://news.test/', status_code: 200 },
      freshness: NEWS_FRESHNESS,
      languages: NEWS_LANGUAGES,
      ai: NEWS_AI,
      // A Google News sitemap says news; nothing on the page names a country (news.test is no country's TLD).
      news: expect.objectContaining({
        verdict: 'news',
        reasons: expect.arrayContaining([expect.objectContaining({ signal: 'news_sitemap' })]),
      }),
      country_guess: expect.objectContaining({ code: 'intl' }),
      outlinks: expect.any(Array),
      // The first look decided: no article page was fetched.
      sampled_articles: [],
      source: { batch_id: '01JTESTBATCH' },
      // The fake internet's answers carry no ETag or Last-Modified: nothing to revalidate by next time.
      validators: {},
      not_modified: [],
      // What the run counted is what the fake internet served, redirects included.
      requests: web.net.requests.length - served,
    });
    expect(found.metadata.requests).toBeGreaterThan(3);
    expect(found.draft).toEqual({
      name: 'News Test Daily',
      entry_url: 'https://news.test/',
      fetch: { type: 'rss', urls: ['https://news.test/rss.xml'] },
      feeds: [NEWS_FEED],
      // Stale (newest story over 30 days old): read weekly.
      schedule: cronFor('news.test', 'week'),
      policy: {
        robots_url: 'https://news.test/robots.txt',
        robots_allowed: true,
        crawl_delay: null,
        sitemap_urls: ['https://news.test/sitemap_index.xml'],
      },
      freshness: NEWS_FRESHNESS,
      languages: NEWS_LANGUAGES,
      ai: NEWS_AI,
      news: found.metadata.news,
      country_guess: found.metadata.country_guess,
    });
    expect(found.evidence.robotsTxt?.toString()).toContain('Sitemap: https://news.test/sitemap_index.xml');
    expect(found.evidence.sitemapXml?.toString()).toContain('<sitemapindex');
  });

  it.each([
    [SITES.atom, 'rss', ['https://atom.test/home/feed.atom']],
    [SITES.jsonFeed, 'rss', ['https://jsonfeed.test/feed.json']],
    [SITES.commonFeed, 'rss', ['https://commonfeed.test/feed']],
    [SITES.sitemapOnly, 'sitemap', ['https://sitemaponly.test/sitemap.xml']],
    [SITES.bare, 'html', ['https://bare.test/']],
    [SITES.httpOnly, 'html', ['http://plain.test/']],
  ])('%s → fetch.type %s', async (domain, type, urls) => {
    const found = await discoverContract(web.fetcher, input(domain), { now });
    expect(found.draft?.fetch).toEqual({ type, urls });
    expect(found.draft?.policy.robots_allowed).toBe(true);
  });

  it('schedules by the rate; without dated items, feeds hourly and plain sites daily', async () => {
    // jsonfeed.test's items carry no date: no rate, so the feed alone asks for hourly reads.
    const feed = await discoverContract(web.fetcher, input(SITES.jsonFeed), { now });
    expect(feed.metadata.freshness.items_per_day).toBeNull();
    expect(feed.draft?.schedule).toBe(scheduleFor(SITES.jsonFeed, true));
    expect(feed.draft?.schedule).toMatch(/^\d{1,2} \* \* \* \*$/);
    const plain = await discoverContract(web.fetcher, input(SITES.sitemapOnly), { now });
    expect(plain.draft?.schedule).toMatch(/^\d{1,2} \d{1,2} \* \* \*$/);
  });

  it('keeps a draft for a disallowing robots.txt but fetches nothing past it', async () => {
    const before = web.net.requests.length;
    const found = await discoverContract(web.fetcher, input(SITES.disallow), { now });
    expect(found.draft).toMatchObject({
      name: 'Disallow Test',
      entry_url: 'https://disallow.test/',
      fetch: { type: 'html', urls: ['https://disallow.test/'] },
      policy: { robots_allowed: false, sitemap_urls: ['https://disallow.test/sitemap.xml'] },
    });
    expect(found.metadata.sitemap).toMatchObject({
      url: null,
      status_code: null,
      exists: false,
      url_count: 0,
      truncated: false,
      files_read: 0,
      sitemaps: [],
    });
    expect(found.metadata.feeds).toEqual([]);
    const paths = web.net.requests.slice(before).map((r) => r.path);
    // robots.txt first (its Crawl-delay holds for the homepage), then the homepage, and nothing else.
    expect(paths).toEqual(['/robots.txt', '/']);
  });

  it('honours Crawl-delay through the fetcher', async () => {
    web.sleeps.length = 0;
    const found = await discoverContract(web.fetcher, input(SITES.crawlDelay), { now });
    expect(found.metadata.robots.crawl_delay).toBe(5);
    expect(found.draft?.policy.crawl_delay).toBe(5);
    expect(found.draft?.fetch).toEqual({ type: 'sitemap', urls: ['https://slow.test/sitemap.xml'] });
    // Every request after robots.txt waited for the gap; the first of them waited (almost) the full 5 s.
    expect(web.sleeps.length).toBeGreaterThan(0);
    expect(web.sleeps[0]).toBeGreaterThan(0);
    expect(web.sleeps[0]).toBeLessThanOrEqual(5_000);
  });

  it.each([
    [SITES.unresolvable, 'dead', 'ENOTFOUND'],
    [SITES.unavailable, 'dead', 'HTTP_503'],
    [SITES.forbidden, 'blocked', 'HTTP_403'],
    [SITES.challenge, 'blocked', 'CHALLENGE'],
    [SITES.ssrf, 'error', 'SSRF_BLOCKED'],
  ])('gives no draft for %s (%s) and says why', async (domain, state, code) => {
    const before = web.net.requests.length;
    const found = await discoverContract(
      web.fetcher,
      input(domain, { raw_file_path: 'raw/x/raw_0001.json' }),
      { now },
    );
    expect(found.draft).toBeNull();
    expect(found.liveness).toMatchObject({ state, error_code: code });
    expect(found.reason).toContain(state);
    expect(found.metadata).toMatchObject({
      robots: { url: null, exists: false },
      sitemap: { exists: false, url_count: 0 },
      feeds: [],
      freshness: { newest_item_at: null, items_per_day: null, stale: null },
      languages: [],
      ai: null,
      source: { raw_file_path: 'raw/x/raw_0001.json' },
    });
    expect(found.evidence).toEqual({ robotsTxt: null, sitemapXml: null });
    // robots.txt was asked before the homepage (a 503 is retried by the fetcher); nothing past the homepage.
    const asked = web.net.requests.slice(before).filter((r) => r.host === domain);
    if (asked.length > 0) expect(asked[0]?.path).toBe('/robots.txt');
    expect(asked.every((r) => r.path === '/robots.txt' || r.path === '/')).toBe(true);
    expect(web.net.privateHits()).toBe(0);
  });
});

describe('discoverContract when our own network is down', () => {
  it('gives no draft and a liveness answer that says so, fetching nothing past robots.txt and the homepage', async () => {
    const down = stubFetcher({
      'https://a.example/': { error: 'ENOTFOUND' },
      [CANARY_URL]: { error: 'ENOTFOUND' },
    });
    const canary = createNetworkCanary({ fetcher: down, urls: [CANARY_URL], now });
    const found = await discoverContract(down, input('a.example'), { now, canary });
    expect(found.draft).toBeNull();
    expect(found.liveness).toMatchObject({ state: 'error', error_code: 'NETWORK_UNAVAILABLE' });
    expect(isNetworkUnavailable(found.liveness)).toBe(true);
    expect(found.reason).toMatch(/^domain is error: .*network/);
    expect(down.calls).toEqual(['https://a.example/robots.txt', 'https://a.example/', CANARY_URL]);
  });

  it('with the canary up, the same failure is a dead domain', async () => {
    const gone = stubFetcher({ 'https://a.example/': { error: 'ENOTFOUND' }, [CANARY_URL]: { status: 204 } });
    const canary = createNetworkCanary({ fetcher: gone, urls: [CANARY_URL], now });
    const found = await discoverContract(gone, input('a.example'), { now, canary });
    expect(found.liveness).toMatchObject({ state: 'dead', error_code: 'ENOTFOUND' });
  });
});

describe('scheduleFor', () => {
  it('is stable per domain and spreads domains over the hour', () => {
    expect(scheduleFor('a.example', true)).toBe(scheduleFor('a.example', true));
    const minutes = new Set(['a', 'b', 'c', 'd', 'e', 'f'].map((x) => scheduleFor(`${x}.example`, true)));
    expect(minutes.size).toBeGreaterThan(1);
  });
});
