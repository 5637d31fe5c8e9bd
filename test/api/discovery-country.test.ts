// Which candidates a discovery for a country qualifies: a site not yet qualified is listed under the country of the
// source that cited it last, so the discovery of the country whose sources are being read qualifies what they cite,
// whichever country found it first (a person growing a directory country by country imports or discovers a
// neighbour's list before this one's). A candidate no source of the country cites stays where it is, and is not read.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DISCOVERY_SEEDS, discoveryWeb, ROUND_ONE } from '../fixtures/fake-internet/discovery-web.js';
import { stubFetcher } from '../fixtures/fake-internet/stub-fetcher.js';
import { createApiSeedbed, expectJson, inject } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

describe('discovery by country', () => {
  let t: TestSeedbed;
  const fetcher = stubFetcher(discoveryWeb());
  const get = async (url: string) => expectJson(await inject(t.app, { method: 'GET', url }), 200);
  const importList = async (country: string, lines: string) => {
    const res = await inject(t.app, {
      method: 'POST',
      url: `/api/v1/candidates/import?source=neighbour-list&country=${country}`,
      payload: lines,
      headers: { 'content-type': 'text/plain' },
    });
    expect(res.statusCode, res.body).toBe(200);
  };

  beforeAll(async () => {
    t = await createApiSeedbed({}, { fetcher, canary: null });
    t.startWorkers();
    for (const domain of DISCOVERY_SEEDS) {
      const res = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        payload: { domain, country: 'de', category: 'news' },
      });
      expect(res.statusCode, res.body).toBe(201);
    }
  });
  afterAll(() => t.close());

  it("qualifies what the country's seeds cite though it was listed under another country first", async () => {
    // Listed under Austria before the German seeds are read: one the German seeds cite, one they do not.
    const [cited] = ROUND_ONE;
    await importList('at', `${cited}\nnur-in-wien.at\n`);
    expect(await get(`/api/v1/candidates/${cited}`)).toMatchObject({ state: 'new' });
    const listedUnder = async (country: string) =>
      (await get(`/api/v1/candidates?country=${country}&limit=100`)).data.map(
        (c: { domain: string }) => c.domain,
      );
    expect(await listedUnder('at')).toEqual([cited, 'nur-in-wien.at'].sort());

    const res = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/queues/discovery',
      payload: { country: 'de' },
    });
    expect(res.statusCode, res.body).toBe(202);
    const batch = await t.waitForBatch(res.json().batchId, 60_000);
    expect(batch.status).toBe('completed');
    expect(batch.total_items).toBe(DISCOVERY_SEEDS.length + ROUND_ONE.length);

    const qualified = await get(`/api/v1/candidates/${cited}`);
    expect(qualified).toMatchObject({ state: 'qualified' });
    expect(qualified.news.verdict).toBe('news');
    // Its country is now its own guess; its citations name the list and the German seed.
    expect(qualified.country_guess.code).toBe('de');
    expect(qualified.cited_by.map((c: { seed_id: string }) => c.seed_id)).toEqual(
      expect.arrayContaining(['import:neighbour-list', 'other:de:tagesblatt.de::news']),
    );
    // Austria's own candidate is Austria's to qualify: not read, and still listed there alone.
    expect(await get('/api/v1/candidates/nur-in-wien.at')).toMatchObject({ state: 'new' });
    expect(await listedUnder('at')).toEqual(['nur-in-wien.at']);
    expect(await listedUnder('de')).toContain(cited);
    // The kept totals moved with it: each country's total is what its list holds.
    for (const country of ['at', 'de']) {
      const list = await get(`/api/v1/candidates?country=${country}&limit=100`);
      expect(list.pagination.total, country).toBe(list.data.length);
    }
    expect(fetcher.calls.some((url) => url.includes('nur-in-wien.at'))).toBe(false);
  });
});
