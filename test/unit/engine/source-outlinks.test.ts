// The other sites a contract run finds a source linking to (discovery's citations): on its homepage, in its feed
// items and in its sitemap tree, once per registrable domain, never the source itself.
import { describe, expect, it } from 'vitest';
import { discoverContract } from '../../../src/engine/contract-discovery.js';
import { stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';

const HTML = { 'content-type': 'text/html; charset=utf-8' };
const home = `<!doctype html><html lang="en"><head><title>Paper</title>
<link rel="alternate" type="application/rss+xml" href="/feed.xml"></head><body>
<a href="https://www.paper.example/about">About</a> <a href="https://partner.org/x">Partner</a>
<a href="https://blog.paper.example/">Our blog</a></body></html>`;
const feed = `<?xml version="1.0"?><rss version="2.0"><channel><title>Paper</title><link>https://www.paper.example/</link>
<item><title>Own</title><link>https://www.paper.example/2026/11/20/own-story.html</link></item>
<item><title>Syndicated</title><link>https://www.wire-service.net/story/1</link></item></channel></rss>`;
const sitemap = `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
<url><loc>https://www.paper.example/2026/11/20/own-story.html</loc></url>
<url><loc>https://archive.sister-paper.example/old</loc></url>
<url><loc>https://partner.org/y</loc></url></urlset>`;

describe('outlinks', () => {
  it('collects the homepage, feed and sitemap links to other sites, once each', async () => {
    const fetcher = stubFetcher({
      'https://www.paper.example/robots.txt': {
        status: 200,
        body: 'User-agent: *\nAllow: /\nSitemap: https://www.paper.example/sitemap.xml\n',
      },
      'https://www.paper.example/': { status: 200, body: home, headers: HTML },
      'https://www.paper.example/feed.xml': {
        status: 200,
        body: feed,
        headers: { 'content-type': 'application/rss+xml' },
      },
      'https://www.paper.example/sitemap.xml': {
        status: 200,
        body: sitemap,
        headers: { 'content-type': 'application/xml' },
      },
    });
    const found = await discoverContract(
      fetcher,
      {
        domainId: 'com:us:paper.example',
        registrableDomain: 'paper.example',
        host: 'www.paper.example',
        country: 'us',
        category: 'news',
      },
      { now: () => new Date('2026-11-26T00:00:00Z'), canary: null },
    );
    const outlinks = found.metadata.outlinks.map((o) => [o.domain, o.found_in]);
    expect(outlinks).toEqual([
      ['partner.org', 'homepage'],
      ['wire-service.net', 'feed'],
      ['sister-paper.example', 'sitemap'],
    ]);
  });
});
