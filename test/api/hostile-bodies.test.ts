// The hostile battery, bodies: malformed, oversized and hostile JSON on every body route must get a 4xx
// application/problem+json (type, title, status, detail, code; errors[] with a path for validation failures)
// and never a 5xx. Paths and parameters are in hostile-paths.test.ts, strings in hostile-strings.test.ts.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { QUEUE_BODY_LIMIT } from '../../src/http/routes/queues.js';
import {
  expectClientProblem,
  expectJson,
  expectProblem,
  expectValidation,
  HOSTILE_MAX_DATASET_BYTES,
  HOSTILE_SEED,
  inject,
  type Method,
  type Offender,
  offence,
  useHostileSeedbed,
} from '../support/api-helpers.js';

const DEFAULT_BODY_LIMIT = 1024 * 1024;
const SEED_URL = `/api/v1/seeds/${encodeURIComponent(HOSTILE_SEED)}`;

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
    limit: HOSTILE_MAX_DATASET_BYTES,
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
    valid: { seedIds: [HOSTILE_SEED] },
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

describe('hostile input', () => {
  const t = useHostileSeedbed();
  const { send } = t;

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
          expectValidation(response, 'body.surprise_field');
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

  it('the service still answers /health and /health/ready after the battery', async () => {
    expectJson(await send('GET', '/health'), 200);
    expect(expectJson(await send('GET', '/health/ready'), 200).status).toBe('ready');
  });
});
