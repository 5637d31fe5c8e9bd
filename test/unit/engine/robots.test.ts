import { describe, expect, it } from 'vitest';
import { fetchRobots, parseRobots } from '../../../src/engine/robots.js';
import { stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';

const URL_ = 'https://example.org/robots.txt';

describe('parseRobots', () => {
  it('applies the group for our agent over the * group', () => {
    const policy = parseRobots(
      URL_,
      'User-agent: *\nDisallow: /\n\nUser-agent: SeedbedBot\nAllow: /\nDisallow: /private/\nCrawl-delay: 2.5\n',
    );
    expect(policy.allowed('https://example.org/')).toBe(true);
    expect(policy.allowed('https://example.org/news/today')).toBe(true);
    expect(policy.allowed('https://example.org/private/x')).toBe(false);
    expect(policy.crawl_delay).toBe(2.5);
  });

  it('falls back to the * group and its crawl delay', () => {
    const policy = parseRobots(URL_, '\uFEFFUser-agent: *\nDisallow: /\nCrawl-delay: 10\n');
    expect(policy.allowed('https://example.org/')).toBe(false);
    expect(policy.crawl_delay).toBe(10);
  });

  it('matches our token case-insensitively and ignores other bots', () => {
    const policy = parseRobots(
      URL_,
      'User-agent: seedbedbot\nDisallow: /a\n\nUser-agent: OtherBot\nDisallow: /\n',
    );
    expect(policy.allowed('https://example.org/a/1')).toBe(false);
    expect(policy.allowed('https://example.org/b')).toBe(true);
  });

  it('lists sitemaps as absolute http(s) URLs, once each', () => {
    const policy = parseRobots(
      URL_,
      'Sitemap: https://example.org/a.xml\nSitemap: /b.xml\nsitemap: https://example.org/a.xml\nSitemap: ftp://x/c.xml\n',
    );
    expect(policy.sitemap_urls).toEqual(['https://example.org/a.xml', 'https://example.org/b.xml']);
  });

  it('has no crawl delay when none or a nonsense one is given', () => {
    expect(parseRobots(URL_, 'User-agent: *\nAllow: /\n').crawl_delay).toBeNull();
    expect(parseRobots(URL_, 'User-agent: *\nCrawl-delay: soon\n').crawl_delay).toBeNull();
  });

  it('does not govern other origins', () => {
    const policy = parseRobots(URL_, 'User-agent: *\nDisallow: /\n');
    expect(policy.allowed('https://cdn.example.net/feed.xml')).toBe(true);
    expect(policy.allowed('http://example.org/')).toBe(true);
  });
});

describe('fetchRobots', () => {
  const origin = 'https://example.org';

  it('parses a served file and keeps it as evidence', async () => {
    const fetcher = stubFetcher({
      [URL_]: { status: 200, body: 'User-agent: *\nDisallow: /x\nSitemap: /s.xml\n' },
    });
    const { policy, body } = await fetchRobots(fetcher, origin);
    expect(policy).toMatchObject({ url: URL_, status_code: 200, exists: true, disallowAllReason: null });
    expect(policy.sitemap_urls).toEqual(['https://example.org/s.xml']);
    expect(policy.allowed('https://example.org/x/1')).toBe(false);
    expect(body?.toString()).toContain('Disallow: /x');
  });

  it.each([404, 401, 403, 410])('treats %i as no rules at all', async (status) => {
    const { policy, body } = await fetchRobots(stubFetcher({ [URL_]: { status } }), origin);
    expect(policy).toMatchObject({ exists: false, status_code: status, disallowAllReason: null });
    expect(policy.allowed('https://example.org/anything')).toBe(true);
    expect(body).toBeNull();
  });

  it.each([500, 503, 429])('stays out when robots.txt answers %i', async (status) => {
    const { policy } = await fetchRobots(stubFetcher({ [URL_]: { status } }), origin);
    expect(policy.exists).toBe(false);
    expect(policy.disallowAllReason).toContain(String(status));
    expect(policy.allowed('https://example.org/')).toBe(false);
    expect(policy.allowed('https://elsewhere.example/')).toBe(true);
  });

  it.each([
    'TIMEOUT',
    'ECONNREFUSED',
    'TLS',
    'BODY_TOO_LARGE',
  ] as const)('stays out when robots.txt fails with %s', async (error) => {
    const { policy } = await fetchRobots(stubFetcher({ [URL_]: { error } }), origin);
    expect(policy.disallowAllReason).toContain(error);
    expect(policy.allowed('https://example.org/')).toBe(false);
  });

  it('treats endless redirects as no robots.txt', async () => {
    const { policy } = await fetchRobots(
      stubFetcher({ [URL_]: { error: 'TOO_MANY_REDIRECTS', status: 301 } }),
      origin,
    );
    expect(policy).toMatchObject({ exists: false, disallowAllReason: null, status_code: 301 });
    expect(policy.allowed('https://example.org/')).toBe(true);
  });
});
