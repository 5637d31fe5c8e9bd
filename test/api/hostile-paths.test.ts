// The hostile battery, paths and parameters: traversal attempts and hostile segments in every path parameter,
// out-of-range paging parameters, unknown routes and wrong methods must get a 4xx application/problem+json and
// never a 5xx, and nothing may land outside raw/ in the object store. Also: the rate limit answers a problem.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  dataset,
  datasetRecord,
  expectClientProblem,
  expectJson,
  expectProblem,
  expectValidation,
  HOSTILE_SEED,
  inject,
  type Method,
  type Offender,
  offence,
  useHostileSeedbed,
} from '../support/api-helpers.js';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';

const LIST_ROUTES = [
  '/api/v1/datasets',
  '/api/v1/research',
  '/api/v1/research/sg/news/2026-01-01',
  '/api/v1/seeds',
  '/api/v1/metadata/tasks',
  '/api/v1/queues/batch/01890000-0000-7000-8000-000000000000/items',
];

/** Raw `.` and `..` are left out: they are dot segments the URL resolves before routing, not input. */
const HOSTILE_SEGMENTS = [
  '..%2F..%2Fetc',
  '%2e%2e',
  '%2e%2e%2f%2e%2e',
  'a%2Fb',
  'sg%00',
  '%00',
  '2026-11-21%2F..',
  '..%2F..%2Fpasswd',
  'raw_0001.json%00',
  '%20',
  '%F0%9F%8C%B1',
  `${encodeURIComponent("' OR 1=1 --")}`,
  'x'.repeat(450),
  '%C0%AE%C0%AE',
  '%ZZ',
  '\\..\\..\\windows',
];

describe('hostile input', () => {
  const t = useHostileSeedbed();
  const { send } = t;

  describe('numbers, sizes and limits', () => {
    it('limit 0/101/-1/abc/1.5/1e3 and offset -1/abc on every list are a 400 naming the parameter', async () => {
      const offenders: string[] = [];
      for (const url of LIST_ROUTES) {
        const cases: Array<[string, string]> = [
          ['limit=0', 'querystring.limit'],
          ['limit=101', 'querystring.limit'],
          ['limit=-1', 'querystring.limit'],
          ['limit=abc', 'querystring.limit'],
          ['limit=1.5', 'querystring.limit'],
          ['limit=1e3', 'querystring.limit'],
          ['limit=1&limit=2', 'querystring.limit'],
          ['offset=-1', 'querystring.offset'],
          ['offset=abc', 'querystring.offset'],
          ['offset=1e400', 'querystring.offset'],
          // Number() would take these; a query integer is plain decimal digits.
          ['limit=0x10', 'querystring.limit'],
          ['limit=1e1', 'querystring.limit'],
          ['limit=+5', 'querystring.limit'],
          ['limit=', 'querystring.limit'],
          ['limit=%205', 'querystring.limit'],
          ['offset=', 'querystring.offset'],
          ['offset=0b1', 'querystring.offset'],
          ['offset=%D9%A3', 'querystring.offset'],
        ];
        for (const [query, path] of cases) {
          const response = await send('GET', `${url}?${query}`);
          const body = response.statusCode === 400 ? response.json() : null;
          const paths = (body?.errors ?? []).map((e: { path: string }) => e.path);
          if (!paths.includes(path))
            offenders.push(`${url}?${query} → ${response.statusCode} ${paths.join(',')}`);
          else expectValidation(response, path);
        }
        // The edges are fine.
        expect((await send('GET', `${url}?limit=1&offset=0`)).statusCode, url).toBeLessThan(500);
      }
      expect(offenders).toEqual([]);
    });
  });

  describe('path traversal and hostile path segments', () => {
    const templates: Array<[Method, string]> = [
      ['GET', '/api/v1/datasets/{country}/{category}/{date}/{chunk}'],
      ['DELETE', '/api/v1/datasets/{country}/{category}/{date}/{chunk}'],
      ['GET', '/api/v1/datasets/{country}/{category}/{date}'],
      ['GET', '/api/v1/research/{country}/{category}/{date}'],
      ['GET', '/api/v1/metadata/by-country/{country}'],
      ['GET', '/api/v1/seeds/{seedId}'],
      ['PATCH', '/api/v1/seeds/{seedId}'],
      ['GET', '/api/v1/queues/batch/{batchId}'],
      ['GET', '/api/v1/queues/batch/{batchId}/items'],
      ['GET', '/api/v1/domains/{domain}/liveness'],
      ['GET', '/api/v1/seeds/{seedId}/evidence'],
      ['GET', '/api/v1/seeds/{seedId}/evidence/{name}'],
    ];
    const good: Record<string, string> = {
      country: 'sg',
      category: 'news',
      date: '2026-01-01',
      chunk: '1',
      seedId: HOSTILE_SEED,
      batchId: '01890000-0000-7000-8000-000000000000',
      domain: 'mom.gov.sg',
      name: 'robots.txt',
    };

    it('every hostile segment in every parameter is a 4xx problem (never a file outside the store)', async () => {
      // A real chunk sits in the partition, so a traversal that slipped through would find something.
      expectJson(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/datasets',
          payload: dataset({ country: 'sg', category: 'news', date: '2026-01-01' }, [datasetRecord(1)]),
        }),
        201,
      );
      const offenders: Offender[] = [];
      for (const [method, template] of templates) {
        const params = [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1] as string);
        for (const param of params) {
          for (const segment of HOSTILE_SEGMENTS) {
            let url = template;
            for (const p of params) url = url.replace(`{${p}}`, p === param ? segment : (good[p] as string));
            const response = await inject(t.app, {
              method,
              url,
              ...(method === 'PATCH' ? { payload: { name: 'x' } } : {}),
            });
            // `%2e%2e` as the last segment is a dot segment: the URL itself names the parent resource (WHATWG URL
            // resolution, done by inject before routing), here the seed, which may well be read.
            const parent = segment === '%2e%2e' && template.endsWith(`{${param}}`);
            const bad = offence(`${method} ${url.slice(0, 120)}`, response, parent && method === 'GET');
            if (bad) offenders.push(bad);
          }
        }
      }
      expect(offenders).toEqual([]);
      // The stored chunk is still there: no hostile DELETE reached it.
      expect((await send('GET', '/api/v1/datasets/sg/news/2026-01-01/1')).statusCode).toBe(200);
    });

    it('the named traversal attempts are refused as validation failures of the right parameter', async () => {
      const cases: Array<[string, string]> = [
        ['/api/v1/datasets/..%2F..%2Fetc/news/2026-01-01/1', 'params.country'],
        ['/api/v1/datasets/sg/a%2Fb/2026-01-01/1', 'params.category'],
        ['/api/v1/datasets/sg/news/2026-11-21%2F../1', 'params.date'],
        ['/api/v1/datasets/sg/news/2026-01-01/..%2F..%2Fpasswd', 'params.chunk'],
        ['/api/v1/datasets/sg/news/2026-01-01/raw_0001.json%00', 'params.chunk'],
        ['/api/v1/datasets/sg%00/news/2026-01-01/1', 'params.country'],
        ['/api/v1/metadata/by-country/sg%00', 'params.country'],
        ['/api/v1/research/sg/news/2026-11-21%2F..', 'params.date'],
      ];
      for (const [url, path] of cases) {
        expectValidation(await send('GET', url), path);
        if (url.split('/').length === 8) expectValidation(await send('DELETE', url), path);
      }
      // `%2e%2e` may be resolved as a dot segment before routing; either way it is a 4xx problem.
      expectClientProblem(await send('GET', '/api/v1/datasets/%2e%2e/news/2026-01-01/1'));
    });

    it('hostile partitions in bodies are a 400 naming the field', async () => {
      const hostile = { country: '../..', category: 'a/b', date: '2026-11-21/..' };
      const response = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds/orchestrate',
        payload: hostile,
      });
      const body = expectValidation(response, 'body.country');
      const paths = (body.errors ?? []).map((e) => e.path);
      expect(paths).toEqual(expect.arrayContaining(['body.category', 'body.date']));
      expectValidation(
        await inject(t.app, { method: 'POST', url: '/api/v1/datasets', payload: dataset(hostile, []) }),
        'body.meta.country',
      );
      expectValidation(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/research',
          payload: { ...hostile, urls: ['https://a.gov.sg/'] },
        }),
        'body.country',
      );
      expectValidation(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/datasets',
          payload: dataset({ country: 'sg', category: 'news', date: '2026-01-01' }, [], { chunk: '../../x' }),
        }),
        'body.meta.chunk',
      );
    });

    it('nothing was written outside raw/ in the object store', async () => {
      const keys = await t.objectKeys();
      expect(new Set(keys.map((key) => key.split('/')[0]))).toEqual(new Set(['raw']));
      for (const key of keys) expect(key.split('/')[1]).toMatch(/^country=([a-z]{2}|intl)$/);
    });

    it('a seed id longer than the router allows is a 4xx problem', async () => {
      for (const length of [401, 600, 5000]) {
        const response = await send('GET', `/api/v1/seeds/${'a'.repeat(length)}`);
        expectClientProblem(response);
      }
      const longBatch = await send('GET', `/api/v1/queues/batch/${'b'.repeat(101)}`);
      expectValidation(longBatch, 'params.batchId');
    });
  });

  describe('unknown routes and wrong methods', () => {
    it('unknown routes are a 404 problem', async () => {
      for (const url of [
        '/api/v2/seeds',
        '/api/v1/nope',
        '/api/v1/seeds/a/b/c',
        '/.env',
        '/api/v1/datasets/sg/news/2026-01-01/1/x',
      ]) {
        const body = expectProblem(await send('GET', url), 404, 'not_found');
        expect(body.detail).not.toMatch(/\bat .+\.(ts|js)/);
      }
    });

    it('a wrong method is a 404 or 405 problem', async () => {
      const cases: Array<[string, string]> = [
        ['PUT', '/api/v1/seeds'],
        ['DELETE', '/api/v1/seeds'],
        ['POST', '/health'],
        ['DELETE', '/api/v1/datasets'],
        ['PATCH', '/api/v1/datasets/sg/news/2026-01-01/1'],
        ['PUT', '/api/v1/queues/research'],
        ['GET', '/api/v1/queues/research'],
        ['GET', '/api/v1/metadata/sync'],
        ['OPTIONS', '/api/v1/seeds'],
      ];
      for (const [method, url] of cases) {
        const response = await inject(t.app, { method: method as Method, url });
        expect([404, 405], `${method} ${url}`).toContain(response.statusCode);
        expectProblem(response, response.statusCode);
      }
    });
  });

  it('the service still answers /health and /health/ready after the battery', async () => {
    expectJson(await send('GET', '/health'), 200);
    expect(expectJson(await send('GET', '/health/ready'), 200).status).toBe('ready');
  });
});

describe('rate limit', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createTestSeedbed({ SEEDBED_RATE_LIMIT: '2' });
  });
  afterAll(() => t.close());

  it('past the limit is a 429 problem with Retry-After; health stays public and unlimited', async () => {
    expect((await inject(t.app, { method: 'GET', url: '/api/v1/seeds' })).statusCode).toBe(200);
    expect((await inject(t.app, { method: 'GET', url: '/api/v1/seeds' })).statusCode).toBe(200);
    const limited = await inject(t.app, { method: 'GET', url: '/api/v1/seeds' });
    expectProblem(limited, 429, 'rate_limited');
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 5; i++)
      expect((await inject(t.app, { method: 'GET', url: '/health' })).statusCode).toBe(200);
  });
});
