// Query strings are strict (docs/design.md §7): an unknown parameter is a 400 naming it, on every route, and every
// integer parameter is plain decimal digits (one shared schema).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiSeedbed,
  dataset,
  datasetRecord,
  expectJson,
  expectValidation,
  inject,
  type Method,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

const P = { country: 'sg', category: 'news', date: '2026-06-01' };
const SEED = 'gov:sg:mom.gov.sg::news';

/** For each route that takes a body, one that passes validation (the query string is what is tested). */
const BODIES: Record<string, unknown> = {
  '/api/v1/queues/research': { country: 'sg', category: 'news', urls: ['https://a.gov.sg/'] },
  '/api/v1/queues/liveness': { country: 'sg', domains: ['a.gov.sg'] },
  '/api/v1/queues/contract': { country: 'sg', category: 'news', domainIds: ['gov:sg:a.gov.sg'] },
  '/api/v1/datasets': dataset(P, [datasetRecord(1)]),
  '/api/v1/research': { ...P, urls: ['https://a.gov.sg/'] },
  '/api/v1/seeds': { domain: 'mom.gov.sg', country: 'sg', category: 'news' },
  '/api/v1/seeds/:seedId': { name: 'Ministry of Manpower' },
  '/api/v1/seeds/promote': { seedIds: [SEED] },
  '/api/v1/seeds/archive': { seedIds: [SEED] },
  '/api/v1/seeds/orchestrate': P,
  '/api/v1/queues/recheck': {},
  '/api/v1/queues/discovery': { country: 'sg' },
  '/api/v1/candidates/accept': { domains: ['a.gov.sg'] },
  '/api/v1/candidates/reject': { domains: ['a.gov.sg'], reason: 'no' },
};

function concreteUrl(template: string): string {
  return template
    .replace(':country', 'sg')
    .replace(':category', 'news')
    .replace(':date', '2026-06-01')
    .replace(':chunk', '1')
    .replace(':seedId', encodeURIComponent(SEED))
    .replace(':batchId', '01890000-0000-7000-8000-000000000000')
    .replace(':domain', 'mom.gov.sg')
    .replace(':name', 'robots.txt')
    .replace(':n', '1');
}

describe('strict query strings', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed();
  });
  afterAll(() => t.close());

  it('every route refuses an unknown parameter with a 400 naming it', async () => {
    const root = expectJson(await inject(t.app, { method: 'GET', url: '/' }), 200) as {
      endpoints: Array<{ method: Method; path: string }>;
    };
    // The hidden routes (metrics, the OpenAPI document) are strict too.
    const routes = [
      ...root.endpoints,
      { method: 'GET' as Method, path: '/metrics' },
      { method: 'GET' as Method, path: '/openapi.json' },
    ];
    expect(routes.length).toBeGreaterThan(30);
    const offenders: string[] = [];
    for (const { method, path } of routes) {
      const body = method === 'GET' || method === 'DELETE' ? undefined : BODIES[path];
      const response = await inject(t.app, {
        method,
        url: `${concreteUrl(path)}?surprise=1`,
        ...(body !== undefined ? { payload: body as object } : {}),
      });
      const paths =
        response.statusCode === 400
          ? ((response.json().errors ?? []) as Array<{ path: string }>).map((e) => e.path)
          : [];
      if (!paths.includes('querystring.surprise'))
        offenders.push(`${method} ${path} → ${response.statusCode} ${response.body.slice(0, 160)}`);
    }
    expect(offenders).toEqual([]);
  });

  it('?domain=, ?q= and ?sort= on the seed list are refused, each by name, instead of returning every seed', async () => {
    for (const name of ['domain', 'q', 'sort']) {
      const body = expectValidation(
        await inject(t.app, { method: 'GET', url: `/api/v1/seeds?${name}=mom.gov.sg` }),
        `querystring.${name}`,
      );
      expect(body.detail).toContain(name);
    }
    const both = expectValidation(
      await inject(t.app, { method: 'GET', url: '/api/v1/seeds?q=x&sort=name&limit=5' }),
      'querystring.q',
    );
    expect(both.errors?.map((e) => e.path).sort()).toEqual(['querystring.q', 'querystring.sort']);
  });

  it('known parameters still work, and decimal integers with leading zeros are decimal', async () => {
    const page = expectJson(
      await inject(t.app, { method: 'GET', url: '/api/v1/seeds?limit=007&offset=0&country=SG' }),
      200,
    );
    expect(page.pagination).toEqual({ limit: 7, offset: 0, total: 0, next: null });
  });

  it.each([
    ['0x10'],
    ['1e1'],
    ['+5'],
    [''],
    ['%205'],
    ['5%20'],
    ['5.0'],
    ['-0'],
    ['%D9%A3'],
    ['1_0'],
  ])('limit=%s is a 400 naming limit', async (value) => {
    const body = expectValidation(
      await inject(t.app, { method: 'GET', url: `/api/v1/datasets?limit=${value}` }),
      'querystring.limit',
    );
    expect(body.errors?.find((e) => e.path === 'querystring.limit')?.message).toMatch(
      /decimal integer 1\.\.100/,
    );
  });

  it('an unknown field of a body is named too', async () => {
    const response = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds',
      payload: { domain: 'mom.gov.sg', country: 'sg', category: 'news', surprise: 1 },
    });
    const body = expectValidation(response, 'body.surprise');
    expect(body.errors?.[0]?.message).toBe('is not a known field');
  });
});
