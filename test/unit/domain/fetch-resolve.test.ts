import { describe, expect, it } from 'vitest';
import { matchResolve, parseResolveSpec, ResolveSpecError } from '../../../src/domain/fetch-resolve.js';

const SPEC = '*.test:80=127.0.0.1:18080,*.test:443=127.0.0.1:18443,example.org=127.0.0.1:18081';

describe('parseResolveSpec', () => {
  it('parses curl --resolve style entries', () => {
    expect(parseResolveSpec(SPEC)).toEqual([
      { host: 'test', wildcard: true, port: 80, address: '127.0.0.1', addressPort: 18080 },
      { host: 'test', wildcard: true, port: 443, address: '127.0.0.1', addressPort: 18443 },
      { host: 'example.org', wildcard: false, port: null, address: '127.0.0.1', addressPort: 18081 },
    ]);
  });

  it('is empty for an unset or blank value', () => {
    expect(parseResolveSpec(undefined)).toEqual([]);
    expect(parseResolveSpec('  ')).toEqual([]);
  });

  it('accepts IPv6 targets in brackets, spaces and upper case', () => {
    expect(parseResolveSpec(' Example.ORG:8443 = [::1]:9000 ,')).toEqual([
      { host: 'example.org', wildcard: false, port: 8443, address: '::1', addressPort: 9000 },
    ]);
  });

  it.each([
    ['example.org'],
    ['example.org=127.0.0.1'],
    ['example.org=localhost:80'],
    ['example.org=127.0.0.1:0'],
    ['example.org=127.0.0.1:70000'],
    ['example.org:http=127.0.0.1:80'],
    ['*=127.0.0.1:80'],
    ['*.=127.0.0.1:80'],
    ['exa mple.org=127.0.0.1:80'],
    ['=127.0.0.1:80'],
  ])('refuses %s naming the variable', (spec) => {
    expect(() => parseResolveSpec(spec)).toThrow(ResolveSpecError);
    expect(() => parseResolveSpec(spec)).toThrow(/SEEDBED_FETCH_RESOLVE/);
  });
});

describe('matchResolve', () => {
  const entries = parseResolveSpec(SPEC);

  it('picks the entry for the URL port', () => {
    expect(matchResolve(entries, 'news.test', 80)).toEqual({ address: '127.0.0.1', port: 18080 });
    expect(matchResolve(entries, 'news.test', 443)).toEqual({ address: '127.0.0.1', port: 18443 });
    expect(matchResolve(entries, 'deep.sub.news.test', 443)).toEqual({ address: '127.0.0.1', port: 18443 });
  });

  it('does not map a port no entry names', () => {
    expect(matchResolve(entries, 'news.test', 8080)).toBeNull();
  });

  it('lets a pattern without a port match any port', () => {
    expect(matchResolve(entries, 'example.org', 80)).toEqual({ address: '127.0.0.1', port: 18081 });
    expect(matchResolve(entries, 'EXAMPLE.org.', 8443)).toEqual({ address: '127.0.0.1', port: 18081 });
  });

  it('does not match the bare suffix of a wildcard, nor look-alikes', () => {
    expect(matchResolve(entries, 'test', 80)).toBeNull();
    expect(matchResolve(entries, 'attest', 80)).toBeNull();
    expect(matchResolve(entries, 'www.example.org', 80)).toBeNull();
    expect(matchResolve(entries, 'example.org.evil.com', 80)).toBeNull();
  });

  it('prefers the most specific entry whatever the order', () => {
    const spec = parseResolveSpec(
      '*.test=10.0.0.1:1,*.news.test=10.0.0.2:2,*.test:443=10.0.0.3:3,www.news.test=10.0.0.4:4,www.news.test:443=10.0.0.5:5',
    );
    expect(matchResolve(spec, 'www.news.test', 443)).toEqual({ address: '10.0.0.5', port: 5 });
    expect(matchResolve(spec, 'www.news.test', 80)).toEqual({ address: '10.0.0.4', port: 4 });
    expect(matchResolve(spec, 'a.news.test', 443)).toEqual({ address: '10.0.0.3', port: 3 });
    expect(matchResolve(spec, 'a.news.test', 80)).toEqual({ address: '10.0.0.2', port: 2 });
    expect(matchResolve(spec, 'other.test', 80)).toEqual({ address: '10.0.0.1', port: 1 });
  });

  it('keeps the first of two equally specific entries', () => {
    const spec = parseResolveSpec('a.test=10.0.0.1:1,a.test=10.0.0.2:2');
    expect(matchResolve(spec, 'a.test', 80)).toEqual({ address: '10.0.0.1', port: 1 });
  });
});
