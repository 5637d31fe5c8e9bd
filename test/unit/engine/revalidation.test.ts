// A re-check's politeness (docs/design.md §11, docs/collection.md "Re-checks"): the second discovery of a site sends
// robots.txt and its sitemaps' validators back; what answers 304 is not read again — robots.txt comes from the
// stored copy, an unchanged sitemap tree keeps its counts without its children being fetched — and a changed
// file is read once, in full.
import { describe, expect, it } from 'vitest';
import { type ContractDiscovery, discoverContract } from '../../../src/engine/contract-discovery.js';
import type { PreviousDiscovery } from '../../../src/engine/revalidation.js';
import { type StubAnswer, stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';

const SITE = 'https://stats.gov.example';
const now = () => new Date('2026-11-23T10:00:00.000Z');
const INPUT = {
  domainId: 'gov:intl:stats.gov.example',
  registrableDomain: 'stats.gov.example',
  country: 'intl',
  category: 'news',
};

const urlset = (paths: string[]) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths
    .map((p) => `<url><loc>${SITE}${p}</loc></url>`)
    .join('')}</urlset>`;
const index = (children: string[]) =>
  `<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${children
    .map((c) => `<sitemap><loc>${SITE}${c}</loc></sitemap>`)
    .join('')}</sitemapindex>`;
const xml = (body: string, etag: string): StubAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/xml', etag },
  body,
});

function web(changes: Record<string, StubAnswer> = {}): Record<string, StubAnswer> {
  return {
    [`${SITE}/`]: {
      status: 200,
      headers: { 'content-type': 'text/html' },
      body: '<html lang="en"><head><title>Statistics</title></head><body></body></html>',
    },
    [`${SITE}/robots.txt`]: {
      status: 200,
      headers: { 'content-type': 'text/plain', 'last-modified': 'Mon, 02 Nov 2026 08:00:00 GMT' },
      body: `User-agent: *\nCrawl-delay: 2\nSitemap: ${SITE}/sitemap_index.xml\n`,
    },
    [`${SITE}/sitemap_index.xml`]: xml(index(['/a.xml', '/b.xml']), '"index-1"'),
    [`${SITE}/a.xml`]: xml(urlset(['/1', '/2', '/3']), '"a-1"'),
    [`${SITE}/b.xml`]: xml(urlset(['/4', '/5']), '"b-1"'),
    ...changes,
  };
}

/** What the contract service hands the next run: the validators, the stored robots.txt and the sitemap record. */
const previousOf = (found: ContractDiscovery): PreviousDiscovery => ({
  validators: found.metadata.validators,
  robotsTxt: found.evidence.robotsTxt,
  sitemap: found.metadata.sitemap,
});

describe('revalidation on a re-check', () => {
  it('records the validators of robots.txt and of every sitemap file on the first discovery', async () => {
    const fetcher = stubFetcher(web());
    const found = await discoverContract(fetcher, INPUT, { now });
    expect(found.metadata.validators).toEqual({
      [`${SITE}/robots.txt`]: { last_modified: 'Mon, 02 Nov 2026 08:00:00 GMT' },
      [`${SITE}/sitemap_index.xml`]: { etag: '"index-1"' },
      [`${SITE}/a.xml`]: { etag: '"a-1"' },
      [`${SITE}/b.xml`]: { etag: '"b-1"' },
    });
    expect(found.metadata.not_modified).toEqual([]);
    expect(fetcher.conditionalCalls).toEqual([]);
  });

  it('an unchanged site: robots.txt and the sitemap index answer 304, the children are not fetched, the counts stand', async () => {
    const first = await discoverContract(stubFetcher(web()), INPUT, { now });
    const fetcher = stubFetcher(web());
    const again = await discoverContract(fetcher, { ...INPUT, previous: previousOf(first) }, { now });
    expect(fetcher.conditionalCalls).toEqual([
      { url: `${SITE}/robots.txt`, notModified: true },
      { url: `${SITE}/sitemap_index.xml`, notModified: true },
    ]);
    expect(fetcher.calls).not.toContain(`${SITE}/a.xml`);
    expect(fetcher.calls).not.toContain(`${SITE}/b.xml`);
    expect(again.metadata.not_modified.sort()).toEqual([`${SITE}/robots.txt`, `${SITE}/sitemap_index.xml`]);
    // robots.txt read from the stored copy: its rules and crawl-delay hold, and it is kept as evidence again.
    expect(again.metadata.robots).toEqual(first.metadata.robots);
    expect(fetcher.crawlDelays.get('stats.gov.example')).toBe(2);
    expect(again.evidence.robotsTxt?.toString()).toBe(first.evidence.robotsTxt?.toString());
    expect(again.metadata.sitemap).toMatchObject({
      url_count: 5,
      exists: true,
      sitemaps: first.metadata.sitemap.sitemaps,
      aggregates: first.metadata.sitemap.aggregates,
    });
    expect(again.draft?.fetch).toEqual(first.draft?.fetch);
    // The next run revalidates against the same validators.
    expect(again.metadata.validators).toMatchObject({
      [`${SITE}/robots.txt`]: first.metadata.validators[`${SITE}/robots.txt`],
      [`${SITE}/sitemap_index.xml`]: { etag: '"index-1"' },
    });
  });

  it('a changed index is read once, in full, with its children; a changed robots.txt is read afresh', async () => {
    const first = await discoverContract(stubFetcher(web()), INPUT, { now });
    const changed = web({
      [`${SITE}/robots.txt`]: {
        status: 200,
        headers: { 'last-modified': 'Sun, 22 Nov 2026 08:00:00 GMT' },
        body: `User-agent: *\nCrawl-delay: 5\nSitemap: ${SITE}/sitemap_index.xml\n`,
      },
      [`${SITE}/sitemap_index.xml`]: xml(index(['/a.xml', '/b.xml', '/c.xml']), '"index-2"'),
      [`${SITE}/c.xml`]: xml(urlset(['/6']), '"c-1"'),
    });
    const fetcher = stubFetcher(changed);
    const again = await discoverContract(fetcher, { ...INPUT, previous: previousOf(first) }, { now });
    expect(fetcher.calls.filter((url) => url === `${SITE}/sitemap_index.xml`)).toHaveLength(1);
    expect(fetcher.calls).toEqual(
      expect.arrayContaining([`${SITE}/a.xml`, `${SITE}/b.xml`, `${SITE}/c.xml`]),
    );
    expect(again.metadata.sitemap.url_count).toBe(6);
    expect(again.metadata.robots.crawl_delay).toBe(5);
    expect(again.metadata.not_modified).toEqual([]);
    expect(again.metadata.validators[`${SITE}/sitemap_index.xml`]).toEqual({ etag: '"index-2"' });
  });

  it('two top-level sitemaps, one changed: the tree is read, the unchanged one asked for again in full', async () => {
    const listing: Record<string, StubAnswer> = {
      [`${SITE}/robots.txt`]: {
        status: 200,
        headers: { etag: '"r"' },
        body: `User-agent: *\nSitemap: ${SITE}/a.xml\nSitemap: ${SITE}/b.xml\n`,
      },
    };
    const first = await discoverContract(stubFetcher(web(listing)), INPUT, { now });
    expect(first.metadata.sitemap.url_count).toBe(5);
    const fetcher = stubFetcher(
      web({ ...listing, [`${SITE}/b.xml`]: xml(urlset(['/4', '/5', '/7']), '"b-2"') }),
    );
    const again = await discoverContract(fetcher, { ...INPUT, previous: previousOf(first) }, { now });
    expect(fetcher.conditionalCalls).toEqual([
      { url: `${SITE}/robots.txt`, notModified: true },
      { url: `${SITE}/a.xml`, notModified: true },
      { url: `${SITE}/b.xml`, notModified: false },
    ]);
    expect(fetcher.calls.filter((url) => url === `${SITE}/a.xml`)).toHaveLength(2);
    expect(fetcher.calls.filter((url) => url === `${SITE}/b.xml`)).toHaveLength(1);
    expect(again.metadata.sitemap.url_count).toBe(6);
    expect(again.metadata.not_modified).toEqual([`${SITE}/robots.txt`]);
  });

  it('robots.txt now listing another sitemap: the tree is read afresh, nothing revalidated', async () => {
    const first = await discoverContract(stubFetcher(web()), INPUT, { now });
    const moved = web({
      [`${SITE}/robots.txt`]: {
        status: 200,
        headers: { 'last-modified': 'Sun, 22 Nov 2026 09:00:00 GMT' },
        body: `User-agent: *\nSitemap: ${SITE}/a.xml\n`,
      },
    });
    const fetcher = stubFetcher(moved);
    const again = await discoverContract(fetcher, { ...INPUT, previous: previousOf(first) }, { now });
    expect(fetcher.conditionalCalls.map((c) => c.url)).toEqual([`${SITE}/robots.txt`]);
    expect(again.metadata.sitemap.url_count).toBe(3);
  });

  it('without the stored robots.txt a 304 could not be read: robots.txt is asked for in full', async () => {
    const first = await discoverContract(stubFetcher(web()), INPUT, { now });
    const fetcher = stubFetcher(web());
    await discoverContract(
      fetcher,
      { ...INPUT, previous: { ...previousOf(first), robotsTxt: null } },
      { now },
    );
    expect(fetcher.conditionalCalls.map((c) => c.url)).toEqual([`${SITE}/sitemap_index.xml`]);
  });
});
