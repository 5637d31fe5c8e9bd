// /api/v1/datasets: storing raw chunks (numbering, immutability, unknown fields kept), reading them back
// by every chunk spelling, listings, statistics, deletion, and a 20 MB round trip.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chunkUrl,
  createApiSeedbed,
  dataset,
  datasetRecord,
  expectJson,
  expectPage,
  expectProblem,
  expectValidation,
  inject,
  type PartitionRef,
  postDataset,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

const P: PartitionRef = { country: 'sg', category: 'news', date: '2026-01-15' };

describe('datasets', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed();
  });
  afterAll(() => t.close());

  const get = (url: string) => inject(t.app, { method: 'GET', url });

  describe('POST /datasets', () => {
    it('stores a chunk: 201, chunk 1, a Location and the chunk view', async () => {
      const records = [datasetRecord(1), datasetRecord(2), datasetRecord(3)];
      const response = await postDataset(t.app, dataset({ ...P, country: 'SG' }, records));
      const body = expectJson(response, 201);
      expect(body).toMatchObject({
        country: 'sg',
        category: 'news',
        date: '2026-01-15',
        chunk: 1,
        file: 'raw_0001.json',
        key: 'raw/country=sg/category=news/date=2026-01-15/raw_0001.json',
        dataset_id: 'sg-news-2026-01-15-0001',
        record_count: 3,
        bytes: expect.any(Number),
        created_at: expect.any(String),
      });
      expect(body.bytes).toBeGreaterThan(0);
      expect(response.headers.location).toMatch(
        /^\/api\/v1\/datasets\/sg\/news\/2026-01-15\/(1|0001|raw_0001\.json)$/,
      );
      const followed = await get(response.headers.location as string);
      expect(followed.statusCode).toBe(200);
      expect(await t.hasObject(body.key)).toBe(true);
    });

    it('numbers chunks left out 2, 3, ... and honours an explicit meta.chunk', async () => {
      const second = expectJson(await postDataset(t.app, dataset(P, [datasetRecord(4)])), 201);
      expect(second.chunk).toBe(2);
      const third = expectJson(await postDataset(t.app, dataset(P, [datasetRecord(5)])), 201);
      expect(third.chunk).toBe(3);
      const seventh = expectJson(await postDataset(t.app, dataset(P, [datasetRecord(6)], { chunk: 7 })), 201);
      expect(seventh).toMatchObject({
        chunk: 7,
        file: 'raw_0007.json',
        dataset_id: 'sg-news-2026-01-15-0007',
      });
      const fifth = expectJson(
        await postDataset(t.app, dataset(P, [datasetRecord(7)], { chunk: '0005' })),
        201,
      );
      expect(fifth.chunk).toBe(5);
      const next = expectJson(await postDataset(t.app, dataset(P, [datasetRecord(8)])), 201);
      expect(next.chunk).toBe(8);
    });

    it('storing an existing chunk number is a 409 chunk_exists; raw chunks are immutable', async () => {
      const before = await get(chunkUrl(P, 7));
      const conflict = expectProblem(
        await postDataset(t.app, dataset(P, [datasetRecord(99)], { chunk: 7 })),
        409,
        'chunk_exists',
      );
      expect(conflict.detail).toContain('0007');
      const after = await get(chunkUrl(P, 7));
      expect(after.body).toBe(before.body);
      expectProblem(
        await postDataset(t.app, dataset(P, [datasetRecord(99)], { chunk: 'raw_0001.json' })),
        409,
        'chunk_exists',
      );
    });

    it('keeps unknown fields at the top level, in meta and in records, value for value', async () => {
      const topExtra = {
        nested: [1, 'two', null, true, { deep: { er: 1.5 } }],
        emoji: '🌱 ünïcødé',
        empty: {},
      };
      const metaExtra = { pipeline: { run: 42, tags: ['a', 'b'] }, 'weird key with spaces': 'ok' };
      const recordExtra = { x_score: 0.125, x_labels: ['α', 'β'], x_null: null, x_obj: { k: 'v' } };
      const records = [datasetRecord(10, recordExtra), datasetRecord(11)];
      const body = dataset(
        { country: 'my', category: 'policy', date: '2026-02-01' },
        records,
        { x_meta: metaExtra, research_methods: ['manual'], queries: ['site:gov.my'] },
        { x_top: topExtra, provenance: 'hand-made' },
      );
      const stored = expectJson(await postDataset(t.app, body), 201);
      const response = await get(
        chunkUrl({ country: 'my', category: 'policy', date: '2026-02-01' }, stored.chunk),
      );
      expect(response.statusCode).toBe(200);
      const text = response.body;
      expect(text).toContain(`"x_top":${JSON.stringify(topExtra)}`);
      expect(text).toContain(`"provenance":"hand-made"`);
      expect(text).toContain(`"x_meta":${JSON.stringify(metaExtra)}`);
      for (const [key, value] of Object.entries(recordExtra))
        expect(text).toContain(`"${key}":${JSON.stringify(value)}`);
      const read = JSON.parse(text);
      expect(read.x_top).toEqual(topExtra);
      expect(read.meta.x_meta).toEqual(metaExtra);
      expect(read.meta.research_methods).toEqual(['manual']);
      expect(read.meta.queries).toEqual(['site:gov.my']);
      expect(read.records).toEqual(records);
    });

    it('fills meta: dataset_id, chunk, record_count and discovered_at', async () => {
      const stored = expectJson(
        await postDataset(
          t.app,
          dataset({ country: 'my', category: 'policy', date: '2026-02-02' }, [datasetRecord(1)]),
        ),
        201,
      );
      const read = (
        await get(chunkUrl({ country: 'my', category: 'policy', date: '2026-02-02' }, stored.chunk))
      ).json();
      expect(read.meta).toMatchObject({
        dataset_id: 'my-policy-2026-02-02-0001',
        country: 'my',
        category: 'policy',
        date: '2026-02-02',
        chunk: 1,
        record_count: 1,
        discovered_at: expect.any(String),
      });
    });

    it('meta.record_count that disagrees with the records is a 422', async () => {
      const body = expectProblem(
        await postDataset(t.app, dataset(P, [datasetRecord(1), datasetRecord(2)], { record_count: 3 })),
        422,
        'record_count_mismatch',
      );
      expect(body.detail).toContain('3');
      const ok = expectJson(
        await postDataset(t.app, dataset(P, [datasetRecord(1)], { record_count: 1 })),
        201,
      );
      expect(ok.record_count).toBe(1);
    });

    it('validates the partition, the chunk and the record fields', async () => {
      expectValidation(await postDataset(t.app, dataset({ ...P, country: 'xx' }, [])), 'body.meta.country');
      expectValidation(await postDataset(t.app, dataset({ ...P, date: '2026-02-30' }, [])), 'body.meta.date');
      expectValidation(
        await postDataset(t.app, dataset({ ...P, category: 'Bad Cat' }, [])),
        'body.meta.category',
      );
      expectValidation(await postDataset(t.app, dataset(P, [], { chunk: 10_000 })), 'body.meta.chunk');
      expectValidation(
        await postDataset(t.app, dataset(P, [datasetRecord(1, { confidence: 1.5 })])),
        'body.records.0.confidence',
      );
      expectValidation(
        await postDataset(t.app, dataset(P, [{ normalized_url: 'https://a.sg/' }])),
        'body.records.0.raw_url',
      );
      expectValidation(await postDataset(t.app, { records: [] }), 'body.meta');
      expectValidation(await postDataset(t.app, { meta: P }), 'body.records');
    });
  });

  describe('GET /datasets/:country/:category/:date/:chunk', () => {
    it('reads a chunk as 1, 0001 and raw_0001.json, with the same bytes', async () => {
      const a = await get(chunkUrl(P, 1));
      const b = await get(chunkUrl(P, '0001'));
      const c = await get(chunkUrl(P, 'raw_0001.json'));
      const d = await get(chunkUrl({ ...P, country: 'SG' }, 1));
      for (const response of [a, b, c, d]) {
        expect(response.statusCode).toBe(200);
        expect(response.headers['content-type']).toMatch(/^application\/json/);
        expect(response.body).toBe(a.body);
      }
      expect(a.headers['x-seedbed-dataset-id']).toBe('sg-news-2026-01-15-0001');
      expect(Number(a.headers['content-length'])).toBe(Buffer.byteLength(a.body));
      const read = a.json();
      expect(read.meta.chunk).toBe(1);
      expect(read.records).toEqual([datasetRecord(1), datasetRecord(2), datasetRecord(3)]);
    });

    it('an absent chunk or partition is a 404 problem; a malformed chunk is a 400', async () => {
      expectProblem(await get(chunkUrl(P, 42)), 404, 'not_found');
      expectProblem(await get(chunkUrl({ ...P, date: '2020-01-01' }, 1)), 404, 'not_found');
      expectValidation(await get(chunkUrl(P, 0)), 'params.chunk');
      expectValidation(await get(chunkUrl(P, 10_000)), 'params.chunk');
      expectValidation(await get(chunkUrl(P, 'raw_0001')), 'params.chunk');
      expectValidation(await get(chunkUrl(P, '0001.json')), 'params.chunk');
      expectValidation(await get(chunkUrl(P, 'abc')), 'params.chunk');
    });
  });

  describe('listings and statistics', () => {
    it('GET /datasets/:country/:category/:date lists the chunks in number order', async () => {
      const body = expectJson(await get('/api/v1/datasets/SG/news/2026-01-15'), 200);
      expect(body).toMatchObject({ country: 'sg', category: 'news', date: '2026-01-15' });
      const numbers = body.chunks.map((c: { chunk: number }) => c.chunk);
      expect(numbers).toEqual([...numbers].sort((x: number, y: number) => x - y));
      expect(numbers).toEqual(expect.arrayContaining([1, 2, 3, 5, 7, 8]));
      for (const chunk of body.chunks) {
        expect(chunk).toMatchObject({
          file: expect.stringMatching(/^raw_\d{4}\.json$/),
          dataset_id: expect.stringMatching(/^sg-news-2026-01-15-\d{4}$/),
          record_count: expect.any(Number),
          bytes: expect.any(Number),
        });
      }
      expectProblem(await get('/api/v1/datasets/sg/news/1999-01-01'), 404, 'not_found');
    });

    it('GET /datasets lists partitions with totals, filters and pagination', async () => {
      const all = expectJson(await get('/api/v1/datasets'), 200);
      expectPage(all, 50, 0);
      expect(all.pagination.total).toBe(all.data.length);
      const sg = all.data.find((p: PartitionRef) => p.country === 'sg' && p.date === '2026-01-15');
      const chunks = (await get('/api/v1/datasets/sg/news/2026-01-15')).json().chunks as Array<{
        record_count: number;
        bytes: number;
      }>;
      expect(sg).toMatchObject({
        category: 'news',
        chunks: chunks.length,
        records: chunks.reduce((n, c) => n + c.record_count, 0),
        bytes: chunks.reduce((n, c) => n + c.bytes, 0),
        last_modified: expect.any(String),
      });

      const my = expectJson(await get('/api/v1/datasets?country=MY'), 200);
      expect(my.data.length).toBeGreaterThanOrEqual(2);
      expect(my.data.every((p: PartitionRef) => p.country === 'my')).toBe(true);
      expect(my.pagination.total).toBe(my.data.length);

      const policy = expectJson(await get('/api/v1/datasets?category=policy'), 200);
      expect(policy.data.every((p: PartitionRef) => p.category === 'policy')).toBe(true);
      const none = expectJson(await get('/api/v1/datasets?country=fr'), 200);
      expect(none).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0 } });

      const first = expectJson(await get('/api/v1/datasets?limit=1'), 200);
      expectPage(first, 1, 0, all.pagination.total);
      expect(first.data).toHaveLength(1);
      const second = expectJson(await get('/api/v1/datasets?limit=1&offset=1'), 200);
      expect(second.data[0]).not.toEqual(first.data[0]);
      const past = expectJson(await get('/api/v1/datasets?offset=1000'), 200);
      expect(past.data).toEqual([]);
      expect(past.pagination.total).toBe(all.pagination.total);
      expect(expectJson(await get('/api/v1/datasets?limit=100'), 200).pagination.limit).toBe(100);
    });

    it('GET /datasets/stats adds up what was stored', async () => {
      const nz: PartitionRef = { country: 'nz', category: 'data', date: '2026-03-01' };
      const one = expectJson(
        await postDataset(t.app, dataset(nz, [datasetRecord(1), datasetRecord(2)])),
        201,
      );
      const two = expectJson(
        await postDataset(t.app, dataset({ ...nz, date: '2026-03-02' }, [datasetRecord(3)])),
        201,
      );
      const stats = expectJson(await get('/api/v1/datasets/stats'), 200);
      expect(stats.by_country).toContainEqual({
        country: 'nz',
        chunks: 2,
        records: 3,
        bytes: one.bytes + two.bytes,
      });
      const sum = (key: 'chunks' | 'records' | 'bytes') =>
        (stats.by_country as Array<Record<string, number>>).reduce((n, c) => n + (c[key] ?? 0), 0);
      expect(stats.totals).toMatchObject({
        chunks: sum('chunks'),
        records: sum('records'),
        bytes: sum('bytes'),
        countries: stats.by_country.length,
        last_modified: expect.any(String),
      });
      const partitions = expectJson(await get('/api/v1/datasets?limit=100'), 200).pagination.total;
      expect(stats.totals.partitions).toBe(partitions);
      expect(stats.by_category.find((c: { category: string }) => c.category === 'data')).toMatchObject({
        chunks: 2,
      });
    });
  });

  describe('DELETE /datasets/:country/:category/:date/:chunk', () => {
    it('answers 204, then the chunk is gone (404), from listings and from storage', async () => {
      const d: PartitionRef = { country: 'id', category: 'alert', date: '2026-04-01' };
      const kept = expectJson(await postDataset(t.app, dataset(d, [datasetRecord(1)])), 201);
      const gone = expectJson(await postDataset(t.app, dataset(d, [datasetRecord(2)])), 201);
      const response = await inject(t.app, { method: 'DELETE', url: chunkUrl(d, 'raw_0002.json') });
      expect(response.statusCode).toBe(204);
      expect(response.body).toBe('');
      expectProblem(await get(chunkUrl(d, 2)), 404, 'not_found');
      const listed = expectJson(await get('/api/v1/datasets/id/alert/2026-04-01'), 200);
      expect(listed.chunks.map((c: { chunk: number }) => c.chunk)).toEqual([kept.chunk]);
      expect(await t.hasObject(gone.key)).toBe(false);
      expectProblem(await inject(t.app, { method: 'DELETE', url: chunkUrl(d, 2) }), 404, 'not_found');
      // A deleted chunk's number is free again for an explicit store.
      const again = expectJson(await postDataset(t.app, dataset(d, [datasetRecord(3)], { chunk: 2 })), 201);
      expect(again.chunk).toBe(2);
    });

    it('deleting the last chunk of a partition removes the partition from the listings', async () => {
      const d: PartitionRef = { country: 'id', category: 'faq', date: '2026-04-02' };
      expectJson(await postDataset(t.app, dataset(d, [datasetRecord(1)])), 201);
      expect((await inject(t.app, { method: 'DELETE', url: chunkUrl(d, 1) })).statusCode).toBe(204);
      expectProblem(await get('/api/v1/datasets/id/faq/2026-04-02'), 404, 'not_found');
      const list = expectJson(await get('/api/v1/datasets?country=id&category=faq'), 200);
      expect(list.pagination.total).toBe(0);
    });
  });

  describe('robustness', () => {
    it('concurrent POSTs to one partition get distinct chunk numbers, all 201', async () => {
      const c: PartitionRef = { country: 'vn', category: 'news', date: '2026-06-01' };
      const responses = await Promise.all(
        Array.from({ length: 20 }, (_, i) => postDataset(t.app, dataset(c, [datasetRecord(i)]))),
      );
      const statuses = responses.map((r) => r.statusCode);
      expect(statuses).toEqual(Array(20).fill(201));
      const numbers = responses.map((r) => r.json().chunk as number).sort((a, b) => a - b);
      expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1));
    });

    it('concurrent POSTs of the same explicit chunk: one 201, the rest 409 chunk_exists', async () => {
      const c: PartitionRef = { country: 'vn', category: 'policy', date: '2026-06-01' };
      const responses = await Promise.all(
        Array.from({ length: 8 }, (_, i) => postDataset(t.app, dataset(c, [datasetRecord(i)], { chunk: 3 }))),
      );
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
      for (const r of responses.filter((x) => x.statusCode !== 201)) expectProblem(r, 409, 'chunk_exists');
    });

    it('a chunk whose object vanished from storage is a 404 problem, not a 500', async () => {
      const c: PartitionRef = { country: 'vn', category: 'data', date: '2026-06-02' };
      const stored = expectJson(await postDataset(t.app, dataset(c, [datasetRecord(1)])), 201);
      await t.seedbed.objects.delete(stored.key);
      expectProblem(await get(chunkUrl(c, stored.chunk)), 404, 'not_found');
      const deleted = await inject(t.app, { method: 'DELETE', url: chunkUrl(c, stored.chunk) });
      expect([204, 404]).toContain(deleted.statusCode);
    });

    it('an object written behind the catalog is never overwritten: the next number is used', async () => {
      const c: PartitionRef = { country: 'vn', category: 'faq', date: '2026-06-03' };
      const key = 'raw/country=vn/category=faq/date=2026-06-03/raw_0001.json';
      const foreign = JSON.stringify(dataset(c, [datasetRecord(1)], { chunk: 1 }));
      await t.seedbed.objects.put(key, foreign);
      const stored = expectJson(await postDataset(t.app, dataset(c, [datasetRecord(2)])), 201);
      expect(stored.chunk).toBe(2);
      expect(await t.readObject(key)).toBe(foreign);
      expectProblem(
        await postDataset(t.app, dataset(c, [datasetRecord(3)], { chunk: 1 })),
        409,
        'chunk_exists',
      );
    });

    it('a partition whose last number is taken answers a 4xx for the next automatic number, not a 5xx', async () => {
      const c: PartitionRef = { country: 'vn', category: 'alert', date: '2026-06-04' };
      expectJson(await postDataset(t.app, dataset(c, [datasetRecord(1)], { chunk: 9999 })), 201);
      const next = await postDataset(t.app, dataset(c, [datasetRecord(2)]));
      if (next.statusCode !== 201) expectProblem(next, 422, 'partition_full');
    });
  });

  describe('a 20 MB dataset', () => {
    it('round-trips: POST, GET, the records compare equal', async () => {
      const big: PartitionRef = { country: 'intl', category: 'research', date: '2026-05-01' };
      const records: Array<Record<string, unknown>> = [];
      let size = 0;
      for (let i = 0; size < 20 * 1024 * 1024; i++) {
        const record = datasetRecord(i, { x_note: `record ${i} `.padEnd(64, '·'), x_i: i });
        records.push(record);
        size += JSON.stringify(record).length + 1;
      }
      let payload: string | null = JSON.stringify(dataset(big, records, { record_count: records.length }));
      expect(Buffer.byteLength(payload)).toBeGreaterThan(20 * 1024 * 1024);
      const response = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/datasets',
        headers: { 'content-type': 'application/json' },
        payload,
      });
      payload = null;
      const stored = expectJson(response, 201);
      expect(stored.record_count).toBe(records.length);
      expect(stored.bytes).toBeGreaterThan(20 * 1024 * 1024);
      const read = await get(chunkUrl(big, stored.chunk));
      expect(read.statusCode).toBe(200);
      expect(Number(read.headers['content-length'])).toBe(stored.bytes);
      const parsed = JSON.parse(read.body) as { meta: { record_count: number }; records: unknown[] };
      expect(parsed.meta.record_count).toBe(records.length);
      expect(parsed.records.length).toBe(records.length);
      // Compared as text: equal JSON of equal records, without a deep walk over 100k objects.
      expect(JSON.stringify(parsed.records) === JSON.stringify(records)).toBe(true);
    });
  });
});
