// Every list the API and the review page offer is read from an index in the order it is shown in: SQLite's plan of
// each query a list runs names an index and never sorts (`USE TEMP B-TREE FOR ORDER BY`), for every candidate
// filter × sort, on a first page and after a cursor. The queries are the ones the services really send, caught on
// their way to the database.
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import { CANDIDATE_SORTS } from '../../src/domain/candidates.js';
import type { Database } from '../../src/ports/database.js';
import { createBatchService } from '../../src/services/batches.js';
import { pageQueries } from '../../src/services/candidates/list-query.js';
import { createCandidateRepository } from '../../src/services/candidates/repository.js';
import { createChangeService } from '../../src/services/changes.js';
import { encodeCursor } from '../../src/services/cursor.js';
import { QueryRecorder, recordedPlans } from '../support/query-plans.js';

let database: Database;
let recorded: Database;
const recorder = new QueryRecorder();

beforeAll(async () => {
  database = createSqliteDatabase(':memory:');
  await database.migrate();
  recorded = { ...database, db: database.db.withPlugin(recorder) };
  await database.db
    .insertInto('batches')
    .values({
      id: 'b1',
      type: 'contract',
      status: 'running',
      country: 'sg',
      category: null,
      date: null,
      total_items: 1,
      chunk_size: 1,
      chunks_total: 1,
      chunks_succeeded: 0,
      chunks_failed: 0,
      summary: '{}',
      idempotency_key: null,
      request_hash: null,
      created_at: '2026-11-26T00:00:00.000Z',
      started_at: null,
      finished_at: null,
    })
    .execute();
});
afterAll(() => database.close());

/** SQLite's plan of every query `run` sends, one line per step, with the SQL it is for. */
async function plansOf(run: () => Promise<unknown>): Promise<Array<{ sql: string; plan: string }>> {
  recorder.nodes = [];
  await run();
  const plans = await recordedPlans(database, recorder);
  expect(plans.length).toBeGreaterThan(0);
  return plans;
}

/**
 * No query sorts its rows, and every read of `table` is a search of one of the list's indexes, but the count of a
 * whole unfiltered list (which SQLite reads from its smallest index).
 */
function expectIndexedInOrder(plans: Array<{ sql: string; plan: string }>, table: string, index: RegExp) {
  for (const { sql, plan } of plans) {
    expect(plan, sql).not.toMatch(/TEMP B-TREE/);
    if (/^select count\(\*\) as "n" from "\w+"$/.test(sql)) continue;
    for (const step of plan.split(' | ').filter((s) => new RegExp(`^(SCAN|SEARCH) ${table}\\b`).test(s)))
      expect(step, sql).toMatch(index);
  }
}

const FILTERS = [
  {},
  { country: 'sg' },
  { state: 'qualified' as const },
  { verdict: 'news' as const },
  { min_score: 0.5 },
  { country: 'sg', state: 'new' as const },
  { country: 'sg', verdict: 'maybe' as const, min_score: 0.2 },
  { state: 'rejected' as const, verdict: 'not_news' as const },
  { country: 'sg', state: 'accepted' as const, verdict: 'news' as const, min_score: 0.9 },
];
const CANDIDATE_LISTS = FILTERS.flatMap((filter) =>
  [undefined, ...CANDIDATE_SORTS].map((sort) => ({ ...filter, ...(sort ? { sort } : {}) })),
);

describe('the candidate list', () => {
  it.each(CANDIDATE_LISTS)('walks an index in order: %o', async (filter) => {
    const repository = createCandidateRepository(recorded);
    const sort = filter.sort;
    const after = sort === undefined ? ['m.example'] : [sort === 'first_seen' ? '2026-11' : 3, 'm.example'];
    const first = await plansOf(() => repository.list({ ...filter, limit: 25, offset: 0 }));
    const deep = await plansOf(() =>
      repository.list({
        ...filter,
        limit: 25,
        offset: 0,
        cursor: encodeCursor({ order: sort ?? 'domain', after }),
      }),
    );
    const byOffset = await plansOf(() => repository.list({ ...filter, limit: 25, offset: 50 }));
    expectIndexedInOrder(
      [...first, ...deep, ...byOffset],
      'candidates',
      /USING (COVERING )?INDEX (candidates_list_|sqlite_autoindex_candidates)/,
    );
  });

  it.each([
    undefined,
    ...CANDIDATE_SORTS,
  ])('with rows and ANALYZE, min_score walks an index in order, sort %s', async (sort) => {
    const analyzed = createSqliteDatabase(':memory:');
    try {
      await analyzed.migrate();
      // 6,000 candidates, a score on three in four (0.00 to 0.99), so the statistics see a spread of scores.
      await sql`with recursive n(i) as (select 1 union all select i + 1 from n where i < 6000)
        insert into candidates (domain, state, country, news, news_verdict, score, country_guess, languages,
          citations, feeds_found, sitemap, robots_allowed, alive, qualification, sources, first_seen_at)
        select printf('c%05d.example', i), case i % 4 when 0 then 'new' when 1 then 'qualified'
            when 2 then 'accepted' else 'rejected' end,
          case i % 3 when 0 then 'sg' when 1 then 'my' else 'fr' end, null,
          case when i % 4 = 0 then null else case i % 3 when 0 then 'news' when 1 then 'maybe' else 'not_news' end end,
          case when i % 4 = 0 then null else (i % 100) / 100.0 end,
          null, '[]', i % 37, null, null, null, null, null, '[]', printf('2026-01-01T%05d', i)
        from n`.execute(analyzed.db);
      await sql`analyze`.execute(analyzed.db);
      for (const filter of [{ min_score: 0.5 }, { min_score: 0.95 }, { country: 'sg', min_score: 0.2 }])
        for (const query of pageQueries(analyzed.db, { ...filter, ...(sort ? { sort } : {}) })) {
          const compiled = query.compile();
          const plan = await analyzed.db.executeQuery<{ detail: string }>(
            CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
          );
          expectIndexedInOrder(
            [{ sql: compiled.sql, plan: plan.rows.map((r) => r.detail).join(' | ') }],
            'candidates',
            /USING (COVERING )?INDEX candidates_list_/,
          );
        }
    } finally {
      await analyzed.close();
    }
  });

  it('reads an unscored page (after the scored rows) from the index too', async () => {
    const repository = createCandidateRepository(recorded);
    const cursor = encodeCursor({ order: 'score', after: [null, 'm.example'] });
    const plans = await plansOf(() => repository.list({ sort: 'score', limit: 25, offset: 0, cursor }));
    expect(plans.some((p) => /score" is null/.test(p.sql))).toBe(true);
    expectIndexedInOrder(plans, 'candidates', /USING (COVERING )?INDEX candidates_list_/);
  });
});

describe('the change list', () => {
  const changes = () => createChangeService({ database: recorded, clock: () => new Date() });
  const since = '2026-11-01T00:00:00.000Z';
  it.each([
    {},
    { since },
    { domain: 'a.example' },
    { kind: 'site_dead' as const },
    { since, kind: 'site_dead' as const },
    { since, domain: 'a.example' },
    { domain: 'a.example', kind: 'site_dead' as const },
  ])('walks an index in order, oldest or newest first: %o', async (filter) => {
    const after = ['2026-11-20T00:00:00.000Z', 'x'];
    const cursor = encodeCursor({ order: 'detected', after });
    const newest = { ...filter, newestFirst: true, limit: 25, offset: 0 };
    const plans = [
      ...(await plansOf(() => changes().list({ ...filter, limit: 25, offset: 0 }))),
      ...(await plansOf(() => changes().list({ ...filter, limit: 25, offset: 0, cursor }))),
      ...(await plansOf(() => changes().list(newest))),
      ...(await plansOf(() =>
        changes().list({ ...newest, cursor: encodeCursor({ order: '-detected', after }) }),
      )),
    ];
    expectIndexedInOrder(plans, 'domain_changes', /USING (COVERING )?INDEX domain_changes_/);
  });
});

describe('the batch list and a batch’s items', () => {
  const batches = () =>
    createBatchService({
      database: recorded,
      ledger: { insertChunks: async () => {} },
      clock: () => new Date(),
    });
  it.each([
    {},
    { type: 'contract' as const },
    { status: 'running' as const },
    { type: 'contract' as const, status: 'running' as const },
    { createdFrom: '2026-11-01T00:00:00.000Z', createdTo: '2026-11-30T00:00:00.000Z' },
    { type: 'research' as const, createdFrom: '2026-11-01T00:00:00.000Z' },
  ])('batches walk an index in order: %o', async (filter) => {
    const cursor = encodeCursor({ order: '-created', after: ['2026-11-20T00:00:00.000Z', 'x'] });
    const plans = [
      ...(await plansOf(() => batches().list({ ...filter, limit: 25, offset: 0 }))),
      ...(await plansOf(() => batches().list({ ...filter, limit: 25, offset: 0, cursor }))),
    ];
    expectIndexedInOrder(plans, 'batches', /USING (COVERING )?INDEX batches_/);
  });

  it.each([{}, { status: 'failed' as const }])('items walk an index in order: %o', async (filter) => {
    const cursor = encodeCursor({ order: 'item_index', after: [7] });
    const plans = [
      ...(await plansOf(() => batches().items('b1', { ...filter, limit: 25, offset: 0 }))),
      ...(await plansOf(() => batches().items('b1', { ...filter, limit: 25, offset: 0, cursor }))),
    ];
    expectIndexedInOrder(
      plans.filter((p) => /batch_items/.test(p.sql)),
      'batch_items',
      /USING (COVERING )?INDEX (batch_items_status|sqlite_autoindex_batch_items)/,
    );
  });
});
