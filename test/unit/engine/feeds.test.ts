import { describe, expect, it } from 'vitest';
import {
  type DiscoveredFeed,
  discoverFeeds,
  identifyFeed,
  MAX_FEED_FETCHES,
  parseHomepage,
} from '../../../src/engine/feeds.js';
import { atom, jsonFeed, rss } from '../../fixtures/fake-internet/content.js';
import { SITES } from '../../fixtures/fake-internet/index.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

describe('parseHomepage', () => {
  it('finds the title and feed links, resolving relative hrefs against the page URL', () => {
    const html = `<html><head><title>  The  Daily &amp; Co </title>
      <link rel="alternate" type="application/rss+xml" href="feed.xml">
      <link rel="Alternate home" type="application/atom+xml; charset=utf-8" href="/atom">
      <link rel="alternate" type="application/feed+json" href="https://cdn.example.net/f.json">
      <link rel="alternate" type="application/json" href="/legacy.json">
      <link rel="alternate" type="text/html" hreflang="fr" href="/fr/">
      <link rel="stylesheet" type="application/rss+xml" href="/nope.xml">
      <link rel="alternate" type="application/rss+xml" href="feed.xml">
      <link rel="alternate" type="application/rss+xml" href="javascript:alert(1)">
      </head><body></body></html>`;
    expect(parseHomepage(html, 'https://example.org/news/index.html')).toEqual({
      title: 'The Daily & Co',
      feedLinks: [
        'https://example.org/news/feed.xml',
        'https://example.org/atom',
        'https://cdn.example.net/f.json',
        'https://example.org/legacy.json',
      ],
    });
  });

  it('honours <base href> and ignores an SVG title', () => {
    const html =
      '<head><base href="https://static.example.org/site/"><link rel="alternate" type="application/rss+xml" href="rss"></head>' +
      '<body><svg><title>icon</title></svg></body>';
    expect(parseHomepage(html, 'https://example.org/')).toEqual({
      title: null,
      feedLinks: ['https://static.example.org/site/rss'],
    });
    const titled = '<svg><title>icon</title></svg><title>Real</title>';
    expect(parseHomepage(titled, 'https://example.org/').title).toBe('Real');
  });
});

describe('identifyFeed', () => {
  it.each([
    ['rss', rss('An RSS feed', 'https://a/'), 'An RSS feed'],
    ['atom', atom('An Atom feed', 'https://a/'), 'An Atom feed'],
    ['json', jsonFeed('A JSON feed', 'https://a/'), 'A JSON feed'],
    [
      'rdf',
      '<?xml version="1.0"?><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel rdf:about="https://a/"><title>An RDF feed</title><link>https://a/</link></channel><item rdf:about="https://a/1"><title>x</title><link>https://a/1</link></item></rdf:RDF>',
      'An RDF feed',
    ],
  ])('recognises %s', (type, body, title) => {
    expect(identifyFeed(Buffer.from(body))).toEqual({ type, title });
  });

  it.each([
    ['<html><body>hi</body></html>'],
    ['{"hello":"world"}'],
    [''],
    ['<urlset></urlset>'],
  ])('rejects what is not a feed: %s', (body) => {
    expect(identifyFeed(Buffer.from(body))).toBeNull();
  });
});

const NOW = new Date('2025-03-04T05:06:07.000Z');
const now = () => NOW;
/** The fields a test compares: the public record plus how the feed was found. */
const brief = (feeds: DiscoveredFeed[]) =>
  feeds.map(({ url, type, title, role }) => ({ url, type, title, role }));

describe('discoverFeeds on the fake internet', () => {
  const web = useFakeInternet();

  async function homepage(host: string) {
    const res = await web.fetcher.fetch(`https://${host}/`, { kind: 'html' });
    return { pageUrl: res.finalUrl, html: res.body.toString('utf8') };
  }

  it('follows a relative Atom link from the final (redirected) page', async () => {
    const feeds = await discoverFeeds(web.fetcher, {
      ...(await homepage(SITES.atom)),
      allowed: () => true,
      now,
    });
    expect(brief(feeds)).toEqual([
      { url: `https://${SITES.atom}/home/feed.atom`, type: 'atom', title: 'Atom Test Feed', role: 'main' },
    ]);
  });

  it('confirms a JSON Feed', async () => {
    const feeds = await discoverFeeds(web.fetcher, {
      ...(await homepage(SITES.jsonFeed)),
      allowed: () => true,
      now,
    });
    expect(brief(feeds)).toEqual([
      { url: `https://${SITES.jsonFeed}/feed.json`, type: 'json', title: 'JSON Test Feed', role: 'main' },
    ]);
  });

  it('drops a linked "feed" that is HTML and finds the real one at a common path', async () => {
    const feeds = await discoverFeeds(web.fetcher, {
      ...(await homepage(SITES.commonFeed)),
      allowed: () => true,
      now,
    });
    expect(brief(feeds)).toEqual([
      { url: `https://${SITES.commonFeed}/feed`, type: 'rss', title: 'Common Feed', role: 'main' },
    ]);
    expect(web.net.hits(SITES.commonFeed, '/not-a-feed.xml')).toBe(1);
    // It stops at the first common path that works.
    expect(web.net.hits(SITES.commonFeed, '/rss.xml')).toBe(0);
  });

  it('tries every common path (trailing-slash and CMS forms too), and nothing else, when the page links no feed', async () => {
    const page = await homepage(SITES.bare);
    const before = web.net.requests.length;
    const feeds = await discoverFeeds(web.fetcher, { ...page, allowed: () => true, now });
    expect(feeds).toEqual([]);
    const asked = web.net.requests.slice(before).map((r) => r.target);
    expect(asked).toEqual([
      '/feed',
      '/rss.xml',
      '/atom.xml',
      '/feed.xml',
      '/rss',
      '/index.xml',
      '/feed/',
      '/?feed=rss2',
      '/rss/',
      '/feeds/posts/default',
      '/?format=feed&type=rss',
      '/index.rss',
    ]);
    expect(asked).toHaveLength(MAX_FEED_FETCHES);
  });

  it('does not fetch a candidate robots.txt disallows', async () => {
    const page = await homepage(SITES.disallow);
    const before = web.net.hits(SITES.disallow);
    const feeds = await discoverFeeds(web.fetcher, { ...page, allowed: () => false, now });
    expect(feeds).toEqual([]);
    expect(web.net.hits(SITES.disallow) - before).toBe(0);
  });
});
