// The hostile battery, strings: unicode, emoji, NUL, lone surrogates, RTL marks and SQL-ish text in bodies,
// filters and headers are stored exactly or refused with a 4xx application/problem+json, and never a 5xx.
import { describe, expect, it } from 'vitest';
import {
  dataset,
  datasetRecord,
  expectClientProblem,
  expectJson,
  expectValidation,
  inject,
  type Offender,
  offence,
  useHostileSeedbed,
} from '../support/api-helpers.js';

describe('hostile input', () => {
  const t = useHostileSeedbed();
  const { send } = t;

  describe('strings: unicode, emoji, NUL, SQL', () => {
    it('emoji, RTL text and control characters in a seed name round-trip or are refused, never a 5xx', async () => {
      // A NUL is always a 400 (hostile-nul.test.ts): PostgreSQL cannot store it.
      for (const [i, name] of ['🌱 Seedbed ✓', '\u202Eevil', 'ﾃｽﾄ', '\u0007bell'].entries()) {
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

    it('control characters and emoji in URLs are per-item failures, not request failures', async () => {
      const response = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/research',
        payload: {
          country: 'sg',
          category: 'unicode',
          date: '2026-01-01',
          // A NUL is not here: it fails the whole request as a 400 naming the URL (hostile-nul.test.ts).
          urls: [
            'https://a.gov.sg/\u0001',
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

    it('unknown dataset fields with control characters, emoji and RTL marks are kept', async () => {
      // A NUL is a 400 here too (hostile-nul.test.ts): one rule for every JSON body.
      const extra = { nul: 'a\u0001b', emoji: '🌱', rtl: '\u202E' };
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

  it('the service still answers /health and /health/ready after the battery', async () => {
    expectJson(await send('GET', '/health'), 200);
    expect(expectJson(await send('GET', '/health/ready'), 200).status).toBe('ready');
  });
});
