// The hostile battery: malformed and hostile input on every route must get a 4xx application/problem+json
// (type, title, status, detail, code; errors[] with a path for validation failures) and never a 5xx, and the
// service must keep answering /health. Loops collect every offender, so one failure lists them all.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { QUEUE_BODY_LIMIT } from '../../src/http/routes/queues.js';
import {
  createApiSeedbed,
  dataset,
  datasetRecord,
  expectClientProblem,
  expectJson,
  expectProblem,
  expectValidation,
  inject,
  type Response,
} from '../support/api-helpers.js';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

const MAX_DATASET_BYTES = 2 * 1024 * 1024;
const DEFAULT_BODY_LIMIT = 1024 * 1024;
const SEED = 'gov:sg:mom.gov.sg::news';
const SEED_URL = `/api/v1/seeds/${encodeURIComponent(SEED)}`;

interface BodyRoute {
  label?: string;
  method: Method;
  url: string;
  valid: Record<string, unknown>;
  /** Unknown top-level fields are refused (everything but the dataset, whose unknown fields are kept). */
  strict: boolean;
  limit: number;
}

const BODY_ROUTES: BodyRoute[] = [
  {
    method: 'POST',
    url: '/api/v1/queues/research',
    valid: { country: 'sg', category: 'news', urls: ['https://www.mom.gov.sg/'], chunkSize: 10 },
    strict: true,
    limit: QUEUE_BODY_LIMIT,
  },
  {
    method: 'POST',
    url: '/api/v1/queues/liveness',
    valid: { country: 'sg', domains: ['mom.gov.sg'], chunkSize: 10 },
    strict: true,
    limit: QUEUE_BODY_LIMIT,
  },
  {
    method: 'POST',
    url: '/api/v1/queues/contract',
    valid: { country: 'sg', category: 'news', domainIds: ['gov:sg:mom.gov.sg'], chunkSize: 10 },
    strict: true,
    limit: QUEUE_BODY_LIMIT,
  },
  {
    method: 'POST',
    url: '/api/v1/datasets',
    valid: {
      meta: { country: 'sg', category: 'hostile', date: '2026-01-01' },
      records: [{ raw_url: 'https://www.mom.gov.sg/' }],
    },
    strict: false,
    limit: MAX_DATASET_BYTES,
  },
  {
    method: 'POST',
    url: '/api/v1/research',
    valid: { country: 'sg', category: 'hostile', date: '2026-01-01', urls: ['https://www.mom.gov.sg/'] },
    strict: true,
    limit: QUEUE_BODY_LIMIT * 2,
  },
  {
    method: 'POST',
    url: '/api/v1/seeds',
    valid: { domain: 'hostile.gov.sg', country: 'sg', category: 'news' },
    strict: true,
    limit: DEFAULT_BODY_LIMIT,
  },
  {
    method: 'PATCH',
    url: SEED_URL,
    valid: { name: 'x', schedule: '@daily', expected_version: 1 },
    strict: true,
    limit: DEFAULT_BODY_LIMIT,
  },
  {
    method: 'POST',
    url: '/api/v1/seeds/promote',
    valid: { seedIds: [SEED] },
    strict: true,
    limit: DEFAULT_BODY_LIMIT,
  },
  {
    label: 'by filter',
    method: 'POST',
    url: '/api/v1/seeds/promote',
    valid: { filter: { country: 'sg', robots_allowed: true }, limit: 10 },
    strict: true,
    limit: DEFAULT_BODY_LIMIT,
  },
  {
    method: 'POST',
    url: '/api/v1/seeds/orchestrate',
    valid: { country: 'sg', category: 'news', date: '2026-01-01' },
    strict: true,
    limit: DEFAULT_BODY_LIMIT,
  },
];

const NO_BODY_POSTS = ['/api/v1/metadata/sync', '/api/v1/queues/trigger/metadata-sync'];

const LIST_ROUTES = [
  '/api/v1/datasets',
  '/api/v1/research',
  '/api/v1/research/sg/news/2026-01-01',
  '/api/v1/seeds',
  '/api/v1/metadata/tasks',
  '/api/v1/queues/batch/01890000-0000-7000-8000-000000000000/items',
];

/** Values no field of ours accepts in this form (strings are refused where a number, array or object is due). */
const HOSTILE_VALUES: unknown[] = [
  null,
  true,
  1e308,
  -1,
  0,
  '',
  'x'.repeat(5000),
  [],
  {},
  ['x'],
  { a: 1 },
  '\u0000',
  '🌱🌱🌱',
  "' OR 1=1 --",
  '../../../../etc/passwd',
  '%2e%2e%2f',
  { __proto__: null, constructor: { prototype: { polluted: true } } },
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

interface Offender {
  request: string;
  status: number;
  body: string;
}

/** A 4xx problem+json with the required fields (or a 2xx); never a 5xx. */
function offence(label: string, response: Response, allowSuccess = false): Offender | null {
  const status = response.statusCode;
  const contentType = String(response.headers['content-type'] ?? '');
  const record = { request: label, status, body: response.body.slice(0, 200) };
  if (status >= 200 && status < 300) return allowSuccess ? null : record;
  if (status < 400 || status >= 500) return record;
  if (!contentType.startsWith('application/problem+json'))
    return { ...record, body: `content-type ${contentType}` };
  const body = response.json() as Record<string, unknown>;
  for (const field of ['type', 'title', 'detail', 'code']) if (typeof body[field] !== 'string') return record;
  if (body.status !== status) return record;
  if (body.code === 'validation_failed') {
    const errors = body.errors as Array<{ path?: unknown }> | undefined;
    if (!Array.isArray(errors) || errors.length === 0 || errors.some((e) => typeof e.path !== 'string'))
      return record;
  }
  return null;
}

describe('hostile input', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed({ SEEDBED_MAX_DATASET_BYTES: String(MAX_DATASET_BYTES) });
    expectJson(
      await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        payload: { domain: 'mom.gov.sg', country: 'sg', category: 'news' },
      }),
      201,
    );
  });
  afterAll(async () => {
    // Whatever happened, nothing was polluted and the service still answers.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect((await inject(t.app, { method: 'GET', url: '/health' })).statusCode).toBe(200);
    await t.close();
  });

  const send = (method: Method, url: string, payload?: string | Buffer | Readable, contentType?: string) =>
    inject(t.app, {
      method,
      url,
      ...(payload !== undefined ? { payload } : {}),
      headers: contentType ? { 'content-type': contentType } : {},
    });

  describe('malformed bodies on every body route', () => {
    for (const route of BODY_ROUTES) {
      const name = `${route.method} ${route.url}${route.label ? ` (${route.label})` : ''}`;

      it(`${name}: invalid JSON is a 400 invalid_json`, async () => {
        for (const text of [
          '{"country":',
          '{country: "sg"}',
          "{'a':1}",
          '[1,2',
          'undefined',
          '{"a":1}}',
          '\u0000',
        ]) {
          expectProblem(await send(route.method, route.url, text, 'application/json'), 400, 'invalid_json');
        }
      });

      it(`${name}: an empty JSON body is a 400`, async () => {
        expectProblem(await send(route.method, route.url, '', 'application/json'), 400);
      });

      it(`${name}: a text/plain body is a 415`, async () => {
        expectProblem(await send(route.method, route.url, JSON.stringify(route.valid), 'text/plain'), 415);
      });

      it(`${name}: form, multipart and XML bodies are a 415`, async () => {
        expectProblem(
          await send(
            route.method,
            route.url,
            'country=sg&category=news',
            'application/x-www-form-urlencoded',
          ),
          415,
        );
        expectProblem(await send(route.method, route.url, '--x--', 'multipart/form-data; boundary=x'), 415);
        expectProblem(await send(route.method, route.url, '<a/>', 'application/xml'), 415);
      });

      it(`${name}: arrays, null, strings and numbers where an object is due are a 400 at body`, async () => {
        for (const text of ['[]', `[${JSON.stringify(route.valid)}]`, 'null', '"text"', '42', 'true']) {
          expectValidation(await send(route.method, route.url, text, 'application/json'), 'body');
        }
      });

      it(`${name}: prototype pollution is refused`, async () => {
        const valid = JSON.stringify(route.valid).slice(1, -1);
        const attempts = [
          `{"__proto__":{"polluted":true},${valid}}`,
          `{${valid},"constructor":{"prototype":{"polluted":true}}}`,
          `{${valid},"nested":{"__proto__":{"polluted":true}}}`,
        ];
        for (const text of attempts) {
          const response = await send(route.method, route.url, text, 'application/json');
          expectProblem(response, 400);
        }
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
      });

      it(`${name}: a body just over the route's limit is a 413`, async () => {
        const body = Buffer.alloc(route.limit + 1, 0x20);
        expectProblem(await send(route.method, route.url, body, 'application/json'), 413, 'body_too_large');
      });

      it(`${name}: every field set to hostile values is a 4xx problem, never a 5xx`, async () => {
        const offenders: Offender[] = [];
        for (const field of Object.keys(route.valid)) {
          for (const value of HOSTILE_VALUES) {
            const payload = JSON.stringify({ ...route.valid, [field]: value });
            const response = await send(route.method, route.url, payload, 'application/json');
            const bad = offence(`${field}=${JSON.stringify(value).slice(0, 40)}`, response, true);
            if (bad) offenders.push(bad);
          }
        }
        expect(offenders).toEqual([]);
      });

      if (route.strict) {
        it(`${name}: an unknown field is a 400 naming it`, async () => {
          const response = await send(
            route.method,
            route.url,
            JSON.stringify({ ...route.valid, surprise_field: 1 }),
            'application/json',
          );
          const body = expectValidation(response, 'body');
          expect(JSON.stringify(body.errors)).toContain('surprise_field');
        });
      }
    }

    it('a body streamed without Content-Length over 1 MiB is a 413', async () => {
      const chunks = Array.from({ length: 20 }, () => Buffer.alloc(64 * 1024, 0x20));
      const response = await send('POST', '/api/v1/seeds', Readable.from(chunks), 'application/json');
      expectProblem(response, 413, 'body_too_large');
    });

    for (const url of NO_BODY_POSTS) {
      it(`POST ${url}: malformed bodies are 4xx problems`, async () => {
        expectProblem(await send('POST', url, '{"a":', 'application/json'), 400, 'invalid_json');
        expectProblem(await send('POST', url, '', 'application/json'), 400);
        expectProblem(await send('POST', url, 'a=1', 'application/x-www-form-urlencoded'), 415);
        expectProblem(
          await send('POST', url, Buffer.alloc(DEFAULT_BODY_LIMIT + 1, 0x20), 'application/json'),
          413,
        );
        expectProblem(await send('POST', url, '{"__proto__":{"polluted":true}}', 'application/json'), 400);
        expectClientProblem(await send('POST', url, 'hello', 'text/plain'));
      });
    }
  });

  describe('numbers, sizes and limits', () => {
    const queueRoutes = BODY_ROUTES.filter((r) => r.url.startsWith('/api/v1/queues/'));

    it('chunkSize: zero, negative, fractional, 1001, huge, Infinity and strings are a 400 at body.chunkSize', async () => {
      for (const route of queueRoutes) {
        for (const value of [
          '0',
          '-1',
          '1.5',
          '1001',
          '1e308',
          '1e400',
          '9007199254740993',
          '"10"',
          'null',
          '[]',
        ]) {
          const text = JSON.stringify(route.valid).replace(/"chunkSize":10/, `"chunkSize":${value}`);
          expectValidation(await send('POST', route.url, text, 'application/json'), 'body.chunkSize');
        }
      }
    });

    it('10,001 urls, 10,001 domains and 1,001 domain ids are a 400 naming the field', async () => {
      const many = (n: number) => Array.from({ length: n }, (_, i) => `https://h${i}.gov.sg/`);
      const cases: Array<[string, Record<string, unknown>, string]> = [
        ['/api/v1/queues/research', { country: 'sg', category: 'news', urls: many(10_001) }, 'body.urls'],
        ['/api/v1/queues/liveness', { country: 'sg', domains: many(10_001) }, 'body.domains'],
        [
          '/api/v1/queues/contract',
          { country: 'sg', category: 'news', domainIds: many(1001) },
          'body.domainIds',
        ],
        ['/api/v1/research', { country: 'sg', category: 'news', urls: many(10_001) }, 'body.urls'],
      ];
      for (const [url, payload, path] of cases) {
        expectValidation(await inject(t.app, { method: 'POST', url, payload }), path);
      }
    });

    it('items longer than 4096 characters and non-string items are a 400 naming the item', async () => {
      const long = `https://a.gov.sg/${'x'.repeat(4100)}`;
      expectValidation(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/queues/research',
          payload: { country: 'sg', category: 'news', urls: ['https://a.gov.sg/', long] },
        }),
        'body.urls.1',
      );
      expectValidation(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/queues/liveness',
          payload: { country: 'sg', domains: ['a.sg', 42, null] },
        }),
        'body.domains.1',
      );
    });

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

    it('deeply nested JSON is a 4xx, not a crash', async () => {
      const deep = (n: number) => `${'['.repeat(n)}${']'.repeat(n)}`;
      const offenders: Offender[] = [];
      const cases: Array<[string, string]> = [
        [
          '/api/v1/datasets',
          `{"meta":{"country":"sg","category":"deep","date":"2026-01-01"},"records":[],"x":${deep(10_000)}}`,
        ],
        [
          '/api/v1/datasets',
          `{"meta":{"country":"sg","category":"deep","date":"2026-01-02","x":${deep(10_000)}},"records":[]}`,
        ],
        [
          '/api/v1/datasets',
          `{"meta":{"country":"sg","category":"deep","date":"2026-01-03"},"records":[{"raw_url":"https://a.gov.sg/","x":${deep(10_000)}}]}`,
        ],
        [
          '/api/v1/research',
          `{"country":"sg","category":"deep","records":[{"raw_url":"https://a.gov.sg/","x":${deep(10_000)}}]}`,
        ],
        ['/api/v1/queues/research', `{"country":"sg","category":"deep","urls":${deep(10_000)}}`],
        ['/api/v1/seeds', `{"domain":"a.gov.sg","country":"sg","category":"deep","policy":${deep(10_000)}}`],
      ];
      for (const [url, text] of cases) {
        const bad = offence(
          `POST ${url} ${text.slice(0, 80)}`,
          await send('POST', url, text, 'application/json'),
        );
        if (bad) offenders.push(bad);
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
    ];
    const good: Record<string, string> = {
      country: 'sg',
      category: 'news',
      date: '2026-01-01',
      chunk: '1',
      seedId: SEED,
      batchId: '01890000-0000-7000-8000-000000000000',
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
            const bad = offence(`${method} ${url.slice(0, 120)}`, response);
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

    it('nothing was written outside raw/ in the object store', () => {
      const top = readdirSync(join(t.dir, 'objects')).filter((name) => !name.startsWith('.'));
      expect(top).toEqual(['raw']);
      const countries = readdirSync(join(t.dir, 'objects', 'raw'));
      for (const name of countries) expect(name).toMatch(/^country=([a-z]{2}|intl)$/);
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

  describe('strings: unicode, emoji, NUL, SQL', () => {
    it('emoji, NUL and RTL text in a seed name round-trip or are refused, never a 5xx', async () => {
      for (const [i, name] of ['🌱 Seedbed ✓', 'a\u0000b', '\u202Eevil', 'ﾃｽﾄ', '\u0007bell'].entries()) {
        const response = await inject(t.app, {
          method: 'POST',
          url: '/api/v1/seeds',
          payload: { domain: `n${i}.gov.sg`, country: 'sg', category: 'news', name },
        });
        if (response.statusCode === 201) {
          const seed = response.json();
          const read = expectJson(
            await send('GET', `/api/v1/seeds/${encodeURIComponent(seed.seed_id)}`),
            200,
          );
          expect(read.name).toBe(seed.name);
        } else {
          expectClientProblem(response);
        }
      }
    });

    it('a lone surrogate in a seed name is refused, or stored exactly as the 201 answered', async () => {
      const response = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        headers: { 'content-type': 'application/json' },
        payload: '{"domain":"surrogate.gov.sg","country":"sg","category":"news","name":"a\\ud800b"}',
      });
      if (response.statusCode === 201) {
        const created = response.json();
        const read = expectJson(
          await send('GET', `/api/v1/seeds/${encodeURIComponent(created.seed_id)}`),
          200,
        );
        expect(read.name).toBe(created.name);
      } else {
        expectValidation(response, 'body.name');
      }
    });

    it('non-ASCII identifiers are refused: fullwidth country, accented category, emoji date', async () => {
      expectValidation(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/seeds',
          payload: { domain: 'a.gov.sg', country: 'ＳＧ', category: 'news' },
        }),
        'body.country',
      );
      expectValidation(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/research',
          payload: { country: 'sg', category: 'nëws', urls: ['https://a.gov.sg/'] },
        }),
        'body.category',
      );
      expectValidation(await send('GET', '/api/v1/research?date=%F0%9F%8C%B1'), 'querystring.date');
    });

    it('NUL, control characters and emoji in URLs are per-item failures, not request failures', async () => {
      const response = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/research',
        payload: {
          country: 'sg',
          category: 'unicode',
          date: '2026-01-01',
          urls: [
            'https://a.gov.sg/\u0000',
            'https://a.gov.sg/\u0007x',
            'https://🌱.gov.sg/',
            'https://b.gov.sg/ü',
          ],
        },
      });
      const body = expectJson(response, 201);
      expect(body.ingest.accepted + body.ingest.invalid + body.ingest.duplicates).toBe(4);
      expect(body.ingest.invalid).toBeGreaterThanOrEqual(2);
    });

    it('a lone surrogate anywhere in a body is a 400 naming the field (it could not be stored as sent)', async () => {
      const response = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/datasets',
        payload: dataset({ country: 'sg', category: 'unicode', date: '2026-01-03' }, [
          datasetRecord(1, { broken: 'a\uD800b' }),
        ]),
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors[0].path).toBe('body.records.0.broken');
    });

    it('unknown dataset fields with NUL, emoji and RTL marks are kept', async () => {
      const extra = { nul: 'a\u0000b', emoji: '🌱', rtl: '\u202E' };
      const stored = expectJson(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/datasets',
          payload: dataset(
            { country: 'sg', category: 'unicode', date: '2026-01-02' },
            [datasetRecord(1, extra)],
            { x: extra },
            extra,
          ),
        }),
        201,
      );
      const read = (await send('GET', `/api/v1/datasets/sg/unicode/2026-01-02/${stored.chunk}`)).json();
      expect(read.nul).toBe(extra.nul);
      expect(read.emoji).toBe(extra.emoji);
      expect(read.records[0].rtl).toBe(extra.rtl);
      expect(read.records[0].nul).toBe(extra.nul);
      expect(read.meta.x).toEqual(extra);
    });

    it('SQL-ish strings in every filter are refused or match nothing, never a 5xx', async () => {
      const sqls = [
        "' OR 1=1 --",
        '"; DROP TABLE seeds; --',
        "sg' UNION SELECT * FROM api_keys --",
        '%',
        '_',
        '*',
      ];
      const filters: Array<[string, string[]]> = [
        ['/api/v1/datasets', ['country', 'category']],
        ['/api/v1/research', ['country', 'category', 'date']],
        ['/api/v1/seeds', ['country', 'status', 'source_type', 'category']],
        ['/api/v1/metadata/tasks', ['status']],
        ['/api/v1/queues/batch/01890000-0000-7000-8000-000000000000/items', ['status']],
      ];
      const offenders: Offender[] = [];
      for (const [url, params] of filters) {
        for (const param of params) {
          for (const sql of sqls) {
            const response = await send('GET', `${url}?${param}=${encodeURIComponent(sql)}`);
            const bad = offence(`${url}?${param}=${sql}`, response);
            if (bad) offenders.push(bad);
          }
        }
      }
      for (const sql of sqls) {
        for (const url of [
          `/api/v1/seeds/${encodeURIComponent(sql)}`,
          `/api/v1/queues/batch/${encodeURIComponent(sql)}`,
          `/api/v1/metadata/by-country/${encodeURIComponent(sql)}`,
        ]) {
          const bad = offence(`GET ${url}`, await send('GET', url));
          if (bad) offenders.push(bad);
        }
      }
      expect(offenders).toEqual([]);
      // The tables are intact.
      expect(expectJson(await send('GET', '/api/v1/seeds'), 200).pagination.total).toBeGreaterThan(0);
    });

    it('a hostile Idempotency-Key is a 400 naming the header', async () => {
      for (const key of ['é', 'a'.repeat(201), 'has space', '']) {
        const response = await inject(t.app, {
          method: 'POST',
          url: '/api/v1/queues/liveness',
          headers: { 'idempotency-key': key },
          payload: { country: 'sg', domains: ['a.sg'] },
        });
        expectValidation(response, 'headers.idempotency-key');
      }
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
