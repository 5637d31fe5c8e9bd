// Every filter and sort the seed list and the review page offer is a walk of one index in the list's order: for
// each filter (alone, beside a status, beside a status and a country, beside a language, and the common pairs)
// and each sort, on page 1 and on a page by cursor, SQLite's plan reads a seeds index (with a language, a
// seed_languages index, then each seed by its id) and never sorts the matches (no temporary B-tree), before and
// after ANALYZE. Each plan's rows are also those of the same statement left to the planner. Each total is a sum of
// kept totals (a range of their key) or a count of one index range, never of every seed.
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../src/ports/database.js';
import { createSeedRepository } from '../../src/services/seed-repository/index.js';
import { seedCountQuery, seedPageQuery } from '../../src/services/seed-repository/list.js';
import { keptTable, sumQuery } from '../../src/services/seed-repository/totals.js';
import { cursorFor, EACH, FILTERS, SORTS, seedRow } from '../support/seed-list-cases.js';

const SEEDS = 1200;

describe('seed list query plans (SQLite)', () => {
  let database: Database;

  beforeAll(async () => {
    database = createSqliteDatabase(':memory:');
    await database.migrate();
    const rows = Array.from({ length: SEEDS }, (_, i) => seedRow(i));
    await database.transaction((trx) => createSeedRepository(database).insertMany(trx, rows, []));
  });
  afterAll(() => database.close());

  async function planOf(compiled: CompiledQuery): Promise<string[]> {
    const plan = await database.db.executeQuery<{ detail: string }>(
      CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
    );
    return plan.rows.map((row) => row.detail);
  }

  async function expectIndexWalks(stage: string) {
    let checked = 0;
    for (const filter of FILTERS)
      for (const sort of SORTS)
        for (const cursor of [undefined, cursorFor(sort, SEEDS)]) {
          const request = { ...filter, sort, limit: 25, offset: 0, ...(cursor ? { cursor } : {}) };
          const compiled = seedPageQuery(database, request).compile();
          const plan = await planOf(compiled);
          const what = `${stage} ${JSON.stringify(request)}: ${plan.join(' | ')}`;
          expect(plan.join('\n'), what).not.toMatch(/TEMP B-TREE/);
          if (filter.language === undefined)
            expect(plan[0], what).toMatch(
              /^(SEARCH|SCAN) seeds USING (COVERING )?INDEX (seeds_\w+|sqlite_autoindex_seeds_1)/,
            );
          else {
            // The language's range of its index, then each seed it names, by the seeds' key.
            expect(plan[0], what).toMatch(
              /^SEARCH seed_languages USING (COVERING )?INDEX seed_languages_\w+ \(language=\?/,
            );
            expect(plan[1], what).toBe('SEARCH seeds USING INDEX sqlite_autoindex_seeds_1 (seed_id=?)');
            expect(plan, what).toHaveLength(2);
          }
          // The rows the walk finds are the rows the same statement finds, left to the planner.
          const walked = await database.db.executeQuery<{ seed_id: string }>(compiled);
          const free = await database.db.executeQuery<{ seed_id: string }>(
            CompiledQuery.raw(compiled.sql.replaceAll(/ indexed by \w+/g, ''), [...compiled.parameters]),
          );
          expect(
            walked.rows.map((r) => r.seed_id),
            what,
          ).toEqual(free.rows.map((r) => r.seed_id));
          checked += 1;
        }
    expect(checked).toBe(FILTERS.length * SORTS.length * 2);
  }

  it('walks an index in the order asked, without statistics', async () => {
    await expectIndexWalks('no stats');
  });

  it('walks the same indexes after ANALYZE', async () => {
    await database.db.executeQuery(CompiledQuery.raw('analyze'));
    await expectIndexWalks('analyzed');
  });

  it('answers each total from kept totals, or counts one index range: never a sort, never every seed', async () => {
    let kept = 0;
    for (const filter of FILTERS) {
      const what = JSON.stringify(filter);
      const table = keptTable(filter);
      if (table !== undefined && table !== 'seed_totals') {
        // A sum of the rows of one country (or of every country) and status: a range of the totals' key.
        const plan = await planOf(sumQuery(database, table, filter).compile());
        expect(plan.join(' | '), what).toMatch(
          new RegExp(`^SEARCH ${table} USING (COVERING )?INDEX ${table}_key \\(country=\\?`),
        );
      }
      if (table !== undefined) {
        kept += 1;
        continue;
      }
      const plan = (await planOf(seedCountQuery(database, filter).compile())).join(' | ');
      expect(plan, what).not.toMatch(/TEMP B-TREE/);
      expect(plan, what).toMatch(/^SEARCH /);
      expect(plan, what).not.toMatch(/(^| )SCAN /);
    }
    // Every filter but a language alone, beside a status, beside a status and a country; and the common pairs.
    expect(kept).toBeGreaterThanOrEqual(40);
  });

  it('finds matches for the filters (the plans above are not of empty pages)', async () => {
    const repository = createSeedRepository(database);
    for (const filter of EACH) {
      const { rows } = await repository.list({ status: 'draft', ...filter, limit: 5, offset: 0 });
      expect(rows.length, JSON.stringify(filter)).toBeGreaterThan(0);
    }
  });
});
