import { describe, expect, it } from 'vitest';
import { COUNTRY_CODES, isCountryCode } from '../../../src/domain/countries.js';
import {
  CATEGORY_PATTERN,
  categorySchema,
  chunkRefSchema,
  countrySchema,
  dateSchema,
  isCalendarDate,
  MAX_CHUNK,
  padChunk,
  parseChunkRef,
  partitionSchema,
  todayUtc,
} from '../../../src/domain/identifiers.js';

describe('countrySchema', () => {
  it.each([
    ['sg', 'sg'],
    ['SG', 'sg'],
    ['Sg', 'sg'],
    [' gb ', 'gb'],
    ['intl', 'intl'],
    ['INTL', 'intl'],
    ['us', 'us'],
  ])('accepts %j as %j', (input, stored) => {
    expect(countrySchema.parse(input)).toBe(stored);
  });

  it.each(['xx', 'usa', '', '  ', 'uk', 'eu', 's', 'sg/', '../', 'in tl', 'zz'])('rejects %j', (input) => {
    expect(countrySchema.safeParse(input).success).toBe(false);
  });

  it.each([1, null, undefined, ['sg']])('rejects the non-string %j', (input) => {
    expect(countrySchema.safeParse(input).success).toBe(false);
  });

  it('knows the officially assigned codes and intl, all lowercase', () => {
    expect(COUNTRY_CODES.size).toBe(250);
    for (const code of COUNTRY_CODES) expect(code).toMatch(/^([a-z]{2}|intl)$/);
    expect(isCountryCode('SG')).toBe(true);
    expect(isCountryCode('xk')).toBe(false);
  });
});

describe('categorySchema', () => {
  it.each([
    ['news', 'news'],
    ['News', 'news'],
    ['POLICY', 'policy'],
    [' faq ', 'faq'],
    ['press_releases', 'press_releases'],
    ['covid-19', 'covid-19'],
    ['2026', '2026'],
    ['a', 'a'],
    ['a'.repeat(64), 'a'.repeat(64)],
  ])('accepts %j as %j', (input, stored) => {
    expect(categorySchema.parse(input)).toBe(stored);
  });

  it.each([
    '',
    'a'.repeat(65),
    '../x',
    '..',
    'a/b',
    'a\\b',
    'news%2f',
    'news.json',
    '_news',
    '-news',
    'news items',
    'news=1',
    'nëws',
  ])('rejects %j', (input) => {
    expect(categorySchema.safeParse(input).success).toBe(false);
  });

  it('is the docs/design.md §2 pattern', () => {
    expect(CATEGORY_PATTERN.source).toBe('^[a-z0-9][a-z0-9_-]{0,63}$');
  });
});

describe('dates', () => {
  it.each(['2026-11-21', '2024-02-29', '2000-02-29', '2026-12-31', '2026-01-01'])('accepts %s', (value) => {
    expect(isCalendarDate(value)).toBe(true);
    expect(dateSchema.parse(value)).toBe(value);
  });

  it.each([
    '2023-02-29',
    '1900-02-29',
    '2026-13-01',
    '2026-00-10',
    '2026-04-31',
    '2026-11-00',
    '2026-1-1',
    '26-11-21',
    '2026/11/21',
    '2026-11-21T00:00',
    '2026-11-21Z',
    '20261121',
    '',
    '2026-11-21/../..',
  ])('rejects %s', (value) => {
    expect(isCalendarDate(value)).toBe(false);
    expect(dateSchema.safeParse(value).success).toBe(false);
  });

  it('trims the date in the schema', () => {
    expect(dateSchema.parse(' 2026-11-21 ')).toBe('2026-11-21');
  });

  it('gives today in UTC', () => {
    expect(todayUtc(new Date('2026-11-21T23:59:59.999Z'))).toBe('2026-11-21');
    expect(todayUtc(new Date('2026-11-21T22:00:00-05:00'))).toBe('2026-11-22');
  });
});

describe('chunk references', () => {
  // docs/design.md §2: accept 1, 0001 and raw_0001.json; chunks are 1..9999.
  it.each([
    ['1', 1],
    ['0001', 1],
    ['raw_0001.json', 1],
    ['42', 42],
    ['0042', 42],
    ['raw_0042.json', 42],
    ['9999', 9999],
    ['raw_9999.json', 9999],
    [' 7 ', 7],
    [1, 1],
    [9999, 9999],
  ])('parses %j as %i', (input, chunk) => {
    expect(parseChunkRef(input)).toBe(chunk);
    expect(chunkRefSchema.parse(input)).toBe(chunk);
  });

  // raw_1.json is not a name the service writes, but it is unambiguous; the code accepts it.
  it('accepts an unpadded raw_N.json', () => {
    expect(parseChunkRef('raw_1.json')).toBe(1);
  });

  it.each([
    '0',
    '0000',
    'raw_0000.json',
    '10000',
    '00001',
    'raw_10000.json',
    '-1',
    '+1',
    '1.5',
    '1e3',
    '0x10',
    'raw_0001',
    '0001.json',
    'raw_0001.json.success',
    'raw_0001.json.tmp',
    'RAW_0001.JSON',
    '..',
    '1/../2',
    '../raw_0001.json',
    '',
    'one',
    '\u0663',
  ])('rejects %j', (input) => {
    expect(parseChunkRef(input)).toBeNull();
    expect(chunkRefSchema.safeParse(input).success).toBe(false);
  });

  it.each([0, -1, 1.5, 10_000, Number.NaN, Number.POSITIVE_INFINITY])('rejects the number %d', (input) => {
    expect(parseChunkRef(input)).toBeNull();
    expect(chunkRefSchema.safeParse(input).success).toBe(false);
  });

  it('rejects what is neither a string nor a number', () => {
    expect(chunkRefSchema.safeParse(null).success).toBe(false);
    expect(chunkRefSchema.safeParse({ chunk: 1 }).success).toBe(false);
  });

  it('writes chunks with four digits', () => {
    expect(MAX_CHUNK).toBe(9999);
    expect(padChunk(1)).toBe('0001');
    expect(padChunk(42)).toBe('0042');
    expect(padChunk(9999)).toBe('9999');
  });

  it('round-trips every chunk through its padded and file-name forms', () => {
    for (let chunk = 1; chunk <= MAX_CHUNK; chunk++) {
      const padded = padChunk(chunk);
      if (parseChunkRef(padded) !== chunk || parseChunkRef(`raw_${padded}.json`) !== chunk) {
        throw new Error(`chunk ${chunk} does not round-trip`);
      }
    }
  });
});

describe('partitionSchema', () => {
  it('normalises and validates all three parts', () => {
    expect(partitionSchema.parse({ country: 'SG', category: 'News', date: '2026-11-21' })).toEqual({
      country: 'sg',
      category: 'news',
      date: '2026-11-21',
    });
  });

  it.each([
    { country: '../x', category: 'news', date: '2026-11-21' },
    { country: 'sg', category: 'a/b', date: '2026-11-21' },
    { country: 'sg', category: 'news', date: '2026-02-30' },
    { country: 'sg', category: 'news' },
  ])('rejects %j', (partition) => {
    expect(partitionSchema.safeParse(partition).success).toBe(false);
  });
});
