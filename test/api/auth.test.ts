// Bearer keys and scopes (docs/design.md §7): 401 without or with a bad key, 403 for a missing scope, public
// health/root/docs, and open mode when no key is configured.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  API_KEYS,
  API_KEYS_ENV,
  bearer,
  createApiSeedbed,
  dataset,
  datasetRecord,
  expectJson,
  expectProblem,
  inject,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

const P = { country: 'sg', category: 'news', date: '2026-06-01' };

describe('auth with keys configured', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed({ SEEDBED_API_KEYS: API_KEYS_ENV });
  });
  afterAll(() => t.close());

  const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, headers = {}, payload?: unknown) =>
    inject(t.app, { method, url, headers, ...(payload !== undefined ? { payload: payload as object } : {}) });

  const protectedRoutes: Array<[method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string]> = [
    ['GET', '/api/v1/datasets'],
    ['GET', '/api/v1/datasets/stats'],
    ['GET', '/api/v1/datasets/sg/news/2026-06-01'],
    ['GET', '/api/v1/datasets/sg/news/2026-06-01/1'],
    ['POST', '/api/v1/datasets'],
    ['DELETE', '/api/v1/datasets/sg/news/2026-06-01/1'],
    ['POST', '/api/v1/queues/research'],
    ['POST', '/api/v1/queues/liveness'],
    ['POST', '/api/v1/queues/contract'],
    ['GET', '/api/v1/queues/batch/x'],
    ['GET', '/api/v1/queues/batch/x/items'],
    ['GET', '/api/v1/queues/batches'],
    ['GET', '/api/v1/domains/mom.gov.sg/liveness'],
    ['GET', '/api/v1/seeds/gov:sg:mom.gov.sg::news/evidence'],
    ['GET', '/api/v1/seeds/gov:sg:mom.gov.sg::news/evidence/robots.txt'],
    ['POST', '/api/v1/queues/trigger/metadata-sync'],
    ['GET', '/api/v1/metadata/snapshot'],
    ['POST', '/api/v1/metadata/sync'],
    ['GET', '/api/v1/metadata/by-country/sg'],
    ['GET', '/api/v1/metadata/tasks'],
    ['GET', '/api/v1/research'],
    ['GET', '/api/v1/research/index'],
    ['GET', '/api/v1/research/sg/news/2026-06-01'],
    ['POST', '/api/v1/research'],
    ['GET', '/api/v1/seeds'],
    ['GET', '/api/v1/seeds/gov:sg:mom.gov.sg::news'],
    ['POST', '/api/v1/seeds'],
    ['PATCH', '/api/v1/seeds/gov:sg:mom.gov.sg::news'],
    ['POST', '/api/v1/seeds/promote'],
    ['POST', '/api/v1/seeds/archive'],
    ['POST', '/api/v1/seeds/orchestrate'],
    ['GET', '/metrics'],
  ];

  it('every API route without a key is a 401 problem with WWW-Authenticate', async () => {
    for (const [method, url] of protectedRoutes) {
      const response = await call(method, url, {}, method === 'GET' || method === 'DELETE' ? undefined : {});
      const body = expectProblem(response, 401);
      expect(body.code, `${method} ${url}`).toBe('unauthorized');
      expect(response.headers['www-authenticate'], `${method} ${url}`).toMatch(/^Bearer\b/);
    }
  });

  it('a bad key, a malformed header or another scheme is a 401', async () => {
    const bad = await call('GET', '/api/v1/datasets', bearer('not-a-real-key-0123456789'));
    expectProblem(bad, 401, 'invalid_key');
    expect(bad.headers['www-authenticate']).toMatch(/invalid_token/);
    expectProblem(await call('GET', '/api/v1/datasets', { authorization: 'Bearer' }), 401);
    expectProblem(await call('GET', '/api/v1/datasets', { authorization: `Basic ${API_KEYS.read}` }), 401);
    expectProblem(
      await call('GET', '/api/v1/datasets', { authorization: `Bearer ${API_KEYS.read} extra` }),
      401,
    );
    expectProblem(
      await call('GET', '/api/v1/datasets', { authorization: `Bearer ${API_KEYS.read.toUpperCase()}` }),
      401,
    );
  });

  it('auth is checked before the body: a bad body without a key is still a 401', async () => {
    const response = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds',
      headers: { 'content-type': 'application/json' },
      payload: '{not json',
    });
    expectProblem(response, 401, 'unauthorized');
  });

  it('a read key reads, and is a 403 insufficient_scope on writes', async () => {
    const read = bearer(API_KEYS.read);
    expectJson(await call('GET', '/api/v1/datasets', read), 200);
    expectJson(await call('GET', '/api/v1/seeds', read), 200);
    expect((await call('GET', '/metrics', read)).statusCode).toBe(200);
    const writes: Array<[method: 'POST' | 'PATCH' | 'DELETE', url: string]> = [
      ['POST', '/api/v1/datasets'],
      ['POST', '/api/v1/queues/research'],
      ['POST', '/api/v1/research'],
      ['POST', '/api/v1/seeds'],
      ['PATCH', '/api/v1/seeds/gov:sg:mom.gov.sg::news'],
      ['POST', '/api/v1/seeds/promote'],
      ['POST', '/api/v1/seeds/archive'],
      ['POST', '/api/v1/seeds/orchestrate'],
      ['DELETE', '/api/v1/datasets/sg/news/2026-06-01/1'],
    ];
    for (const [method, url] of writes) {
      const body = expectProblem(await call(method, url, read, method === 'DELETE' ? undefined : {}), 403);
      expect(body.code, `${method} ${url}`).toBe('insufficient_scope');
    }
  });

  it('a write key writes, and is a 403 on DELETE dataset and metadata sync', async () => {
    const write = bearer(API_KEYS.write);
    const stored = expectJson(
      await call('POST', '/api/v1/datasets', write, dataset(P, [datasetRecord(1)])),
      201,
    );
    expect(stored.chunk).toBe(1);
    expectJson(
      await call('POST', '/api/v1/seeds', write, { domain: 'mom.gov.sg', country: 'sg', category: 'news' }),
      201,
    );
    expectJson(await call('GET', '/api/v1/datasets/sg/news/2026-06-01', write), 200);
    expectProblem(
      await call('DELETE', '/api/v1/datasets/sg/news/2026-06-01/1', write),
      403,
      'insufficient_scope',
    );
    expectProblem(await call('POST', '/api/v1/metadata/sync', write), 403, 'insufficient_scope');
    expectProblem(
      await call('POST', '/api/v1/queues/trigger/metadata-sync', write),
      403,
      'insufficient_scope',
    );
    expect((await call('GET', '/api/v1/datasets/sg/news/2026-06-01/1', write)).statusCode).toBe(200);
  });

  it('an admin key can do everything', async () => {
    const admin = bearer(API_KEYS.admin);
    expectJson(await call('GET', '/api/v1/seeds', admin), 200);
    expectJson(await call('POST', '/api/v1/datasets', admin, dataset(P, [datasetRecord(2)])), 201);
    const deleted = await call('DELETE', '/api/v1/datasets/sg/news/2026-06-01/1', admin);
    expect(deleted.statusCode).toBe(204);
    expectProblem(await call('POST', '/api/v1/metadata/sync', admin), 409, 'sync_target_not_configured');
    // The scheme is case-insensitive (RFC 9110).
    expectJson(await call('GET', '/api/v1/seeds', { authorization: `bearer ${API_KEYS.admin}` }), 200);
  });

  it('health, root, docs and the OpenAPI document are public', async () => {
    for (const url of ['/health', '/health/ready', '/health/live', '/', '/openapi.json']) {
      const response = await call('GET', url);
      expect(response.statusCode, url).toBe(200);
    }
    const docs = await call('GET', '/docs');
    expect(docs.statusCode).toBe(200);
    expect(docs.headers['content-type']).toMatch(/^text\/html/);
    // A bad key on a public route does not matter.
    expect((await call('GET', '/health', bearer('nonsense-key-0123456789'))).statusCode).toBe(200);
  });

  it('the OpenAPI document declares bearer security', async () => {
    const doc = (await call('GET', '/openapi.json')).json();
    expect(doc.components.securitySchemes.bearer).toMatchObject({ type: 'http', scheme: 'bearer' });
  });
});

describe('open mode (no keys configured)', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed();
  });
  afterAll(() => t.close());

  it('lets every request through without a key', async () => {
    expectJson(await inject(t.app, { method: 'GET', url: '/api/v1/seeds' }), 200);
    const stored = expectJson(
      await inject(t.app, {
        method: 'POST',
        url: '/api/v1/datasets',
        payload: dataset(P, [datasetRecord(1)]),
      }),
      201,
    );
    const deleted = await inject(t.app, {
      method: 'DELETE',
      url: `/api/v1/datasets/sg/news/2026-06-01/${stored.chunk}`,
    });
    expect(deleted.statusCode).toBe(204);
    expectProblem(
      await inject(t.app, { method: 'POST', url: '/api/v1/metadata/sync' }),
      409,
      'sync_target_not_configured',
    );
    expect((await inject(t.app, { method: 'GET', url: '/metrics' })).statusCode).toBe(200);
  });

  it('ignores an Authorization header it cannot check', async () => {
    expectJson(
      await inject(t.app, { method: 'GET', url: '/api/v1/seeds', headers: bearer('whatever-0123456789') }),
      200,
    );
  });
});

describe('open mode ends the moment a key exists', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed();
  });
  afterAll(() => t.close());

  it('a key stored while the service runs is enforced on the next request, and open mode stays over', async () => {
    expectJson(await inject(t.app, { method: 'GET', url: '/api/v1/seeds' }), 200);
    const created = await t.seedbed.services.apiKeys.create('late', 'read');

    expectProblem(await inject(t.app, { method: 'GET', url: '/api/v1/seeds' }), 401, 'unauthorized');
    expectProblem(
      await inject(t.app, {
        method: 'GET',
        url: '/api/v1/seeds',
        headers: { authorization: 'Bearer <key>' },
      }),
      401,
      'invalid_key',
    );
    expectJson(
      await inject(t.app, { method: 'GET', url: '/api/v1/seeds', headers: bearer(created.key) }),
      200,
    );
    expectProblem(
      await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        headers: bearer(created.key),
        payload: {},
      }),
      403,
      'insufficient_scope',
    );

    // Revoking the last key does not reopen the service: it fails closed until a restart.
    await t.seedbed.services.apiKeys.revoke('late');
    expectProblem(await inject(t.app, { method: 'GET', url: '/api/v1/seeds' }), 401, 'unauthorized');
    expect((await inject(t.app, { method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('a valid key sent while the service still believes it is open is checked, scopes and all', async () => {
    const fresh = await createApiSeedbed();
    try {
      const created = await fresh.seedbed.services.apiKeys.create('reader', 'read');
      expectProblem(
        await inject(fresh.app, {
          method: 'DELETE',
          url: '/api/v1/datasets/sg/news/2026-06-01/1',
          headers: bearer(created.key),
        }),
        403,
        'insufficient_scope',
      );
      expectProblem(await inject(fresh.app, { method: 'GET', url: '/api/v1/seeds' }), 401, 'unauthorized');
    } finally {
      await fresh.close();
    }
  });
});
