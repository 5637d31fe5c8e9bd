import { describe, expect, it } from 'vitest';
import { readFeed } from '../../../src/engine/feed-content.js';
import {
  commentsReason,
  type FeedEvidence,
  matchesCategory,
  sectionReason,
} from '../../../src/engine/feed-roles.js';
import { discoverFeeds, MAX_FEED_FETCHES } from '../../../src/engine/feeds.js';
import { decodeText } from '../../../src/engine/text-decoding.js';
import { stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';

const NOW = new Date('2025-03-04T05:06:07.000Z');

function evidence(url: string, more: Partial<FeedEvidence> = {}): FeedEvidence {
  return {
    url,
    requestedUrl: url,
    source: 'link',
    label: null,
    announced: true,
    sameSite: true,
    foundOn: null,
    content: null,
    ...more,
  };
}

const content = (title: string | null, itemTitles: string[] = []) => ({
  title,
  homeLink: null,
  item_titles: itemTitles,
  item_links: [],
});

function rss(title: string, items: Array<[string, string]>, extra = ''): string {
  const body = items
    .map(
      ([t, d]) =>
        `<item><title>${t}</title><link>https://a.test/${encodeURIComponent(t)}</link><pubDate>${d}</pubDate></item>`,
    )
    .join('');
  return `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>https://a.test/</link>${extra}${body}</channel></rss>`;
}

describe('comments evidence', () => {
  it.each([
    'https://a.test/comments/feed/',
    'https://a.test/?feed=comments-rss2',
    'https://a.test/feeds/comments/default',
    'https://a.test/feeds/1234567890/comments/default',
    'https://a.test/feed/?withcomments=1',
    'https://video.a.test/feeds/video-comments.xml?videoId=1',
  ])('URL %s', (url) => {
    expect(commentsReason(evidence(url))).toBe('comments URL');
  });

  it.each([
    'Blog » Comments Feed',
    'Blog &raquo; A post title Comments Feed',
    'Comments RSS',
    'Flux des commentaires',
    'Kommentare-Feed',
  ])('link title %s', (label) => {
    expect(commentsReason(evidence('https://a.test/x.xml', { label }))).toContain('link title');
  });

  it.each([
    ['Comments on: A post', []],
    ['Comments for Blog', []],
    ['Commentaires sur : Un billet', []],
    ['Blog', ['By: Alice', 'By: Bob', 'A reply']],
    ['Blog', ['Comment on A post by Alice']],
    ['Blog', ['Par : Alice']],
  ])('feed title %s with items %j', (title, items) => {
    expect(
      commentsReason(evidence('https://a.test/x.xml', { content: content(title, items) })),
    ).not.toBeNull();
  });

  it('leaves posts, "Comment is free" and articles that mention comments alone', () => {
    expect(
      commentsReason(evidence('https://a.test/commentisfree/rss', { label: 'Comment is free' })),
    ).toBeNull();
    const posts = content('Blog', ['Why comments matter', 'By the river', 'Byline: news']);
    expect(
      commentsReason(evidence('https://a.test/feed/', { label: 'Blog » Feed', content: posts })),
    ).toBeNull();
  });
});

describe('section evidence', () => {
  it.each([
    'https://a.test/category/politics/feed/',
    'https://a.test/tag/rust/feed/',
    'https://a.test/section/world/rss',
    'https://a.test/feeds/sport.xml',
    'https://a.test/author/jane/feed/',
    'https://a.test/?cat=3&feed=rss2',
    'https://a.test/feeds/posts/default/-/Label',
    'https://a.test/rss/10/',
  ])('%s', (url) => {
    expect(sectionReason(evidence(url))).not.toBeNull();
  });

  it.each([
    'https://a.test/feed/',
    'https://a.test/feed/atom/',
    'https://a.test/rss.xml',
    'https://a.test/feeds/posts/default',
    'https://a.test/feeds/all.atom.xml',
    'https://a.test/rss/index.xml',
    'https://a.test/rss/latest/',
  ])('not %s', (url) => {
    expect(sectionReason(evidence(url))).toBeNull();
  });
});

describe('matchesCategory', () => {
  it('reads the URL, the link title and the feed title, with a few synonyms per category', () => {
    expect(
      matchesCategory({ url: 'https://a.test/category/news/feed/', label: null, title: null }, 'news'),
    ).toBe(true);
    expect(
      matchesCategory({ url: 'https://a.test/x.xml', label: 'Press releases', title: null }, 'announcement'),
    ).toBe(true);
    expect(
      matchesCategory({ url: 'https://a.test/press-releases.xml', label: null, title: null }, 'announcement'),
    ).toBe(true);
    expect(
      matchesCategory({ url: 'https://a.test/category/sport/feed/', label: 'Sport', title: 'Sport' }, 'news'),
    ).toBe(false);
  });
});

describe('readFeed aggregates', () => {
  it('counts items, dates (ignoring a clock error in the future), the last 7 days, titles and the language', () => {
    const body = rss(
      'T',
      [
        ['new', 'Mon, 03 Mar 2025 10:00:00 GMT'],
        ['week', 'Thu, 27 Feb 2025 10:00:00 GMT'],
        ['old', 'Sat, 01 Feb 2025 10:00:00 GMT'],
        ['future', 'Fri, 01 Jan 2100 00:00:00 GMT'],
        ['undated', 'not a date'],
      ],
      '<language>fr-FR</language>',
    );
    expect(readFeed(Buffer.from(body), NOW)).toMatchObject({
      type: 'rss',
      language: 'fr-fr',
      item_count: 5,
      dated_items: 3,
      newest_item_at: '2025-03-03T10:00:00.000Z',
      oldest_item_at: '2025-02-01T10:00:00.000Z',
      items_last_7d: 2,
      item_titles: ['new', 'week', 'old', 'future', 'undated'],
    });
  });

  it('keeps at most 20 titles', () => {
    const items = Array.from({ length: 30 }, (_, i): [string, string] => [
      `t${i}`,
      'Mon, 03 Mar 2025 10:00:00 GMT',
    ]);
    const feed = readFeed(Buffer.from(rss('T', items)), NOW);
    expect(feed?.item_count).toBe(30);
    expect(feed?.item_titles).toHaveLength(20);
  });
});

describe('decodeText', () => {
  it('follows a BOM, the header charset, then the page declaration', () => {
    expect(decodeText(Buffer.from('\uFEFFLibé', 'utf16le'))).toBe('Libé');
    expect(decodeText(Buffer.from('Libé', 'latin1'), 'text/html; charset=ISO-8859-1')).toBe('Libé');
    const page = Buffer.concat([
      Buffer.from('<meta charset="windows-1252"><title>'),
      Buffer.from('Libé', 'latin1'),
    ]);
    expect(decodeText(page)).toContain('<title>Libé');
    expect(decodeText(Buffer.from('Libé'))).toBe('Libé');
  });
});

describe('discoverFeeds bounds and sites', () => {
  const feed = rss('Elsewhere', [['x', 'Mon, 03 Mar 2025 10:00:00 GMT']]);
  const page = (head: string, body = '') =>
    `<html><head><title>Site</title>${head}</head><body>${body}</body></html>`;

  it(`fetches at most ${MAX_FEED_FETCHES} candidates however many the page lists`, async () => {
    const anchors = Array.from({ length: 40 }, (_, i) => `<a href="/feeds/s${i}.xml">RSS ${i}</a>`).join('');
    const fetcher = stubFetcher({});
    const feeds = await discoverFeeds(fetcher, {
      pageUrl: 'https://site.test/',
      html: page('', anchors),
      allowed: () => true,
      now: () => NOW,
    });
    expect(feeds).toEqual([]);
    expect(fetcher.calls).toHaveLength(MAX_FEED_FETCHES);
  });

  it("follows the page's own <link> to another host, but not an <a> to another site; a feed proxy is fine", async () => {
    const fetcher = stubFetcher({
      'https://feeds.other.test/site': { status: 200, body: feed },
      'https://feeds.feedburner.com/site': { status: 200, body: feed },
    });
    await discoverFeeds(fetcher, {
      pageUrl: 'https://site.test/',
      html: page(
        '<link rel="alternate" type="application/rss+xml" href="https://feeds.other.test/site">',
        '<a href="https://blogroll.test/feed/">Friend RSS</a><a href="https://feeds.feedburner.com/site">RSS</a>',
      ),
      allowed: () => true,
      now: () => NOW,
    });
    expect(fetcher.calls).toContain('https://feeds.other.test/site');
    expect(fetcher.calls).toContain('https://feeds.feedburner.com/site');
    expect(fetcher.calls).not.toContain('https://blogroll.test/feed/');
  });

  it('lists a comments feed its link names without fetching it, and fetches no disallowed candidate', async () => {
    const fetcher = stubFetcher({ 'https://site.test/feed/': { status: 200, body: feed } });
    const found = await discoverFeeds(fetcher, {
      pageUrl: 'https://site.test/',
      html: page(
        '<link rel="alternate" type="application/rss+xml" title="Site » Comments Feed" href="/comments/feed/">' +
          '<link rel="alternate" type="application/rss+xml" title="Site » Feed" href="/feed/">' +
          '<link rel="alternate" type="application/rss+xml" title="Private" href="/private/feed.xml">',
      ),
      allowed: (url) => !url.includes('/private/'),
      now: () => NOW,
    });
    expect(fetcher.calls).toEqual(['https://site.test/feed/']);
    expect(found.map((f) => [f.url, f.role, f.type, f.item_count])).toEqual([
      ['https://site.test/feed/', 'main', 'rss', 1],
      ['https://site.test/comments/feed/', 'comments', 'rss', null],
    ]);
  });

  it('reads a comments-looking feed whose link declares no feed type: only its answer tells what it is', async () => {
    const fetcher = stubFetcher({ 'https://site.test/comments.xml': { status: 200, body: feed } });
    const found = await discoverFeeds(fetcher, {
      pageUrl: 'https://site.test/',
      html: page('<link rel="alternate" type="text/xml" title="Comments" href="/comments.xml">'),
      allowed: () => true,
      now: () => NOW,
    });
    // Read first (then the CMS guesses, since a comments feed is no feed a contract can use).
    expect(fetcher.calls[0]).toBe('https://site.test/comments.xml');
    expect(found.map((f) => [f.role, f.item_count])).toEqual([['comments', 1]]);
  });
});
