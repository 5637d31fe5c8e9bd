import { describe, expect, it } from 'vitest';
import { canonicalPath, compilePattern, matches } from '../../../src/engine/robots-pattern.js';
import {
  parseCrawlDelay,
  parseRobotsRules,
  ROBOTS_PARSE_LIMIT_BYTES,
} from '../../../src/engine/robots-rules.js';

const at = (path: string) => new URL(path, 'https://example.org');

describe('parseRobotsRules', () => {
  it('reads groups, their agents as product tokens, rules with line numbers, and sitemaps', () => {
    const robots = parseRobotsRules(
      [
        'Sitemap: /a.xml',
        'User-agent: GPTBot/1.2',
        'user-agent: CCBot (+https://commoncrawl.org)',
        'Disallow: /',
        '',
        'User-agent: *',
        'Crawl-delay: 4',
        'Allow: /news # public',
        'Disallow: /private',
      ].join('\r\n'),
    );
    expect(robots.groups).toEqual([
      {
        agents: ['gptbot', 'ccbot'],
        rules: [{ rule: 'disallow', pattern: '/', line: 4 }],
        crawlDelay: null,
        line: 2,
      },
      {
        agents: ['*'],
        rules: [
          { rule: 'allow', pattern: '/news', line: 8 },
          { rule: 'disallow', pattern: '/private', line: 9 },
        ],
        crawlDelay: 4,
        line: 6,
      },
    ]);
    expect(robots.sitemaps).toEqual(['/a.xml']);
    expect(robots.truncated).toBe(false);
  });

  it('keeps patterns as written, UTF-8 included, for display', () => {
    const robots = parseRobotsRules('User-agent: *\nDisallow: /café/ツ\n');
    expect(robots.groups[0]?.rules[0]?.pattern).toBe('/café/ツ');
    expect(robots.decide('x', at('/caf%C3%A9/%E3%83%84/1')).allowed).toBe(false);
  });

  it('reads bytes that are not UTF-8 byte for byte, as Google does', () => {
    // A Latin-1 é (0xE9) in the file matches a Latin-1 URL escape %E9.
    const latin1 = Buffer.from('User-agent: *\nDisallow: /caf\xe9\n', 'latin1');
    const robots = parseRobotsRules(latin1);
    expect(robots.decide('x', at('/caf%E9')).allowed).toBe(false);
    expect(robots.decide('x', at('/cafe')).allowed).toBe(true);
  });

  it('reads only the complete lines within the first 500 KiB', () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const padding = '#'.repeat(ROBOTS_PARSE_LIMIT_BYTES - head.length - 'Disallow: /x'.length);
    // The limit falls inside "Disallow: /xyz": its first half would read as "Disallow: /", i.e. everything.
    const robots = parseRobotsRules(`${head}${padding}\nDisallow: /xyz\nDisallow: /late\n`);
    expect(robots.truncated).toBe(true);
    expect(robots.groups[0]?.rules.map((r) => r.pattern)).toEqual(['/early']);
    expect(robots.decide('x', at('/x')).allowed).toBe(true);
    expect(robots.decide('x', at('/late')).allowed).toBe(true);
  });

  it('keeps a last line that ends exactly at the limit', () => {
    const head = 'User-agent: *\nDisallow: /early\n';
    const line = 'Disallow: /edge';
    const padding = '#'.repeat(ROBOTS_PARSE_LIMIT_BYTES - head.length - line.length - 1);
    const robots = parseRobotsRules(`${head}${padding}\n${line}\nDisallow: /late\n`);
    expect(robots.truncated).toBe(true);
    expect(robots.groups[0]?.rules.map((r) => r.pattern)).toEqual(['/early', '/edge']);
  });

  it('is not truncated at exactly 500 KiB', () => {
    const head = 'User-agent: *\nDisallow: /a\n';
    const text = head + '#'.repeat(ROBOTS_PARSE_LIMIT_BYTES - head.length);
    expect(parseRobotsRules(text).truncated).toBe(false);
    expect(parseRobotsRules(`${text}\n`).truncated).toBe(true);
  });
});

describe('rulesFor', () => {
  const robots = parseRobotsRules(
    'User-agent: *\nDisallow: /private\n\nUser-agent: GPTBot\nDisallow: /\n\nUser-agent: gptbot\nCrawl-delay: 9\nAllow: /public\n',
  );

  it('merges every group that names the agent', () => {
    const rules = robots.rulesFor('GPTBot');
    expect(rules.scope).toBe('named');
    expect(rules.rules.map((r) => `${r.rule} ${r.pattern}`)).toEqual(['disallow /', 'allow /public']);
    expect(rules.crawlDelay).toBe(9);
  });

  it('falls back to the * groups, then to nothing', () => {
    expect(robots.rulesFor('CCBot')).toMatchObject({ scope: 'star', crawlDelay: null });
    expect(robots.rulesFor('CCBot').rules).toHaveLength(1);
    expect(parseRobotsRules('User-agent: GPTBot\nDisallow: /\n').rulesFor('CCBot')).toEqual({
      scope: 'none',
      groups: [],
      rules: [],
      crawlDelay: null,
    });
  });
});

describe('decide', () => {
  const robots = parseRobotsRules('User-agent: *\nDisallow: /a\nAllow: /a/b\nDisallow: /*.pdf$\nAllow: /a\n');

  it('names the line that decided', () => {
    expect(robots.decide('x', at('/a/b/c'))).toEqual({
      allowed: true,
      rule: { rule: 'allow', pattern: '/a/b', line: 3 },
    });
    expect(robots.decide('x', at('/docs/x.pdf'))).toEqual({
      allowed: false,
      rule: { rule: 'disallow', pattern: '/*.pdf$', line: 4 },
    });
    expect(robots.decide('x', at('/elsewhere'))).toEqual({ allowed: true, rule: null });
  });

  it('names the Allow when an Allow and a Disallow of the same length tie', () => {
    expect(robots.decide('x', at('/a'))).toEqual({
      allowed: true,
      rule: { rule: 'allow', pattern: '/a', line: 5 },
    });
  });
});

describe('patterns', () => {
  it('gives equivalent spellings one canonical form', () => {
    expect(compilePattern('/foo/bar/%62%61%7a').text).toBe('/foo/bar/baz');
    expect(compilePattern('/a%2fb').text).toBe('/a%2Fb');
    expect(compilePattern(Buffer.from('/ツ').toString('latin1')).text).toBe('/%E3%83%84');
    expect(compilePattern('/a b"<>{|}').text).toBe('/a%20b%22%3C%3E%7B%7C%7D');
    expect(compilePattern('/100%').text).toBe('/100%25');
    expect(compilePattern('/a*b$c$').text).toBe('/a*b%24c$');
    expect(canonicalPath(at('/a*b$c?q={x}'))).toBe('/a%2Ab%24c?q=%7Bx%7D');
  });

  it.each([
    ['/', '/anything', true],
    ['/a*c', '/abc', true],
    ['/a*c', '/ab', false],
    ['/a*c$', '/abcabd', false],
    ['/a*c$', '/abcabc', true],
    ['*.gif$', '/x/y.gif', true],
    ['*.gif$', '/x/y.gif?z', false],
    ['/*a*a*a*a*b', `/${'a'.repeat(5000)}`, false],
    ['/$', '/', true],
    ['$', '/', false],
    ['/a**b', '/ab', true],
  ])('%s matches %s: %s', (pattern, path, expected) => {
    expect(matches(compilePattern(pattern).text, path)).toBe(expected);
  });
});

describe('parseCrawlDelay', () => {
  it.each([
    ['10', 10],
    ['2.5', 2.5],
    ['.5', 0.5],
    ['3.', 3],
    ['0', null],
    ['-1', null],
    ['1e3', null],
    ['soon', null],
    ['', null],
  ])('%s → %s', (value, expected) => {
    expect(parseCrawlDelay(value)).toBe(expected);
  });
});
