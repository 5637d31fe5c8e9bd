import { describe, expect, it } from 'vitest';
import type { Partition } from '../../../src/domain/identifiers.js';
import {
  checkpointKey,
  type ProdFile,
  parseRawChunkKey,
  prodDomainKey,
  prodPartitionPrefix,
  rawChunkKey,
  rawPartitionPrefix,
} from '../../../src/domain/keys.js';

const SG: Partition = { country: 'sg', category: 'news', date: '2026-11-21' };
const PREFIX = 'raw/country=sg/category=news/date=2026-11-21/';

describe('raw keys', () => {
  it('builds the partition prefix of docs/design.md §4', () => {
    expect(rawPartitionPrefix(SG)).toBe(PREFIX);
  });

  it('builds raw_NNNN.json with four digits', () => {
    expect(rawChunkKey(SG, 1)).toBe(`${PREFIX}raw_0001.json`);
    expect(rawChunkKey(SG, 42)).toBe(`${PREFIX}raw_0042.json`);
    expect(rawChunkKey(SG, 9999)).toBe(`${PREFIX}raw_9999.json`);
  });

  it('writes country and category lowercase whatever case they came in', () => {
    expect(rawChunkKey({ country: 'SG', category: 'News', date: '2026-11-21' }, 1)).toBe(
      `${PREFIX}raw_0001.json`,
    );
    expect(rawPartitionPrefix({ country: 'INTL', category: 'alert', date: '2026-01-02' })).toBe(
      'raw/country=intl/category=alert/date=2026-01-02/',
    );
  });

  it('builds the checkpoint key next to the chunk', () => {
    expect(checkpointKey(`${PREFIX}raw_0001.json`)).toBe(`${PREFIX}raw_0001.json.success`);
  });

  it.each([
    ['a country with a path', { ...SG, country: '../x' }],
    ['an unknown country', { ...SG, country: 'xx' }],
    ['an empty country', { ...SG, country: '' }],
    ['a category with a slash', { ...SG, category: 'a/b' }],
    ['a category going up', { ...SG, category: '..' }],
    ['a category with an equals sign', { ...SG, category: 'news/date=x' }],
    ['a date with a path', { ...SG, date: '2026-11-21/../..' }],
    ['an impossible date', { ...SG, date: '2026-02-30' }],
    ['a timestamp for a date', { ...SG, date: '2026-11-21T00:00' }],
  ])('refuses %s', (_name, partition) => {
    expect(() => rawPartitionPrefix(partition)).toThrow();
    expect(() => rawChunkKey(partition, 1)).toThrow();
    expect(() => prodPartitionPrefix(partition)).toThrow();
    expect(() => prodDomainKey(partition, 'mom.gov.sg', 'robots.txt')).toThrow();
  });

  it.each([0, -1, 10_000, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('refuses chunk %d', (chunk) => {
    expect(() => rawChunkKey(SG, chunk)).toThrow(/invalid chunk/);
  });

  it.each([
    `${PREFIX}raw_0001.json.success`,
    `${PREFIX}raw_0001`,
    `${PREFIX}other.json`,
    'raw/country=sg/category=news/raw_0001.json',
    '',
  ])('refuses a checkpoint for %j', (key) => {
    expect(() => checkpointKey(key)).toThrow(/not a raw chunk key/);
  });
});

describe('parseRawChunkKey', () => {
  it('recognises raw_NNNN.json and gives back its partition and number', () => {
    expect(parseRawChunkKey(`${PREFIX}raw_0007.json`)).toEqual({ partition: SG, chunk: 7 });
    expect(
      parseRawChunkKey('raw/country=intl/category=press_releases/date=2024-02-29/raw_9999.json'),
    ).toEqual({
      partition: { country: 'intl', category: 'press_releases', date: '2024-02-29' },
      chunk: 9999,
    });
  });

  it('round-trips every key it builds', () => {
    for (const chunk of [1, 2, 10, 999, 1000, 9999]) {
      expect(parseRawChunkKey(rawChunkKey(SG, chunk))).toEqual({ partition: SG, chunk });
    }
  });

  it.each([
    ['a checkpoint', `${PREFIX}raw_0001.json.success`],
    ['a temporary file', `${PREFIX}raw_0001.json.tmp`],
    ['an unpadded number', `${PREFIX}raw_1.json`],
    ['five digits', `${PREFIX}raw_00001.json`],
    ['chunk zero', `${PREFIX}raw_0000.json`],
    ['no raw_ prefix', `${PREFIX}0001.json`],
    ['no extension', `${PREFIX}raw_0001`],
    ['an upper-case name', `${PREFIX}RAW_0001.JSON`],
    ['a system file', `${PREFIX}.DS_Store`],
    ['a nested file', `${PREFIX}x/raw_0001.json`],
    ['a prod key', 'prod/country=sg/category=news/date=2026-11-21/mom.gov.sg/domain_metadata.json'],
    ['a prod-rooted chunk name', 'prod/country=sg/category=news/date=2026-11-21/raw_0001.json'],
    ['a leading slash', `/${PREFIX}raw_0001.json`],
    ['an upper-case country', 'raw/country=SG/category=news/date=2026-11-21/raw_0001.json'],
    ['an unknown country', 'raw/country=xx/category=news/date=2026-11-21/raw_0001.json'],
    ['an impossible date', 'raw/country=sg/category=news/date=2026-02-30/raw_0001.json'],
    ['partitions out of order', 'raw/category=news/country=sg/date=2026-11-21/raw_0001.json'],
    ['a missing partition', 'raw/country=sg/date=2026-11-21/raw_0001.json'],
    ['a traversal', 'raw/country=sg/category=news/date=2026-11-21/../raw_0001.json'],
    ['the prefix only', PREFIX],
    ['an empty key', ''],
  ])('ignores %s', (_name, key) => {
    expect(parseRawChunkKey(key)).toBeNull();
  });
});

describe('prod keys', () => {
  const PROD = 'prod/country=sg/category=news/date=2026-11-21/';

  it('builds the prod prefix', () => {
    expect(prodPartitionPrefix(SG)).toBe(PROD);
  });

  it.each([
    'domain_metadata.json',
    'domain_metadata.json.success',
    'robots.txt',
    'sitemap.xml',
  ] as const)('builds {domain}/%s', (file) => {
    expect(prodDomainKey(SG, 'mom.gov.sg', file)).toBe(`${PROD}mom.gov.sg/${file}`);
  });

  it('accepts a punycode domain', () => {
    expect(prodDomainKey(SG, 'xn--bcher-kva.de', 'robots.txt')).toBe(`${PROD}xn--bcher-kva.de/robots.txt`);
  });

  it.each([
    ['a slash', 'mom.gov.sg/x'],
    ['a traversal', '..'],
    ['a traversal inside', 'mom/../../etc'],
    ['upper case', 'MOM.gov.sg'],
    ['an empty domain', ''],
    ['a single label', 'localhost'],
    ['a trailing dot', 'mom.gov.sg.'],
    ['an empty label', 'mom..sg'],
    ['a port', 'mom.gov.sg:443'],
    ['unicode', 'bücher.de'],
    ['a backslash', 'mom.gov.sg\\x'],
    ['a space', 'mom gov.sg'],
    ['more than 253 characters', `${'a'.repeat(60)}.`.repeat(4) + 'example.com'],
  ])('refuses a domain with %s', (_name, domain) => {
    expect(() => prodDomainKey(SG, domain, 'robots.txt')).toThrow(/invalid domain/);
  });

  it('refuses an evidence file it does not know', () => {
    expect(() => prodDomainKey(SG, 'mom.gov.sg', '../../x' as ProdFile)).toThrow(/invalid evidence file/);
    expect(() => prodDomainKey(SG, 'mom.gov.sg', 'feed.xml' as ProdFile)).toThrow(/invalid evidence file/);
  });
});
