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

describe('RobotsPolicy questions', () => {
  const text = [
    'User-agent: *',
    'Disallow: /private/',
    '',
    'User-agent: SeedbedBot',
    'Disallow: /drafts/',
    'Allow: /drafts/published/',
    '',
    'User-agent: GPTBot',
    'User-agent: CCBot',
    'Disallow: /',
  ].join('\n');
  const policy = parseRobots(URL_, text);

  it('says which line decided for our agent', () => {
    expect(policy.decide('https://example.org/drafts/x')).toEqual({
      allowed: false,
      rule: { rule: 'disallow', pattern: '/drafts/', line: 5 },
    });
    expect(policy.decide('https://example.org/drafts/published/x')).toEqual({
      allowed: true,
      rule: { rule: 'allow', pattern: '/drafts/published/', line: 6 },
    });
    // Our group names us, so the * group's /private/ does not apply and no rule matches.
    expect(policy.decide('https://example.org/private/x')).toEqual({ allowed: true, rule: null });
    expect(policy.allowed('https://example.org/drafts/x')).toBe(false);
  });

  it('answers for any other product token', () => {
    expect(policy.allowedFor('GPTBot', 'https://example.org/')).toBe(false);
    expect(policy.allowedFor('ccbot', 'https://example.org/news')).toBe(false);
    expect(policy.decideFor('ClaudeBot', 'https://example.org/private/a')).toEqual({
      allowed: false,
      rule: { rule: 'disallow', pattern: '/private/', line: 2 },
    });
    expect(policy.allowedFor('ClaudeBot', 'https://example.org/')).toBe(true);
    expect(policy.rulesFor('GPTBot')).toMatchObject({
      scope: 'named',
      rules: [{ rule: 'disallow', pattern: '/' }],
    });
    expect(policy.rulesFor('ClaudeBot').scope).toBe('star');
    expect(policy.groups.map((g) => g.agents)).toEqual([['*'], ['seedbedbot'], ['gptbot', 'ccbot']]);
  });

  it('does not govern other origins for any agent', () => {
    expect(policy.decideFor('GPTBot', 'https://cdn.example.net/')).toEqual({ allowed: true, rule: null });
    expect(policy.allowedFor('GPTBot', 'not a url')).toBe(true);
  });

  it('reads the bytes as served: BOM, partial BOM, CRLF', () => {
    for (const bom of ['efbbbf', 'efbb', 'ef']) {
      const body = Buffer.concat([
        Buffer.from(bom, 'hex'),
        Buffer.from('User-agent: SeedbedBot\r\nDisallow: /\r\n'),
      ]);
      expect(parseRobots(URL_, body).allowed('https://example.org/x')).toBe(false);
    }
  });

  it('lists Site-map and other spellings, resolved and once each', () => {
    const sitemaps = parseRobots(
      URL_,
      'site-map: /a.xml\nSITEMAP: https://example.org/a.xml\nSitemaps: /b.xml\nUser-agent: *\nDisallow: /\nsitemap /c.xml\n',
    ).sitemap_urls;
    expect(sitemaps).toEqual([
      'https://example.org/a.xml',
      'https://example.org/b.xml',
      'https://example.org/c.xml',
    ]);
  });

  it('gives every agent the same answer when there is no file', async () => {
    const { policy: gone } = await fetchRobots(
      stubFetcher({ [URL_]: { status: 404 } }),
      'https://example.org',
    );
    expect(gone.decideFor('GPTBot', 'https://example.org/')).toEqual({ allowed: true, rule: null });
    expect(gone.rulesFor('GPTBot')).toEqual({ scope: 'none', groups: [], rules: [], crawlDelay: null });
    const { policy: down } = await fetchRobots(
      stubFetcher({ [URL_]: { status: 503 } }),
      'https://example.org',
    );
    expect(down.decide('https://example.org/')).toEqual({ allowed: false, rule: null });
    expect(down.allowedFor('GPTBot', 'https://example.org/')).toBe(false);
    expect(down.allowedFor('GPTBot', 'https://other.example/')).toBe(true);
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
