// PostgreSQL's plans of the seed list and the candidate list (SQLite's are checked by seed-list-plans.test.ts and
// list-query-plans.test.ts): on 10,000 seeds and 6,000 candidates, analyzed, every filter × sort the lists offer,
// on page 1 and by cursor, reads an index in the list's order (an Index Scan or Index Only Scan, forwards or
// backwards) and has no Sort node: no page sorts its matches. Sorting is made to cost what it would on a large
// table (`enable_sort = off`), so the plan shows whether an index serves the order, not whether the statistics of
// a test table make a sort of a few hundred rows cheaper (they do for a candidate group of this size: PostgreSQL
// then takes a bitmap scan and sorts it, rightly). The review page's usual seed filters are also planned with the
// defaults, where the ordered walk must win on its own. Each seed total is a sum of kept totals through their key, or a
// count of one index range (no Seq Scan, no Sort).
import { CompiledQuery, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { CANDIDATE_SORTS, CANDIDATE_STATES } from '../../src/domain/candidates.js';
import { NEWS_VERDICTS } from '../../src/domain/seed-facts.js';
import type { Database } from '../../src/ports/database.js';
import { type CandidateFilter, pageQueries } from '../../src/services/candidates/list-query.js';
import { createSeedRepository } from '../../src/services/seed-repository/index.js';
import { seedCountQuery, seedPageQuery } from '../../src/services/seed-repository/list.js';
import { keptTable, sumQuery } from '../../src/services/seed-repository/totals.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { cursorFor, FILTERS, type Filter, SORTS, seedRow } from '../support/seed-list-cases.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';

const up = await pgAvailable();

const SEEDS = 10_000;
const CANDIDATES = 6_000;

interface PlanNode {
  'Node Type': string;
  'Relation Name'?: string;
  'Index Name'?: string;
  Plans?: PlanNode[];
}

function nodesOf(node: PlanNode): PlanNode[] {
  return [node, ...(node.Plans ?? []).flatMap(nodesOf)];
}

describe.skipIf(!up)('list query plans (PostgreSQL)', () => {
  const schema = uniqueSchemaName('seedbed_plans');
  let database: Database;

  beforeAll(async () => {
    database = createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 2 });
    await database.migrate();
    const repository = createSeedRepository(database);
    const rows = Array.from({ length: SEEDS }, (_, i) => seedRow(i));
    await database.transaction((trx) => repository.insertMany(trx, rows, []));
    await sql`insert into candidates (domain, state, country, news, news_verdict, score, country_guess, languages,
        citations, feeds_found, sitemap, robots_allowed, alive, qualification, sources, first_seen_at)
      select 'c' || lpad(i::text, 5, '0') || '.example',
        (array['new', 'qualified', 'accepted', 'rejected'])[1 + i % 4],
        (array['sg', 'my', 'fr'])[1 + i % 3],
        null,
        case when i % 4 = 0 then null else (array['news', 'maybe', 'not_news'])[1 + i % 3] end,
        case when i % 4 = 0 then null else (i % 100) / 100.0 end,
        null, '[]', i % 37, null, null, null, null, null, '[]',
        '2026-01-01T00:00:00.000Z'::timestamptz + make_interval(mins => i) || ''
      from generate_series(1, ${CANDIDATES}) as i`.execute(database.db);
    await sql`analyze`.execute(database.db);
  }, 120_000);
  afterAll(async () => {
    await database?.close();
    await dropSchemas([schema]);
  });

  /** The plan of a statement, with `settings` (`set local`) in force. */
  async function planOf(compiled: CompiledQuery, settings: string[]): Promise<PlanNode> {
    return database.transaction(async (trx) => {
      for (const setting of settings) await trx.executeQuery(CompiledQuery.raw(`set local ${setting}`));
      const result = await trx.executeQuery<{ 'QUERY PLAN': Array<{ Plan: PlanNode }> }>(
        CompiledQuery.raw(`explain (format json) ${compiled.sql}`, [...compiled.parameters]),
      );
      return (result.rows[0]?.['QUERY PLAN'][0] as { Plan: PlanNode }).Plan;
    });
  }

  /**
   * No Sort, no table of `table`'s kind read whole, and the walk drives: the plan's first scan (its outermost loop,
   * where a join's outer side comes first) is an index scan of `table`.
   */
  function expectWalk(plan: PlanNode, table: string, what: string) {
    const nodes = nodesOf(plan);
    const shown = `${what}: ${JSON.stringify(
      nodes.map((n) => [n['Node Type'], n['Relation Name'] ?? '', n['Index Name'] ?? '']),
    )}`;
    expect(
      nodes.filter((n) => /Sort/.test(n['Node Type'])),
      shown,
    ).toEqual([]);
    expect(
      nodes.filter((n) => n['Node Type'] === 'Seq Scan'),
      shown,
    ).toEqual([]);
    const driving = nodes.find((n) => n.Plans === undefined);
    expect(driving?.['Node Type'], shown).toMatch(/^Index (Only )?Scan$/);
    expect(driving?.['Relation Name'], shown).toBe(table);
  }

  const seedPages = (filters: Filter[]) =>
    filters.flatMap((filter) =>
      SORTS.flatMap((sort) =>
        [undefined, cursorFor(sort, SEEDS)].map((cursor) => ({
          ...filter,
          sort,
          limit: 25,
          offset: 0,
          ...(cursor ? { cursor } : {}),
        })),
      ),
    );

  it('walks a seeds or seed_languages index in every order of every filter, page 1 and by cursor', async () => {
    const pages = seedPages(FILTERS);
    for (const request of pages) {
      const plan = await planOf(seedPageQuery(database, request).compile(), ['enable_sort = off']);
      expectWalk(plan, request.language === undefined ? 'seeds' : 'seed_languages', JSON.stringify(request));
    }
    expect(pages.length).toBe(FILTERS.length * SORTS.length * 2);
  });

  it('takes the ordered walk by itself for the review page’s usual filters', async () => {
    const usual: Filter[] = [
      { status: 'draft' },
      { status: 'draft', country: 'fr' },
      { status: 'draft', language: 'fr' },
      { status: 'draft', country: 'fr', language: 'fr' },
      { language: 'de' },
    ];
    for (const request of seedPages(usual)) {
      const plan = await planOf(seedPageQuery(database, request).compile(), []);
      expectWalk(plan, request.language === undefined ? 'seeds' : 'seed_languages', JSON.stringify(request));
    }
  });

  it('walks a candidates index in every order, min_score included, page 1 and by cursor', async () => {
    const filters: CandidateFilter[] = [
      {},
      { min_score: 0.5 },
      { min_score: 0.95 },
      { country: 'sg', min_score: 0.2 },
      { state: 'qualified', min_score: 0.5 },
      { country: 'sg', state: 'accepted', verdict: 'news', min_score: 0.9 },
      { state: CANDIDATE_STATES[0], verdict: NEWS_VERDICTS[0] },
    ];
    let checked = 0;
    for (const filter of filters)
      for (const sort of [undefined, ...CANDIDATE_SORTS])
        for (const query of pageQueries(database.db, { ...filter, ...(sort ? { sort } : {}) })) {
          const compiled = query.compile();
          const plan = await planOf(compiled, ['enable_sort = off']);
          expectWalk(plan, 'candidates', `${JSON.stringify({ ...filter, sort })} ${compiled.sql}`);
          checked += 1;
        }
    expect(checked).toBeGreaterThan(filters.length * 4);
  });

  it('answers each seed total from kept totals by their key, or counts one index range without a Seq Scan', async () => {
    let kept = 0;
    for (const filter of FILTERS) {
      const what = JSON.stringify(filter);
      const table = keptTable(filter);
      if (table !== undefined && table !== 'seed_totals') {
        // An index of the totals serves the sum (a table of a few hundred rows here is rightly read whole otherwise).
        const plan = await planOf(sumQuery(database, table, filter).compile(), ['enable_seqscan = off']);
        const nodes = nodesOf(plan).map((n) => [n['Node Type'], n['Index Name'] ?? '']);
        expect(nodes, what).toContainEqual([expect.stringMatching(/Index/), `${table}_key`]);
        expect(
          nodes.filter(([type]) => type === 'Seq Scan'),
          what,
        ).toEqual([]);
      }
      if (table !== undefined) {
        kept += 1;
        continue;
      }
      // Seq scans made to cost what they would on a large table, as sorts are above: with test data where a filter
      // matches half the table a seq scan is right, and the question is whether an index serves the count.
      const nodes = nodesOf(
        await planOf(seedCountQuery(database, filter).compile(), [
          'enable_sort = off',
          'enable_seqscan = off',
        ]),
      );
      const shown = `${what}: ${JSON.stringify(nodes.map((n) => [n['Node Type'], n['Relation Name'] ?? '', n['Index Name'] ?? '']))}`;
      expect(
        nodes.filter((n) => /Sort/.test(n['Node Type'])),
        shown,
      ).toEqual([]);
      expect(
        nodes.filter((n) => n['Node Type'] === 'Seq Scan'),
        shown,
      ).toEqual([]);
    }
    expect(kept).toBeGreaterThanOrEqual(40);
  });
});
