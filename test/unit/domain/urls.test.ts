import { describe, expect, it } from 'vitest';
import { classifyUrl, MAX_URL_LENGTH, normalizeUrl } from '../../../src/domain/urls.js';

function href(input: unknown): string {
  const result = normalizeUrl(input);
  if (!result.ok) throw new Error(`refused: ${result.reason}`);
  return result.url.href;
}

function reason(input: unknown): string {
  const result = normalizeUrl(input);
  if (result.ok) throw new Error(`accepted as ${result.url.href}`);
  return result.reason;
}

describe('normalizeUrl: canonical spelling', () => {
  it.each([
    [
      'lower-cases scheme and host, keeps path case',
      'HTTPS://Example.COM/Path/To',
      'https://example.com/Path/To',
    ],
    ['drops :443 on https', 'https://example.com:443/a', 'https://example.com/a'],
    ['drops :80 on http', 'http://example.com:80/a', 'http://example.com/a'],
    ['keeps :443 on http', 'http://example.com:443/a', 'http://example.com:443/a'],
    ['keeps :80 on https', 'https://example.com:80/a', 'https://example.com:80/a'],
    ['keeps a non-default port', 'https://example.com:8443/a', 'https://example.com:8443/a'],
    ['drops the fragment', 'https://example.com/a#section-2', 'https://example.com/a'],
    ['drops an empty fragment', 'https://example.com/a#', 'https://example.com/a'],
    ['makes an empty path "/"', 'https://example.com', 'https://example.com/'],
    ['removes a trailing dot on the host', 'https://example.com./a', 'https://example.com/a'],
    ['turns an IDN host into punycode', 'https://bücher.de/x', 'https://xn--bcher-kva.de/x'],
    ['turns a Cyrillic IDN into punycode', 'https://пример.рф/', 'https://xn--e1afmkfd.xn--p1ai/'],
    ['trims surrounding whitespace', '  https://example.com/a \n', 'https://example.com/a'],
  ])('%s', (_name, input, expected) => {
    expect(href(input)).toBe(expected);
  });

  it.each([
    ['example.com/news', 'https://example.com/news'],
    ['example.com', 'https://example.com/'],
    ['example.com:8080/x', 'https://example.com:8080/x'],
    ['example.com:8080', 'https://example.com:8080/'],
    ['//example.com/x', 'https://example.com/x'],
    ['пример.рф', 'https://xn--e1afmkfd.xn--p1ai/'],
    ['www.example.com/a?b=1', 'https://www.example.com/a?b=1'],
  ])('takes scheme-less %s as https', (input, expected) => {
    expect(href(input)).toBe(expected);
  });

  // A scheme-less host:port followed by a query or fragment (no path) must still be read as host:port.
  it.each([
    ['example.com:8080?q=1', 'https://example.com:8080/?q=1'],
    ['example.com:8080#top', 'https://example.com:8080/'],
  ])('takes scheme-less %s (port, then query or fragment) as https', (input, expected) => {
    expect(href(input)).toBe(expected);
  });

  it.each([
    'https://example.com/a?b=2&a=1',
    'https://example.com/a?B=X&b=x',
    'https://example.com/a?source=x&id=7&id=8',
    'https://example.com/a?empty=&flag',
    'https://example.com/a?q=%7e%2F%3D',
    'https://example.com/?',
  ])('keeps the query string exactly: %s', (input) => {
    expect(href(input)).toBe(input);
  });

  it('keeps the query but drops the fragment', () => {
    expect(href('https://example.com/a?x=1#y=2')).toBe('https://example.com/a?x=1');
  });
  it('is idempotent', () => {
    for (const input of ['HTTPS://Bücher.DE:443/a?b=1#c', 'example.com:8080/x', '//Example.com./']) {
      const once = href(input);
      expect(href(once)).toBe(once);
    }
  });

  it('accepts a URL of exactly the maximum length', () => {
    const base = 'https://example.com/';
    const input = base + 'a'.repeat(MAX_URL_LENGTH - base.length);
    expect(input).toHaveLength(MAX_URL_LENGTH);
    expect(href(input)).toBe(input);
  });

  // The normalised URL is what gets stored (records allow normalized_url up to 4096 characters), so the
  // length limit must hold after percent-encoding too, not only on the raw input.
  it('never yields a normalised URL longer than the maximum', () => {
    const input = 'https://example.com/' + 'ü'.repeat(2000);
    expect(input.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
    const result = normalizeUrl(input);
    if (result.ok) expect(result.url.href.length).toBeLessThanOrEqual(MAX_URL_LENGTH);
  });
});

// docs/design.md §2: tracking parameters are dropped, so a shared link and the page itself are one source.
describe('normalizeUrl: tracking parameters', () => {
  it.each([
    ['https://example.de/politik/?utm_source=x', 'https://example.de/politik/'],
    [
      'https://example.de/politik/?utm_source=x&utm_medium=social&utm_campaign=c',
      'https://example.de/politik/',
    ],
    ['https://example.de/a?id=7&fbclid=IwAR0&page=2', 'https://example.de/a?id=7&page=2'],
    ['https://example.de/a?gclid=1&dclid=2&gbraid=3&wbraid=4&msclkid=5', 'https://example.de/a'],
    ['https://example.de/a?mc_cid=1&mc_eid=2&_hsenc=3&_hsmi=4&igshid=5&yclid=6', 'https://example.de/a'],
    ['https://example.de/a?twclid=1&ttclid=2&li_fat_id=3&_ga=4&_gl=5&srsltid=6', 'https://example.de/a'],
    ['https://example.fr/article?xtor=RSS-3208', 'https://example.fr/article'],
    ['https://example.co.uk/news/1?at_medium=RSS&at_campaign=rss', 'https://example.co.uk/news/1'],
    ['https://example.de/a?mtm_campaign=x&pk_campaign=y&b=1', 'https://example.de/a?b=1'],
    ['https://example.de/a?UTM_Source=x&FBCLID=y&q=1', 'https://example.de/a?q=1'],
    ['https://example.de/a?utm%5Fsource=x&q=1', 'https://example.de/a?q=1'],
    ['https://example.de/a?fbclid', 'https://example.de/a'],
    ['https://example.de/a?fbclid=1#top', 'https://example.de/a'],
    ['example.de/a?utm_source=x', 'https://example.de/a'],
  ])('%s → %s', (input, expected) => {
    expect(href(input)).toBe(expected);
  });

  it('keeps the other parameters in order and as written', () => {
    expect(href('https://example.de/s?b=2&utm_term=x&a=%7e&c=d+e&a=1&flag&empty=')).toBe(
      'https://example.de/s?b=2&a=%7e&c=d+e&a=1&flag&empty=',
    );
    expect(href('https://example.de/s?utm_source=x&&q=1')).toBe('https://example.de/s?q=1');
  });

  // Names that real sites use to select content are not tracking tags, however often marketing uses them.
  it.each([
    'https://example.de/a?ref=main',
    'https://example.de/a?source=rss',
    'https://example.de/a?src=home',
    'https://example.de/a?from=1',
    'https://example.de/a?cid=42',
    'https://example.de/a?campaign=2026',
    'https://example.de/a?utm=1',
    'https://example.de/a?pk_id=5',
    'https://example.de/a?s=term&page=2',
    'https://example.de/a?gclid_page=1',
  ])('keeps %s', (input) => {
    expect(href(input)).toBe(input);
  });

  it('is idempotent with tracking parameters', () => {
    for (const input of ['https://example.de/a?x=1&utm_source=y&&z', 'https://example.de/?fbclid=1']) {
      const once = href(input);
      expect(href(once)).toBe(once);
    }
  });
});

describe('normalizeUrl: refusals', () => {
  it.each([
    ['a number', 42],
    ['null', null],
    ['undefined', undefined],
    ['an object', { href: 'https://example.com/' }],
  ])('refuses %s as not a string', (_name, input) => {
    expect(reason(input)).toBe('not a string');
  });

  it.each(['', '   ', '\n\t'])('refuses empty input %j', (input) => {
    expect(reason(input)).toBe('empty');
  });

  it('refuses input longer than the maximum', () => {
    const base = 'https://example.com/';
    expect(reason(base + 'a'.repeat(MAX_URL_LENGTH - base.length + 1))).toMatch(/longer than 2048/);
  });

  it.each([
    ['a space inside', 'https://example.com/a b'],
    ['a tab inside', 'https://example.com/a\tb'],
    ['a newline inside', 'https://exa\nmple.com/'],
    ['a NUL', 'https://example.com/\u0000'],
    ['DEL', 'https://example.com/a\u007fb'],
    ['a no-break space', 'https://example.com/a\u00a0b'],
    ['an ideographic space', 'https://example.com/a\u3000b'],
    ['an escape character', 'https://example.com/\u001b[0m'],
  ])('refuses %s', (_name, input) => {
    expect(reason(input)).toMatch(/whitespace or control/);
  });

  // U+0085 (NEL) is a C1 control character and Unicode whitespace, though not matched by JS \s.
  it('refuses a C1 control character (U+0085) inside', () => {
    expect(reason('https://example.com/a\u0085b')).toMatch(/whitespace or control/);
  });

  it.each([
    ['javascript:alert(1)', /unsupported scheme javascript/],
    ['mailto:editor@example.com', /unsupported scheme mailto/],
    ['ftp://example.com/file', /unsupported scheme ftp/],
    ['data:text/html,<b>x</b>', /unsupported scheme data/],
    ['file:///etc/passwd', /unsupported scheme file/],
    ['ws://example.com/', /unsupported scheme ws/],
  ])('refuses %s', (input, expected) => {
    expect(reason(input)).toMatch(expected);
  });

  it.each([
    'https://u:p@x.com/',
    'https://user@example.com/',
    'http://:secret@example.com/',
  ])('refuses credentials in %s', (input) => {
    expect(reason(input)).toBe('credentials in URLs are refused');
  });

  it.each([
    'http://',
    'https://exa%20mple.com',
    'https://[::1/',
    'http://a..b:99999/',
  ])('refuses the unparseable %s', (input) => {
    expect(normalizeUrl(input).ok).toBe(false);
  });
});

describe('classifyUrl', () => {
  it('classifies a government page', () => {
    const result = classifyUrl('HTTPS://www.MOM.gov.sg:443/newsroom#latest', 'sg');
    expect(result).toEqual({
      ok: true,
      value: {
        raw_url: 'HTTPS://www.MOM.gov.sg:443/newsroom#latest',
        normalized_url: 'https://www.mom.gov.sg/newsroom',
        host: 'www.mom.gov.sg',
        registrable_domain: 'mom.gov.sg',
        domain_id: 'gov:sg:mom.gov.sg',
        authority: 'gov',
        source_type: 'government',
      },
    });
  });

  it('classifies a scheme-less IDN', () => {
    const result = classifyUrl('bücher.de/x', 'de');
    expect(result.ok && result.value).toMatchObject({
      normalized_url: 'https://xn--bcher-kva.de/x',
      registrable_domain: 'xn--bcher-kva.de',
      domain_id: 'other:de:xn--bcher-kva.de',
      authority: 'other',
      source_type: 'other',
    });
  });

  it('uses the whole list: a github.io page belongs to its user, with the authority of .io', () => {
    const result = classifyUrl('https://foo.github.io/blog', 'intl');
    expect(result.ok && result.value).toMatchObject({
      registrable_domain: 'foo.github.io',
      domain_id: 'other:intl:foo.github.io',
    });
  });

  it('applies the authority overrides: the shipped table by default, or the one given', () => {
    expect(classifyUrl('https://www.bundesregierung.de/breg-de', 'de')).toMatchObject({
      ok: true,
      value: { domain_id: 'gov:de:bundesregierung.de', authority: 'gov', source_type: 'government' },
    });
    const table = new Map([['example.de', { authority: 'ngo' as const }]]);
    expect(classifyUrl('https://example.de/', 'de', table)).toMatchObject({
      ok: true,
      value: { domain_id: 'ngo:de:example.de' },
    });
  });

  it.each([
    ['an IPv4 literal', 'http://127.0.0.1/', /IP address/],
    ['a public IPv4 literal', 'https://8.8.8.8/', /IP address/],
    ['an obfuscated IPv4 literal', 'http://0x7f.1/', /IP address/],
    ['an IPv6 literal', 'http://[::1]/', /IP address/],
    ['a public IPv6 literal', 'https://[2001:db8::1]/x', /IP address/],
    ['localhost', 'http://localhost:8080/', /localhost/],
    ['localhost with a trailing dot', 'http://localhost./', /localhost/],
    ['a localhost subdomain', 'http://app.localhost/', /localhost/],
    ['a bare public suffix', 'https://co.uk/', /public suffix/],
    ['a bare private suffix', 'https://blogspot.com/', /public suffix/],
    ['a host with a leading dot', 'https://.example.com/', /empty label/],
    ['a bare gov suffix', 'https://gov.sg/', /public suffix/],
    ['a single-label host', 'https://intranet/news', /public suffix|no registrable domain/],
    ['a junk URL', 'javascript:alert(1)', /unsupported scheme/],
    ['credentials', 'https://u:p@x.com/', /credentials/],
  ])('refuses %s with a reason', (_name, input, expected) => {
    const result = classifyUrl(input, 'sg');
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.reason).toMatch(expected);
  });
});
