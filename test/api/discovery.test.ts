// Discovery through the API on a small web of sites that cite one another: a discovery batch harvests the seeds'
// links, qualifies the candidates (news, a recipe blog with a news sitemap, a shop; platforms never proposed),
// snowballs a second round, and a person accepts, rejects (remembered across runs) and imports a gap report.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISCOVERY_SEEDS,
  discoveryWeb,
  PLATFORMS,
  ROUND_ONE,
  ROUND_TWO,
} from '../fixtures/fake-internet/discovery-web.js';
import { stubFetcher } from '../fixtures/fake-internet/stub-fetcher.js';
import { createApiSeedbed, expectValidation, inject } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

describe('discovery', () => {
  let t: TestSeedbed;
  const fetcher = stubFetcher(discoveryWeb());
  const get = async (url: string) => {
    const res = await inject(t.app, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    inject(t.app, { method: 'POST', url, payload: payload as object, headers });
  const candidate = (domain: string) => get(`/api/v1/candidates/${domain}`);
  async function discover(body: Record<string, unknown>) {
    const res = await post('/api/v1/queues/discovery', { country: 'de', ...body });
    expect(res.statusCode, res.body).toBe(202);
    expect(res.headers.location).toBe(`/api/v1/queues/batch/${res.json().batchId}`);
    return t.waitForBatch(res.json().batchId, 60_000);
  }

  beforeAll(async () => {
    t = await createApiSeedbed({}, { fetcher, canary: null });
    t.startWorkers();
    for (const domain of DISCOVERY_SEEDS) {
      const res = await post('/api/v1/seeds', { domain, country: 'de', category: 'news' });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t.close());

  it('answers 422 when a country has nothing to discover from, naming why', async () => {
    const res = await post('/api/v1/queues/discovery', { country: 'fr' });
    expect(res.statusCode).toBe(422);
    expect(res.json()).toMatchObject({ code: 'nothing_to_discover' });
  });

  it('refuses bad parameters with the field named', async () => {
    await expectValidation(
      await post('/api/v1/queues/discovery', { country: 'de', rounds: 4 }),
      'body.rounds',
    );
    await expectValidation(
      await post('/api/v1/queues/discovery', { country: 'de', max_candidates: 0 }),
      'body.max_candidates',
    );
    await expectValidation(await post('/api/v1/queues/discovery', { country: 'zz' }), 'body.country');
  });

  it('harvests the seeds, qualifies what they cite and snowballs a second round', async () => {
    const batch = await discover({ rounds: 2 });
    expect(batch).toMatchObject({ type: 'discovery', status: 'completed' });
    // Two harvests, four candidates in round one, one in round two.
    expect(batch.total_items).toBe(DISCOVERY_SEEDS.length + ROUND_ONE.length + 1);
    expect(batch.summary.outcomes).toMatchObject({ harvested: 2, news: 3, not_news: 2 });

    const list = await get('/api/v1/candidates?country=de&limit=100');
    const domains = list.data.map((c: { domain: string }) => c.domain).sort();
    expect(domains).toEqual([...ROUND_ONE, ROUND_TWO].sort());
    for (const platform of PLATFORMS) expect(domains).not.toContain(platform);
    // Seeds are never candidates, however often they are cited.
    for (const seed of DISCOVERY_SEEDS) expect(domains).not.toContain(seed);

    const news = await candidate('abendzeitung-sued.de');
    expect(news).toMatchObject({ state: 'qualified', alive: true, feeds_found: 1 });
    expect(news.news.verdict).toBe('news');
    expect(news.news.reasons.map((r: { signal: string }) => r.signal)).toContain('news_schema');
    expect(news.country_guess).toMatchObject({ code: 'de' });
    expect(news.cited_by).toEqual([
      expect.objectContaining({ seed_id: 'other:de:tagesblatt.de::news', found_in: 'homepage' }),
    ]);

    // Cited by both seeds: two citations.
    expect((await candidate('rheinkurier.de')).citations).toBe(2);
    // The traps: a recipe blog with a news sitemap and a feed, a shop.
    const recipe = await candidate('omas-rezepte.de');
    expect(recipe.news.verdict).not.toBe('news');
    expect(recipe.sitemap).toEqual({ exists: true, news: true });
    expect((await candidate('gartenshop24.de')).news.verdict).toBe('not_news');
    // Found by the second round, from a news candidate's own links.
    const second = await candidate(ROUND_TWO);
    expect(second).toMatchObject({ state: 'qualified' });
    expect(second.cited_by).toEqual([expect.objectContaining({ seed_id: 'candidate:abendzeitung-sued.de' })]);

    const ranked = await get('/api/v1/candidates?country=de&verdict=news&sort=score');
    expect(ranked.data.length).toBe(3);
    const scores = ranked.data.map((c: { news: { score: number } }) => c.news.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
  });

  it('accepts into draft seeds with discovered_via, and rejects with a reason that is remembered', async () => {
    const accepted = await post('/api/v1/candidates/accept', { domains: ['rheinkurier.de', 'nowhere.de'] });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().results).toEqual([
      { domain: 'rheinkurier.de', result: 'accepted', seed_id: 'other:de:rheinkurier.de::news' },
      { domain: 'nowhere.de', result: 'skipped', reason: 'not a candidate' },
    ]);
    const seed = await get('/api/v1/seeds/other:de:rheinkurier.de::news');
    expect(seed).toMatchObject({ status: 'draft', entry_url: 'https://www.rheinkurier.de/' });
    expect(seed.news.verdict).toBe('news');
    expect(seed.provenance.discovered_via.map((c: { seed_id: string }) => c.seed_id).sort()).toEqual([
      'other:de:morgenpost-nord.de::news',
      'other:de:tagesblatt.de::news',
    ]);
    expect((await candidate('rheinkurier.de')).state).toBe('accepted');

    await expectValidation(
      await post('/api/v1/candidates/reject', { domains: ['gartenshop24.de'] }),
      'body.reason',
    );
    const rejected = await post('/api/v1/candidates/reject', {
      domains: ['gartenshop24.de'],
      reason: 'a shop',
    });
    expect(rejected.json().results).toEqual([{ domain: 'gartenshop24.de', result: 'rejected' }]);
    expect(await candidate('gartenshop24.de')).toMatchObject({ state: 'rejected', reject_reason: 'a shop' });

    // The next run reads the seeds again (forced) and finds the shop again: it stays rejected, unqualified.
    const before = fetcher.calls.filter((url) => url.includes('gartenshop24.de')).length;
    const again = await discover({ force: false, min_citations: 1 });
    expect(again.status).toBe('completed');
    expect(await candidate('gartenshop24.de')).toMatchObject({ state: 'rejected', reject_reason: 'a shop' });
    expect(fetcher.calls.filter((url) => url.includes('gartenshop24.de')).length).toBe(before);
  });

  it('imports a list as a gap report: seeds, candidates and new sites, line by line', async () => {
    const csv =
      'name,url,source\nTagesblatt,https://www.tagesblatt.de/politik/,mbfc\nLandbote,landbote-ost.de,\nNeu,https://neues-blatt.de/,\nVideo,https://youtube.com/x,\nKaputt,http://,\n';
    const res = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/candidates/import?source=press-list&country=de',
      payload: csv,
      headers: { 'content-type': 'text/csv' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().summary).toEqual({ new: 1, candidate: 1, seed: 1, platform: 1, invalid: 1 });
    expect(res.json().results.map((r: { result: string }) => r.result)).toEqual([
      'seed',
      'candidate',
      'new',
      'platform',
      'invalid',
    ]);
    const added = await candidate('neues-blatt.de');
    expect(added).toMatchObject({ state: 'new', sources: ['press-list'] });
    expect(added.cited_by).toEqual([
      expect.objectContaining({ seed_id: 'import:press-list', found_in: 'import' }),
    ]);

    const opml = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/candidates/import',
      payload: '<opml><body><outline text="x" xmlUrl="https://neues-blatt.de/feed"/></body></opml>',
      headers: { 'content-type': 'text/x-opml' },
    });
    expect(opml.json().results).toEqual([
      expect.objectContaining({ domain: 'neues-blatt.de', result: 'candidate', state: 'new' }),
    ]);
    const unsupported = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/candidates/import',
      payload: 'x',
      headers: { 'content-type': 'application/pdf' },
    });
    expect(unsupported.statusCode).toBe(415);
  });

  it('an Idempotency-Key replays the same discovery batch', async () => {
    const first = await post('/api/v1/queues/discovery', { country: 'de' }, { 'idempotency-key': 'd-1' });
    const again = await post('/api/v1/queues/discovery', { country: 'de' }, { 'idempotency-key': 'd-1' });
    expect(again.json().batchId).toBe(first.json().batchId);
    expect(again.headers['idempotent-replayed']).toBe('true');
    await t.waitForBatch(first.json().batchId, 60_000);
  });
});
