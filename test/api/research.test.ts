// /api/v1/research: synchronous creation and merging (dedupe by normalised URL, raw chunks written),
// listings, the index, detail pages, and a 10,000-URL research batch that must store every URL once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chunkUrl,
  createApiSeedbed,
  expectJson,
  expectPage,
  expectProblem,
  expectValidation,
  inject,
  type PartitionRef,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

const P: PartitionRef = { country: 'sg', category: 'news', date: '2026-02-01' };

describe('research', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed({ SEEDBED_WORKER_CONCURRENCY: '4' });
    t.startWorkers(['RESEARCH_QUEUE']);
  });
  afterAll(() => t.close());

  const get = (url: string) => inject(t.app, { method: 'GET', url });
  const create = (payload: unknown) =>
    inject(t.app, { method: 'POST', url: '/api/v1/research', payload: payload as object });

  async function rawRecords(p: PartitionRef, chunk: number): Promise<Array<Record<string, unknown>>> {
    const response = await get(chunkUrl(p, chunk));
    expect(response.statusCode).toBe(200);
    return response.json().records;
  }

  describe('POST /research', () => {
    it('creates a record: 201, Location, the record and ingest counts, and a raw chunk', async () => {
      const response = await create({
        ...P,
        country: 'SG',
        urls: [
          'https://www.mom.gov.sg/newsroom',
          'https://WWW.MOM.GOV.SG/newsroom#top',
          'https://www.mti.gov.sg/',
          'ftp://bad.example/',
        ],
        queries: ['site:gov.sg press release'],
        methods: ['search'],
        notes: 'first pass',
      });
      const body = expectJson(response, 201);
      expect(response.headers.location).toBe('/api/v1/research/sg/news/2026-02-01');
      expect(body.ingest).toMatchObject({ raw_chunk: 1, accepted: 2, duplicates: 1, invalid: 1 });
      expect(body.ingest.errors).toEqual([
        { index: 3, input: 'ftp://bad.example/', reason: expect.any(String) },
      ]);
      expect(body.record).toMatchObject({
        country: 'sg',
        category: 'news',
        date: '2026-02-01',
        queries: ['site:gov.sg press release'],
        methods: ['search'],
        notes: 'first pass',
        counts: { sources: 2, domains: 2, raw_chunks: 1 },
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expectPage(body.record.sources, 50, 0, 2);
      for (const source of body.record.sources.data) {
        expect(source).toMatchObject({
          normalized_url: expect.any(String),
          registrable_domain: expect.stringMatching(/^(mom|mti)\.gov\.sg$/),
          domain_id: expect.stringMatching(/^gov:sg:(mom|mti)\.gov\.sg$/),
          authority: 'gov',
          source_type: 'government',
          raw_chunk: 1,
        });
      }
      const raw = await rawRecords(P, 1);
      expect(raw).toHaveLength(2);
      expect(raw.map((r) => r.domain_id).sort()).toEqual(['gov:sg:mom.gov.sg', 'gov:sg:mti.gov.sg']);
    });

    it('merges into the record and dedupes against earlier POSTs in the same partition', async () => {
      const body = expectJson(
        await create({
          ...P,
          urls: ['https://www.mom.gov.sg/newsroom', 'https://www.moh.gov.sg/news', 'https://www.mti.gov.sg'],
          queries: ['site:gov.sg ministry'],
        }),
        201,
      );
      expect(body.ingest).toMatchObject({ raw_chunk: 2, accepted: 1, duplicates: 2, invalid: 0 });
      expect(body.record.counts).toEqual({ sources: 3, domains: 3, raw_chunks: 2 });
      expect(body.record.queries).toEqual(['site:gov.sg press release', 'site:gov.sg ministry']);
      const raw = await rawRecords(P, 2);
      expect(raw.map((r) => r.registrable_domain)).toEqual(['moh.gov.sg']);
    });

    it('a POST with nothing new writes no chunk', async () => {
      const body = expectJson(await create({ ...P, urls: ['https://www.moh.gov.sg/news'] }), 201);
      expect(body.ingest).toMatchObject({ raw_chunk: null, accepted: 0, duplicates: 1 });
      expect(body.record.counts.raw_chunks).toBe(2);
    });

    it('the same URL in another partition is not a duplicate', async () => {
      const body = expectJson(
        await create({ ...P, category: 'policy', urls: ['https://www.mom.gov.sg/newsroom'] }),
        201,
      );
      expect(body.ingest).toMatchObject({ raw_chunk: 1, accepted: 1, duplicates: 0 });
    });

    it('records[] keep their extra fields in the raw chunk', async () => {
      const q: PartitionRef = { country: 'my', category: 'guide', date: '2026-02-03' };
      const body = expectJson(
        await create({
          ...q,
          records: [
            {
              raw_url: 'https://www.moh.gov.my/index.php/pages/view/1',
              discovery_method: 'sitemap',
              confidence: 0.75,
              content_hints: ['guide', 'health'],
              x_tool: { name: 'crawler', run: 7 },
              title: 'Panduan 🌿',
            },
            { raw_url: 'https://www.mohe.gov.my/', x_rank: 2 },
          ],
          urls: ['https://www.kkmm.gov.my/'],
        }),
        201,
      );
      expect(body.ingest).toMatchObject({ accepted: 3, duplicates: 0, invalid: 0 });
      const raw = await rawRecords(q, body.ingest.raw_chunk);
      const moh = raw.find((r) => r.registrable_domain === 'moh.gov.my');
      expect(moh).toMatchObject({
        raw_url: 'https://www.moh.gov.my/index.php/pages/view/1',
        discovery_method: 'sitemap',
        confidence: 0.75,
        content_hints: ['guide', 'health'],
        x_tool: { name: 'crawler', run: 7 },
        title: 'Panduan 🌿',
        domain_id: 'gov:my:moh.gov.my',
      });
      expect(raw.find((r) => r.registrable_domain === 'mohe.gov.my')).toMatchObject({ x_rank: 2 });
      expect(raw.find((r) => r.registrable_domain === 'kkmm.gov.my')).toMatchObject({
        discovery_method: 'manual',
      });
    });

    it('the date defaults to today (UTC)', async () => {
      const body = expectJson(
        await create({ country: 'id', category: 'news', urls: ['https://www.kemlu.go.id/'] }),
        201,
      );
      expect(body.record.date).toBe(new Date().toISOString().slice(0, 10));
    });

    it('deleting a chunk frees its URLs to be discovered again', async () => {
      const q: PartitionRef = { country: 'th', category: 'news', date: '2026-02-04' };
      const first = expectJson(await create({ ...q, urls: ['https://www.mfa.go.th/en'] }), 201);
      expect(first.ingest.accepted).toBe(1);
      expect(
        (await inject(t.app, { method: 'DELETE', url: chunkUrl(q, first.ingest.raw_chunk) })).statusCode,
      ).toBe(204);
      const again = expectJson(await create({ ...q, urls: ['https://www.mfa.go.th/en'] }), 201);
      expect(again.ingest).toMatchObject({ accepted: 1, duplicates: 0 });
    });

    it('validates the body', async () => {
      expectValidation(await create({ ...P }), 'body.urls');
      expectValidation(await create({ ...P, urls: [] }), 'body.urls');
      expectValidation(await create({ ...P, date: '2026-13-01', urls: ['https://a.gov.sg/'] }), 'body.date');
      expectValidation(await create({ ...P, urls: ['https://a.gov.sg/'], extra: 1 }), 'body.extra');
      expectValidation(await create({ ...P, records: [{ confidence: 0.5 }] }), 'body.records.0.raw_url');
      expectValidation(
        await create({ ...P, urls: Array.from({ length: 10_001 }, (_, i) => `https://a.gov.sg/${i}`) }),
        'body.urls',
      );
    });
  });

  describe('GET /research, /research/index, /research/:country/:category/:date', () => {
    it('lists records with filters and pagination', async () => {
      const all = expectJson(await get('/api/v1/research'), 200);
      expectPage(all, 50, 0);
      expect(all.pagination.total).toBeGreaterThanOrEqual(5);
      const sg = expectJson(await get('/api/v1/research?country=SG&category=news&date=2026-02-01'), 200);
      expect(sg.pagination.total).toBe(1);
      expect(sg.data[0]).toMatchObject({
        country: 'sg',
        category: 'news',
        date: '2026-02-01',
        counts: { sources: 3, domains: 3 },
        queries: expect.any(Array),
        methods: expect.any(Array),
      });
      const bySg = expectJson(await get('/api/v1/research?country=sg'), 200);
      expect(bySg.data.every((r: PartitionRef) => r.country === 'sg')).toBe(true);
      expect(bySg.pagination.total).toBe(bySg.data.length);
      const paged = expectJson(await get('/api/v1/research?limit=2&offset=1'), 200);
      expectPage(paged, 2, 1, all.pagination.total);
      expect(paged.data).toHaveLength(2);
      expect(paged.data[0]).toEqual(all.data[1]);
      const none = expectJson(await get('/api/v1/research?country=fr'), 200);
      expect(none).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });
      expectValidation(await get('/api/v1/research?date=yesterday'), 'querystring.date');
    });

    it('the index is a country → category → dates tree with counts', async () => {
      const index = expectJson(await get('/api/v1/research/index'), 200);
      const sg = index.countries.find((c: { country: string }) => c.country === 'sg');
      expect(sg).toBeDefined();
      const news = sg.categories.find((c: { category: string }) => c.category === 'news');
      expect(news.dates).toContainEqual({ date: '2026-02-01', sources: 3 });
      const policy = sg.categories.find((c: { category: string }) => c.category === 'policy');
      expect(policy.dates).toContainEqual({ date: '2026-02-01', sources: 1 });
      expect(index.totals.records).toBe(expectJson(await get('/api/v1/research'), 200).pagination.total);
    });

    it('the detail pages its sources; an unknown record is a 404 problem', async () => {
      const detail = expectJson(await get('/api/v1/research/sg/news/2026-02-01?limit=2'), 200);
      expect(detail).toMatchObject({ country: 'sg', category: 'news', date: '2026-02-01' });
      expectPage(detail.sources, 2, 0, 3);
      expect(detail.raw_chunks.map((c: { chunk: number }) => c.chunk)).toEqual([1, 2]);
      const rest = expectJson(await get('/api/v1/research/sg/news/2026-02-01?limit=2&offset=2'), 200);
      expect(rest.sources.data).toHaveLength(1);
      const urls = [...detail.sources.data, ...rest.sources.data].map(
        (s: { normalized_url: string }) => s.normalized_url,
      );
      expect(new Set(urls).size).toBe(3);
      const missing = expectProblem(await get('/api/v1/research/sg/news/1999-01-01'), 404, 'not_found');
      expect(missing.detail).toContain('1999-01-01');
      expectValidation(await get('/api/v1/research/sg/news/2026-02-31'), 'params.date');
    });
  });

  describe('a 10,000-URL research batch', () => {
    it('stores every normalised URL exactly once across the raw chunks, duplicates in other chunks skipped', async () => {
      const unique = Array.from({ length: 5000 }, (_, i) => `https://agency${i % 50}.gov.sg/page/${i}`);
      // 100 groups of 50 URLs. Chunk k holds group k and a second copy of group k-1 (chunk 0 holds the copy of
      // group 99), so every URL is in two neighbouring chunks, which the workers run at the same time. The copy
      // is written differently but normalises to the same URL.
      const copyOf = (url: string) => `${url.replace('https://agency', 'https://AGENCY')}#dup`;
      const group = (k: number) => unique.slice(k * 50, k * 50 + 50);
      const urls = Array.from({ length: 100 }, (_, k) => [
        ...group(k),
        ...group((k + 99) % 100).map(copyOf),
      ]).flat();
      expect(urls).toHaveLength(10_000);
      const response = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/queues/research',
        payload: { country: 'sg', category: 'bulk', urls, chunkSize: 100 },
      });
      const created = expectJson(response, 202);
      expect(created.chunks.total).toBe(100);
      const batch = await t.waitForBatch(created.batchId, 120_000);
      expect(batch.status).toBe('completed');
      expect(batch.items).toMatchObject({ succeeded: 5000, skipped: 5000, failed: 0 });
      expect(batch.chunks).toMatchObject({ total: 100, succeeded: 100, failed: 0 });

      const partition: PartitionRef = { country: 'sg', category: 'bulk', date: batch.date };
      const listing = expectJson(await get(`/api/v1/datasets/sg/bulk/${batch.date}`), 200);
      const seen: string[] = [];
      for (const chunk of listing.chunks as Array<{ chunk: number; record_count: number }>) {
        const records = await rawRecords(partition, chunk.chunk);
        expect(records).toHaveLength(chunk.record_count);
        for (const record of records) seen.push(record.normalized_url as string);
      }
      expect(seen).toHaveLength(5000);
      expect(new Set(seen).size).toBe(5000);
      const expected = new Set(unique.map((u) => new URL(u).href));
      for (const url of seen) expect(expected.has(url)).toBe(true);

      const skipped = expectJson(
        await get(`/api/v1/queues/batch/${created.batchId}/items?status=skipped&limit=100`),
        200,
      );
      expect(skipped.pagination.total).toBe(5000);
      const detail = expectJson(await get(`/api/v1/research/sg/bulk/${batch.date}?limit=1`), 200);
      expect(detail.counts.sources).toBe(5000);
      expect(detail.counts.domains).toBe(50);
    });
  });
});
