import { describe, expect, it } from 'vitest';
import { safeDecodeURIComponent } from '../../../src/domain/percent-decode.js';
import { feedLikeUrl, parsePage } from '../../../src/engine/feed-candidates.js';

describe('safeDecodeURIComponent', () => {
  it.each([
    ['/a%20b', '/a b'],
    ['%E2%82%AC', '€'],
    ['/caf%c3%a9', '/café'],
    ['plain', 'plain'],
  ])('decodes valid text as decodeURIComponent does: %j', (text, decoded) => {
    expect(safeDecodeURIComponent(text)).toBe(decoded);
    expect(safeDecodeURIComponent(text)).toBe(decodeURIComponent(text));
  });

  it.each([
    // A UTF-8 sequence cut short: its bytes become U+FFFD, the broken escape after it stays as written.
    ['/feed%E2%8.xml', '/feed\uFFFD%8.xml'],
    ['/rss%', '/rss%'],
    ['/a%zz', '/a%zz'],
    ['%E2%82', '\uFFFD'],
    ['%C3%A9%', 'é%'],
    ['%%41', '%A'],
    ['%ED%A0%80', '\uFFFD\uFFFD\uFFFD'],
  ])('never throws on a broken escape: %j → %j', (text, decoded) => {
    expect(() => decodeURIComponent(text)).toThrow(URIError);
    expect(safeDecodeURIComponent(text)).toBe(decoded);
  });
});

describe('feed-like URLs with broken escapes', () => {
  it('judges a cut-off link by what it says instead of throwing', () => {
    expect(feedLikeUrl('https://a.test/rss/news%E2%8')).toBe(true);
    expect(feedLikeUrl('https://a.test/feed%')).toBe(false);
    expect(feedLikeUrl('https://a.test/news%zz.xml')).toBe(true);
  });

  it('reads a page whose feed links are cut off mid-escape', () => {
    const page = parsePage(
      '<html><head><link rel="alternate" href="/feed/%E2%8"></head><body><a href="/rss/%">RSS</a></body></html>',
      'https://a.test/',
    );
    expect(page.links.map((l) => l.url)).toEqual(['https://a.test/feed/%E2%8']);
    expect(page.anchors.map((a) => a.url)).toEqual(['https://a.test/rss/%']);
  });
});
