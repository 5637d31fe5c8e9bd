// /api/v1/seeds: creation, reading (ids contain ':'), listing, patching (version rule, optimistic
// concurrency), the status machine, promotion, and orchestration of raw chunks through SEED_QUEUE.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stubFetcher } from '../fixtures/fake-internet/stub-fetcher.js';
import {
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
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';
import { eventually } from '../support/waiting.js';

const MOM = 'gov:sg:mom.gov.sg::news';

describe('seeds', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    // Contracts run against a stub web where every page is a 404: each domain is answered (dead), which is
    // what a raw file's checkpoint waits for.
    t = await createApiSeedbed({}, { fetcher: stubFetcher({}) });
    t.startWorkers(['SEED_QUEUE', 'CONTRACT_QUEUE']);
  });
  afterAll(() => t.close());

  const get = (url: string) => inject(t.app, { method: 'GET', url });
  const createSeed = (payload: unknown) =>
    inject(t.app, { method: 'POST', url: '/api/v1/seeds', payload: payload as object });
  const patch = (seedId: string, payload: unknown) =>
    inject(t.app, {
      method: 'PATCH',
      url: `/api/v1/seeds/${encodeURIComponent(seedId)}`,
      payload: payload as object,
    });
  const promote = (payload: unknown) =>
    inject(t.app, { method: 'POST', url: '/api/v1/seeds/promote', payload: payload as object });

  describe('POST /seeds and GET /seeds/:seedId', () => {
    it('creates a draft: 201, the seed id {authority}:{country}:{domain}::{content_type}, a Location', async () => {
      const response = await createSeed({
        domain: 'https://www.MOM.gov.sg/newsroom?x=1',
        country: 'SG',
        category: 'news',
        name: 'Ministry of Manpower',
      });
      const seed = expectJson(response, 201);
      expect(seed).toMatchObject({
        seed_id: MOM,
        domain_id: 'gov:sg:mom.gov.sg',
        registrable_domain: 'mom.gov.sg',
        country: 'sg',
        category: 'news',
        content_type: 'news',
        source_type: 'government',
        status: 'draft',
        version: 1,
        name: 'Ministry of Manpower',
        entry_url: expect.stringMatching(/^https:\/\//),
        fetch: { type: expect.any(String), urls: expect.any(Array) },
        policy: expect.any(Object),
        discovery: expect.any(Object),
        provenance: expect.any(Object),
        created_at: expect.any(String),
        updated_at: expect.any(String),
        promoted_at: null,
      });
      expect('schedule' in seed).toBe(true);
      expect(response.headers.location).toBe(`/api/v1/seeds/${encodeURIComponent(MOM)}`);
      const followed = expectJson(await get(response.headers.location as string), 200);
      expect(followed).toEqual(seed);
    });

    it('content_type, source_type and the contract can be given', async () => {
      const seed = expectJson(
        await createSeed({
          domain: 'mom.gov.sg',
          country: 'sg',
          category: 'news',
          content_type: 'Press',
          source_type: 'organization',
          entry_url: 'https://www.mom.gov.sg/newsroom/press-releases',
          fetch: { type: 'rss', urls: ['https://www.mom.gov.sg/rss'] },
          schedule: '0 */6 * * *',
          policy: { robots_allowed: true, crawl_delay: 2 },
        }),
        201,
      );
      expect(seed).toMatchObject({
        seed_id: 'gov:sg:mom.gov.sg::press',
        content_type: 'press',
        source_type: 'organization',
        entry_url: 'https://www.mom.gov.sg/newsroom/press-releases',
        fetch: { type: 'rss', urls: ['https://www.mom.gov.sg/rss'] },
        schedule: '0 */6 * * *',
        policy: { robots_allowed: true, crawl_delay: 2 },
      });
    });

    it('the same domain and content type again is a 409 seed_exists', async () => {
      const body = expectProblem(
        await createSeed({ domain: 'https://mom.gov.sg/', country: 'sg', category: 'news' }),
        409,
        'seed_exists',
      );
      expect(body.detail).toContain(MOM);
    });

    it('concurrent creations of one seed: one 201, the rest 409 seed_exists', async () => {
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          createSeed({ domain: 'race.gov.sg', country: 'sg', category: 'alert' }),
        ),
      );
      expect(responses.filter((r) => r.statusCode === 201)).toHaveLength(1);
      for (const r of responses.filter((x) => x.statusCode !== 201)) expectProblem(r, 409, 'seed_exists');
    });

    it('reads a seed by its raw and its URL-encoded id', async () => {
      const raw = expectJson(await get(`/api/v1/seeds/${MOM}`), 200);
      const encoded = expectJson(await get(`/api/v1/seeds/${encodeURIComponent(MOM)}`), 200);
      expect(raw.seed_id).toBe(MOM);
      expect(encoded).toEqual(raw);
    });

    it('an unknown seed is a 404 problem', async () => {
      const body = expectProblem(
        await get(`/api/v1/seeds/${encodeURIComponent('gov:sg:nope.gov.sg::news')}`),
        404,
        'not_found',
      );
      expect(body.detail).toContain('gov:sg:nope.gov.sg::news');
    });

    it('a domain without a registrable domain is a 400 at body.domain, like every other body field', async () => {
      for (const domain of ['localhost', '10.0.0.1', 'gov.sg', 'https://user:pw@mom.gov.sg/']) {
        const body = expectProblem(
          await createSeed({ domain, country: 'sg', category: 'news' }),
          400,
          'validation_failed',
        );
        expect(
          body.errors?.map((e) => e.path),
          domain,
        ).toEqual(['body.domain']);
      }
    });

    it('refuses bad fields', async () => {
      expectValidation(await createSeed({ country: 'sg', category: 'news' }), 'body.domain');
      expectValidation(
        await createSeed({ domain: 'a.gov.sg', country: 'sg', category: 'news', schedule: 'often' }),
        'body.schedule',
      );
      expectValidation(
        await createSeed({
          domain: 'a.gov.sg',
          country: 'sg',
          category: 'news',
          entry_url: 'javascript:alert(1)',
        }),
        'body.entry_url',
      );
      expectValidation(
        await createSeed({ domain: 'a.gov.sg', country: 'sg', category: 'news', source_type: 'blog' }),
        'body.source_type',
      );
      expectValidation(
        await createSeed({ domain: 'a.gov.sg', country: 'sg', category: 'news', status: 'live' }),
        'body.status',
      );
    });
  });

  describe('GET /seeds', () => {
    beforeAll(async () => {
      for (const domain of ['mof.gov.my', 'moh.gov.my', 'um.edu.my', 'thestar.com.my']) {
        expectJson(await createSeed({ domain, country: 'my', category: 'news' }), 201);
      }
    });

    it('lists with filters by country, status and source_type, and paginates', async () => {
      const all = expectJson(await get('/api/v1/seeds'), 200);
      expect(all.pagination).toEqual({ limit: 50, offset: 0, total: 7, next: null });
      const my = expectJson(await get('/api/v1/seeds?country=MY'), 200);
      expect(my.pagination.total).toBe(4);
      expect(my.data.every((s: { country: string }) => s.country === 'my')).toBe(true);
      const gov = expectJson(await get('/api/v1/seeds?country=my&source_type=government'), 200);
      expect(gov.data.map((s: { seed_id: string }) => s.seed_id).sort()).toEqual([
        'gov:my:mof.gov.my::news',
        'gov:my:moh.gov.my::news',
      ]);
      const drafts = expectJson(await get('/api/v1/seeds?status=draft'), 200);
      expect(drafts.pagination.total).toBe(7);
      const active = expectJson(await get('/api/v1/seeds?status=active'), 200);
      expect(active).toEqual({ data: [], pagination: { limit: 50, offset: 0, total: 0, next: null } });
      const page1 = expectJson(await get('/api/v1/seeds?limit=2'), 200);
      const page2 = expectJson(await get('/api/v1/seeds?limit=2&offset=2'), 200);
      expect(page1.pagination).toEqual({ limit: 2, offset: 0, total: 7, next: expect.any(String) });
      expect(page2.pagination).toEqual({ limit: 2, offset: 2, total: 7, next: expect.any(String) });
      const ids = [...page1.data, ...page2.data].map((s: { seed_id: string }) => s.seed_id);
      expect(new Set(ids).size).toBe(4);
      expectValidation(await get('/api/v1/seeds?status=retired'), 'querystring.status');
      expectValidation(await get('/api/v1/seeds?source_type=blog'), 'querystring.source_type');
    });
  });

  describe('PATCH /seeds/:seedId', () => {
    const id = 'gov:my:mof.gov.my::news';

    it('a name change keeps the version', async () => {
      const seed = expectJson(await patch(id, { name: 'Ministry of Finance' }), 200);
      expect(seed).toMatchObject({ name: 'Ministry of Finance', version: 1 });
      const source = expectJson(await patch(id, { source_type: 'organization' }), 200);
      expect(source).toMatchObject({ source_type: 'organization', version: 1 });
      expect(expectJson(await patch(id, { source_type: 'government' }), 200).version).toBe(1);
    });

    it('a contract change (entry_url, fetch, schedule, policy) raises the version by one each', async () => {
      let seed = expectJson(await patch(id, { entry_url: 'https://www.mof.gov.my/portal/en/news' }), 200);
      expect(seed).toMatchObject({ version: 2, entry_url: 'https://www.mof.gov.my/portal/en/news' });
      seed = expectJson(
        await patch(id, { fetch: { type: 'sitemap', urls: ['https://www.mof.gov.my/sitemap.xml'] } }),
        200,
      );
      expect(seed.version).toBe(3);
      seed = expectJson(await patch(id, { schedule: '@daily' }), 200);
      expect(seed).toMatchObject({ version: 4, schedule: '@daily' });
      seed = expectJson(await patch(id, { policy: { crawl_delay: 5 } }), 200);
      expect(seed.version).toBe(5);
      expect(seed.policy).toMatchObject({ crawl_delay: 5 });
      // The same values again change nothing.
      seed = expectJson(
        await patch(id, { schedule: '@daily', entry_url: 'https://www.mof.gov.my/portal/en/news' }),
        200,
      );
      expect(seed.version).toBe(5);
      expect(expectJson(await get(`/api/v1/seeds/${id}`), 200).version).toBe(5);
    });

    it('expected_version must match the current version, else 409', async () => {
      const ok = expectJson(await patch(id, { name: 'MoF', expected_version: 5 }), 200);
      expect(ok.version).toBe(5);
      const conflict = expectProblem(await patch(id, { name: 'stale', expected_version: 2 }), 409);
      expect(conflict.code).toBe('version_conflict');
      expect(expectJson(await get(`/api/v1/seeds/${id}`), 200).name).toBe('MoF');
    });

    it('draft → active through PATCH is a 409 use_promote', async () => {
      const body = expectProblem(await patch(id, { status: 'active' }), 409, 'use_promote');
      expect(body.detail).toContain('promote');
      expect(expectJson(await get(`/api/v1/seeds/${id}`), 200).status).toBe('draft');
    });

    it('an unknown seed is a 404; an empty patch is a 400', async () => {
      expectProblem(await patch('gov:sg:nope.gov.sg::news', { name: 'x' }), 404, 'not_found');
      expectValidation(await patch(id, {}), 'body');
      expectValidation(await patch(id, { expected_version: 1 }), 'body');
      expectValidation(await patch(id, { status: 'live' }), 'body.status');
    });
  });

  describe('GET /seeds/:seedId/revisions', () => {
    it("lists a person's seed's revisions with author, time and field diff; an applied one is not settled", async () => {
      const id = 'gov:sg:mti.gov.sg::news';
      expectJson(
        await createSeed({ domain: 'mti.gov.sg', country: 'sg', category: 'news', name: 'MTI' }),
        201,
      );
      const edited = expectJson(await patch(id, { schedule: '0 6 * * *' }), 200);
      expect(edited.human_fields.sort()).toEqual(['name', 'schedule']);
      const list = expectJson(await get(`/api/v1/seeds/${encodeURIComponent(id)}/revisions`), 200);
      expectPage(list, 50, 0, 2);
      expect(list.data[0]).toMatchObject({
        number: 1,
        status: 'applied',
        author: expect.stringContaining('anonymous'),
        changes: { name: { before: null, after: 'MTI' } },
      });
      expect(list.data[1]).toMatchObject({
        number: 2,
        status: 'applied',
        base_version: 1,
        changes: { schedule: { before: null, after: '0 6 * * *' } },
        settled_at: null,
      });
      expect(typeof list.data[1].created_at).toBe('string');
      const accept = await inject(t.app, {
        method: 'POST',
        url: `/api/v1/seeds/${encodeURIComponent(id)}/revisions/2/accept`,
      });
      expectProblem(accept, 409, 'revision_settled');
      expectProblem(await get('/api/v1/seeds/gov:sg:none.gov.sg::news/revisions'), 404);
    });
  });

  describe('status machine and promotion', () => {
    it('promotes by ids, answering per seed: promoted or skipped with the reason', async () => {
      const body = expectJson(await promote({ seedIds: [MOM, 'gov:sg:nope.gov.sg::news', MOM] }), 200);
      expect(body.promoted).toBe(1);
      expect(body.results).toContainEqual(expect.objectContaining({ seed_id: MOM, result: 'promoted' }));
      expect(body.results).toContainEqual(
        expect.objectContaining({
          seed_id: 'gov:sg:nope.gov.sg::news',
          result: 'skipped',
          reason: expect.any(String),
        }),
      );
      const seed = expectJson(await get(`/api/v1/seeds/${MOM}`), 200);
      expect(seed.status).toBe('active');
      expect(seed.promoted_at).toEqual(expect.any(String));
      const again = expectJson(await promote({ seedIds: [MOM] }), 200);
      expect(again).toMatchObject({ promoted: 0, skipped: 1 });
      expect(again.results[0]).toMatchObject({
        seed_id: MOM,
        result: 'skipped',
        reason: expect.stringContaining('active'),
      });
    });

    it('promotes by filter', async () => {
      const body = expectJson(await promote({ filter: { country: 'my', source_type: 'government' } }), 200);
      expect(body.promoted).toBe(2);
      expect(body.results.map((r: { seed_id: string }) => r.seed_id).sort()).toEqual([
        'gov:my:mof.gov.my::news',
        'gov:my:moh.gov.my::news',
      ]);
      const active = expectJson(await get('/api/v1/seeds?status=active&country=my'), 200);
      expect(active.pagination.total).toBe(2);
      const drafts = expectJson(await get('/api/v1/seeds?status=draft&country=my'), 200);
      expect(drafts.pagination.total).toBe(2);
    });

    it('active → suspended → active', async () => {
      expect(expectJson(await patch(MOM, { status: 'suspended' }), 200).status).toBe('suspended');
      expect(expectJson(await get('/api/v1/seeds?status=suspended'), 200).pagination.total).toBe(1);
      const back = expectJson(await patch(MOM, { status: 'active' }), 200);
      expect(back.status).toBe('active');
      expect(back.version).toBe(1);
    });

    it('draft → suspended is illegal', async () => {
      const body = expectProblem(
        await patch('com:my:thestar.com.my::news', { status: 'suspended' }),
        409,
        'illegal_transition',
      );
      expect(body.detail).toContain('draft');
      expect(body.detail).toContain('suspended');
    });

    it('any state → archived; archived → active is a 409 illegal_transition naming both states', async () => {
      expect(expectJson(await patch(MOM, { status: 'archived' }), 200).status).toBe('archived');
      expect(expectJson(await patch('com:my:thestar.com.my::news', { status: 'archived' }), 200).status).toBe(
        'archived',
      );
      const body = expectProblem(await patch(MOM, { status: 'active' }), 409, 'illegal_transition');
      expect(body.detail).toContain('archived');
      expect(body.detail).toContain('active');
      expect(body).toMatchObject({ from: 'archived', to: 'active' });
      expectProblem(await patch(MOM, { status: 'suspended' }), 409, 'illegal_transition');
      expectProblem(await patch(MOM, { status: 'draft' }), 409, 'illegal_transition');
      const promoted = expectJson(await promote({ seedIds: [MOM] }), 200);
      expect(promoted.results[0]).toMatchObject({
        result: 'skipped',
        reason: expect.stringContaining('archived'),
      });
    });

    it('validates the promote body', async () => {
      expectValidation(await promote({}), 'body');
      expectValidation(await promote({ seedIds: [MOM], filter: { country: 'sg' } }), 'body');
      expectValidation(await promote({ seedIds: [] }), 'body.seedIds');
      expectValidation(await promote({ filter: { country: 'zz' } }), 'body.filter.country');
    });
  });

  describe('POST /seeds/orchestrate', () => {
    const P: PartitionRef = { country: 'sg', category: 'orch', date: '2026-03-01' };
    const checkpoint = 'raw/country=sg/category=orch/date=2026-03-01/raw_0001.json.success';
    const orchestrate = (payload: unknown) =>
      inject(t.app, { method: 'POST', url: '/api/v1/seeds/orchestrate', payload: payload as object });

    beforeAll(async () => {
      const records = [
        datasetRecord(1, { domain_id: 'gov:sg:mom.gov.sg', registrable_domain: 'mom.gov.sg' }),
        datasetRecord(2, { domain_id: 'gov:sg:mom.gov.sg', registrable_domain: 'mom.gov.sg' }),
        datasetRecord(3, { domain_id: 'gov:sg:moh.gov.sg', registrable_domain: 'moh.gov.sg' }),
      ];
      expectJson(await postDataset(t.app, dataset(P, records)), 201);
    });

    it('answers 202 {batchId, files_found, messages_sent, skipped}; the worker reads the file and checkpoints it', async () => {
      const response = await orchestrate(P);
      const body = expectJson(response, 202);
      expect(body).toMatchObject({
        batchId: expect.any(String),
        files_found: 1,
        messages_sent: 1,
        skipped: 0,
      });
      expect(response.headers.location).toBe(`/api/v1/queues/batch/${body.batchId}`);
      // The checkpoint follows once every contract the file fanned out is answered, before the batch ends.
      const finished = await t.waitForBatch(body.batchId);
      expect(finished.chunks).toMatchObject({ total: 3, succeeded: 3 });
      expect(await t.hasObject(checkpoint), `${checkpoint} written`).toBe(true);
      const batch = expectJson(await get(`/api/v1/queues/batch/${body.batchId}`), 200);
      expect(batch).toMatchObject({ type: 'seed', country: 'sg', category: 'orch' });
      const items = expectJson(await get(`/api/v1/queues/batch/${body.batchId}/items?status=succeeded`), 200);
      expect(items.data[0]).toMatchObject({ result: { records: 3, domains: 2 } });
      expect(JSON.stringify(items.data[0].input)).toContain(
        'raw/country=sg/category=orch/date=2026-03-01/raw_0001.json',
      );
      const chunks = expectJson(await get('/api/v1/datasets/sg/orch/2026-03-01'), 200);
      expect(chunks.chunks[0].checkpointed_at).toEqual(expect.any(String));
    });

    it('a second orchestration skips the checkpointed file; force sends it again', async () => {
      const second = expectJson(await orchestrate(P), 202);
      expect(second).toMatchObject({ files_found: 1, messages_sent: 0, skipped: 1 });
      const forced = expectJson(await orchestrate({ ...P, force: true }), 202);
      expect(forced).toMatchObject({ files_found: 1, messages_sent: 1, skipped: 0 });
      expect(forced.batchId).not.toBe(second.batchId);
      const handled = await eventually(async () => {
        const items = (await get(`/api/v1/queues/batch/${forced.batchId}/items?status=succeeded`)).json();
        return items.pagination.total === 1;
      });
      expect(handled).toBe(true);
    });

    it('lists only raw_NNNN.json files, and counts them all', async () => {
      expectJson(await postDataset(t.app, dataset(P, [datasetRecord(9)])), 201);
      const body = expectJson(await orchestrate(P), 202);
      expect(body).toMatchObject({ files_found: 2, messages_sent: 1, skipped: 1 });
    });

    it('the same Idempotency-Key answers the same batch, marked Idempotent-Replayed', async () => {
      const headers = { 'idempotency-key': 'orchestrate-once' };
      const first = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds/orchestrate',
        payload: P,
        headers,
      });
      const created = expectJson(first, 202);
      const second = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds/orchestrate',
        payload: P,
        headers,
      });
      expect(expectJson(second, 202).batchId).toBe(created.batchId);
      expect(first.headers['idempotent-replayed']).toBeUndefined();
      expectProblem(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/seeds/orchestrate',
          payload: { ...P, force: true },
          headers,
        }),
        422,
        'idempotency_key_reused',
      );
      // As on the queue routes, a replay says so.
      expect(second.headers['idempotent-replayed']).toBe('true');
    });

    it('an empty partition is a 404; bad fields are a 400', async () => {
      const body = expectProblem(await orchestrate({ ...P, date: '2026-03-02' }), 404, 'not_found');
      expect(body.detail).toContain('2026-03-02');
      expectValidation(await orchestrate({ ...P, force: 'yes' }), 'body.force');
      expectValidation(await orchestrate({ country: 'sg', category: 'orch' }), 'body.date');
    });
  });
});

describe('seed entry page', () => {
  it('is the URL given as the domain, or the homepage of a bare domain', async () => {
    const t = await createTestSeedbed();
    try {
      const fromUrl = await t.app.inject({
        method: 'POST',
        url: '/api/v1/seeds',
        payload: { domain: 'https://www.mom.gov.sg/newsroom#top', country: 'sg', category: 'policy' },
      });
      expect(fromUrl.json()).toMatchObject({
        entry_url: 'https://www.mom.gov.sg/newsroom',
        fetch: { urls: ['https://www.mom.gov.sg/newsroom'] },
      });
      const bare = await t.app.inject({
        method: 'POST',
        url: '/api/v1/seeds',
        payload: { domain: 'Straitstimes.com', country: 'sg', category: 'news' },
      });
      expect(bare.json().entry_url).toBe('https://straitstimes.com/');
    } finally {
      await t.close();
    }
  });
});
