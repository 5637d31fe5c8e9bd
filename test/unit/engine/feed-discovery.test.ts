import { describe, expect, it } from 'vitest';
import { discoverContract } from '../../../src/engine/contract-discovery.js';
import { discoverFeeds, feedFetchUrls } from '../../../src/engine/feeds.js';
import { PLAIN_HTTP_SITES as SITES } from '../../fixtures/fake-internet/index.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

const NOW = new Date('2025-03-04T05:06:07.000Z');
const now = () => NOW;

const web = useFakeInternet();

function input(domain: string, category = 'news') {
  return { domainId: `other:intl:${domain}`, registrableDomain: domain, country: 'intl', category };
}

const roles = (feeds: Array<{ url: string; role: string }>) => feeds.map((f) => [f.url, f.role]);

describe('contracts hold the feed a person would pick', () => {
  it('WordPress: the main feed only; the site and per-post comments feeds are recorded as comments', async () => {
    const asked = web.net.hits(SITES.wordpress, '/comments/feed/');
    const found = await discoverContract(web.fetcher, input(SITES.wordpress), { now });
    // Its <link> title says "Comments Feed": listed from the link, never requested.
    expect(web.net.hits(SITES.wordpress, '/comments/feed/')).toBe(asked);
    expect(found.draft?.fetch).toEqual({ type: 'rss', urls: ['http://wpnews.test/feed/'] });
    expect(found.metadata.feeds).toEqual([
      {
        url: 'http://wpnews.test/feed/',
        type: 'rss',
        title: 'WP News',
        role: 'main',
        item_count: 3,
        newest_item_at: '2025-03-03T10:00:00.000Z',
        language: 'en-us',
      },
      {
        url: 'http://wpnews.test/comments/feed/',
        type: 'rss',
        title: null,
        role: 'comments',
        item_count: null,
        newest_item_at: null,
      },
      {
        url: 'http://wpnews.test/2025/03/first-post/feed/',
        type: 'rss',
        title: 'Comments on: First post',
        role: 'comments',
        item_count: 2,
        newest_item_at: '2025-03-03T13:00:00.000Z',
        language: 'en-us',
      },
    ]);
    expect(found.draft?.feeds).toEqual(found.metadata.feeds);
    // What the freshness and language work will read, kept on the internal result only.
    expect(found.feeds[0]).toMatchObject({
      items_last_7d: 2,
      oldest_item_at: '2025-02-20T08:00:00.000Z',
      dated_items: 3,
      item_titles: ['First post', 'Second post', 'Third post'],
      announced: true,
    });
    expect(found.feeds[2]).toMatchObject({
      source: 'anchor',
      role_reason: expect.stringContaining('Comments on'),
    });
  });

  it("an article page's own comments feed is comments, and never fetched as content", async () => {
    const res = await web.fetcher.fetch('http://wpnews.test/2025/03/first-post/', { kind: 'html' });
    const feeds = await discoverFeeds(web.fetcher, {
      pageUrl: res.finalUrl,
      html: res.body.toString('utf8'),
      allowed: () => true,
      now,
    });
    expect(roles(feeds)).toEqual([
      ['http://wpnews.test/feed/', 'main'],
      ['http://wpnews.test/comments/feed/', 'comments'],
      ['http://wpnews.test/2025/03/first-post/feed/', 'comments'],
    ]);
    expect(feedFetchUrls(feeds, 'news')).toEqual(['http://wpnews.test/feed/']);
  });

  it('finds a feed linked only from an <a>, and guesses nothing once it has one', async () => {
    const found = await discoverContract(web.fetcher, input(SITES.anchorOnly), { now });
    expect(found.draft?.fetch).toEqual({ type: 'rss', urls: ['http://anchorfeed.test/news/updates.xml'] });
    expect(found.metadata.feeds).toMatchObject([{ role: 'main', title: 'Anchor Feed updates' }]);
    expect(web.net.hits(SITES.anchorOnly, '/feed')).toBe(0);
    expect(web.net.hits(SITES.anchorOnly, '/about/')).toBe(0);
  });

  it('reads a "RSS feeds" page one hop away: the whole-site feed, plus the sections of the seed category', async () => {
    const news = await discoverContract(web.fetcher, input(SITES.feedsPage, 'news'), { now });
    expect(roles(news.metadata.feeds)).toEqual([
      ['http://feedspage.test/feeds/news.xml', 'main'],
      ['http://feedspage.test/feeds/press-releases.xml', 'section'],
      ['http://feedspage.test/feeds/speeches.xml', 'section'],
    ]);
    expect(news.draft?.fetch.urls).toEqual(['http://feedspage.test/feeds/news.xml']);
    const releases = await discoverContract(web.fetcher, input(SITES.feedsPage, 'announcement'), { now });
    expect(releases.draft?.fetch.urls).toEqual([
      'http://feedspage.test/feeds/news.xml',
      'http://feedspage.test/feeds/press-releases.xml',
    ]);
  });

  it('Blogger: one of the Atom/RSS twins, never the comments feed', async () => {
    const found = await discoverContract(web.fetcher, input(SITES.blogger), { now });
    expect(found.draft?.fetch).toEqual({ type: 'rss', urls: ['http://blogger.test/feeds/posts/default'] });
    expect(roles(found.metadata.feeds)).toEqual([
      ['http://blogger.test/feeds/posts/default', 'main'],
      ['http://blogger.test/feeds/posts/default?alt=rss', 'main'],
      ['http://blogger.test/feeds/comments/default', 'comments'],
    ]);
    expect(found.feeds[1]?.duplicate_of).toBe('http://blogger.test/feeds/posts/default');
  });

  it('WordPress without pretty permalinks: tries the CMS paths first and stops at ?feed=rss2', async () => {
    const before = web.net.requests.length;
    const found = await discoverContract(web.fetcher, input(SITES.queryFeed), { now });
    expect(found.draft?.fetch).toEqual({ type: 'rss', urls: ['http://wpquery.test/?feed=rss2'] });
    const asked = web.net.requests
      .slice(before)
      .filter((r) => r.host === SITES.queryFeed)
      .map((r) => r.target)
      // The sitemap reader's well-known paths (docs/sitemaps.md) and TDMRep's file come between; this test is
      // about feeds.
      .filter((target) => !target.includes('sitemap') && !target.startsWith('/.well-known/'));
    expect(asked).toEqual(['/robots.txt', '/', '/feed/', '/?feed=rss2']);
  });
});
