// /api/v1/metadata: the snapshot (totals and tree) against what was stored, by-country views, tasks, and
// sync without a configured target (409, recorded as a skipped task).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiSeedbed,
  dataset,
  datasetRecord,
  expectJson,
  expectPage,
  expectProblem,
  expectValidation,
  inject,
  postDataset,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

describe('metadata', () => {
  let t: TestSeedbed;
  const stored: Array<{
    country: string;
    category: string;
    date: string;
    bytes: number;
    record_count: number;
  }> = [];

  beforeAll(async () => {
    t = await createApiSeedbed();
    const partitions = [
      { country: 'sg', category: 'news', date: '2026-01-01', records: 3 },
      { country: 'sg', category: 'news', date: '2026-01-01', records: 2 },
      { country: 'sg', category: 'news', date: '2026-01-02', records: 1 },
      { country: 'sg', category: 'policy', date: '2026-01-01', records: 4 },
      { country: 'my', category: 'data', date: '2026-01-05', records: 5 },
    ];
    for (const p of partitions) {
      const records = Array.from({ length: p.records }, (_, i) => datasetRecord(i));
      stored.push(
        expectJson(
          await postDataset(
            t.app,
            dataset({ country: p.country, category: p.category, date: p.date }, records),
          ),
          201,
        ),
      );
    }
    expectJson(
      await inject(t.app, {
        method: 'POST',
        url: '/api/v1/research',
        payload: { country: 'id', category: 'news', date: '2026-01-07', urls: ['https://www.kemlu.go.id/'] },
      }),
      201,
    );
    expectJson(
      await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        payload: { domain: 'mom.gov.sg', country: 'sg', category: 'news' },
      }),
      201,
    );
  });
  afterAll(() => t.close());

  const get = (url: string) => inject(t.app, { method: 'GET', url });
  const sum = (rows: typeof stored, key: 'bytes' | 'record_count') => rows.reduce((n, r) => n + r[key], 0);

  describe('GET /metadata/snapshot', () => {
    it('totals match what was stored', async () => {
      const snap = expectJson(await get('/api/v1/metadata/snapshot'), 200);
      expect(snap.generated_at).toEqual(expect.any(String));
      expect(snap.hash).toMatch(/^[0-9a-f]{64}$/);
      // The research POST wrote one more chunk (id/news/2026-01-07).
      const research = expectJson(await get('/api/v1/datasets/id/news/2026-01-07'), 200).chunks[0];
      expect(snap.totals).toMatchObject({
        countries: 3,
        partitions: 5,
        chunks: 6,
        records: sum(stored, 'record_count') + research.record_count,
        bytes: sum(stored, 'bytes') + research.bytes,
        research_records: 1,
        seeds: { draft: 1 },
      });
      expect(snap.totals.batches).toEqual(expect.any(Object));
    });

    it('the tree is country → category → date with chunks, records, bytes and last_modified', async () => {
      const snap = expectJson(await get('/api/v1/metadata/snapshot'), 200);
      expect(Object.keys(snap.countries).sort()).toEqual(['id', 'my', 'sg']);
      const sgNews = stored.filter(
        (s) => s.country === 'sg' && s.category === 'news' && s.date === '2026-01-01',
      );
      expect(snap.countries.sg.categories.news['2026-01-01']).toEqual({
        chunks: 2,
        records: 5,
        bytes: sum(sgNews, 'bytes'),
        last_modified: expect.any(String),
      });
      expect(snap.countries.sg.categories.news['2026-01-02']).toMatchObject({ chunks: 1, records: 1 });
      expect(snap.countries.sg.categories.policy['2026-01-01']).toMatchObject({ chunks: 1, records: 4 });
      expect(snap.countries.my.categories.data['2026-01-05']).toMatchObject({ chunks: 1, records: 5 });
      const sg = stored.filter((s) => s.country === 'sg');
      expect(snap.countries.sg.totals).toEqual({
        categories: 2,
        partitions: 3,
        chunks: 4,
        records: 10,
        bytes: sum(sg, 'bytes'),
      });
    });

    it('the hash depends on the content, not on the time', async () => {
      const a = expectJson(await get('/api/v1/metadata/snapshot'), 200);
      const b = expectJson(await get('/api/v1/metadata/snapshot'), 200);
      expect(b.hash).toBe(a.hash);
      expectJson(
        await postDataset(t.app, dataset({ country: 'my', category: 'data', date: '2026-01-06' }, [])),
        201,
      );
      const c = expectJson(await get('/api/v1/metadata/snapshot'), 200);
      expect(c.hash).not.toBe(a.hash);
      expect(c.totals.partitions).toBe(a.totals.partitions + 1);
    });
  });

  describe('GET /metadata/by-country/:country', () => {
    it('is the country subtree of the snapshot', async () => {
      const snap = expectJson(await get('/api/v1/metadata/snapshot'), 200);
      const sg = expectJson(await get('/api/v1/metadata/by-country/SG'), 200);
      expect(sg.country).toBe('sg');
      expect(sg.totals).toEqual(snap.countries.sg.totals);
      expect(sg.categories).toEqual(snap.countries.sg.categories);
    });

    it('a country without data is a 404; a non-country is a 400', async () => {
      const body = expectProblem(await get('/api/v1/metadata/by-country/fr'), 404, 'not_found');
      expect(body.detail).toContain('fr');
      expectValidation(await get('/api/v1/metadata/by-country/zz'), 'params.country');
      expectValidation(await get('/api/v1/metadata/by-country/sgp'), 'params.country');
    });
  });

  describe('sync without a target', () => {
    it('POST /metadata/sync is a 409 sync_target_not_configured, recorded as a skipped task', async () => {
      const response = await inject(t.app, { method: 'POST', url: '/api/v1/metadata/sync' });
      const body = expectProblem(response, 409, 'sync_target_not_configured');
      expect(body.detail).toContain('SEEDBED_SYNC_TARGET');
      const tasks = expectJson(await get('/api/v1/metadata/tasks?status=skipped'), 200);
      expect(tasks.data).toContainEqual(
        expect.objectContaining({
          kind: 'sync',
          status: 'skipped',
          trigger: 'api',
          error: expect.any(String),
        }),
      );
    });

    it('POST /queues/trigger/metadata-sync is a 409 too, recorded as a skipped task', async () => {
      const response = await inject(t.app, { method: 'POST', url: '/api/v1/queues/trigger/metadata-sync' });
      expectProblem(response, 409, 'sync_target_not_configured');
      const tasks = expectJson(await get('/api/v1/metadata/tasks'), 200);
      expect(tasks.data).toContainEqual(
        expect.objectContaining({ kind: 'sync', status: 'skipped', trigger: 'trigger' }),
      );
    });
  });

  describe('GET /metadata/tasks', () => {
    it('lists tasks newest first, paginated, filtered by status', async () => {
      const all = expectJson(await get('/api/v1/metadata/tasks'), 200);
      expectPage(all, 50, 0);
      expect(all.pagination.total).toBeGreaterThanOrEqual(2);
      for (const task of all.data) {
        expect(task).toMatchObject({
          taskId: expect.any(String),
          kind: expect.any(String),
          status: expect.any(String),
          created_at: expect.any(String),
        });
      }
      const created = all.data.map((task: { created_at: string }) => task.created_at);
      expect(created).toEqual([...created].sort().reverse());
      const one = expectJson(await get('/api/v1/metadata/tasks?limit=1&offset=1'), 200);
      expectPage(one, 1, 1, all.pagination.total);
      expect(one.data[0]).toEqual(all.data[1]);
      const none = expectJson(await get('/api/v1/metadata/tasks?status=succeeded'), 200);
      expect(none.pagination.total).toBe(0);
      expectValidation(await get('/api/v1/metadata/tasks?status=done'), 'querystring.status');
    });
  });
});
