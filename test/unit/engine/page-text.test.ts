import { describe, expect, it } from 'vitest';
import { recogniseChallenge } from '../../../src/engine/challenge.js';
import { parsePage } from '../../../src/engine/feed-candidates.js';
import { readFeed } from '../../../src/engine/feed-content.js';
import { commentsReason } from '../../../src/engine/feed-roles.js';
import { cutText, readableText } from '../../../src/engine/page-text.js';
import { SitemapAggregator } from '../../../src/engine/sitemap-aggregates.js';

const EMOJI = '😀';

describe('readableText', () => {
  it('drops control characters, NUL included, and collapses whitespace', () => {
    expect(readableText(' A\u0000B\u0001 \n\t C\u007F\u0085 ', 100)).toBe('AB C');
    expect(readableText('\u0000\u0000', 100)).toBeNull();
  });

  it('never cuts a surrogate pair in two, and mends a lone surrogate', () => {
    const cut = readableText(`x${EMOJI.repeat(10)}`, 4)!;
    expect(cut).toBe(`x${EMOJI}`);
    expect(cutText(EMOJI.repeat(3), 3)).toBe(EMOJI);
    expect(readableText('a\uD800b', 10)).toBe('a\uFFFDb');
  });
});

describe('text read off pages, feeds and sitemaps is fit to store', () => {
  // Found by the page-content fuzzer: a NUL in <title> became the seed's name, which Postgres refuses in a text
  // column, and a 300-character cut through an emoji left a lone surrogate.
  it('a page title with NULs, and one cut through an emoji', () => {
    expect(parsePage('<title>Daily\u0000 News\u0000</title>', 'https://a.test/').title).toBe('Daily News');
    const long = parsePage(`<title>x${EMOJI.repeat(400)}</title>`, 'https://a.test/').title!;
    expect(long.isWellFormed()).toBe(true);
    expect(long.length).toBe(299);
  });

  it('a feed title and item titles with NULs', () => {
    const feed = readFeed(
      Buffer.from(
        '<rss version="2.0"><channel><title>Feed\u0000 Title</title><link>https://a.test/</link>' +
          '<item><title>Item\u0000 one</title><link>https://a.test/1</link></item></channel></rss>',
      ),
      null,
    );
    expect(feed).toMatchObject({ title: 'Feed Title', item_titles: ['Item one'] });
  });

  it('a role reason quoting a label that is cut through an emoji', () => {
    const reason = commentsReason({
      url: 'https://a.test/f',
      requestedUrl: 'https://a.test/f',
      source: 'link',
      label: `Comments ${'x'.repeat(50)}${EMOJI.repeat(5)}`,
      announced: true,
      sameSite: true,
      foundOn: null,
      content: null,
    })!;
    expect(reason.isWellFormed()).toBe(true);
  });

  it('a news sitemap title and publication name cut through an emoji, or full of controls', () => {
    const sitemap = new SitemapAggregator({ now: new Date(0), newsWindowDays: 2 });
    sitemap.add({
      loc: 'https://a.test/story',
      lastmod: null,
      news: { publication_date: null, title: `y${EMOJI.repeat(150)}`, language: null, name: 'Daily\u0000' },
      hreflang: [],
    });
    const { news } = sitemap.snapshot();
    expect(news.sample_titles[0]!.isWellFormed()).toBe(true);
    expect(Object.keys(news.publications)).toEqual(['Daily']);
  });

  it('what a challenge marker matched, as it goes into the liveness message', () => {
    const body = Buffer.from('<html><head><title>Just a moment...\u0000</title></head></html>');
    const match = recogniseChallenge(503, { server: 'cloudflare' }, body);
    expect(match?.matched).toBe('title "Just a moment..."');
  });
});
