// A site that changes between contract runs, on SQLite and on PostgreSQL: the run applies what it found to the
// fields no person set, proposes the rest, never changes an active seed's contract by itself, and records every
// difference from the previous discovery as an event (docs/design.md §3 "Human edits win", docs/revisions.md).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsObjectStore } from '../../src/adapters/fs-object-store.js';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import { prodDomainKey } from '../../src/domain/keys.js';
import type { Database } from '../../src/ports/database.js';
import { createCandidateService } from '../../src/services/candidates/index.js';
import { createChangeService } from '../../src/services/changes.js';
import { createContractService } from '../../src/services/contracts.js';
import { createLivenessService } from '../../src/services/liveness.js';
import { createRecordDomain } from '../../src/services/record-domain.js';
import { createSeedContractRuns } from '../../src/services/seed-contract-runs.js';
import { createSeedHealthService } from '../../src/services/seed-health.js';
import { createSeedRepository } from '../../src/services/seed-repository/index.js';
import { createSeedService } from '../../src/services/seeds.js';
import { type StubAnswer, stubFetcher } from '../fixtures/fake-internet/stub-fetcher.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';

const DOMAIN_ID = 'gov:sg:mof.gov.sg';
const SEED_ID = `${DOMAIN_ID}::news`;
const SITE = 'https://mof.gov.sg';
const PARTITION = { country: 'sg', category: 'news', date: '2026-06-01' };

const page = (title: string, feed: boolean) => ({
  status: 200,
  headers: { 'content-type': 'text/html; charset=utf-8' },
  body: `<!doctype html><html lang="en"><head><title>${title}</title>${
    feed ? '<link rel="alternate" type="application/rss+xml" title="News" href="/feed.xml">' : ''
  }</head><body><h1>${title}</h1></body></html>`,
});
const RSS = {
  status: 200,
  headers: { 'content-type': 'application/rss+xml' },
  body: `<?xml version="1.0"?><rss version="2.0"><channel><title>News</title><link>${SITE}/</link>
    <item><title>Budget</title><link>${SITE}/news/1</link><pubDate>Sun, 31 May 2026 08:00:00 GMT</pubDate></item>
    </channel></rss>`,
};
const robots = (body: string): StubAnswer => ({
  status: 200,
  headers: { 'content-type': 'text/plain' },
  body,
});

/** The site on its first visit: a feed, robots.txt allowing everyone. */
const FIRST: Record<string, StubAnswer> = {
  [`${SITE}/`]: page('Ministry of Finance', true),
  [`${SITE}/feed.xml`]: RSS,
  [`${SITE}/robots.txt`]: robots('User-agent: *\nAllow: /\n'),
};
/** Later: the feed is gone, robots.txt asks for a crawl-delay and keeps GPTBot out. */
const TIGHTENED: Record<string, StubAnswer> = {
  [`${SITE}/`]: page('MOF Singapore home', false),
  [`${SITE}/robots.txt`]: robots(
    'User-agent: *\nAllow: /\nCrawl-delay: 5\n\nUser-agent: GPTBot\nDisallow: /\n',
  ),
};
/** Later still: robots.txt keeps SeedbedBot out too. */
const CLOSED: Record<string, StubAnswer> = {
  ...TIGHTENED,
  [`${SITE}/robots.txt`]: robots('User-agent: *\nDisallow: /\n'),
};

function siteChangeSuite(open: () => Promise<{ database: Database; cleanup: () => Promise<void> }>) {
  let database: Database;
  let cleanup: () => Promise<void>;
  let dir: string;
  const answers: Record<string, StubAnswer> = {};
  let seeds: ReturnType<typeof createSeedService>;
  let changes: ReturnType<typeof createChangeService>;
  let contracts: ReturnType<typeof createContractService>;
  let tick = 0;
  // Each run a minute after the previous: discoveries compare forward in time.
  const clock = () => new Date(Date.UTC(2026, 5, 1, 8, tick++));

  beforeAll(async () => {
    ({ database, cleanup } = await open());
    await database.migrate();
    dir = await mkdtemp(join(tmpdir(), 'seedbed-site-changes-'));
    const fetcher = stubFetcher(answers);
    const repository = createSeedRepository(database);
    seeds = createSeedService({ database, clock, repository });
    changes = createChangeService({ database, clock });
    const health = createSeedHealthService({ repository, changes, autoSuspendAfter: null });
    const contractRuns = createSeedContractRuns({ repository, revisions: seeds.revisions, health, clock });
    contracts = createContractService({
      objects: createFsObjectStore(dir),
      fetcher,
      changes,
      recordDomain: createRecordDomain({
        liveness: createLivenessService({ database, repository }),
        changes,
        contractRuns,
        health,
        repository,
        candidates: createCandidateService({ database, seeds: repository, contractRuns, clock }),
      }),
      clock,
      canary: null,
    });
  });
  afterAll(async () => {
    await cleanup();
    await rm(dir, { recursive: true, force: true });
  });

  async function run(batchId: string, site: Record<string, StubAnswer>) {
    for (const key of Object.keys(answers)) delete answers[key];
    Object.assign(answers, site);
    const collected = await contracts.collect({
      index: 0,
      input: DOMAIN_ID,
      domainId: DOMAIN_ID,
      partition: PARTITION,
      force: true,
      source: { batch_id: batchId },
    });
    return database.transaction((trx) => contracts.record(trx, collected));
  }
  const revisions = async () => (await seeds.revisions.list(SEED_ID, { limit: 100, offset: 0 })).data;
  const kinds = async (batchId: string) =>
    (await changes.list({ limit: 100, offset: 0 })).data
      .filter((c) => c.batch_id === batchId)
      .map((c) => c.kind);

  it('a first run makes a draft and its first revision, by the batch; no event (it is the baseline)', async () => {
    const result = await run('b1', FIRST);
    expect(result).toMatchObject({ status: 'succeeded', outcome: 'created' });
    const seed = await seeds.get(SEED_ID);
    expect(seed).toMatchObject({
      name: 'Ministry of Finance',
      fetch: { type: 'rss', urls: [`${SITE}/feed.xml`] },
      version: 1,
      human_fields: [],
    });
    const [first, ...rest] = await revisions();
    expect(rest).toEqual([]);
    expect(first).toMatchObject({ number: 1, status: 'applied', author: 'batch:b1' });
    expect(first?.changes.name).toEqual({ before: null, after: 'Ministry of Finance' });
    expect(await kinds('b1')).toEqual([]);
  });

  it("a person's edit is a revision by the key's name, and its fields become theirs", async () => {
    const edited = await seeds.patch(SEED_ID, { name: 'MOF', schedule: '0 7 * * *' }, 'alice');
    expect(edited.human_fields.sort()).toEqual(['name', 'schedule']);
    expect(edited.version).toBe(2);
    const revision = (await revisions()).at(-1);
    expect(revision).toMatchObject({
      number: 2,
      status: 'applied',
      author: 'alice',
      changes: { name: { before: 'Ministry of Finance', after: 'MOF' }, schedule: { after: '0 7 * * *' } },
    });
  });

  it('a re-run on a changed site applies what no person set, proposes the rest, and records the changes', async () => {
    const result = await run('b2', TIGHTENED);
    expect(result).toMatchObject({ status: 'succeeded', outcome: 'updated' });
    const seed = await seeds.get(SEED_ID);
    // The person's name and schedule survive; the fetch plan and policy follow the site.
    expect(seed).toMatchObject({ name: 'MOF', schedule: '0 7 * * *', version: 3 });
    expect(seed.fetch.type).not.toBe('rss');
    expect(seed.policy).toMatchObject({ crawl_delay: 5 });
    const [, , applied, proposed, ...rest] = await revisions();
    expect(rest).toEqual([]);
    expect(applied).toMatchObject({ number: 3, status: 'applied', author: 'batch:b2' });
    expect(Object.keys(applied?.changes ?? {}).sort()).toEqual(['fetch', 'policy']);
    expect(proposed).toMatchObject({
      number: 4,
      status: 'proposed',
      author: 'batch:b2',
      base_version: 3,
      changes: { name: { before: 'MOF', after: 'MOF Singapore home' } },
    });
    expect(proposed?.changes.schedule?.before).toBe('0 7 * * *');
    expect(result.result).toMatchObject({ proposed_revision: 4 });
    expect((await kinds('b2')).sort()).toEqual([
      'ai_crawler_disallowed',
      'crawl_delay_changed',
      'feed_removed',
      'main_feed_changed',
    ]);
    const [removed] = (
      await changes.list({ kind: 'feed_removed', domain: 'mof.gov.sg', limit: 10, offset: 0 })
    ).data;
    expect(removed).toMatchObject({ before: `${SITE}/feed.xml`, after: null, batch_id: 'b2' });
    expect(removed?.evidence).toMatchObject({ previous_batch_id: 'b1' });
    expect(removed?.evidence['objects']).toContain(
      prodDomainKey(PARTITION, 'mof.gov.sg', 'domain_metadata.json'),
    );
    const gpt = (await changes.list({ kind: 'ai_crawler_disallowed', limit: 10, offset: 0 })).data;
    expect(gpt.map((c) => c.message)).toEqual(['GPTBot newly disallowed']);
    expect(await changes.countByKind()).toMatchObject({ feed_removed: 1, ai_crawler_disallowed: 1 });
  });

  it('the same run again records nothing new: the open proposal is not repeated, no event', async () => {
    const result = await run('b3', TIGHTENED);
    expect(result).toMatchObject({ outcome: 'unchanged', result: { proposed_revision: 4 } });
    expect(await revisions()).toHaveLength(4);
    expect(await kinds('b3')).toEqual([]);
  });

  it("never changes an active seed's contract: it proposes, superseding the older proposal", async () => {
    await seeds.promote({ seedIds: [SEED_ID] });
    const before = await seeds.get(SEED_ID);
    const result = await run('b4', CLOSED);
    expect(result).toMatchObject({ status: 'skipped', outcome: 'kept', result: { proposed_revision: 5 } });
    const after = await seeds.get(SEED_ID);
    // Facts about the source are refreshed whatever the status (freshness measured again); the contract is not.
    const facts = { updated_at: null, discovery: null, health: null, freshness: null, policy: null };
    expect({ ...after, ...facts }).toEqual({ ...before, ...facts });
    expect(after.freshness?.measured_at).not.toBe(before.freshness?.measured_at);
    expect(after.policy.ai?.status).toBe('disallowed');
    expect({ ...after.policy, ai: null }).toEqual({ ...before.policy, ai: null });
    const all = await revisions();
    expect(all[3]).toMatchObject({ number: 4, status: 'superseded' });
    expect(all[4]).toMatchObject({ number: 5, status: 'proposed' });
    expect(all[4]?.changes.policy?.after).toMatchObject({ robots_allowed: false });
    expect(await kinds('b4')).toContain('robots_disallowed');
  });

  it('accepting applies the proposal and raises the version; a settled proposal is a 409', async () => {
    const accepted = await seeds.revisions.accept(SEED_ID, 5, 'alice');
    expect(accepted).toMatchObject({ status: 'accepted', settled_by: 'alice', seed_version: 4 });
    const seed = await seeds.get(SEED_ID);
    expect(seed).toMatchObject({ status: 'active', version: 4, policy: { robots_allowed: false } });
    await expect(seeds.revisions.reject(SEED_ID, 5, 'alice')).rejects.toMatchObject({
      status: 409,
      code: 'revision_settled',
    });
    await expect(seeds.revisions.accept(SEED_ID, 42, 'alice')).rejects.toMatchObject({ status: 404 });
  });

  it('a proposal the seed moved past cannot be accepted (409), and rejecting leaves the seed as it is', async () => {
    await run('b5', TIGHTENED);
    const proposal = (await revisions()).at(-1);
    expect(proposal).toMatchObject({ number: 6, status: 'proposed' });
    expect(await kinds('b5')).toContain('robots_allowed');
    await seeds.patch(SEED_ID, { policy: { crawl_delay: 30 } }, 'bob');
    await expect(seeds.revisions.accept(SEED_ID, 6, 'alice')).rejects.toMatchObject({
      status: 409,
      code: 'seed_moved_on',
    });
    // A new proposal from the next run; rejected, the seed keeps what the person decided.
    await run('b6', TIGHTENED);
    const next = (await revisions()).at(-1);
    expect(next).toMatchObject({ status: 'proposed', author: 'batch:b6' });
    const version = (await seeds.get(SEED_ID)).version;
    const rejected = await seeds.revisions.reject(SEED_ID, next?.number ?? 0, 'bob');
    expect(rejected).toMatchObject({ status: 'rejected', settled_by: 'bob', seed_version: version });
    expect(await seeds.get(SEED_ID)).toMatchObject({ version, policy: { crawl_delay: 30 } });
  });

  it('a site gone dead is an event; its feeds are not "removed" by a run that could not read them', async () => {
    const result = await run('b7', {});
    expect(result).toMatchObject({ status: 'failed' });
    expect(await kinds('b7')).toEqual(['site_dead']);
    await run('b8', TIGHTENED);
    expect(await kinds('b8')).toEqual(['site_alive']);
  });

  it('an entry page that starts answering from another site is an event naming both', async () => {
    const moved = 'https://www.finance-singapore.com.sg';
    await run('b9', {
      [`${SITE}/`]: { ...page('MOF Singapore home', false), finalUrl: `${moved}/` },
      [`${SITE}/robots.txt`]: robots('User-agent: *\nAllow: /\n'),
      [`${moved}/robots.txt`]: robots('User-agent: *\nAllow: /\n'),
    });
    const [event] = (await changes.list({ kind: 'entry_site_changed', limit: 10, offset: 0 })).data;
    expect(event).toMatchObject({ batch_id: 'b9', before: 'mof.gov.sg', after: 'finance-singapore.com.sg' });
    // The next run from the same place: nothing moved again.
    await run('b10', {
      [`${SITE}/`]: { ...page('MOF Singapore home', false), finalUrl: `${moved}/` },
      [`${SITE}/robots.txt`]: robots('User-agent: *\nAllow: /\n'),
      [`${moved}/robots.txt`]: robots('User-agent: *\nAllow: /\n'),
    });
    expect(await kinds('b10')).not.toContain('entry_site_changed');
  });
}

describe('a site that changes between contract runs, on SQLite', () => {
  siteChangeSuite(async () => {
    const folder = await mkdtemp(join(tmpdir(), 'seedbed-site-changes-db-'));
    const database = createSqliteDatabase(join(folder, 'seedbed.db'));
    return {
      database,
      cleanup: async () => {
        await database.close();
        await rm(folder, { recursive: true, force: true });
      },
    };
  });
});

const up = await pgAvailable();

describe.skipIf(!up)('a site that changes between contract runs, on PostgreSQL', () => {
  siteChangeSuite(async () => {
    const schema = uniqueSchemaName('seedbed_changes');
    const database = createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 3 });
    return {
      database,
      cleanup: async () => {
        await database.close();
        await dropSchemas([schema]);
      },
    };
  });
});
