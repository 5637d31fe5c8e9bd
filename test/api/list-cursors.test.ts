// Paging by cursor on the candidates, changes, batches and batch items lists: following `pagination.next` from the
// first page gives every row exactly once, in the list's documented order (ties included), for every sort and a
// spread of filters; a row added behind the cursor shifts no page; a forged cursor, one made for another order,
// and a cursor beside an offset are each a 400 naming `cursor`. Runs on both backends.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANDIDATE_SORTS } from '../../src/domain/candidates.js';
import { createApiSeedbed, expectJson, expectValidation, inject } from '../support/api-helpers.js';
import { verdict } from '../support/candidates.js';
import type { TestSeedbed } from '../support/harness.js';

/** A row as the API answers it. */
type Row = any;

let t: TestSeedbed;
let clock = new Date('2026-05-01T00:00:00.000Z');
const at = (iso: string) => {
  clock = new Date(iso);
};

beforeAll(async () => {
  t = await createApiSeedbed({}, { clock: () => clock });
});
afterAll(() => t.close());

const get = (url: string) => inject(t.app, { method: 'GET', url });
const withQuery = (url: string, query: string) => `${url}${url.includes('?') ? '&' : '?'}${query}`;

/** Every row of a list, following `pagination.next` from the first page. */
async function walk(url: string, limit: number): Promise<Row[]> {
  const rows: Row[] = [];
  let next: string | null = null;
  for (let pages = 0; pages < 500; pages += 1) {
    const cursor: string = next === null ? '' : `&cursor=${encodeURIComponent(next)}`;
    const body = expectJson(await get(withQuery(url, `limit=${limit}${cursor}`)), 200);
    expect(body.pagination).toMatchObject({ limit, offset: 0 });
    rows.push(...body.data);
    next = body.pagination.next;
    if (next === null) return rows;
    expect(body.data).toHaveLength(limit);
  }
  throw new Error(`${url}: no last page`);
}

/** Every row of a list on one page (the lists here hold fewer than 100). */
async function everything(url: string): Promise<Row[]> {
  const body = expectJson(await get(withQuery(url, 'limit=100')), 200);
  expect(body.pagination.next).toBeNull();
  return body.data;
}

const byText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** Page 2 by cursor before and after a row that sorts into page 1 is added: the same rows. */
async function expectNoShift(url: string, key: (row: Row) => string, addBehind: () => Promise<void>) {
  const first = expectJson(await get(withQuery(url, 'limit=3')), 200);
  const nextUrl = withQuery(url, `limit=3&cursor=${encodeURIComponent(first.pagination.next)}`);
  const before = expectJson(await get(nextUrl), 200).data.map(key);
  await addBehind();
  const after = expectJson(await get(nextUrl), 200).data.map(key);
  expect(after).toEqual(before);
  const fresh = expectJson(await get(withQuery(url, 'limit=3')), 200).data.map(key);
  expect(fresh).not.toEqual(first.data.map(key));
}

describe('refusals', () => {
  it.each([
    '/api/v1/candidates',
    '/api/v1/candidates?sort=score',
    '/api/v1/changes',
    '/api/v1/queues/batches',
  ])('%s: a forged cursor, another order’s, and one beside an offset are a 400 naming cursor', async (url) => {
    for (const cursor of ['not-a-cursor', Buffer.from('{"o":"x","a":["y"]}').toString('base64url')])
      expectValidation(await get(withQuery(url, `cursor=${cursor}`)), 'cursor');
    const other = url.endsWith('score') ? '/api/v1/candidates?sort=citations' : url;
    const made = { o: url.endsWith('score') ? 'score' : 'other-order', a: ['x', 'y'] };
    expectValidation(
      await get(withQuery(other, `cursor=${Buffer.from(JSON.stringify(made)).toString('base64url')}`)),
      'cursor',
    );
  });
});

describe('candidates', () => {
  beforeAll(async () => {
    const { candidates } = t.seedbed.services;
    const line = (input: string, n: number) => ({ line: n + 1, input, source: null });
    const names = (prefix: string, n: number) => Array.from({ length: n }, (_, i) => `${prefix}-${i}.com`);
    at('2026-05-01T00:00:00.000Z');
    await candidates.importList(names('alpha', 10).map(line), { source: 'list-a', country: 'sg' });
    at('2026-05-02T00:00:00.000Z');
    await candidates.importList(names('beta', 8).map(line), { source: 'list-a', country: 'de' });
    at('2026-05-03T00:00:00.000Z');
    await candidates.importList(names('gamma', 6).map(line), { source: 'list-a', country: 'sg' });
    // A second list naming some of them: two citers each, a tie among themselves.
    await candidates.importList([...names('alpha', 4), ...names('beta', 3)].map(line), {
      source: 'list-b',
      country: 'sg',
    });
    const scores = [0.9, 0.5, 0.5, 0.2, 0.5, 0.9, 0.7];
    const verdicts = ['news', 'maybe', 'not_news'] as const;
    const qualified = [...names('alpha', 7), ...names('beta', 6), ...names('gamma', 3)];
    await t.seedbed.database.transaction(async (trx) => {
      for (const [i, domain] of qualified.entries()) {
        const news = verdict(verdicts[i % 3] ?? 'news', scores[i % scores.length] ?? 0.5, []);
        await candidates.recordQualification(trx, domain, {
          news,
          country_guess: null,
          languages: [],
          feeds: 1,
          sitemap: null,
          robots_allowed: true,
          alive: true,
          qualification: null,
          checked_at: clock.toISOString(),
        });
      }
    });
    await candidates.reject({ domains: ['alpha-1.com', 'beta-2.com', 'gamma-5.com'], reason: 'no' }, 'test');
  });

  const score = (c: Row): number | null => c.news?.score ?? null;
  const ORDERS: Record<string, (a: Row, b: Row) => number> = {
    domain: (a, b) => byText(a.domain, b.domain),
    score: (a, b) => {
      const [x, y] = [score(a), score(b)];
      if (x !== y) return x === null ? 1 : y === null ? -1 : y - x;
      return byText(a.domain, b.domain);
    },
    citations: (a, b) => b.citations - a.citations || byText(a.domain, b.domain),
    first_seen: (a, b) => byText(b.first_seen_at, a.first_seen_at) || byText(a.domain, b.domain),
  };
  const FILTERS: Array<[string, (c: Row) => boolean]> = [
    ['', () => true],
    ['state=qualified', (c) => c.state === 'qualified'],
    ['verdict=maybe', (c) => c.news?.verdict === 'maybe'],
    ['min_score=0.5', (c) => (score(c) ?? -1) >= 0.5],
    ['country=sg&state=new', (c) => c.country === 'sg' && c.state === 'new'],
    [
      'country=de&verdict=news&min_score=0.6',
      (c) => c.country === 'de' && c.news?.verdict === 'news' && (score(c) ?? -1) >= 0.6,
    ],
  ];
  const CASES = FILTERS.flatMap(([query, keep]) =>
    ['domain', ...CANDIDATE_SORTS].map((sort) => ({ query, keep, sort })),
  );

  it.each(CASES)('every page by cursor: $query sorted by $sort', async ({ query, keep, sort }) => {
    const all = await everything('/api/v1/candidates');
    expect(all.length).toBe(24);
    const expected = all
      .filter(keep)
      .sort(ORDERS[sort])
      .map((c) => c.domain);
    const url = `/api/v1/candidates?${[query, sort === 'domain' ? '' : `sort=${sort}`].filter(Boolean).join('&')}`;
    for (const limit of [1, 4]) {
      const walked = await walk(url, limit);
      expect(walked.map((c) => c.domain)).toEqual(expected);
    }
    const counted = expectJson(await get(withQuery(url, 'limit=1')), 200);
    expect(counted.pagination.total).toBe(expected.length);
    // The offset still pages the same order.
    const byOffset = expectJson(await get(withQuery(url, 'limit=3&offset=2')), 200);
    expect(byOffset.data.map((c: Row) => c.domain)).toEqual(expected.slice(2, 5));
  });

  it('keeps totals that equal a count of the rows, after imports, qualifications and rejections', async () => {
    const { db } = t.seedbed.database;
    const counted = await db
      .selectFrom('candidates')
      .select(['country', 'state', 'news_verdict', (eb) => eb.fn.countAll().as('n')])
      .groupBy(['country', 'state', 'news_verdict'])
      .execute();
    const kept = await db.selectFrom('candidate_totals').selectAll().where('n', '!=', 0).execute();
    const key = (country: string, state: string, verdict: string | null) =>
      `${country} ${state} ${verdict ?? ''}`;
    expect(new Map(kept.map((r) => [key(r.country, r.state, r.verdict), Number(r.n)]))).toEqual(
      new Map(counted.map((r) => [key(r.country, r.state, r.news_verdict), Number(r.n)])),
    );
    expect(counted.length).toBeGreaterThan(5);
  });

  it('a candidate added behind the cursor shifts no page, in domain and in newest-first order', async () => {
    const add = (domain: string) => async () => {
      at('2026-05-09T00:00:00.000Z');
      await t.seedbed.services.candidates.importList([{ line: 1, input: domain, source: null }], {
        source: 'late',
        country: 'sg',
      });
    };
    await expectNoShift('/api/v1/candidates', (c) => c.domain, add('aaa-late.com'));
    await expectNoShift('/api/v1/candidates?sort=first_seen', (c) => c.domain, add('zzz-late.com'));
  });
});

describe('the review page’s Candidates, 25 a page', () => {
  const domainsOf = (body: string) => [...body.matchAll(/<tr data-domain="([^"]+)"/g)].map((m) => m[1]);
  const nextOf = (body: string) =>
    /<a href="([^"]+)" rel="next">Next<\/a>/.exec(body)?.[1]?.replaceAll('&amp;', '&');

  it.each([
    'score',
    'citations',
    'first_seen',
  ])('Next carries the cursor, to the last page: sort=%s', async (sort) => {
    const expected = (await walk(`/api/v1/candidates?sort=${sort}`, 100)).map((c) => c.domain);
    expect(expected.length).toBeGreaterThan(25);
    const shown: string[] = [];
    let href: string | undefined = `/ui/candidates?sort=${sort}`;
    for (let pages = 0; href !== undefined && pages < 10; pages += 1) {
      const page = await get(href);
      expect(page.statusCode).toBe(200);
      shown.push(...(domainsOf(page.body) as string[]));
      if (pages > 0) expect(page.body).toContain('rel="first">First page</a>');
      href = nextOf(page.body);
      if (href !== undefined) expect(href).toMatch(/[?&]cursor=[A-Za-z0-9_-]+/);
    }
    expect(shown).toEqual(expected);
  });

  it('a cursor the list refuses shows the first page', async () => {
    const first = await get('/ui/candidates?sort=score');
    const refused = await get('/ui/candidates?sort=score&cursor=bm90LWEtY3Vyc29y');
    expect(refused.statusCode).toBe(200);
    expect(domainsOf(refused.body)).toEqual(domainsOf(first.body));
  });
});

describe('changes', () => {
  beforeAll(async () => {
    const { changes } = t.seedbed.services;
    const kinds = ['site_dead', 'site_alive', 'feed_added'] as const;
    for (let i = 0; i < 14; i += 1) {
      // Three changes share each detection time: the id breaks the tie.
      at(new Date(Date.UTC(2026, 5, 1 + Math.floor(i / 3))).toISOString());
      const domain = i % 2 === 0 ? 'even.example' : 'odd.example';
      await t.seedbed.database.transaction((trx) =>
        changes.recordEvent(trx, {
          registrableDomain: domain,
          domainId: `com:intl:${domain}`,
          kind: kinds[i % 3] ?? 'site_dead',
          message: `change ${i}`,
          before: null,
          after: null,
          evidence: {},
          batchId: null,
        }),
      );
    }
  });

  const oldestFirst = (a: Row, b: Row) => byText(a.detected_at, b.detected_at) || byText(a.id, b.id);

  it.each([
    ['', () => true],
    ['kind=site_alive', (c: Row) => c.kind === 'site_alive'],
    ['domain=odd.example', (c: Row) => c.registrable_domain === 'odd.example'],
    ['since=2026-06-03T00:00:00Z', (c: Row) => c.detected_at >= '2026-06-03T00:00:00.000Z'],
    [
      'since=2026-06-02T00:00:00Z&domain=even.example&kind=site_dead',
      (c: Row) =>
        c.detected_at >= '2026-06-02' && c.registrable_domain === 'even.example' && c.kind === 'site_dead',
    ],
  ])('every page by cursor: %s', async (query, keep) => {
    const expected = (await everything('/api/v1/changes'))
      .filter(keep)
      .sort(oldestFirst)
      .map((c) => c.id);
    expect(expected.length).toBeGreaterThan(0);
    for (const limit of [1, 2, 5])
      expect((await walk(`/api/v1/changes?${query}`, limit)).map((c) => c.id)).toEqual(expected);
  });

  it('a change recorded behind the cursor shifts no page', async () => {
    await expectNoShift(
      '/api/v1/changes',
      (c) => c.id,
      async () => {
        at('2026-01-01T00:00:00.000Z');
        await t.seedbed.database.transaction((trx) =>
          t.seedbed.services.changes.recordEvent(trx, {
            registrableDomain: 'late.example',
            domainId: 'com:intl:late.example',
            kind: 'site_dead',
            message: 'late',
            before: null,
            after: null,
            evidence: {},
            batchId: null,
          }),
        );
      },
    );
  });
  it('the review page’s changes, 25 a page, newest first: Older carries the cursor to the last page; a foreign one shows page 1', async () => {
    for (let i = 0; i < 30; i += 1) {
      at(new Date(Date.UTC(2026, 6, 1 + Math.floor(i / 4))).toISOString());
      await t.seedbed.database.transaction((trx) =>
        t.seedbed.services.changes.recordEvent(trx, {
          registrableDomain: 'page.example',
          domainId: 'com:intl:page.example',
          kind: 'feed_added',
          message: `page change ${i}`,
          before: null,
          after: null,
          evidence: {},
          batchId: null,
        }),
      );
    }
    const newestFirst = (a: Row, b: Row) => oldestFirst(b, a);
    const expected = (await everything('/api/v1/changes')).sort(newestFirst).map((c) => c.message);
    expect(expected.length).toBeGreaterThan(25);
    const messagesOf = (body: string) => [...body.matchAll(/<\/a><\/td><td>([^<]+)<\/td>/g)].map((m) => m[1]);
    const olderOf = (body: string) =>
      /<a href="([^"]+)" rel="next">Older<\/a>/.exec(body)?.[1]?.replaceAll('&amp;', '&');
    const shown: string[] = [];
    let href: string | undefined = '/ui/changes';
    for (let pages = 0; href !== undefined && pages < 10; pages += 1) {
      const page = await get(href);
      expect(page.statusCode).toBe(200);
      shown.push(...(messagesOf(page.body) as string[]));
      if (pages > 0) expect(page.body).toContain('rel="first">Newest</a>');
      href = olderOf(page.body);
      if (href !== undefined) expect(href).toMatch(/[?&]cursor=[A-Za-z0-9_-]+/);
    }
    expect(shown).toEqual(expected);
    // A filter goes with the cursor.
    const domain = (await get('/ui/changes?domain=page.example')).body;
    const older = olderOf(domain) as string;
    expect(older).toMatch(/^\/ui\/changes\?domain=page.example&cursor=/);
    expect(messagesOf((await get(older)).body)).toEqual(
      expected.filter((m) => m.startsWith('page change')).slice(25),
    );
    const refused = await get('/ui/changes?cursor=bm90LWEtY3Vyc29y');
    expect(refused.statusCode).toBe(200);
    expect(messagesOf(refused.body)).toEqual(expected.slice(0, 25));
    // An oldest-first cursor of the API is not the page's either.
    const api = expectJson(await get('/api/v1/changes?limit=1'), 200);
    const foreign = await get(`/ui/changes?cursor=${encodeURIComponent(api.pagination.next)}`);
    expect(messagesOf(foreign.body)).toEqual(expected.slice(0, 25));
  });
});

describe('batches and their items', () => {
  let itemsOf = '';
  const createBatch = async (iso: string) => {
    at(iso);
    const response = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/queues/liveness',
      payload: { country: 'sg', domains: ['a.gov.sg'] },
    });
    return expectJson(response, 202).batchId as string;
  };

  beforeAll(async () => {
    // Two batches share each creation time: the id breaks the tie (newest first, so the higher id first).
    for (let i = 0; i < 7; i += 1)
      itemsOf = await createBatch(`2026-07-0${1 + Math.floor(i / 2)}T00:00:00.000Z`);
    const statuses = ['succeeded', 'failed', 'skipped'] as const;
    // Item 1 is left out here: it is added behind a cursor below.
    const indexes = [0, 2, 3, 4, 5, 6, 7, 8, 9, 10];
    await t.seedbed.database.db
      .insertInto('batch_items')
      .values(
        indexes.map((i) => ({
          batch_id: itemsOf,
          item_index: i,
          chunk_no: 1,
          input: JSON.stringify(`item-${i}`),
          status: statuses[i % 3] ?? 'failed',
          outcome: null,
          reason: null,
          result: null,
          updated_at: '2026-07-09T00:00:00.000Z',
        })),
      )
      .execute();
  });

  const newestFirst = (a: Row, b: Row) => byText(b.created_at, a.created_at) || byText(b.batchId, a.batchId);

  it.each([
    ['', () => true],
    ['type=liveness&status=queued', (b: Row) => b.type === 'liveness' && b.status === 'queued'],
    [
      'from=2026-07-02&to=2026-07-03',
      (b: Row) => b.created_at >= '2026-07-02' && b.created_at < '2026-07-04',
    ],
  ])('batches, every page by cursor: %s', async (query, keep) => {
    const expected = (await everything('/api/v1/queues/batches')).filter(keep).sort(newestFirst);
    expect(expected.length).toBeGreaterThan(2);
    for (const limit of [1, 2, 3]) {
      const walked = await walk(`/api/v1/queues/batches?${query}`, limit);
      expect(walked.map((b) => b.batchId)).toEqual(expected.map((b) => b.batchId));
    }
  });

  it.each([
    ['', () => true],
    ['status=failed', (i: Row) => i.status === 'failed'],
  ])('a batch’s items, every page by cursor: %s', async (query, keep) => {
    const url = `/api/v1/queues/batch/${itemsOf}/items?${query}`;
    const expected = (await everything(url)).filter(keep).map((i) => i.item_index);
    expect(expected).toEqual([...expected].sort((a, b) => a - b));
    for (const limit of [1, 2, 4])
      expect((await walk(url, limit)).map((i) => i.item_index)).toEqual(expected);
  });

  it('a batch or an item added behind the cursor shifts no page', async () => {
    await expectNoShift(
      '/api/v1/queues/batches',
      (b) => b.batchId,
      async () => {
        await createBatch('2026-08-01T00:00:00.000Z');
      },
    );
    await expectNoShift(
      `/api/v1/queues/batch/${itemsOf}/items`,
      (i) => String(i.item_index),
      async () => {
        await t.seedbed.database.db
          .insertInto('batch_items')
          .values({
            batch_id: itemsOf,
            item_index: 1,
            chunk_no: 1,
            input: '"item-1"',
            status: 'failed',
            outcome: null,
            reason: null,
            result: null,
            updated_at: '2026-07-09T00:00:00.000Z',
          })
          .execute();
      },
    );
  });

  it('the review page’s batches, 25 a page: Next carries the cursor to the last page; a foreign one shows page 1', async () => {
    for (let i = 0; i < 22; i += 1) await createBatch(`2026-07-1${Math.floor(i / 3)}T00:00:00.000Z`);
    const expected = (await walk('/api/v1/queues/batches', 100)).map((b) => b.batchId);
    expect(expected.length).toBeGreaterThan(25);
    const idsOf = (body: string) =>
      [...body.matchAll(/<td><a href="\/ui\/batches\/([^"]+)">/g)].map((m) => m[1]);
    const nextOf = (body: string) =>
      /<a href="([^"]+)" rel="next">Next<\/a>/.exec(body)?.[1]?.replaceAll('&amp;', '&');
    const shown: string[] = [];
    let href: string | undefined = '/ui/batches';
    for (let pages = 0; href !== undefined && pages < 10; pages += 1) {
      const page = await get(href);
      expect(page.statusCode).toBe(200);
      shown.push(...(idsOf(page.body) as string[]));
      if (pages > 0) expect(page.body).toContain('rel="first">First page</a>');
      href = nextOf(page.body);
      if (href !== undefined) expect(href).toMatch(/[?&]cursor=[A-Za-z0-9_-]+/);
    }
    expect(shown).toEqual(expected);
    const refused = await get('/ui/batches?cursor=bm90LWEtY3Vyc29y');
    expect(refused.statusCode).toBe(200);
    expect(idsOf(refused.body)).toEqual(expected.slice(0, 25));
  });

  it('a cursor beside an offset is a 400 naming cursor', async () => {
    const first = expectJson(await get(`/api/v1/queues/batch/${itemsOf}/items?limit=2`), 200);
    const cursor = encodeURIComponent(first.pagination.next);
    expectValidation(await get(`/api/v1/queues/batch/${itemsOf}/items?offset=2&cursor=${cursor}`), 'cursor');
  });
});
