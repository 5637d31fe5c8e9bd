// The collection pipeline through the API, against the local fake internet: liveness, contracts, and
// orchestration from a raw chunk through SEED_QUEUE and CONTRACT_QUEUE to draft seeds.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  CANARY_URL,
  CHALLENGE_SITES,
  type FakeInternet,
  SITES,
  startFakeInternet,
} from '../fixtures/fake-internet/index.js';
import { testFetcher } from '../fixtures/fake-internet/test-fetcher.js';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';
import { domainIdOf, seedIdOf } from '../support/ids.js';

describe('collection pipeline against the fake internet', () => {
  let net: FakeInternet;
  let t: TestSeedbed;
  beforeAll(async () => {
    net = await startFakeInternet();
    t = await createTestSeedbed(
      { SEEDBED_NETWORK_CANARY: CANARY_URL },
      { fetcher: testFetcher(net).fetcher },
    );
    t.startWorkers();
  });
  afterAll(async () => {
    await t.close();
    await net.close();
  });

  async function post(url: string, payload: object) {
    const response = await t.app.inject({ method: 'POST', url, payload });
    expect(response.statusCode, response.body).toBeLessThan(300);
    return response.json();
  }

  async function items(batchId: string) {
    const all: any[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = (
        await t.app.inject({ url: `/api/v1/queues/batch/${batchId}/items?limit=100&offset=${offset}` })
      ).json();
      all.push(...page.data);
      if (all.length >= page.pagination.total) return all;
    }
  }

  it('checks liveness of every scenario, with the reason, and never reaches a private address', async () => {
    const domains = [
      SITES.news,
      SITES.forbidden,
      SITES.unavailable,
      SITES.loop,
      SITES.ssrf,
      SITES.httpOnly,
      SITES.unresolvable,
      SITES.challenge,
      '127.0.0.1',
      '10.0.0.1',
      'localhost',
      `https://${SITES.bare}/some/page`,
    ];
    const batch = await post('/api/v1/queues/liveness', { country: 'sg', domains, chunkSize: 5 });
    const done = await t.waitForBatch(batch.batchId, 60_000);
    expect(done.status).toBe('completed_with_errors');
    const byInput = Object.fromEntries((await items(batch.batchId)).map((i) => [i.input, i]));
    expect(byInput[SITES.news]).toMatchObject({ status: 'succeeded', outcome: 'alive' });
    expect(byInput[SITES.forbidden]).toMatchObject({ outcome: 'blocked' });
    expect(byInput[SITES.unavailable]).toMatchObject({ outcome: 'dead' });
    expect(byInput[SITES.challenge]).toMatchObject({ outcome: 'blocked' });
    expect(byInput[SITES.loop].result.error_code).toMatch(/REDIRECT_LOOP|TOO_MANY_REDIRECTS/);
    expect(byInput[SITES.ssrf].result.error_code).toBe('SSRF_BLOCKED');
    expect(byInput[SITES.httpOnly]).toMatchObject({ outcome: 'alive', result: { https: false } });
    expect(byInput[SITES.unresolvable]).toMatchObject({
      outcome: 'dead',
      result: { error_code: 'ENOTFOUND' },
    });
    for (const literal of ['127.0.0.1', '10.0.0.1', 'localhost']) {
      expect(byInput[literal]).toMatchObject({ status: 'failed', outcome: 'invalid' });
      expect(byInput[literal].reason).toMatch(/^refused/);
    }
    expect(byInput[`https://${SITES.bare}/some/page`]).toMatchObject({ outcome: 'alive' });
    expect(net.privateHits()).toBe(0);
    expect(net.requests.every((r) => r.userAgent.startsWith('SeedbedBot/'))).toBe(true);
  });

  it('names the bot wall that blocked a domain, and keeps a page that mentions a captcha alive', async () => {
    const domains = [CHALLENGE_SITES.cfManaged, CHALLENGE_SITES.datadome, CHALLENGE_SITES.captchaForm];
    const batch = await post('/api/v1/queues/liveness', { country: 'sg', domains });
    await t.waitForBatch(batch.batchId, 60_000);
    const byInput = Object.fromEntries((await items(batch.batchId)).map((i) => [i.input, i]));
    expect(byInput[CHALLENGE_SITES.cfManaged]).toMatchObject({
      status: 'succeeded',
      outcome: 'blocked',
      result: {
        error_code: 'CHALLENGE',
        evidence: {
          kind: 'challenge',
          signature: 'cloudflare-challenge',
          matched: 'header cf-mitigated: challenge',
        },
      },
    });
    expect(byInput[CHALLENGE_SITES.datadome]).toMatchObject({
      outcome: 'blocked',
      result: { evidence: { signature: 'datadome', status: 403 } },
    });
    expect(byInput[CHALLENGE_SITES.captchaForm]).toMatchObject({
      outcome: 'alive',
      result: { evidence: null },
    });
  });

  it('turns domain ids into draft seeds with the right fetch type, policy and evidence', async () => {
    const hosts = [
      SITES.news,
      SITES.sitemapOnly,
      SITES.bare,
      SITES.disallow,
      SITES.crawlDelay,
      SITES.unresolvable,
    ];
    const batch = await post('/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: [...hosts.map((host) => domainIdOf(host)), 'not-a-domain-id'],
    });
    const done = await t.waitForBatch(batch.batchId, 90_000);
    expect(done.status).toBe('completed_with_errors');
    const seed = async (host: string) =>
      (await t.app.inject({ url: `/api/v1/seeds/${encodeURIComponent(seedIdOf(host))}` })).json();

    const news = await seed(SITES.news);
    expect(news).toMatchObject({
      status: 'draft',
      version: 1,
      fetch: { type: 'rss' },
      policy: { robots_allowed: true },
    });
    expect(news.policy.sitemap_urls.length).toBeGreaterThan(0);
    // What discovery knows beside the contract: every feed with its role, and the sitemap counted.
    expect(news.feeds.length).toBeGreaterThan(0);
    for (const feed of news.feeds)
      expect(feed).toMatchObject({
        url: expect.any(String),
        role: expect.any(String),
        item_count: expect.any(Number),
      });
    const fetchable = news.feeds
      .filter((f: any) => f.role === 'main' || f.role === 'section')
      .map((f: any) => f.url);
    for (const url of news.fetch.urls) expect(fetchable).toContain(url);
    expect(news.sitemap).toMatchObject({ url_count: expect.any(Number), truncated: false, news: true });
    expect(news.sitemap.url_count).toBeGreaterThan(0);
    const sitemapOnly = await seed(SITES.sitemapOnly);
    expect(sitemapOnly.feeds).toEqual([]);
    expect(sitemapOnly.sitemap.url_count).toBeGreaterThan(0);
    expect((await seed(SITES.sitemapOnly)).fetch.type).toBe('sitemap');
    expect((await seed(SITES.bare)).fetch.type).toBe('html');
    expect((await seed(SITES.disallow)).policy.robots_allowed).toBe(false);
    expect((await seed(SITES.crawlDelay)).policy.crawl_delay).toBe(5);
    expect(
      (
        await t.app.inject({
          url: `/api/v1/seeds/${encodeURIComponent(seedIdOf(SITES.unresolvable))}`,
        })
      ).statusCode,
    ).toBe(404);

    const all = await items(batch.batchId);
    expect(all.find((i) => i.input === domainIdOf(SITES.unresolvable))).toMatchObject({
      status: 'failed',
      outcome: 'dead',
    });
    expect(all.find((i) => i.input === 'not-a-domain-id')).toMatchObject({
      status: 'failed',
      outcome: 'invalid',
    });

    const prod = `prod/country=sg/category=news/date=${done.date}/${SITES.news}`;
    const metadata = JSON.parse((await t.readObject(`${prod}/domain_metadata.json`)) ?? 'null');
    expect(metadata).toMatchObject({
      domain_id: domainIdOf(SITES.news),
      robots: { exists: true },
      sitemap: { exists: true },
    });
    expect(metadata.sitemap.url_count).toBeGreaterThan(0);
    expect(await t.hasObject(`${prod}/robots.txt`)).toBe(true);
    expect(await t.hasObject(`${prod}/sitemap.xml`)).toBe(true);
    expect(await t.hasObject(`${prod}/domain_metadata.json.success`)).toBe(true);

    // The same files through the API: listed from the seed's provenance, and streamed as stored.
    const newsId = encodeURIComponent(seedIdOf(SITES.news));
    const evidence = (await t.app.inject({ url: `/api/v1/seeds/${newsId}/evidence` })).json();
    expect(evidence.partition).toEqual({ country: 'sg', category: 'news', date: done.date });
    expect(evidence.files.map((f: { name: string }) => f.name).sort()).toEqual([
      'domain_metadata.json',
      'robots.txt',
      'sitemap.xml',
    ]);
    const robotsFile = evidence.files.find((f: { name: string }) => f.name === 'robots.txt');
    const robots = await t.app.inject({ url: robotsFile.href });
    expect(robots.statusCode).toBe(200);
    expect(robots.headers['content-type']).toMatch(/^text\/plain/);
    expect(robots.headers['x-content-type-options']).toBe('nosniff');
    expect(robots.body).toBe(await t.readObject(`${prod}/robots.txt`));
    expect(robotsFile.bytes).toBe(Buffer.byteLength(robots.body));
    const stored = (
      await t.app.inject({ url: `/api/v1/seeds/${newsId}/evidence/domain_metadata.json` })
    ).json();
    expect(stored).toEqual(metadata);
  });

  it('every seed a contract run made can be POSTed as read to another instance, and comes out the same', async () => {
    const other = await createTestSeedbed();
    try {
      const seeds = (await t.app.inject({ url: '/api/v1/seeds?limit=100' })).json().data as any[];
      expect(seeds.length).toBeGreaterThanOrEqual(5);
      for (const seed of seeds) {
        const copied = await other.app.inject({ method: 'POST', url: '/api/v1/seeds', payload: seed });
        expect(copied.statusCode, `${seed.seed_id}: ${copied.body}`).toBe(201);
        const made = copied.json();
        // Server-owned: discovery, provenance and what discovery found (feeds, sitemap, freshness, languages,
        // policy.ai) are not copied.
        const {
          discovery,
          provenance,
          status,
          version,
          created_at,
          updated_at,
          promoted_at,
          feeds,
          sitemap,
          human_fields,
          freshness,
          languages,
          health,
          news,
          country_guess,
          policy: { ai, ...policy },
          ...rest
        } = seed;
        expect(ai).toMatchObject({ status: expect.any(String) });
        // The verdict and the country guess are discovery's too: judged on the source, not copied.
        expect(news).toMatchObject({ verdict: expect.any(String) });
        expect(country_guess).toMatchObject({ code: expect.any(String) });
        expect(made).toMatchObject({ news: null, country_guess: null });
        expect(made).toMatchObject({ ...rest, status: 'draft', version: 1, provenance: { source: 'api' } });
        // A POSTed seed is a person's: every field it carries is theirs, whoever found it first.
        expect(human_fields).toEqual([]);
        expect([...made.human_fields].sort()).toEqual(['entry_url', 'fetch', 'name', 'policy', 'schedule']);
        expect(made.policy).toEqual(policy);
        expect(made).toMatchObject({
          feeds: [],
          sitemap: null,
          freshness: null,
          languages: [],
          health: null,
        });
        // This instance has not checked the source yet: health is its own measure, never copied.
        expect(health).toMatchObject({ state: expect.any(String) });
      }
    } finally {
      await other.close();
    }
  });

  it('runs orchestration from a raw chunk to draft seeds; a second run is a no-op; force re-runs without duplicates', async () => {
    const date = '2026-01-15';
    const records = [SITES.atom, SITES.jsonFeed, SITES.commonFeed, SITES.atom].map((host, i) => ({
      raw_url: `https://${host}/story/${i}`,
    }));
    await post('/api/v1/datasets', { meta: { country: 'sg', category: 'policy', date }, records });
    const first = await post('/api/v1/seeds/orchestrate', { country: 'sg', category: 'policy', date });
    expect(first).toMatchObject({ files_found: 1, messages_sent: 1, skipped: 0 });
    const done = await t.waitForBatch(first.batchId, 90_000);
    expect(done.status).toBe('completed');
    expect(done.chunks).toMatchObject({ total: 4, succeeded: 4 });
    const seeds = (await t.app.inject({ url: '/api/v1/seeds?category=policy' })).json();
    expect(seeds.pagination.total).toBe(3);
    expect(await t.hasObject(`raw/country=sg/category=policy/date=${date}/raw_0001.json.success`)).toBe(true);

    const second = await post('/api/v1/seeds/orchestrate', { country: 'sg', category: 'policy', date });
    expect(second).toMatchObject({ files_found: 1, messages_sent: 0, skipped: 1 });

    const forced = await post('/api/v1/seeds/orchestrate', {
      country: 'sg',
      category: 'policy',
      date,
      force: true,
    });
    expect(forced).toMatchObject({ messages_sent: 1 });
    const again = await t.waitForBatch(forced.batchId, 90_000);
    expect(again.status).toBe('completed');
    expect(again.summary.outcomes).toMatchObject({ unchanged: 3 });
    const after = (await t.app.inject({ url: '/api/v1/seeds?category=policy' })).json();
    expect(after.pagination.total).toBe(3);
    expect(after.data.every((s: any) => s.version === 1)).toBe(true);
  });

  it('updates the discovery of every seed of a checked domain', async () => {
    const created = await post('/api/v1/seeds', {
      domain: SITES.forbidden,
      country: 'sg',
      category: 'alerts',
    });
    const batch = await post('/api/v1/queues/liveness', { country: 'sg', domains: [SITES.forbidden] });
    await t.waitForBatch(batch.batchId, 60_000);
    const seed = (await t.app.inject({ url: `/api/v1/seeds/${encodeURIComponent(created.seed_id)}` })).json();
    expect(seed.discovery).toMatchObject({ alive: false, state: 'blocked', http_status: 403 });
    expect(typeof seed.discovery.checked_at).toBe('string');

    // Checked twice by now (the first liveness batch, then this one): both are in its history, newest first.
    const liveness = (await t.app.inject({ url: `/api/v1/domains/${SITES.forbidden}/liveness` })).json();
    expect(liveness.pagination.total).toBe(2);
    expect(liveness.latest).toMatchObject({ state: 'blocked', http_status: 403, batch_id: batch.batchId });
    expect(liveness.data[0]).toEqual(liveness.latest);
    expect(liveness.data[1].checked_at <= liveness.data[0].checked_at).toBe(true);
  });

  it('never overwrites a seed a person promoted: the contract item is skipped with the reason', async () => {
    const seedId = seedIdOf(SITES.bare);
    const promoted = await post('/api/v1/seeds/promote', { seedIds: [seedId] });
    expect(promoted.promoted).toBe(1);
    const before = (await t.app.inject({ url: `/api/v1/seeds/${encodeURIComponent(seedId)}` })).json();
    const batch = await post('/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: [domainIdOf(SITES.bare)],
    });
    await t.waitForBatch(batch.batchId, 60_000);
    const [item] = await items(batch.batchId);
    // Collected earlier today for this partition: the checkpoint skips it before anything is fetched.
    expect(item).toMatchObject({ status: 'skipped', outcome: 'already_collected' });
    // force: true discovers it again the same day; the active seed's contract is still only proposed to.
    const forcedBatch = await post('/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: [domainIdOf(SITES.bare)],
      force: true,
    });
    await t.waitForBatch(forcedBatch.batchId, 60_000);
    const [forcedItem] = await items(forcedBatch.batchId);
    expect(forcedItem).toMatchObject({ status: 'skipped', outcome: 'kept' });

    const forcedDate = '2026-02-01';
    await post('/api/v1/datasets', {
      meta: { country: 'sg', category: 'news', date: forcedDate },
      records: [{ raw_url: `https://${SITES.bare}/` }],
    });
    const orchestrated = await post('/api/v1/seeds/orchestrate', {
      country: 'sg',
      category: 'news',
      date: forcedDate,
    });
    await t.waitForBatch(orchestrated.batchId, 60_000);
    const kept = (await items(orchestrated.batchId)).find((i) => i.outcome === 'kept');
    expect(kept).toMatchObject({ status: 'skipped', reason: expect.stringContaining('active') });
    const after = (await t.app.inject({ url: `/api/v1/seeds/${encodeURIComponent(seedId)}` })).json();
    // The contract is the person's; only `discovery` (the latest liveness) may move on an active seed.
    const contract = (seed: any) => ({
      status: seed.status,
      version: seed.version,
      entry_url: seed.entry_url,
      fetch: seed.fetch,
      schedule: seed.schedule,
      policy: seed.policy,
      provenance: seed.provenance,
    });
    expect(contract(after)).toEqual(contract(before));
  });
});
