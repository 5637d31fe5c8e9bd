// Reads a user reaches for: the list of batches (by type, status and creation time, newest first), a domain's
// liveness (latest and history) and a seed's evidence files.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LivenessResult } from '../../src/engine/liveness.js';
import {
  createApiSeedbed,
  expectJson,
  expectPage,
  expectProblem,
  expectValidation,
  inject,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

describe('reads', () => {
  let t: TestSeedbed;
  let clock = new Date('2026-03-01T10:00:00.000Z');
  beforeAll(async () => {
    t = await createApiSeedbed({}, { clock: () => clock });
  });
  afterAll(() => t.close());

  const get = (url: string) => inject(t.app, { method: 'GET', url });

  describe('GET /queues/batches', () => {
    const ids: Record<string, string> = {};
    beforeAll(async () => {
      // No workers run here: every batch stays queued, created a day apart.
      const create = async (name: string, at: string, url: string, payload: object) => {
        clock = new Date(at);
        const response = await inject(t.app, { method: 'POST', url, payload });
        ids[name] = expectJson(response, 202).batchId;
      };
      await create('research1', '2026-03-01T10:00:00.000Z', '/api/v1/queues/research', {
        country: 'sg',
        category: 'news',
        urls: ['https://a.gov.sg/', 'https://b.gov.sg/'],
      });
      await create('liveness1', '2026-03-02T10:00:00.000Z', '/api/v1/queues/liveness', {
        country: 'sg',
        domains: ['a.gov.sg'],
      });
      await create('research2', '2026-03-03T23:59:59.999Z', '/api/v1/queues/research', {
        country: 'fr',
        category: 'policy',
        urls: ['https://c.gouv.fr/'],
      });
    });

    it('lists every batch newest first, with its progress counters, paginated', async () => {
      const body = expectJson(await get('/api/v1/queues/batches'), 200);
      expectPage(body, 50, 0, 3);
      expect(body.data.map((b: { batchId: string }) => b.batchId)).toEqual([
        ids['research2'],
        ids['liveness1'],
        ids['research1'],
      ]);
      expect(body.data[2]).toMatchObject({
        type: 'research',
        status: 'queued',
        country: 'sg',
        category: 'news',
        total_items: 2,
        chunks: { total: 1, succeeded: 0, failed: 0 },
        created_at: '2026-03-01T10:00:00.000Z',
        started_at: null,
        finished_at: null,
      });
      const second = expectJson(await get('/api/v1/queues/batches?limit=1&offset=1'), 200);
      expectPage(second, 1, 1, 3);
      expect(second.data[0].batchId).toBe(ids['liveness1']);
    });

    it('filters by type and status', async () => {
      const research = expectJson(await get('/api/v1/queues/batches?type=research'), 200);
      expect(research.data.map((b: { batchId: string }) => b.batchId)).toEqual([
        ids['research2'],
        ids['research1'],
      ]);
      expect(
        expectJson(await get('/api/v1/queues/batches?status=queued&type=liveness'), 200).pagination.total,
      ).toBe(1);
      expect(expectJson(await get('/api/v1/queues/batches?status=completed'), 200).data).toEqual([]);
      expectValidation(await get('/api/v1/queues/batches?type=crawl'), 'querystring.type');
      expectValidation(await get('/api/v1/queues/batches?status=done'), 'querystring.status');
    });

    it('filters by creation date: whole UTC days for dates, both ends included, timestamps to the instant', async () => {
      const between = async (query: string) =>
        expectJson(await get(`/api/v1/queues/batches?${query}`), 200).data.map(
          (b: { batchId: string }) => b.batchId,
        );
      expect(await between('from=2026-03-02&to=2026-03-03')).toEqual([ids['research2'], ids['liveness1']]);
      expect(await between('to=2026-03-01')).toEqual([ids['research1']]);
      expect(await between('from=2026-03-03')).toEqual([ids['research2']]);
      expect(await between('from=2026-03-04')).toEqual([]);
      expect(await between('from=2026-03-02T10:00:00Z&to=2026-03-02T10:00:00Z')).toEqual([ids['liveness1']]);
      expect(await between('from=2026-03-02T10:00:00.001Z')).toEqual([ids['research2']]);
      // An offset is honoured: 18:00+08:00 is 10:00Z.
      expect(await between('to=2026-03-02T18:00:00%2B08:00')).toEqual([ids['liveness1'], ids['research1']]);
    });

    it('refuses a bad bound, and a range that ends before it starts, naming the parameter', async () => {
      expectValidation(await get('/api/v1/queues/batches?from=yesterday'), 'querystring.from');
      expectValidation(await get('/api/v1/queues/batches?from=2026-02-30'), 'querystring.from');
      expectValidation(await get('/api/v1/queues/batches?to=2026-03-02T10:00:00'), 'querystring.to');
      expectValidation(await get('/api/v1/queues/batches?from=2026-03-03&to=2026-03-02'), 'querystring.to');
    });
  });

  describe('GET /domains/:domain/liveness', () => {
    const check = (
      domain: string,
      checkedAt: string,
      fields: Partial<LivenessResult> = {},
    ): LivenessResult => ({
      domain,
      alive: true,
      state: 'alive',
      http_status: 200,
      final_url: `https://${domain}/`,
      https: true,
      latency_ms: 12,
      error_code: null,
      error_message: null,
      evidence: null,
      checked_at: checkedAt,
      ...fields,
    });
    beforeAll(async () => {
      const { database, services } = t.seedbed;
      const record = (result: LivenessResult) =>
        database.transaction((trx) =>
          services.liveness.record(trx, result.domain.replace(/^www\./, ''), result, null),
        );
      await record(check('mom.gov.sg', '2026-03-01T00:00:00.000Z'));
      await record(
        check('mom.gov.sg', '2026-03-02T00:00:00.000Z', {
          alive: false,
          state: 'dead',
          http_status: null,
          final_url: null,
          error_code: 'ECONNREFUSED',
        }),
      );
      await record(check('www.mom.gov.sg', '2026-03-03T00:00:00.000Z', { http_status: 301 }));
      await record(
        check('blocked.gov.sg', '2026-03-03T00:00:00.000Z', {
          alive: false,
          state: 'blocked',
          http_status: 403,
          error_code: 'HTTP_403',
          evidence: { kind: 'status', status: 403, server: 'nginx' },
        }),
      );
    });

    it('gives the latest check of a registrable domain and every check of its hosts, newest first', async () => {
      const body = expectJson(await get('/api/v1/domains/mom.gov.sg/liveness'), 200);
      expectPage(body, 50, 0, 3);
      expect(body.domain).toBe('mom.gov.sg');
      expect(body.latest).toMatchObject({ domain: 'www.mom.gov.sg', alive: true, http_status: 301 });
      expect(body.data.map((c: { checked_at: string }) => c.checked_at)).toEqual([
        '2026-03-03T00:00:00.000Z',
        '2026-03-02T00:00:00.000Z',
        '2026-03-01T00:00:00.000Z',
      ]);
      expect(body.data[1]).toEqual({
        domain: 'mom.gov.sg',
        alive: false,
        state: 'dead',
        http_status: null,
        final_url: null,
        https: true,
        latency_ms: 12,
        error_code: 'ECONNREFUSED',
        error_message: null,
        checked_at: '2026-03-02T00:00:00.000Z',
        batch_id: null,
        evidence: null,
      });
    });

    it('keeps the evidence a verdict rests on', async () => {
      const body = expectJson(await get('/api/v1/domains/blocked.gov.sg/liveness'), 200);
      expect(body.latest).toMatchObject({
        state: 'blocked',
        evidence: { kind: 'status', status: 403, server: 'nginx' },
      });
    });

    it('a host gives its own checks; the latest stays the latest whatever page is asked', async () => {
      const host = expectJson(await get('/api/v1/domains/www.mom.gov.sg/liveness'), 200);
      expect(host.pagination.total).toBe(1);
      const paged = expectJson(await get('/api/v1/domains/mom.gov.sg/liveness?limit=1&offset=2'), 200);
      expect(paged.latest.checked_at).toBe('2026-03-03T00:00:00.000Z');
      expect(paged.data.map((c: { checked_at: string }) => c.checked_at)).toEqual([
        '2026-03-01T00:00:00.000Z',
      ]);
    });

    it('accepts any case and a trailing dot; a domain never checked is a 404; a non-host is a 400', async () => {
      expect(expectJson(await get('/api/v1/domains/MOM.gov.SG./liveness'), 200).pagination.total).toBe(3);
      expectProblem(await get('/api/v1/domains/never-checked.gov.sg/liveness'), 404, 'not_found');
      const idn = expectProblem(
        await get(`/api/v1/domains/${encodeURIComponent('bücher.de')}/liveness`),
        404,
      );
      expect(idn.detail).toContain('xn--bcher-kva.de');
      for (const bad of ['a..b', '-a.sg', 'a_b.sg', '%20', 'a.sg%2F..', 'x'.repeat(64)])
        expectValidation(await get(`/api/v1/domains/${bad}/liveness`), 'params.domain');
    });
  });

  describe('GET /seeds/:seedId/evidence', () => {
    it('a seed a person created has no evidence: an empty list, and a 404 for a file', async () => {
      const created = expectJson(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/seeds',
          payload: { domain: 'mom.gov.sg', country: 'sg', category: 'news' },
        }),
        201,
      );
      const id = encodeURIComponent(created.seed_id);
      expect(expectJson(await get(`/api/v1/seeds/${id}/evidence`), 200)).toEqual({
        seed_id: created.seed_id,
        partition: null,
        files: [],
      });
      expectProblem(await get(`/api/v1/seeds/${id}/evidence/robots.txt`), 404, 'not_found');
    });

    it('names are validated; an unknown seed is a 404', async () => {
      const id = encodeURIComponent('gov:sg:mom.gov.sg::news');
      for (const name of ['passwd', 'domain_metadata.json.success', '..%2F..%2Fraw', 'ROBOTS.TXT'])
        expectValidation(await get(`/api/v1/seeds/${id}/evidence/${name}`), 'params.name');
      expectProblem(await get('/api/v1/seeds/gov:sg:nobody.gov.sg::news/evidence'), 404, 'not_found');
    });
  });
});
