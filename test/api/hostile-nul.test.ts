// The hostile battery, text no backend can store as sent: a NUL (PostgreSQL's text and jsonb refuse U+0000) or a
// lone surrogate in any query parameter, path parameter or JSON body string is a 400 naming it — on SQLite as
// on PostgreSQL (npm run test:pg), where it once was a 500. Every parameter is taken from the OpenAPI document,
// so a new one is covered without a line here.
import { describe, expect, it } from 'vitest';
import {
  dataset,
  datasetRecord,
  expectValidation,
  HOSTILE_SEED,
  inject,
  useHostileSeedbed,
} from '../support/api-helpers.js';

interface Operation {
  method: string;
  path: string;
  query: string[];
  params: string[];
}

/** A value each path parameter accepts, so only the parameter under test is wrong. */
const PATH_VALUES: Record<string, string> = {
  country: 'sg',
  category: 'news',
  date: '2026-01-01',
  chunk: '1',
  seedId: encodeURIComponent(HOSTILE_SEED),
  batchId: 'b1',
  host: 'mom.gov.sg',
  domain: 'mom.gov.sg',
};

describe('hostile input', () => {
  const t = useHostileSeedbed();
  const { send } = t;

  const operations = async (): Promise<Operation[]> => {
    const document = (await send('GET', '/openapi.json')).json() as {
      paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
    };
    const found: Operation[] = [];
    for (const [path, methods] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(methods)) {
        const parameters = operation.parameters ?? [];
        found.push({
          method: method.toUpperCase(),
          path,
          query: parameters.filter((p) => p.in === 'query').map((p) => p.name),
          params: parameters.filter((p) => p.in === 'path').map((p) => p.name),
        });
      }
    }
    return found;
  };
  const fill = (path: string, except?: string, value?: string) =>
    path.replace(/\{(\w+)\}/g, (_, name: string) =>
      name === except ? (value as string) : (PATH_VALUES[name] ?? 'x'),
    );

  describe('NUL and lone surrogates in parameters and bodies', () => {
    it('GET /api/v1/changes?domain=%00 is a 400 naming the parameter', async () => {
      expectValidation(await send('GET', '/api/v1/changes?domain=%00'), 'querystring.domain');
      expectValidation(await send('GET', '/api/v1/changes?domain=a%00b'), 'querystring.domain');
    });

    it('a NUL in every query parameter of every operation is a 400 naming it', async () => {
      const ops = await operations();
      const tried: string[] = [];
      for (const op of ops) {
        for (const name of op.query) {
          const url = `${fill(op.path)}?${encodeURIComponent(name)}=a%00b`;
          const response = await send(op.method as 'GET', url, undefined);
          expect(response.statusCode, `${op.method} ${url}: ${response.body.slice(0, 200)}`).toBe(400);
          expectValidation(response, `querystring.${name}`);
          tried.push(`${op.method} ${op.path} ${name}`);
        }
      }
      // The document does list query parameters: the loop above did test something.
      expect(tried.length).toBeGreaterThan(10);
    });

    it('a NUL in every path parameter of every operation is a 400 naming it', async () => {
      const ops = await operations();
      let tried = 0;
      for (const op of ops) {
        for (const name of op.params) {
          const url = fill(op.path, name, 'a%00b');
          const response = await send(
            op.method as 'GET',
            url,
            op.method === 'GET' ? undefined : '{}',
            'application/json',
          );
          expectValidation(response, `params.${name}`);
          tried++;
        }
      }
      expect(tried).toBeGreaterThan(5);
    });

    it('a parameter name with a NUL is a 400 on the query string', async () => {
      expectValidation(await send('GET', '/api/v1/seeds?a%00b=1'), 'querystring');
    });

    it('a NUL anywhere in a JSON body is a 400 naming the field, on every kind of body', async () => {
      const name = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        payload: { domain: 'nul.gov.sg', country: 'sg', category: 'news', name: 'a\u0000b' },
      });
      expectValidation(name, 'body.name');
      const url = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/research',
        payload: {
          country: 'sg',
          category: 'nul',
          date: '2026-01-01',
          urls: ['https://a.gov.sg/', 'https://a.gov.sg/\u0000'],
        },
      });
      expectValidation(url, 'body.urls.1');
      const patch = await inject(t.app, {
        method: 'PATCH',
        url: `/api/v1/seeds/${encodeURIComponent(HOSTILE_SEED)}`,
        payload: { name: '\u0000' },
      });
      expectValidation(patch, 'body.name');
      const ids = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/queues/recheck',
        payload: { seedIds: [HOSTILE_SEED, `${HOSTILE_SEED}\u0000`] },
      });
      expectValidation(ids, 'body.seedIds.1');
      // The streamed dataset reader applies the same rule, in records and around them.
      const record = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/datasets',
        payload: dataset({ country: 'sg', category: 'nul', date: '2026-01-02' }, [
          datasetRecord(1),
          datasetRecord(2, { note: 'a\u0000b' }),
        ]),
      });
      expectValidation(record, 'body.records.1.note');
      const meta = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/datasets',
        payload: dataset({ country: 'sg', category: 'nul', date: '2026-01-02' }, [datasetRecord(1)], {
          x: '\u0000',
        }),
      });
      expectValidation(meta, 'body.meta.x');
    });

    it('a NUL in a JSON key is a 400 naming the object that holds it', async () => {
      const response = await send(
        'POST',
        '/api/v1/seeds',
        '{"domain":"nulkey.gov.sg","country":"sg","category":"news","a\\u0000":1}',
        'application/json',
      );
      expectValidation(response, 'body');
    });

    it('a lone surrogate in a query parameter is a 400 (its bytes are not UTF-8), never a 5xx', async () => {
      // %ED%A0%80 is how a surrogate would be encoded; it is not UTF-8, so it never reaches a query as a surrogate.
      const response = await send('GET', '/api/v1/changes?domain=%ED%A0%80');
      expect(response.statusCode, response.body).toBeLessThan(500);
      const recheck = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/queues/recheck',
        headers: { 'content-type': 'application/json' },
        payload: `{"seedIds":["${HOSTILE_SEED}\\ud800"]}`,
      });
      expectValidation(recheck, 'body.seedIds.0');
    });
  });
});
