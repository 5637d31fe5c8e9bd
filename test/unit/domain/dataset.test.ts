import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import {
  datasetIdOf,
  datasetRecordSchema,
  enhancedResearchDatasetSchema,
  serializeDataset,
  serializeSpooledDataset,
} from '../../../src/domain/dataset.js';

const META = {
  dataset_id: 'sg-news-2026-11-21-0001',
  country: 'sg',
  category: 'news',
  date: '2026-11-21',
  chunk: 1,
  discovered_at: '2026-11-21T08:00:00.000Z',
  research_methods: ['search'],
  queries: ['singapore ministry press release'],
  engine: { name: 'seedbed', version: '0.1.0' },
  record_count: 1,
};

const RECORD = {
  raw_url: 'https://www.mom.gov.sg/newsroom',
  normalized_url: 'https://www.mom.gov.sg/newsroom',
  registrable_domain: 'mom.gov.sg',
  domain_id: 'gov:sg:mom.gov.sg',
  authority: 'gov',
  source_type: 'government',
  discovery_method: 'search',
  confidence: 0.9,
  content_hints: ['press'],
};

function records(count: number): Array<Record<string, unknown>> {
  return Array.from({ length: count }, (_, i) => ({
    ...RECORD,
    raw_url: `https://www.mom.gov.sg/newsroom/${i}?q="ü"&x=\\`,
    confidence: (i % 100) / 100,
    rank: i,
    nested: { tags: [`t${i}`], note: i % 3 === 0 ? null : 'ünïcödé ✓ \u2028' },
  }));
}

async function collect(stream: Readable): Promise<{ text: string; chunks: number }> {
  const parts: Buffer[] = [];
  for await (const chunk of stream) parts.push(Buffer.isBuffer(chunk) ? chunk : Buffer.from(String(chunk)));
  return { text: Buffer.concat(parts).toString('utf8'), chunks: parts.length };
}

describe('enhancedResearchDatasetSchema', () => {
  it('keeps unknown fields at the top level, in meta and in records', () => {
    const input = {
      meta: { ...META, operator: 'alice', engine: { ...META.engine, build: 'abc' } },
      records: [{ ...RECORD, language: 'en', extra: { depth: 2 } }],
      provenance: { tool: 'crawler', runs: [1, 2] },
      schema_version: 3,
    };
    const parsed = enhancedResearchDatasetSchema.parse(input);
    expect(parsed).toEqual(input);
    expect(parsed['provenance']).toEqual({ tool: 'crawler', runs: [1, 2] });
    expect(parsed.meta['operator']).toBe('alice');
    expect(parsed.records[0]?.['language']).toBe('en');
  });

  it('accepts the minimal dataset and normalises its partition', () => {
    const parsed = enhancedResearchDatasetSchema.parse({
      meta: { country: 'SG', category: 'News', date: '2026-11-21', chunk: 'raw_0002.json' },
      records: [{ raw_url: 'x' }],
    });
    expect(parsed.meta).toEqual({ country: 'sg', category: 'news', date: '2026-11-21', chunk: 2 });
  });

  it.each([
    ['confidence above 1', { meta: META, records: [{ ...RECORD, confidence: 1.01 }] }],
    ['negative confidence', { meta: META, records: [{ ...RECORD, confidence: -0.1 }] }],
    ['a string confidence', { meta: META, records: [{ ...RECORD, confidence: '0.5' }] }],
    ['a record without raw_url', { meta: META, records: [{ normalized_url: 'https://x.com/' }] }],
    ['an empty raw_url', { meta: META, records: [{ raw_url: '' }] }],
    ['an unknown authority', { meta: META, records: [{ ...RECORD, authority: 'state' }] }],
    ['an unknown source type', { meta: META, records: [{ ...RECORD, source_type: 'blog' }] }],
    ['no meta', { records: [] }],
    ['no records', { meta: META }],
    ['records not an array', { meta: META, records: {} }],
    ['a bad country', { meta: { ...META, country: 'xx' }, records: [] }],
    ['a bad category', { meta: { ...META, category: '../x' }, records: [] }],
    ['a bad date', { meta: { ...META, date: '2026-02-30' }, records: [] }],
    ['chunk 0', { meta: { ...META, chunk: 0 }, records: [] }],
    ['a negative record_count', { meta: { ...META, record_count: -1 }, records: [] }],
    ['a local discovered_at', { meta: { ...META, discovered_at: '2026-11-21 08:00' }, records: [] }],
  ])('rejects %s', (_name, input) => {
    expect(enhancedResearchDatasetSchema.safeParse(input).success).toBe(false);
  });

  it('accepts confidence at both ends of 0..1', () => {
    expect(datasetRecordSchema.safeParse({ raw_url: 'x', confidence: 0 }).success).toBe(true);
    expect(datasetRecordSchema.safeParse({ raw_url: 'x', confidence: 1 }).success).toBe(true);
  });
});

describe('datasetIdOf', () => {
  it('is cc-category-date-NNNN', () => {
    expect(datasetIdOf({ country: 'sg', category: 'news', date: '2026-11-21' }, 7)).toBe(
      'sg-news-2026-11-21-0007',
    );
  });
});

describe('serializeDataset', () => {
  it('is a byte stream that arrives in more than one piece for a large dataset', async () => {
    const stream = serializeDataset({ meta: META, records: records(10_000) });
    expect(stream).toBeInstanceOf(Readable);
    expect(stream.readableObjectMode).toBe(false);
    const { chunks } = await collect(stream);
    expect(chunks).toBeGreaterThan(10);
  });

  it('writes an empty record list', async () => {
    const dataset = { meta: META, records: [] };
    expect((await collect(serializeDataset(dataset))).text).toBe(JSON.stringify(dataset));
  });

  it('drops undefined top-level fields as JSON.stringify does', async () => {
    const dataset = { meta: META, gone: undefined, kept: null, records: [RECORD] };
    expect((await collect(serializeDataset(dataset))).text).toBe(JSON.stringify(dataset));
  });

  it('writes exactly JSON.stringify output when extra fields sit between meta and records', async () => {
    const dataset = {
      meta: { ...META, record_count: 10_000 },
      provenance: { tool: 'crawler', note: 'quotes " and \\ and ü' },
      schema_version: 3,
      records: records(10_000),
    };
    const { text } = await collect(serializeDataset(dataset));
    expect(JSON.parse(text)).toEqual(dataset);
    expect(text).toBe(JSON.stringify(dataset));
  });

  // A dataset as the schema hands it over has meta, records, then the unknown fields; so has one written
  // in that order by hand. docs/design.md §3 keeps unknown fields "never dropped"; the doc comment promises the
  // same bytes as JSON.stringify.
  it.each([
    [
      'a dataset written meta, records, extras',
      () => ({ meta: META, records: records(10_000), provenance: { tool: 'crawler' }, schema_version: 3 }),
    ],
    [
      'a dataset written extras first',
      () => ({ schema_version: 3, meta: META, records: records(10_000), provenance: { tool: 'crawler' } }),
    ],
    [
      'the dataset the schema gives back',
      () =>
        enhancedResearchDatasetSchema.parse({
          meta: META,
          provenance: { tool: 'crawler' },
          schema_version: 3,
          records: records(10_000),
        }),
    ],
  ])('writes exactly JSON.stringify output for %s', async (_name, make) => {
    const dataset = make();
    const { text } = await collect(serializeDataset(dataset));
    expect(JSON.parse(text)).toEqual(JSON.parse(JSON.stringify(dataset)));
    expect(text).toBe(JSON.stringify(dataset));
  });
});

describe('serializeSpooledDataset', () => {
  const read = async (stream: Readable) => {
    let text = '';
    for await (const chunk of stream) text += chunk.toString();
    return text;
  };

  it('gives the bytes serializeDataset gives for the parsed dataset, records read from the spool', async () => {
    const dataset = enhancedResearchDatasetSchema.parse({
      z_extra: { a: [1, 'b'] },
      records: [{ raw_url: 'https://a.sg/', x: 'é' }, { raw_url: 'https://b.sg/' }],
      meta: { country: 'SG', category: 'news', date: '2026-11-21', note: 'n' },
      a_extra: null,
    });
    const spool = dataset.records.map((r, i) => (i === 0 ? '' : ',') + JSON.stringify(r)).join('');
    const extras = Object.entries(dataset).filter(([k]) => k !== 'meta' && k !== 'records');
    let opened = 0;
    const streamed = await read(
      serializeSpooledDataset(
        dataset.meta,
        () => {
          opened++;
          return Readable.from([Buffer.from(spool.slice(0, 5)), Buffer.from(spool.slice(5))]);
        },
        extras,
      ),
    );
    expect(streamed).toBe(await read(serializeDataset(dataset)));
    expect(opened).toBe(1);
  });

  it('opens the spool only when the bytes are read', () => {
    let opened = 0;
    serializeSpooledDataset({}, () => {
      opened++;
      return Readable.from([]);
    }, []);
    expect(opened).toBe(0);
  });
});
