// Discovery meets sites that moved: a candidate whose entry page answers from another site is not a source of its
// own. It is judged not_news with the move as its reason, cannot be accepted (the site it moved to can), and the site
// it moved to becomes a candidate cited by it — unless that site is already a seed.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MOVED_FROM,
  MOVED_SEED,
  MOVED_TO,
  movedWeb,
  SEED_ALIAS,
} from '../fixtures/fake-internet/discovery-web.js';
import { stubFetcher } from '../fixtures/fake-internet/stub-fetcher.js';
import { createApiSeedbed, inject } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

describe('discovery of sites that moved', () => {
  let t: TestSeedbed;
  const get = async (url: string) => {
    const res = await inject(t.app, { method: 'GET', url });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };
  const post = (url: string, payload: unknown) =>
    inject(t.app, { method: 'POST', url, payload: payload as object });
  async function discover() {
    const res = await post('/api/v1/queues/discovery', { country: 'de' });
    expect(res.statusCode, res.body).toBe(202);
    return t.waitForBatch(res.json().batchId, 60_000);
  }

  beforeAll(async () => {
    t = await createApiSeedbed({}, { fetcher: stubFetcher(movedWeb()), canary: null });
    t.startWorkers();
    const res = await post('/api/v1/seeds', { domain: MOVED_SEED, country: 'de', category: 'news' });
    expect(res.statusCode, res.body).toBe(201);
  });
  afterAll(() => t.close());

  it('judges a moved candidate by its move, and proposes the site it moved to', async () => {
    const batch = await discover();
    expect(batch.status).toBe('completed');

    const moved = await get(`/api/v1/candidates/${MOVED_FROM}`);
    expect(moved).toMatchObject({ state: 'qualified', alive: true });
    expect(moved.news).toMatchObject({ verdict: 'not_news', score: 0 });
    expect(moved.news.reasons).toEqual([
      expect.objectContaining({
        signal: 'moved_to_other_site',
        evidence: `${MOVED_FROM}'s entry page answers from https://www.${MOVED_TO}/, on ${MOVED_TO}`,
      }),
    ]);

    const target = await get(`/api/v1/candidates/${MOVED_TO}`);
    expect(target.state).toBe('new');
    expect(target.cited_by).toEqual([
      expect.objectContaining({
        seed_id: `candidate:${MOVED_FROM}`,
        url: `https://www.${MOVED_TO}/`,
        found_in: 'homepage',
      }),
    ]);

    // An old name of the seed: judged moved too, and the seed is never proposed.
    const alias = await get(`/api/v1/candidates/${SEED_ALIAS}`);
    expect(alias.news.reasons[0].signal).toBe('moved_to_other_site');
    const all = await get('/api/v1/candidates?country=de&limit=100');
    expect(all.data.map((c: { domain: string }) => c.domain).sort()).toEqual(
      [MOVED_FROM, MOVED_TO, SEED_ALIAS].sort(),
    );
  });

  it('refuses to accept a moved candidate, naming the site to accept instead', async () => {
    const res = await post('/api/v1/candidates/accept', { domains: [MOVED_FROM] });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().results).toEqual([
      {
        domain: MOVED_FROM,
        result: 'skipped',
        reason: `${MOVED_FROM}'s entry page answers from https://www.${MOVED_TO}/, on ${MOVED_TO}: accept that site instead`,
      },
    ]);
    expect((await get(`/api/v1/candidates/${MOVED_FROM}`)).state).toBe('qualified');
  });

  it('qualifies the site it moved to in the next discovery, on its own pages', async () => {
    await discover();
    const target = await get(`/api/v1/candidates/${MOVED_TO}`);
    expect(target.state).toBe('qualified');
    expect(target.news.verdict).toBe('news');
    const accepted = await post('/api/v1/candidates/accept', { domains: [MOVED_TO] });
    expect(accepted.json().results).toEqual([
      { domain: MOVED_TO, result: 'accepted', seed_id: `other:de:${MOVED_TO}::news` },
    ]);
  });
});
