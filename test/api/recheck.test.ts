// Re-checks keep the directory alive (docs/design.md §11), on SQLite + the embedded queue and on PostgreSQL + pg-boss:
// active seeds go back through the contract pipeline as `recheck` batches — asked for through the API, or on
// their tick of SEEDBED_RECHECK_CRON through RECHECK_QUEUE — and a re-check moves health (ok | failing | stale,
// failures counted), records changes (AI crawler newly disallowed, TDM reservation, feed removed) and proposed
// revisions, never edits an active contract or a person's field, and SEEDBED_AUTO_SUSPEND suspends a seed
// after that many failed checks in a row, saying why.
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDueAt, recheckTickOf } from '../../src/domain/recheck-slots.js';
import { type StubAnswer, stubFetcher } from '../fixtures/fake-internet/stub-fetcher.js';
import { expectJson, expectProblem, inject } from '../support/api-helpers.js';
import { ON_POSTGRES } from '../support/backend.js';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';
import { eventually } from '../support/waiting.js';

const MOF = 'gov:sg:mof.gov.sg';
const MOM = 'gov:sg:mom.gov.sg';
const MOF_SEED = `${MOF}::news`;
const MOM_SEED = `${MOM}::news`;
const CRON = '0 * * * *';

const html = (title: string, feed: boolean, headers: Record<string, string> = {}): StubAnswer => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8', ...headers },
  body: `<!doctype html><html lang="en"><head><title>${title}</title>${
    feed ? '<link rel="alternate" type="application/rss+xml" title="News" href="/feed.xml">' : ''
  }</head><body><h1>${title}</h1></body></html>`,
});
const rss = (site: string): StubAnswer => ({
  status: 200,
  headers: { 'content-type': 'application/rss+xml' },
  body: `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>${site}/</link>
    <item><title>Budget statement</title><link>${site}/news/1</link><pubDate>${new Date(Date.now() - 3_600_000).toUTCString()}</pubDate></item>
    </channel></rss>`,
});
const text = (body: string, etag: string): StubAnswer => ({
  status: 200,
  headers: { 'content-type': 'text/plain', etag },
  body,
});
const site = (name: string, robots: string, extra: Record<string, StubAnswer> = {}) => ({
  [`https://${name}/`]: html(name, true),
  [`https://${name}/feed.xml`]: rss(`https://${name}`),
  [`https://${name}/robots.txt`]: text(robots, `"${name}-1"`),
  ...extra,
});

/** Both sites on the first visit: a feed each, robots.txt open to everyone. */
const FIRST: Record<string, StubAnswer> = {
  ...site('mof.gov.sg', 'User-agent: *\nAllow: /\n'),
  ...site('mom.gov.sg', 'User-agent: *\nAllow: /\n'),
};
/** Later: MOF drops its feed, keeps GPTBot out and reserves TDM rights; MOM no longer resolves. */
const CHANGED: Record<string, StubAnswer> = {
  'https://mof.gov.sg/': html('MOF Singapore', false, { 'tdm-reservation': '1' }),
  'https://mof.gov.sg/feed.xml': { status: 404, body: 'gone' },
  'https://mof.gov.sg/robots.txt': text(
    'User-agent: *\nAllow: /\n\nUser-agent: GPTBot\nDisallow: /\n',
    '"mof.gov.sg-2"',
  ),
  'https://mom.gov.sg/': { error: 'ENOTFOUND' },
  'http://mom.gov.sg/': { error: 'ENOTFOUND' },
  'https://www.mom.gov.sg/': { error: 'ENOTFOUND' },
  'http://www.mom.gov.sg/': { error: 'ENOTFOUND' },
};

function recheckSuite(env: () => Promise<{ env: Record<string, string>; cleanup: () => Promise<void> }>) {
  let t: TestSeedbed;
  let cleanup: () => Promise<void>;
  const answers: Record<string, StubAnswer> = {};
  const fetcher = stubFetcher(answers);
  const revalidated = (url: string) => fetcher.conditionalCalls.filter((call) => call.url === url);
  const serve = (web: Record<string, StubAnswer>) => {
    for (const key of Object.keys(answers)) delete answers[key];
    Object.assign(answers, web);
  };
  const get = (url: string) => inject(t.app, { method: 'GET', url });
  const post = (url: string, payload: object) => inject(t.app, { method: 'POST', url, payload });
  const seed = async (id: string) => expectJson(await get(`/api/v1/seeds/${encodeURIComponent(id)}`), 200);
  const recheck = async (body: object = {}) => {
    const plan = expectJson(await post('/api/v1/queues/recheck', body), 202);
    for (const batch of plan.batches) await t.waitForBatch(batch.batchId, 60_000);
    return plan;
  };

  beforeAll(async () => {
    const made = await env();
    cleanup = made.cleanup;
    t = await createTestSeedbed(
      { SEEDBED_RECHECK_CRON: CRON, SEEDBED_AUTO_SUSPEND: '2', ...made.env },
      { fetcher },
    );
    t.startWorkers(['CONTRACT_QUEUE', 'RECHECK_QUEUE']);
    serve(FIRST);
    const batch = expectJson(
      await post('/api/v1/queues/contract', { country: 'sg', category: 'news', domainIds: [MOF, MOM] }),
      202,
    );
    expect((await t.waitForBatch(batch.batchId, 60_000)).status).toBe('completed');
  }, 120_000);
  afterAll(async () => {
    await t?.close();
    await cleanup?.();
  });

  it('a contract run is a check: each new seed is healthy, with no failure counted', async () => {
    for (const id of [MOF_SEED, MOM_SEED]) {
      const found = await seed(id);
      expect(found.health).toMatchObject({ state: 'ok', consecutive_failures: 0, last_error: null });
      expect(found.health.last_checked_at).toBe(found.health.last_ok_at);
    }
  });

  it('re-checks only active seeds; a draft is left to its reviewer', async () => {
    const plan = await recheck();
    expect(plan).toEqual({ tick: null, seeds: 0, batches: [] });
  });

  it("a re-check of a changed site proposes, never edits the active contract or the person's name, and records the changes", async () => {
    const named = await inject(t.app, {
      method: 'PATCH',
      url: `/api/v1/seeds/${encodeURIComponent(MOF_SEED)}`,
      payload: { name: 'Ministry of Finance (reviewed)' },
    });
    expectJson(named, 200);
    expectJson(await post('/api/v1/seeds/promote', { seedIds: [MOF_SEED, MOM_SEED] }), 200);
    const before = await seed(MOF_SEED);

    serve({ ...FIRST, ...CHANGED });
    const plan = await recheck();
    expect(plan.seeds).toBe(2);
    expect(plan.batches).toHaveLength(1);
    const [batch] = plan.batches;
    expect(batch).toMatchObject({ type: 'recheck', country: 'sg', category: 'news', total_items: 2 });
    const done = expectJson(await get(`/api/v1/queues/batch/${batch.batchId}`), 200);
    expect(done).toMatchObject({ status: 'completed_with_errors', items: { failed: 1, skipped: 1 } });

    const after = await seed(MOF_SEED);
    // The contract stays as the person left it: same version, same name, same fetch plan.
    expect(after).toMatchObject({
      status: 'active',
      version: before.version,
      name: 'Ministry of Finance (reviewed)',
      fetch: before.fetch,
    });
    // Facts follow the site: the AI policy now keeps GPTBot out and reserves TDM rights.
    expect(after.policy.ai).toMatchObject({ disallowed_agents: ['GPTBot'], tdm_reservation: true });
    expect(after.health).toMatchObject({
      state: 'ok',
      consecutive_failures: 0,
      last_batch_id: batch.batchId,
    });
    const revisions = expectJson(await get(`/api/v1/seeds/${encodeURIComponent(MOF_SEED)}/revisions`), 200);
    const proposed = revisions.data.filter((r: { status: string }) => r.status === 'proposed');
    expect(proposed).toHaveLength(1);
    expect(proposed[0].author).toBe(`batch:${batch.batchId}`);
    expect(Object.keys(proposed[0].changes)).toContain('fetch');

    const changes = expectJson(await get('/api/v1/changes?domain=mof.gov.sg&limit=100'), 200);
    const kinds = changes.data.map((c: { kind: string }) => c.kind);
    expect(kinds).toEqual(
      expect.arrayContaining(['feed_removed', 'ai_crawler_disallowed', 'tdm_reservation_changed']),
    );
    const gpt = changes.data.find((c: { kind: string }) => c.kind === 'ai_crawler_disallowed');
    expect(gpt).toMatchObject({ message: 'GPTBot newly disallowed', batch_id: batch.batchId });
    expect(changes.data.find((c: { kind: string }) => c.kind === 'tdm_reservation_changed')).toMatchObject({
      before: null,
      after: true,
    });
  });

  it('a failed re-check makes the seed failing, counted; the list filters on health', async () => {
    const mom = await seed(MOM_SEED);
    expect(mom.status).toBe('active');
    expect(mom.health).toMatchObject({ state: 'failing', consecutive_failures: 1 });
    expect(mom.health.last_error).toMatch(/dead|ENOTFOUND/);
    expect(mom.health.last_ok_at).not.toBeNull();
    const failing = expectJson(await get('/api/v1/seeds?health=failing'), 200);
    expect(failing.data.map((s: { seed_id: string }) => s.seed_id)).toEqual([MOM_SEED]);
    const ok = expectJson(await get('/api/v1/seeds?health=ok'), 200);
    expect(ok.data.map((s: { seed_id: string }) => s.seed_id)).toEqual([MOF_SEED]);
    expectProblem(await get('/api/v1/seeds?health=sick'), 400);
    const snapshot = expectJson(await get('/api/v1/metadata/snapshot'), 200);
    expect(snapshot.totals.active_seeds_by_health).toEqual({ ok: 1, failing: 1, stale: 0, unchecked: 0 });
  });

  it('SEEDBED_AUTO_SUSPEND=2: the second failure in a row suspends the seed, with the reason and an event', async () => {
    const plan = await recheck({ seedIds: [MOM_SEED] });
    expect(plan.seeds).toBe(1);
    const mom = await seed(MOM_SEED);
    expect(mom.status).toBe('suspended');
    expect(mom.health).toMatchObject({ state: 'failing', consecutive_failures: 2 });
    expect(mom.health.suspended.reason).toMatch(/2 checks in a row failed/);
    const events = expectJson(await get('/api/v1/changes?kind=seed_suspended'), 200);
    expect(events.data).toHaveLength(1);
    expect(events.data[0]).toMatchObject({
      domain_id: MOM,
      before: 'active',
      after: 'suspended',
      batch_id: plan.batches[0].batchId,
    });
    // A suspended seed is no longer re-checked.
    expect((await recheck()).seeds).toBe(1);
  });

  it('the schedule: a tick takes the active seeds whose share of the day it is, once however often it runs', async () => {
    const now = new Date();
    const dayStart = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate());
    // The hour that is mof.gov.sg's share, and one that is not.
    const hours = Array.from({ length: 24 }, (_, h) => new Date(dayStart + h * 3_600_000));
    const due = hours.find((h) => isDueAt('mof.gov.sg', recheckTickOf(CRON, h))) as Date;
    const other = hours.find((h) => !isDueAt('mof.gov.sg', recheckTickOf(CRON, h))) as Date;
    const scheduled = async () => {
      const list = expectJson(await get('/api/v1/queues/batches?type=recheck&limit=100'), 200);
      return list.pagination.total as number;
    };
    const tick = async (slot: Date) => {
      const { queue, database } = t.seedbed;
      await database.transaction((trx) =>
        queue.enqueue(trx, [
          { queue: 'RECHECK_QUEUE', payload: { scheduled: true, slot: slot.toISOString() } },
        ]),
      );
    };
    const before = await scheduled();
    await tick(other);
    await tick(due);
    expect(await eventually(async () => (await scheduled()) === before + 1, 30_000)).toBe(true);
    const list = expectJson(await get('/api/v1/queues/batches?type=recheck&limit=1'), 200);
    const made = expectJson(await get(`/api/v1/queues/batch/${list.data[0].batchId}`), 200);
    expect(made).toMatchObject({ total_items: 1, summary: { scheduled: due.toISOString() } });
    await t.waitForBatch(made.batchId, 60_000);
    // Nothing changed since the last re-check: robots.txt answered 304 and was read from the stored copy.
    expect(revalidated('https://mof.gov.sg/robots.txt').at(-1)).toEqual({
      url: 'https://mof.gov.sg/robots.txt',
      notModified: true,
    });
    expect((await seed(MOF_SEED)).policy.ai.disallowed_agents).toEqual(['GPTBot']);
    // The same tick again (another process, a retry) makes no second batch.
    await tick(due);
    const settled = async () => {
      const stats = await t.seedbed.queue.stats();
      const recheck = stats.find((s) => s.queue === 'RECHECK_QUEUE');
      return recheck !== undefined && recheck.queued + recheck.active + recheck.retrying === 0;
    };
    expect(await eventually(settled, 30_000)).toBe(true);
    expect(await scheduled()).toBe(before + 1);
  });

  it('asks for a valid body', async () => {
    expectProblem(await post('/api/v1/queues/recheck', { country: 'zz9' }), 400);
    expectProblem(await post('/api/v1/queues/recheck', { seedIds: [] }), 400);
    expectProblem(await post('/api/v1/queues/recheck', { every: true }), 400);
  });
}

describe('re-checks on SQLite and the embedded queue', () => {
  recheckSuite(async () => ({ env: {}, cleanup: async () => {} }));
});

const pgUp = await pgAvailable();

// In the PostgreSQL run (npm run test:pg) the suite above already runs on PostgreSQL + pg-boss: not twice.
describe.skipIf(!pgUp || ON_POSTGRES)('re-checks on PostgreSQL and pg-boss', () => {
  recheckSuite(async () => {
    const name = `seedbed_recheck_${process.pid}_${Date.now()}`;
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`create database ${name}`);
    await admin.end();
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${name}`;
    return {
      env: { DATABASE_URL: url.toString() },
      async cleanup() {
        const dropper = new pg.Client({ connectionString: TEST_DATABASE_URL });
        await dropper.connect();
        await dropper.query(`drop database if exists ${name} with (force)`);
        await dropper.end();
      },
    };
  });
});
