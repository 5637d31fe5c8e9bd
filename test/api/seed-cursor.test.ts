// GET /api/v1/seeds by cursor: following `pagination.next` visits every seed once, in the order asked (ties in
// the found time and unmeasured rates included); a seed written behind the cursor does not shift the pages
// after it; a cursor that is not the list's, is for another order or comes with an offset is a 400 naming
// `cursor`; and `pagination.total` (kept by status and country, counted otherwise) stays a true count through
// creates, contract runs, patches, promotes and imports.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Freshness } from '../../src/engine/freshness.js';
import {
  createApiSeedbed,
  expectJson,
  expectValidation,
  inject,
  newsDraft,
  newsSeedId,
  upsertDraft,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

interface Listed {
  seed_id: string;
  created_at: string;
  country: string;
  status: string;
  freshness: { items_per_day: number | null } | null;
}

function freshness(rate: number | null): Freshness {
  return {
    newest_item_at: '2026-06-01T10:00:00.000Z',
    items_last_7d: 7,
    items_per_day: rate,
    measured_at: '2026-06-01T12:00:00.000Z',
    stale: false,
    based_on: 'feed',
  };
}

/** Rates with ties and unmeasured sources (null: measured, nothing dated; undefined: never measured). */
const RATES: Array<number | null | undefined> = [5, 5, null, 0, 2, undefined, 5, 0.5, null, 2, undefined];
const SORTS = ['', 'found', '-found', '-rate'] as const;

const b64 = (document: unknown) => Buffer.from(JSON.stringify(document), 'utf8').toString('base64url');

describe('GET /api/v1/seeds by cursor', () => {
  let t: TestSeedbed;
  let now = Date.UTC(2026, 5, 1);
  const get = (url: string) => inject(t.app, { method: 'GET', url });
  const list = async (query: string) => expectJson(await get(`/api/v1/seeds?${query}`), 200);

  /** Every page of the list from the first, by `next`: the seeds in order, and each page's total. */
  async function walk(query: string, limit: number) {
    const seen: Listed[] = [];
    const totals = new Set<number>();
    let cursor: string | null = null;
    for (let pages = 0; pages < 100; pages += 1) {
      const body = await list(`${query}&limit=${limit}${cursor ? `&cursor=${cursor}` : ''}`);
      expect(body.data.length).toBeLessThanOrEqual(limit);
      seen.push(...body.data);
      totals.add(body.pagination.total);
      cursor = body.pagination.next;
      if (cursor === null) return { seen, totals };
      expect(body.data.length).toBe(limit);
    }
    throw new Error('more than 100 pages');
  }

  beforeAll(async () => {
    t = await createApiSeedbed({}, { clock: () => new Date(now) });
    for (const [i, rate] of RATES.entries()) {
      // Two seeds a minute: pairs share their found time.
      if (i % 2 === 0) now += 60_000;
      const facts = {
        feeds: [],
        sitemap: null,
        ...(rate !== undefined ? { freshness: freshness(rate) } : {}),
      };
      await upsertDraft(t, newsDraft(`s${String(i).padStart(2, '0')}.fr`, { facts }));
    }
    for (const domain of ['mom.gov.sg', 'moh.gov.my', 'mof.gov.my'])
      expectJson(
        await inject(t.app, {
          method: 'POST',
          url: '/api/v1/seeds',
          payload: { domain, country: domain.slice(-2), category: 'news' },
        }),
        201,
      );
  });
  afterAll(() => t.close());

  /** The order a sort defines, applied to the seeds by hand. */
  function ordered(seeds: Listed[], sort: (typeof SORTS)[number]): string[] {
    const byId = (a: Listed, b: Listed) => (a.seed_id < b.seed_id ? -1 : a.seed_id > b.seed_id ? 1 : 0);
    const rate = (s: Listed) => s.freshness?.items_per_day ?? null;
    const sorted = [...seeds].sort((a, b) => {
      if (sort === 'found') return a.created_at.localeCompare(b.created_at) || byId(a, b);
      if (sort === '-found') return b.created_at.localeCompare(a.created_at) || byId(b, a);
      if (sort === '-rate') {
        const [x, y] = [rate(a), rate(b)];
        if (x === null || y === null) return (x === null ? 1 : 0) - (y === null ? 1 : 0) || byId(a, b);
        return y - x || byId(a, b);
      }
      return byId(a, b);
    });
    return sorted.map((s) => s.seed_id);
  }

  it('visits every seed once, in the order of each sort, ties and unmeasured rates included', async () => {
    for (const filter of ['', 'status=draft', 'country=fr', 'status=draft&country=fr', 'country=sg'])
      for (const sort of SORTS) {
        const query = `${filter}${sort ? `&sort=${sort}` : ''}`;
        const everything = await list(`${query}&limit=100`);
        expect(everything.pagination.next).toBeNull();
        for (const limit of [1, 2, 3, 5]) {
          const { seen, totals } = await walk(query, limit);
          const ids = seen.map((s) => s.seed_id);
          expect(new Set(ids).size, query).toBe(ids.length);
          expect(ids, `${query} limit=${limit}`).toEqual(ordered(everything.data, sort));
          expect([...totals], query).toEqual([everything.data.length]);
        }
      }
    const rated = (await walk('sort=-rate', 4)).seen;
    expect(rated.at(-1)?.freshness?.items_per_day ?? null).toBeNull();
    expect(rated[0]?.freshness?.items_per_day).toBe(5);
  });

  it('answers the same pages by offset, and a cursor after an offset page', async () => {
    for (const sort of SORTS) {
      const query = sort ? `sort=${sort}` : '';
      const first = await list(`${query}&limit=4&offset=4`);
      const byOffset = await list(`${query}&limit=4&offset=8`);
      const byCursor = await list(`${query}&limit=4&cursor=${first.pagination.next}`);
      expect(byCursor.data).toEqual(byOffset.data);
      expect(byCursor.pagination.offset).toBe(0);
    }
  });

  it('keeps the pages after a cursor when a seed is written behind it', async () => {
    const page1 = await list('limit=3&status=draft');
    const rest = (await walk('status=draft', 50)).seen.slice(3).map((s) => s.seed_id);
    // com:fr:a… sorts before every seed of page 1.
    now += 60_000;
    await upsertDraft(
      t,
      newsDraft('a0.fr', { facts: { feeds: [], sitemap: null, freshness: freshness(99) } }),
    );
    const page2 = await list(`limit=50&status=draft&cursor=${page1.pagination.next}`);
    expect(page2.data.map((s: Listed) => s.seed_id)).toEqual(rest);
    expect(page2.data.map((s: Listed) => s.seed_id)).not.toContain(newsSeedId('a0.fr'));
    // By rate too: the new seed ranks first, behind a cursor already past it.
    const rated1 = await list('limit=2&sort=-rate');
    const ratedRest = (await walk('sort=-rate', 50)).seen.slice(2).map((s) => s.seed_id);
    now += 60_000;
    await upsertDraft(
      t,
      newsDraft('a1.fr', { facts: { feeds: [], sitemap: null, freshness: freshness(500) } }),
    );
    const rated2 = await list(`limit=50&sort=-rate&cursor=${rated1.pagination.next}`);
    expect(rated2.data.map((s: Listed) => s.seed_id)).toEqual(ratedRest);
  });

  it('refuses a cursor it did not give, one for another order, and a cursor beside an offset: 400 naming cursor', async () => {
    const found = (await list('limit=1&sort=found')).pagination.next as string;
    const byId = (await list('limit=1')).pagination.next as string;
    const refused = [
      `sort=-rate&cursor=${found}`,
      `sort=found&cursor=${byId}`,
      `cursor=${byId}&offset=1`,
      'cursor=not.a.cursor',
      `cursor=${b64('hello')}`,
      `cursor=${b64({ o: 'seed_id', a: [] })}`,
      `cursor=${b64({ o: 'seed_id', a: [12] })}`,
      `sort=-rate&cursor=${b64({ o: '-rate', a: ['high', 'com:fr:s01.fr::news'] })}`,
      `sort=found&cursor=${b64({ o: 'found', a: [7, 'x'] })}`,
      `cursor=${b64({ o: 'seed_id', a: [{ $gt: '' }] })}`,
      `cursor=${'A'.repeat(1000)}`,
    ];
    for (const query of refused) {
      const response = await get(`/api/v1/seeds?${query}`);
      expect(response.headers['content-type'], query).toMatch(/^application\/problem\+json/);
      expectValidation(response, 'cursor');
    }
    expectValidation(await get(`/api/v1/seeds?cursor=${'A'.repeat(2000)}`), 'querystring.cursor');
  });

  it('keeps pagination.total equal to the seeds listed through every kind of write', async () => {
    const queries = [
      '',
      'status=draft',
      'status=active',
      'status=archived',
      'country=fr',
      'country=my',
      'status=draft&country=fr',
      'status=active&country=fr',
      'status=draft&verdict=news',
      'language=fr',
    ];
    async function expectTrueTotals(after: string) {
      for (const query of queries) {
        const { seen, totals } = await walk(query, 4);
        expect([...totals], `${after}: ${query}`).toEqual([seen.length]);
      }
    }
    await expectTrueTotals('creates and contract runs');
    const post = (url: string, payload: unknown) =>
      inject(t.app, { method: 'POST', url, payload: payload as object });
    const promoted = await post('/api/v1/seeds/promote', {
      seedIds: [newsSeedId('s00.fr'), newsSeedId('s01.fr'), 'gov:sg:mom.gov.sg::news'],
    });
    expect(promoted.statusCode, promoted.body).toBe(200);
    await expectTrueTotals('promote by ids');
    const byFilter = await post('/api/v1/seeds/promote', { filter: { country: 'my' } });
    expect(byFilter.statusCode, byFilter.body).toBe(200);
    await expectTrueTotals('promote by filter');
    const archived = await inject(t.app, {
      method: 'PATCH',
      url: `/api/v1/seeds/${encodeURIComponent(newsSeedId('s00.fr'))}`,
      payload: { status: 'archived' },
    });
    expect(archived.statusCode, archived.body).toBe(200);
    await expectTrueTotals('archive');
    // A contract run of an active seed keeps its status; a new one is a draft.
    await upsertDraft(
      t,
      newsDraft('s01.fr', { facts: { feeds: [], sitemap: null, freshness: freshness(1) } }),
    );
    await upsertDraft(t, newsDraft('z9.fr'));
    await expectTrueTotals('contract runs');
    const lines = ['one.gov.de', 'two.gov.de', 'mom.gov.sg']
      .map((domain) => JSON.stringify({ domain, country: domain.slice(-2), category: 'news' }))
      .join('\n');
    const imported = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds/import',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: `${lines}\n`,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    await expectTrueTotals('import');
    expect((await list('status=active')).pagination.total).toBe(4);
    expect((await list('status=draft&country=de')).pagination.total).toBe(2);
  });

  it('pages the review page by cursor: Next carries it, every draft once; an offset link and a bad cursor still work', async () => {
    const lines = Array.from({ length: 40 }, (_, i) =>
      JSON.stringify({ domain: `site${String(i).padStart(2, '0')}.nl`, country: 'nl', category: 'news' }),
    ).join('\n');
    const imported = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds/import',
      headers: { 'content-type': 'application/x-ndjson' },
      payload: `${lines}\n`,
    });
    expect(imported.statusCode, imported.body).toBe(200);
    const drafts = (await walk('status=draft&sort=-found', 50)).seen.map((s) => s.seed_id);
    expect(drafts.length).toBeGreaterThan(50);
    const shown: string[] = [];
    let url: string | null = '/ui/seeds?status=draft&sort=-found';
    for (let pages = 0; url !== null && pages < 10; pages += 1) {
      const page = await get(url);
      expect(page.statusCode).toBe(200);
      shown.push(...[...page.body.matchAll(/<br><small>([^<]+)<\/small><\/td>/g)].map((m) => m[1] as string));
      const next = /<a href="([^"]+)" rel="next">Next<\/a>/.exec(page.body)?.[1]?.replaceAll('&amp;', '&');
      if (next !== undefined) expect(next).toMatch(/cursor=/);
      if (next !== undefined) expect(next).not.toMatch(/offset=/);
      url = next ?? null;
    }
    expect(shown).toEqual(drafts);
    const byOffset = (await get('/ui/seeds?status=draft&sort=-found&offset=25')).body;
    expect([...byOffset.matchAll(/<br><small>([^<]+)<\/small><\/td>/g)].map((m) => m[1])).toEqual(
      drafts.slice(25, 50),
    );
    expect(byOffset).toContain('26–50 shown');
    const forged = await get(`/ui/seeds?status=draft&sort=-found&cursor=${b64({ o: 'found', a: [1, 2] })}`);
    expect(forged.statusCode).toBe(200);
    expect([...forged.body.matchAll(/<br><small>([^<]+)<\/small><\/td>/g)].map((m) => m[1])).toEqual(
      drafts.slice(0, 25),
    );
  });
});
