// Seedbed's own network going down mid-batch: liveness and contract chunks are retried, not answered. Nothing
// is stored as dead, no seed or checkpoint vouches for such an answer, and a chunk that outlives its retries
// fails with the reason (docs/design.md §3).
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNetworkCanary, type NetworkCanary } from '../../src/engine/network-canary.js';
import type { Fetcher } from '../../src/ports/fetcher.js';
import { CANARY_URL, type FakeInternet, SITES, startFakeInternet } from '../fixtures/fake-internet/index.js';
import { refusingFetcher } from '../fixtures/fake-internet/outage.js';
import { testFetcher } from '../fixtures/fake-internet/test-fetcher.js';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';

/** A fetcher whose network is down until `restore()`, and a canary (no cache) that can flip it back. */
function flakyNetwork(net: FakeInternet) {
  const down = refusingFetcher(net);
  const up = testFetcher(net).fetcher;
  let isDown = true;
  const fetcher: Fetcher = {
    fetch: (url, options) => (isDown ? down : up).fetch(url, options),
    setCrawlDelay: (host, seconds) => up.setCrawlDelay(host, seconds),
    async close() {
      await Promise.all([down.close(), up.close()]);
    },
  };
  const inner = createNetworkCanary({ fetcher, urls: [CANARY_URL], ttlMs: 0 });
  let downReports = 0;
  let restoreAfter = Number.POSITIVE_INFINITY;
  const canary: NetworkCanary = {
    async check() {
      const report = await inner.check();
      if (!report.up && ++downReports >= restoreAfter) isDown = false;
      return report;
    },
  };
  return {
    fetcher,
    canary,
    /** The network is back now. */
    restore() {
      isDown = false;
    },
    /** The network comes back once the canary has been seen down this many times. */
    restoreAfterOutages(n: number) {
      restoreAfter = n;
    },
    downReports: () => downReports,
  };
}

describe('a network outage during a batch', () => {
  let net: FakeInternet;
  let t: TestSeedbed | undefined;
  beforeAll(async () => {
    net = await startFakeInternet();
  });
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  afterAll(async () => {
    await net.close();
  });

  async function start(network: ReturnType<typeof flakyNetwork>, attempts: number) {
    t = await createTestSeedbed(
      { SEEDBED_JOB_ATTEMPTS: String(attempts) },
      { fetcher: network.fetcher, canary: network.canary },
    );
    t.startWorkers();
    return t;
  }

  async function post(seedbed: TestSeedbed, url: string, payload: object) {
    const response = await seedbed.app.inject({ method: 'POST', url, payload });
    expect(response.statusCode, response.body).toBe(202);
    return response.json();
  }

  async function items(seedbed: TestSeedbed, batchId: string) {
    return (await seedbed.app.inject({ url: `/api/v1/queues/batch/${batchId}/items?limit=100` })).json().data;
  }

  it('never stores a liveness answer while the network is down, and fails the chunk with the reason', async () => {
    const network = flakyNetwork(net);
    const seedbed = await start(network, 2);
    const batch = await post(seedbed, '/api/v1/queues/liveness', {
      country: 'sg',
      domains: [SITES.news, SITES.unresolvable],
    });
    const done = await seedbed.waitForBatch(batch.batchId);
    expect(done.status).toBe('failed');
    const answers = await items(seedbed, batch.batchId);
    expect(answers).toHaveLength(2);
    for (const item of answers) {
      expect(item.status).toBe('failed');
      expect(item.outcome ?? null).not.toBe('dead');
      expect(item.reason).toMatch(/NETWORK_UNAVAILABLE|network looks down/);
    }
    expect(await seedbed.seedbed.services.liveness.latest(SITES.news)).toBeNull();
    expect(await seedbed.seedbed.services.liveness.latest(SITES.unresolvable)).toBeNull();
    expect(network.downReports()).toBeGreaterThanOrEqual(2);
  });

  it('answers the chunk on a later attempt once the network is back', async () => {
    const network = flakyNetwork(net);
    network.restoreAfterOutages(1);
    const seedbed = await start(network, 4);
    const batch = await post(seedbed, '/api/v1/queues/liveness', {
      country: 'sg',
      domains: [SITES.news, SITES.unresolvable],
    });
    const done = await seedbed.waitForBatch(batch.batchId);
    expect(done.status).toBe('completed');
    const byInput = Object.fromEntries((await items(seedbed, batch.batchId)).map((i: any) => [i.input, i]));
    expect(byInput[SITES.news]).toMatchObject({ status: 'succeeded', outcome: 'alive' });
    // The canary answered on the retry, so this one is dead for real, and says how we know.
    expect(byInput[SITES.unresolvable]).toMatchObject({
      outcome: 'dead',
      result: { error_code: 'ENOTFOUND', evidence: { kind: 'network', network_up: true } },
    });
    // At least one attempt saw the outage; two domains failing at once may each ask the canary before it flips.
    expect(network.downReports()).toBeGreaterThanOrEqual(1);
  });

  it('creates no seed and no checkpoint for a contract while the network is down', async () => {
    const network = flakyNetwork(net);
    const seedbed = await start(network, 2);
    const batch = await post(seedbed, '/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: [`other:sg:${SITES.news}`],
    });
    const done = await seedbed.waitForBatch(batch.batchId);
    expect(done.status).toBe('failed');
    const [item] = await items(seedbed, batch.batchId);
    expect(item).toMatchObject({ status: 'failed' });
    expect(item.reason).toMatch(/NETWORK_UNAVAILABLE|network looks down/);
    const seed = await seedbed.app.inject({
      url: `/api/v1/seeds/${encodeURIComponent(`other:sg:${SITES.news}::news`)}`,
    });
    expect(seed.statusCode).toBe(404);
    const stored = [];
    for await (const object of seedbed.seedbed.objects.list('prod/')) stored.push(object.key);
    expect(stored).toEqual([]);
  });

  it('writes no checkpoint for a raw file while one of its contracts failed for the outage; a later run sends it again', async () => {
    const network = flakyNetwork(net);
    const seedbed = await start(network, 2);
    const date = '2026-03-03';
    const stored = await seedbed.app.inject({
      method: 'POST',
      url: '/api/v1/datasets',
      payload: {
        meta: { country: 'sg', category: 'news', date },
        records: [{ raw_url: `https://${SITES.news}/` }, { raw_url: `https://${SITES.bare}/` }],
      },
    });
    expect(stored.statusCode, stored.body).toBe(201);
    const first = await post(seedbed, '/api/v1/seeds/orchestrate', { country: 'sg', category: 'news', date });
    const done = await seedbed.waitForBatch(first.batchId);
    expect(done.chunks.failed).toBeGreaterThan(0);
    const key = `raw/country=sg/category=news/date=${date}/raw_0001.json`;
    expect(await seedbed.seedbed.objects.head(`${key}.success`)).toBeNull();
    // The network is back: the next orchestration sends the file again, and now its checkpoint follows.
    network.restoreAfterOutages(0);
    network.restore();
    const second = await post(seedbed, '/api/v1/seeds/orchestrate', {
      country: 'sg',
      category: 'news',
      date,
    });
    expect(second).toMatchObject({ messages_sent: 1, skipped: 0 });
    await seedbed.waitForBatch(second.batchId);
    expect(await seedbed.seedbed.objects.head(`${key}.success`)).not.toBeNull();
  });
});
