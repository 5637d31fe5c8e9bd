// /api/v1/queues: batch creation (research, liveness, contract), limits, defaults, Idempotency-Key,
// the batch view of docs/design.md §3 and its per-item results.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiSeedbed,
  expectJson,
  expectPage,
  expectProblem,
  expectValidation,
  inject,
  repeatUrls,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

const BATCH_ID = /^[0-9A-Za-z-]{20,}$/;

function expectBatchView(body: any, expected: { type: string; total: number; chunkSize: number }) {
  expect(body).toMatchObject({
    batchId: expect.stringMatching(BATCH_ID),
    type: expected.type,
    status: expect.stringMatching(/^(queued|running|completed|completed_with_errors|failed)$/),
    country: expect.any(String),
    total_items: expected.total,
    chunk_size: expected.chunkSize,
    chunks: {
      total: Math.ceil(expected.total / expected.chunkSize),
      pending: expect.any(Number),
      running: expect.any(Number),
      succeeded: expect.any(Number),
      failed: expect.any(Number),
    },
    items: {
      succeeded: expect.any(Number),
      failed: expect.any(Number),
      skipped: expect.any(Number),
      running: expect.any(Number),
      pending: expect.any(Number),
    },
    created_at: expect.any(String),
    summary: expect.any(Object),
    errors: expect.any(Array),
  });
  expect('started_at' in body).toBe(true);
  expect('finished_at' in body).toBe(true);
  expect('category' in body).toBe(true);
}

describe('queues', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed();
    // Research has a worker; liveness and contract batches stay queued, so their views are stable.
    t.startWorkers(['RESEARCH_QUEUE']);
  });
  afterAll(() => t.close());

  const post = (path: string, payload: unknown, headers: Record<string, string> = {}) =>
    inject(t.app, { method: 'POST', url: `/api/v1/queues/${path}`, payload: payload as object, headers });

  describe('POST /queues/liveness', () => {
    it('answers 202 with the batch view, a Location and chunkSize 50 by default', async () => {
      const response = await post('liveness', {
        country: 'SG',
        domains: repeatUrls(120, 'd').map((d) => `${d}.sg`),
      });
      const body = expectJson(response, 202);
      expectBatchView(body, { type: 'liveness', total: 120, chunkSize: 50 });
      expect(body.status).toBe('queued');
      expect(body.country).toBe('sg');
      expect(body.chunks).toEqual({ total: 3, pending: 3, running: 0, succeeded: 0, failed: 0 });
      expect(body.items).toMatchObject({ succeeded: 0, failed: 0, skipped: 0 });
      expect(body.started_at).toBeNull();
      expect(body.finished_at).toBeNull();
      expect(body.errors).toEqual([]);
      expect(response.headers.location).toBe(`/api/v1/queues/batch/${body.batchId}`);
      expect(response.headers['idempotent-replayed']).toBeUndefined();
    });

    it('accepts 10,000 domains and refuses 10,001 naming body.domains', async () => {
      const ok = expectJson(await post('liveness', { country: 'sg', domains: repeatUrls(10_000, 'x') }), 202);
      expect(ok.total_items).toBe(10_000);
      expect(ok.chunks.total).toBe(200);
      expectValidation(
        await post('liveness', { country: 'sg', domains: repeatUrls(10_001, 'x') }),
        'body.domains',
      );
    });

    it('refuses an empty domain list', async () => {
      expectValidation(await post('liveness', { country: 'sg', domains: [] }), 'body.domains');
    });

    it('honours an explicit chunkSize from 1 to 1000', async () => {
      const one = expectJson(
        await post('liveness', { country: 'sg', domains: ['a.sg', 'b.sg'], chunkSize: 1 }),
        202,
      );
      expect(one.chunks.total).toBe(2);
      expect(one.chunk_size).toBe(1);
      const max = expectJson(
        await post('liveness', { country: 'sg', domains: repeatUrls(1500, 'y'), chunkSize: 1000 }),
        202,
      );
      expect(max.chunks.total).toBe(2);
      expectValidation(
        await post('liveness', { country: 'sg', domains: ['a.sg'], chunkSize: 1001 }),
        'body.chunkSize',
      );
      expectValidation(
        await post('liveness', { country: 'sg', domains: ['a.sg'], chunkSize: 0 }),
        'body.chunkSize',
      );
    });
  });

  describe('POST /queues/contract', () => {
    it('answers 202 with chunkSize 20 by default', async () => {
      const ids = Array.from({ length: 45 }, (_, i) => `gov:sg:agency${i}.gov.sg`);
      const body = expectJson(
        await post('contract', { country: 'sg', category: 'News', domainIds: ids }),
        202,
      );
      expectBatchView(body, { type: 'contract', total: 45, chunkSize: 20 });
      expect(body.category).toBe('news');
      expect(body.status).toBe('queued');
    });

    it('accepts 1,000 domain ids and refuses 1,001 naming body.domainIds', async () => {
      const ids = (n: number) => Array.from({ length: n }, (_, i) => `gov:sg:agency${i}.gov.sg`);
      const ok = expectJson(
        await post('contract', { country: 'sg', category: 'news', domainIds: ids(1000) }),
        202,
      );
      expect(ok.chunks.total).toBe(50);
      expectValidation(
        await post('contract', { country: 'sg', category: 'news', domainIds: ids(1001) }),
        'body.domainIds',
      );
      expectValidation(
        await post('contract', { country: 'sg', category: 'news', domainIds: [] }),
        'body.domainIds',
      );
    });

    it('takes force: true (each item carries it, as an orchestration does); a non-boolean force is a 400', async () => {
      const body = expectJson(
        await post('contract', {
          country: 'sg',
          category: 'news',
          domainIds: ['gov:sg:a.gov.sg'],
          force: true,
        }),
        202,
      );
      expectBatchView(body, { type: 'contract', total: 1, chunkSize: 20 });
      const rows = await t.seedbed.database.db
        .selectFrom('batch_chunks')
        .select('items')
        .where('batch_id', '=', body.batchId)
        .execute();
      expect(JSON.parse(rows[0]?.items ?? '[]')).toEqual([{ domain_id: 'gov:sg:a.gov.sg', force: true }]);
      expectValidation(
        await post('contract', {
          country: 'sg',
          category: 'news',
          domainIds: ['gov:sg:a.gov.sg'],
          force: 'yes',
        }),
        'body.force',
      );
    });

    it('requires country and category', async () => {
      expectValidation(
        await post('contract', { country: 'sg', domainIds: ['gov:sg:a.gov.sg'] }),
        'body.category',
      );
      expectValidation(
        await post('contract', { category: 'news', domainIds: ['gov:sg:a.gov.sg'] }),
        'body.country',
      );
    });
  });

  describe('POST /queues/research', () => {
    it('answers 202 with chunkSize 100 by default and a research batch view', async () => {
      const response = await post('research', {
        country: 'sg',
        category: 'qdefault',
        urls: repeatUrls(250, 'https://default.gov.sg/p'),
      });
      const body = expectJson(response, 202);
      expectBatchView(body, { type: 'research', total: 250, chunkSize: 100 });
      expect(body.category).toBe('qdefault');
      expect(body.date).toMatch(/^\d{4}-\d{2}-\d{2}$/);
      expect(response.headers.location).toBe(`/api/v1/queues/batch/${body.batchId}`);
      await t.waitForBatch(body.batchId);
    });

    it('accepts 10,000 URLs and refuses 10,001 naming body.urls', async () => {
      const ok = expectJson(
        await post('research', {
          country: 'sg',
          category: 'qlimit',
          urls: repeatUrls(10_000, 'https://limit.gov.sg/p'),
          chunkSize: 1000,
        }),
        202,
      );
      expect(ok.total_items).toBe(10_000);
      expect(ok.chunks.total).toBe(10);
      const tooMany = expectValidation(
        await post('research', { country: 'sg', category: 'qlimit', urls: repeatUrls(10_001) }),
        'body.urls',
      );
      expect(tooMany.detail).toContain('body.urls');
      expectValidation(await post('research', { country: 'sg', category: 'qlimit', urls: [] }), 'body.urls');
      await t.waitForBatch(ok.batchId, 120_000);
    });

    it('validates country, category and chunkSize', async () => {
      expectValidation(
        await post('research', { country: 'zz', category: 'news', urls: ['https://a.sg/'] }),
        'body.country',
      );
      expectValidation(
        await post('research', { country: 'sg', category: 'Not A Slug', urls: ['https://a.sg/'] }),
        'body.category',
      );
      expectValidation(
        await post('research', { country: 'sg', category: 'news', urls: ['https://a.sg/'], chunkSize: -5 }),
        'body.chunkSize',
      );
      expectValidation(
        await post('research', { country: 'sg', category: 'news', urls: ['https://a.sg/'], chunkSize: 2.5 }),
        'body.chunkSize',
      );
    });
  });

  describe('Idempotency-Key', () => {
    const body = { country: 'sg', domains: ['one.sg', 'two.sg'] };

    it('the same key and body answers the same batch, marked Idempotent-Replayed', async () => {
      const first = await post('liveness', body, { 'idempotency-key': 'retry-me-1' });
      const created = expectJson(first, 202);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      const second = await post('liveness', body, { 'idempotency-key': 'retry-me-1' });
      const replayed = expectJson(second, 202);
      expect(replayed.batchId).toBe(created.batchId);
      expect(second.headers['idempotent-replayed']).toBe('true');
      expect(second.headers.location).toBe(`/api/v1/queues/batch/${created.batchId}`);
      // A replay creates nothing new.
      const view = expectJson(
        await inject(t.app, { method: 'GET', url: `/api/v1/queues/batch/${created.batchId}` }),
        200,
      );
      expect(view.chunks.total).toBe(1);
    });

    it('the same key with a different body is a 422 idempotency_key_reused', async () => {
      expectJson(await post('liveness', body, { 'idempotency-key': 'retry-me-2' }), 202);
      const reused = expectProblem(
        await post('liveness', { country: 'sg', domains: ['three.sg'] }, { 'idempotency-key': 'retry-me-2' }),
        422,
        'idempotency_key_reused',
      );
      expect(reused.detail).toMatch(/idempotency/i);
    });

    it('works for research and contract batches too', async () => {
      const research = { country: 'sg', category: 'qidem', urls: ['https://idem.gov.sg/a'] };
      const a = expectJson(await post('research', research, { 'idempotency-key': 'r-1' }), 202);
      const b = await post('research', research, { 'idempotency-key': 'r-1' });
      expect(expectJson(b, 202).batchId).toBe(a.batchId);
      expect(b.headers['idempotent-replayed']).toBe('true');
      const contract = { country: 'sg', category: 'news', domainIds: ['gov:sg:idem.gov.sg'] };
      const c = expectJson(await post('contract', contract, { 'idempotency-key': 'c-1' }), 202);
      const d = await post('contract', contract, { 'idempotency-key': 'c-1' });
      expect(expectJson(d, 202).batchId).toBe(c.batchId);
      await t.waitForBatch(a.batchId);
    });

    it('concurrent retries with one key all answer the one batch', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, () => post('liveness', body, { 'idempotency-key': 'retry-storm' })),
      );
      const ids = new Set(responses.map((r) => expectJson(r, 202).batchId));
      expect(ids.size).toBe(1);
      expect(responses.filter((r) => r.headers['idempotent-replayed'] === undefined)).toHaveLength(1);
    });

    it('without a key, the same body creates a new batch each time', async () => {
      const a = expectJson(await post('liveness', body), 202);
      const b = expectJson(await post('liveness', body), 202);
      expect(a.batchId).not.toBe(b.batchId);
    });
  });

  describe('GET /queues/batch/:batchId and its items', () => {
    let batchId: string;

    beforeAll(async () => {
      const urls = [
        // A duplicate in the same chunk as its original, so the outcome does not depend on chunk order.
        'https://www.items.gov.sg/a',
        'https://WWW.ITEMS.GOV.SG/a#again',
        'ftp://items.gov.sg/b',
        'https://items.gov.sg/c',
        'not a url',
        'https://localhost/x',
      ];
      const created = expectJson(
        await post('research', { country: 'sg', category: 'qitems', urls, chunkSize: 2 }),
        202,
      );
      batchId = created.batchId;
      await t.waitForBatch(batchId);
    });

    it('reports the finished batch: status, counts, timestamps and first errors', async () => {
      const view = expectJson(
        await inject(t.app, { method: 'GET', url: `/api/v1/queues/batch/${batchId}` }),
        200,
      );
      expectBatchView(view, { type: 'research', total: 6, chunkSize: 2 });
      expect(view.status).toBe('completed_with_errors');
      expect(view.chunks).toEqual({ total: 3, pending: 0, running: 0, succeeded: 3, failed: 0 });
      expect(view.items).toMatchObject({ succeeded: 2, skipped: 1, failed: 3 });
      expect(view.started_at).toEqual(expect.any(String));
      expect(view.finished_at).toEqual(expect.any(String));
      expect(Date.parse(view.finished_at)).toBeGreaterThanOrEqual(Date.parse(view.created_at));
      expect(view.errors).toHaveLength(3);
      for (const error of view.errors) {
        expect(error).toEqual({
          item_index: expect.any(Number),
          input: expect.any(String),
          reason: expect.any(String),
        });
      }
      expect(view.errors.map((e: { input: string }) => e.input)).toEqual([
        'ftp://items.gov.sg/b',
        'not a url',
        'https://localhost/x',
      ]);
    });

    it('lists every item, paginated, in input order', async () => {
      const page = expectJson(
        await inject(t.app, { method: 'GET', url: `/api/v1/queues/batch/${batchId}/items` }),
        200,
      );
      expectPage(page, 50, 0, 6);
      expect(page.data.map((i: { item_index: number }) => i.item_index)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(page.data.map((i: { status: string }) => i.status)).toEqual([
        'succeeded',
        'skipped',
        'failed',
        'succeeded',
        'failed',
        'failed',
      ]);
      for (const item of page.data) {
        expect(item).toMatchObject({
          item_index: expect.any(Number),
          chunk: expect.any(Number),
          input: expect.any(String),
          status: expect.stringMatching(/^(succeeded|failed|skipped)$/),
        });
        expect('reason' in item && 'result' in item).toBe(true);
      }
      const second = expectJson(
        await inject(t.app, { method: 'GET', url: `/api/v1/queues/batch/${batchId}/items?limit=2&offset=2` }),
        200,
      );
      expectPage(second, 2, 2, 6);
      expect(second.data.map((i: { item_index: number }) => i.item_index)).toEqual([2, 3]);
    });

    it('filters items by status', async () => {
      const get = (status: string) =>
        inject(t.app, { method: 'GET', url: `/api/v1/queues/batch/${batchId}/items?status=${status}` });
      const failed = expectJson(await get('failed'), 200);
      expect(failed.pagination.total).toBe(3);
      expect(
        failed.data.every((i: { status: string; reason: string }) => i.status === 'failed' && i.reason),
      ).toBe(true);
      const skipped = expectJson(await get('skipped'), 200);
      expect(skipped.data).toHaveLength(1);
      expect(skipped.data[0]).toMatchObject({ input: 'https://WWW.ITEMS.GOV.SG/a#again', status: 'skipped' });
      expect(skipped.data[0].reason).toMatch(/duplicate/);
      const succeeded = expectJson(await get('succeeded'), 200);
      expect(succeeded.data).toHaveLength(2);
      expect(succeeded.data[0].result).toMatchObject({
        normalized_url: expect.stringContaining('items.gov.sg'),
      });
      expectValidation(await get('bogus'), 'querystring.status');
    });

    it("stores no input of a research item's own and rebuilds it from its chunk, the same for every reader", async () => {
      const { db } = t.seedbed.database;
      const rows = await db
        .selectFrom('batch_items')
        .select(['item_index', 'input'])
        .where('batch_id', '=', batchId)
        .orderBy('item_index')
        .execute();
      expect(rows.map((r) => r.input)).toEqual([null, null, null, null, null, null]);
      const expected = [
        'https://www.items.gov.sg/a',
        'https://WWW.ITEMS.GOV.SG/a#again',
        'ftp://items.gov.sg/b',
        'https://items.gov.sg/c',
        'not a url',
        'https://localhost/x',
      ];
      const read = async () => {
        const items = expectJson(
          await inject(t.app, {
            method: 'GET',
            url: `/api/v1/queues/batch/${batchId}/items?limit=4&offset=1`,
          }),
          200,
        );
        const view = expectJson(
          await inject(t.app, { method: 'GET', url: `/api/v1/queues/batch/${batchId}` }),
          200,
        );
        return {
          items: items.data.map((i: { input: unknown }) => i.input),
          errors: view.errors.map((e: { item_index: number; input: unknown }) => [e.item_index, e.input]),
        };
      };
      const rebuilt = await read();
      expect(rebuilt).toEqual({
        items: expected.slice(1, 5),
        errors: [
          [2, 'ftp://items.gov.sg/b'],
          [4, 'not a url'],
          [5, 'https://localhost/x'],
        ],
      });
      // A row that holds its input (written before migration 0017, or by a chunk's failure) reads the same.
      await db
        .updateTable('batch_items')
        .set({ input: JSON.stringify(expected[4]) })
        .where('batch_id', '=', batchId)
        .where('item_index', '=', 4)
        .execute();
      expect(await read()).toEqual(rebuilt);
    });

    it('an unknown batch is a 404 problem, for the view and its items', async () => {
      const body = expectProblem(
        await inject(t.app, {
          method: 'GET',
          url: '/api/v1/queues/batch/01890000-0000-7000-8000-000000000000',
        }),
        404,
        'not_found',
      );
      expect(body.detail).toContain('01890000-0000-7000-8000-000000000000');
      expectProblem(
        await inject(t.app, {
          method: 'GET',
          url: '/api/v1/queues/batch/01890000-0000-7000-8000-000000000000/items',
        }),
        404,
        'not_found',
      );
    });
  });
});
