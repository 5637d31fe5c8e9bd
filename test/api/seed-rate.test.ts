// GET /api/v1/seeds by freshness and by publication rate, and POST /api/v1/seeds/promote by the list's filters:
// the rate a contract run measured is stored beside its JSON (and follows the next run), bad values are a 400
// naming the parameter, and promote by filter takes the drafts the list shows for the same filter.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Freshness } from '../../src/engine/freshness.js';
import {
  createApiSeedbed,
  expectValidation,
  inject,
  listedSeedIds,
  newsDraft,
  newsSeedId,
  upsertDraft,
} from '../support/api-helpers.js';
import type { ContractDraft } from '../support/contract-runs.js';
import type { TestSeedbed } from '../support/harness.js';

function freshness(rate: number | null, stale: boolean | null): Freshness {
  return {
    newest_item_at: rate === null ? null : '2026-06-01T10:00:00.000Z',
    items_last_7d: rate === null ? 0 : Math.round(rate * 7),
    items_per_day: rate,
    measured_at: '2026-06-01T12:00:00.000Z',
    stale,
    based_on: rate === null ? null : 'feed',
  };
}

function draft(domain: string, language: string, measured: Freshness | undefined): ContractDraft {
  return newsDraft(domain, {
    facts: {
      feeds: [],
      sitemap: null,
      languages: [{ code: language, sources: ['html_lang'] }],
      ...(measured ? { freshness: measured } : {}),
    },
  });
}

describe('seed list by freshness and rate', () => {
  let t: TestSeedbed;
  const get = (url: string) => inject(t.app, { method: 'GET', url });
  const ids = (query: string) => listedSeedIds(t, query);
  const upsert = (d: ContractDraft) => upsertDraft(t, d);

  beforeAll(async () => {
    t = await createApiSeedbed();
    await upsert(draft('slow.fr', 'fr', freshness(0.5, false)));
    await upsert(draft('busy.fr', 'fr', freshness(48, false)));
    await upsert(draft('old.fr', 'de', freshness(0.1, true)));
    await upsert(draft('undated.fr', 'fr', freshness(null, null)));
    await upsert(draft('never.fr', 'fr', undefined));
  });
  afterAll(() => t.close());

  it('sorts by publication rate, highest first, the unmeasured last', async () => {
    expect(await ids('sort=-rate')).toEqual([
      newsSeedId('busy.fr'),
      newsSeedId('slow.fr'),
      newsSeedId('old.fr'),
      newsSeedId('never.fr'),
      newsSeedId('undated.fr'),
    ]);
    expect(await ids('sort=-rate&language=fr&limit=2')).toEqual([
      newsSeedId('busy.fr'),
      newsSeedId('slow.fr'),
    ]);
  });

  it('filters by freshness: fresh, stale, unknown (never measured or nothing dated)', async () => {
    expect(await ids('freshness=fresh')).toEqual([newsSeedId('busy.fr'), newsSeedId('slow.fr')]);
    expect(await ids('freshness=stale')).toEqual([newsSeedId('old.fr')]);
    expect(await ids('freshness=unknown')).toEqual([newsSeedId('never.fr'), newsSeedId('undated.fr')]);
    expect(await ids('freshness=stale&language=fr')).toEqual([]);
  });

  it('refuses a bad freshness or sort with a problem naming the parameter', async () => {
    expectValidation(await get('/api/v1/seeds?freshness=old'), 'querystring.freshness');
    expectValidation(await get('/api/v1/seeds?sort=rate'), 'querystring.sort');
    expectValidation(await get('/api/v1/seeds/export?freshness=new'), 'querystring.freshness');
  });

  it('keeps the stored rate with the latest run that measured it', async () => {
    await upsert(draft('slow.fr', 'fr', freshness(3, false)));
    await upsert(draft('busy.fr', 'fr', undefined));
    expect((await ids('sort=-rate')).slice(0, 2)).toEqual([newsSeedId('busy.fr'), newsSeedId('slow.fr')]);
    const slow = (await get(`/api/v1/seeds/${encodeURIComponent(newsSeedId('slow.fr'))}`)).json();
    expect(slow.freshness.items_per_day).toBe(3);
  });

  it('promotes by the list filters: language and freshness', async () => {
    const promote = (filter: Record<string, unknown>) =>
      inject(t.app, { method: 'POST', url: '/api/v1/seeds/promote', payload: { filter } });
    expectValidation(await promote({ freshness: 'old' }), 'body.filter.freshness');
    const listed = await ids('status=draft&language=fr&freshness=fresh');
    const res = await promote({ language: 'fr', freshness: 'fresh' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results.map((r: { seed_id: string }) => r.seed_id)).toEqual(listed);
    expect(res.json().promoted).toBe(2);
    expect(await ids('status=active')).toEqual(listed);
  });
});
