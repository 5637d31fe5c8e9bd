// A discovery batch as an operator runs it at scale: PostgreSQL + an S3 server (s3rver) + pg-boss, one `seedbed
// api` and two `seedbed worker` processes, fetching from a small web of real HTTP sites (discovery-sites.ts) through
// SEEDBED_FETCH_RESOLVE. Three news seeds link to news sites (one of which links further), a recipe blog, a shop
// and platform hosts; two rounds find, qualify and snowball; a person rejects one candidate, and a second
// discovery leaves it alone. Which worker ran a chunk is not recorded anywhere (batch rows, logs), so the test does
// not claim both took part; a step of a few items is one chunk (HARVEST_CHUNK_SIZE, QUALIFY_CHUNK_SIZE), run by
// whichever claims it.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DISCOVERY_PLATFORMS,
  type DiscoveryWeb,
  DISCOVERY_SITES as S,
  startDiscoveryWeb,
} from '../fixtures/fake-internet/discovery-sites.js';
import { getJson, postJson, type SeedbedProcess, startSeedbedProcess } from '../support/process.js';
import { type S3rverHandle, startS3rver } from '../support/s3rver.js';
import { pgAvailable, serviceOrSkip, TEST_DATABASE_URL } from '../support/services.js';

const pgUp = await pgAvailable();
let s3: S3rverHandle | undefined;
const s3Up = await serviceOrSkip('s3rver', async () => {
  s3 = await startS3rver();
});

function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

interface Item {
  item_index: number;
  input: { kind: 'harvest'; seed_id: string } | { kind: 'qualify'; domain: string; round: number };
  status: string;
  outcome: string | null;
  result: { verdict?: string; state?: string; round?: number } | null;
}

describe.skipIf(!pgUp || !s3Up)('a discovery batch on PostgreSQL + S3 with two worker processes', () => {
  const dbName = `seedbed_discovery_${process.pid}`;
  const processes: SeedbedProcess[] = [];
  let web: DiscoveryWeb;
  let api: SeedbedProcess;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName}`);
    await admin.query(`create database ${dbName}`);
    await admin.end();
    web = await startDiscoveryWeb();
    const env = {
      DATABASE_URL: databaseUrl(dbName),
      SEEDBED_OBJECTS: `s3://${s3!.bucket}/seedbed`,
      S3_ENDPOINT: s3!.endpoint,
      AWS_REGION: s3!.region,
      AWS_ACCESS_KEY_ID: s3!.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3!.secretAccessKey,
      SEEDBED_JOB_LEASE_SECONDS: '5',
      SEEDBED_WORKER_CONCURRENCY: '2',
      SEEDBED_DATA_DIR: '/nonexistent-seedbed-data',
      SEEDBED_FETCH_RESOLVE: web.resolveSpec,
      // Nothing outside the small web is asked, not even the connectivity check.
      SEEDBED_NETWORK_CANARY: 'off',
    };
    // The api first (it migrates), then both workers together.
    api = await startSeedbedProcess(env, ['api']);
    processes.push(api);
    processes.push(
      ...(await Promise.all([startSeedbedProcess(env, ['worker']), startSeedbedProcess(env, ['worker'])])),
    );
  }, 90_000);

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await web?.close();
    await s3?.stop();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  async function createSeed(host: string): Promise<string> {
    const created = await postJson(api.url, '/api/v1/seeds', {
      domain: host,
      country: 'au',
      category: 'news',
      entry_url: `http://${host}/`,
    });
    expect(created.status).toBe(201);
    return created.body.seed_id as string;
  }

  async function discover(body: Record<string, unknown>): Promise<{ batch: any; items: Item[] }> {
    const accepted = await postJson(api.url, '/api/v1/queues/discovery', body);
    expect(accepted.status).toBe(202);
    const batchId = accepted.body.batchId as string;
    let batch: any;
    for (;;) {
      batch = await getJson(api.url, `/api/v1/queues/batch/${batchId}`);
      if (batch.status !== 'queued' && batch.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const items = (await getJson(api.url, `/api/v1/queues/batch/${batchId}/items?limit=100`)).data as Item[];
    return { batch, items };
  }

  const qualified = (items: Item[]) =>
    items.flatMap((i) =>
      i.input.kind === 'qualify'
        ? [{ domain: i.input.domain, round: i.input.round, outcome: i.outcome, verdict: i.result?.verdict }]
        : [],
    );

  const candidate = (domain: string) => getJson(api.url, `/api/v1/candidates/${domain}`);

  it('finds and qualifies every candidate over two rounds, and a rejected one is never qualified again', async () => {
    const seeds = [];
    for (const host of [S.harbourHerald, S.riverTimes, S.valleyVoice]) seeds.push(await createSeed(host));

    const first = await discover({ country: 'au', rounds: 2 });
    expect(first.batch.status).toBe('completed');
    // One answer per item: as many item rows as the batch has items, every one succeeded.
    expect(first.items).toHaveLength(first.batch.total_items);
    expect(new Set(first.items.map((i) => i.item_index)).size).toBe(first.items.length);
    expect(first.batch.items).toMatchObject({ failed: 0, skipped: 0, running: 0, pending: 0 });

    const harvests = first.items.filter((i) => i.input.kind === 'harvest');
    expect(harvests.map((i) => [(i.input as { seed_id: string }).seed_id, i.outcome]).sort()).toEqual(
      seeds.map((id) => [id, 'harvested']).sort(),
    );
    // Each candidate qualified exactly once, in the round that found it, with the engine's verdict.
    const byDomain = (a: { domain: string }, b: { domain: string }) => a.domain.localeCompare(b.domain);
    expect(qualified(first.items).sort(byDomain)).toEqual(
      [
        { domain: S.coastalCourier, round: 1, outcome: 'news', verdict: 'news' },
        { domain: S.southernStar, round: 1, outcome: 'news', verdict: 'news' },
        { domain: S.bushKitchen, round: 1, outcome: 'not_news', verdict: 'not_news' },
        { domain: S.gumLeafGoods, round: 1, outcome: 'not_news', verdict: 'not_news' },
        // Cited only by the Coastal Courier: found by round 1's snowball, qualified in round 2.
        { domain: S.outbackObserver, round: 2, outcome: 'news', verdict: 'news' },
      ].sort(byDomain),
    );

    // The candidates are exactly those sites: no seed, no platform host.
    const listed = (await getJson(api.url, '/api/v1/candidates?country=au&limit=100')).data as any[];
    expect(listed.map((c) => [c.domain, c.state, c.news?.verdict, c.country_guess?.code]).sort()).toEqual(
      [
        [S.bushKitchen, 'qualified', 'not_news', 'au'],
        [S.coastalCourier, 'qualified', 'news', 'au'],
        [S.gumLeafGoods, 'qualified', 'not_news', 'au'],
        [S.outbackObserver, 'qualified', 'news', 'au'],
        [S.southernStar, 'qualified', 'news', 'au'],
      ].sort(),
    );
    for (const platform of DISCOVERY_PLATFORMS) {
      const response = await fetch(new URL(`/api/v1/candidates/${platform}`, api.url));
      expect(response.status).toBe(404);
    }
    // Who cites whom, each citer once.
    const courier = await candidate(S.coastalCourier);
    expect(courier.citations).toBe(3);
    expect(courier.cited_by.map((c: any) => c.seed_id).sort()).toEqual([...seeds].sort());
    const observer = await candidate(S.outbackObserver);
    expect(observer.cited_by.map((c: any) => c.seed_id)).toEqual([`candidate:${S.coastalCourier}`]);
    for (const domain of [S.coastalCourier, S.southernStar, S.bushKitchen, S.gumLeafGoods, S.outbackObserver])
      expect(web.hits(domain, '/')).toBeGreaterThan(0);

    // A person rejects the recipe blog.
    const rejected = await postJson(api.url, '/api/v1/candidates/reject', {
      domains: [S.bushKitchen],
      reason: 'a recipe blog, not a newsroom',
    });
    expect(rejected.status).toBe(200);
    expect(rejected.body.results).toEqual([{ domain: S.bushKitchen, result: 'rejected' }]);
    const before = await candidate(S.bushKitchen);
    const blogHits = web.hits(S.bushKitchen);

    // A new seed links to the rejected blog and to a news site nobody cited yet.
    const bay = await createSeed(S.bayBulletin);
    const second = await discover({ country: 'au', rounds: 2 });
    expect(second.batch.status).toBe('completed');
    expect(second.items).toHaveLength(second.batch.total_items);
    const outcomes = second.items
      .filter((i) => i.input.kind === 'harvest')
      .map((i) => [(i.input as { seed_id: string }).seed_id, i.outcome]);
    expect(outcomes.sort()).toEqual([...seeds.map((id) => [id, 'read_recently']), [bay, 'harvested']].sort());
    expect(qualified(second.items)).toEqual([
      { domain: S.tideTribune, round: 1, outcome: 'news', verdict: 'news' },
    ]);
    // The rejected blog: not qualified, not fetched, no new citation, its decision and reason kept.
    const after = await candidate(S.bushKitchen);
    expect(after).toEqual(before);
    expect(after).toMatchObject({
      state: 'rejected',
      reject_reason: 'a recipe blog, not a newsroom',
      citations: 2,
    });
    expect(web.hits(S.bushKitchen)).toBe(blogHits);
  }, 120_000); // a guard against a hang on a loaded 2-core machine, not a timing assertion
});
