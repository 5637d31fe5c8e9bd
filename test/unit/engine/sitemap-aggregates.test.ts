// The sitemap aggregates' sample of other hosts: the first URL of each host outside the site, once each and
// bounded, which discovery reads as citations (a sitemap entry on another host).
import { describe, expect, it } from 'vitest';
import { OTHER_HOSTS, SitemapAggregator } from '../../../src/engine/sitemap-aggregates.js';

const page = (loc: string) => ({ loc, lastmod: null, news: null, hreflang: [] });

describe('SitemapAggregator other hosts', () => {
  it('keeps the first URL of each other host, leaving out the site and its subdomains', () => {
    const aggregator = new SitemapAggregator({
      now: new Date(0),
      newsWindowDays: 2,
      siteDomain: 'example.org',
    });
    for (const loc of [
      'https://www.example.org/a',
      'https://example.org/b',
      'https://news.example.org/c',
      'https://partner.example.com/story-1',
      'https://partner.example.com/story-2',
      'https://other.net:8443/x',
      'https://www.example.org/d',
    ])
      aggregator.add(page(loc));
    expect(aggregator.snapshot().other_hosts).toEqual([
      { host: 'partner.example.com', url: 'https://partner.example.com/story-1' },
      { host: 'other.net', url: 'https://other.net:8443/x' },
    ]);
  });

  it('keeps at most OTHER_HOSTS hosts, and none without a site to compare with', () => {
    const aggregator = new SitemapAggregator({
      now: new Date(0),
      newsWindowDays: 2,
      siteDomain: 'example.org',
    });
    for (let i = 0; i < OTHER_HOSTS + 20; i += 1) aggregator.add(page(`https://site${i}.example.net/`));
    expect(aggregator.snapshot().other_hosts).toHaveLength(OTHER_HOSTS);
    const bare = new SitemapAggregator({ now: new Date(0), newsWindowDays: 2 });
    bare.add(page('https://elsewhere.net/'));
    expect(bare.snapshot().other_hosts).toBeUndefined();
  });
});
