// A sitemap tree deeper than the default budget, collected by a contract batch on the default configuration:
// the cut-short reading is reported everywhere a person looks — the batch's item, the seed, its stored
// domain_metadata.json — and the URLs read before the cut still count.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeInternet, SITEMAP_SITES, startFakeInternet } from '../fixtures/fake-internet/index.js';
import { testFetcher } from '../fixtures/fake-internet/test-fetcher.js';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';

const host = SITEMAP_SITES.tooDeepTree;
const domainId = `other:sg:${host}`;

describe('a sitemap tree past the default depth, through a contract batch', () => {
  let net: FakeInternet;
  let t: TestSeedbed;
  beforeAll(async () => {
    net = await startFakeInternet();
    t = await createTestSeedbed({}, { fetcher: testFetcher(net).fetcher });
    t.startWorkers();
  });
  afterAll(async () => {
    await t.close();
    await net.close();
  });

  it('reports the truncation on the item, the seed and domain_metadata.json', async () => {
    const posted = await t.app.inject({
      method: 'POST',
      url: '/api/v1/queues/contract',
      payload: { country: 'sg', category: 'news', domainIds: [domainId] },
    });
    expect(posted.statusCode, posted.body).toBe(202);
    const { batchId } = posted.json();
    const done = await t.waitForBatch(batchId, 60_000);
    expect(done.status).toBe('completed');

    const items = (await t.app.inject({ url: `/api/v1/queues/batch/${batchId}/items` })).json().data;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({
      input: domainId,
      status: 'succeeded',
      result: { fetch_type: 'sitemap', sitemap_truncated: true, sitemap_truncated_reason: 'max_depth' },
    });

    const seed = (
      await t.app.inject({ url: `/api/v1/seeds/${encodeURIComponent(`${domainId}::news`)}` })
    ).json();
    expect(seed.sitemap).toMatchObject({ truncated: true, truncated_reason: 'max_depth' });

    const stored = JSON.parse(
      (await t.readObject(`prod/country=sg/category=news/date=${done.date}/${host}/domain_metadata.json`)) ??
        'null',
    );
    expect(stored.sitemap).toMatchObject({ exists: true, truncated: true, truncated_reason: 'max_depth' });
    // The seed's evidence serves the same file.
    const evidence = await t.app.inject({
      url: `/api/v1/seeds/${encodeURIComponent(`${domainId}::news`)}/evidence/domain_metadata.json`,
    });
    expect(evidence.json()).toEqual(stored);
  });
});
