import { describe, expect, it } from 'vitest';
import { hostOf, probeDomain } from '../../../src/engine/probe.js';
import { SITES } from '../../fixtures/fake-internet/index.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';

describe('hostOf', () => {
  it.each([
    ['example.org', 'example.org'],
    [' Example.ORG. ', 'example.org'],
    ['https://www.Example.org/news?x=1', 'www.example.org'],
    ['example.org/news', 'example.org'],
  ])('%s → %s', (given, host) => {
    expect(hostOf(given)).toBe(host);
  });
});

describe('probeDomain', () => {
  const web = useFakeInternet();

  it('reports what the seed would be, as JSON-ready data', async () => {
    const report = await probeDomain(web.fetcher, `https://${SITES.news}/`, 'news', { country: 'SG' });
    expect(report.domain).toBe(SITES.news);
    expect(report).toMatchObject({ registrable_domain: 'news.test', domain_id: 'other:sg:news.test' });
    expect(report.metadata).toMatchObject({
      domain_id: 'other:sg:news.test',
      country: 'sg',
      category: 'news',
    });
    expect(report.draft?.fetch.type).toBe('rss');
    expect(report.evidence.robots_txt_bytes).toBeGreaterThan(0);
    expect(report.evidence.sitemap_xml_bytes).toBeGreaterThan(0);
    expect(JSON.parse(JSON.stringify(report))).toEqual(report);
    expect(report.metadata.sitemap).toMatchObject({ url_count: 5, news: true, truncated: false });
  });

  it('says when the sitemap reading was cut short', async () => {
    const report = await probeDomain(web.fetcher, SITES.news, 'news', { sitemapLimits: { maxFiles: 2 } });
    expect(report.metadata.sitemap).toMatchObject({
      exists: true,
      url_count: 3,
      truncated: true,
      truncated_reason: 'max_files',
      files_read: 2,
    });
  });

  it('uses a given domain id and reports a dead domain with its reason', async () => {
    const report = await probeDomain(web.fetcher, SITES.unresolvable, 'news', {
      domainId: 'gov:intl:nowhere.invalid',
    });
    expect(report.metadata.domain_id).toBe('gov:intl:nowhere.invalid');
    expect(report.draft).toBeNull();
    expect(report.reason).toMatch(/dead/);
    expect(report.liveness.error_code).toBe('ENOTFOUND');
  });

  // Issue 8 item 7: `probe https://www.bbc.co.uk/news` must key the seed by bbc.co.uk while probing the host given.
  it('probes the host given and keys the report by its registrable domain', async () => {
    const report = await probeDomain(web.fetcher, `https://www.${SITES.news}/politik/`, 'news', {
      country: 'gb',
    });
    expect(report).toMatchObject({
      domain: `www.${SITES.news}`,
      registrable_domain: SITES.news,
      domain_id: `other:gb:${SITES.news}`,
    });
    expect(report.metadata).toMatchObject({
      registrable_domain: SITES.news,
      domain_id: `other:gb:${SITES.news}`,
    });
    expect(report.liveness.domain).toBe(`www.${SITES.news}`);
    expect(web.net.hits(`www.${SITES.news}`, '/')).toBeGreaterThan(0);
  });

  it('derives the authority from the suffix and the override table', async () => {
    const table = new Map([[SITES.news, { authority: 'gov' as const }]]);
    const report = await probeDomain(web.fetcher, SITES.news, 'news', { authorityOverrides: table });
    expect(report.domain_id).toBe(`gov:intl:${SITES.news}`);
    expect(report.metadata.domain_id).toBe(`gov:intl:${SITES.news}`);
  });

  it.each([
    ['an IP address', '127.0.0.1', {}, /IP address/],
    ['a public suffix', 'co.uk', {}, /public suffix/],
    ['a domain id of another domain', SITES.news, { domainId: 'com:intl:bbc.co.uk' }, /not the domain id/],
  ])('refuses %s before fetching anything', async (_name, input, options, message) => {
    const before = web.net.requests.length;
    await expect(probeDomain(web.fetcher, input, 'news', options)).rejects.toThrow(message);
    expect(web.net.requests.length).toBe(before);
  });
});
