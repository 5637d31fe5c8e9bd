// Every filter and sort the seed list and the review page offer is a walk of one index in the list's order: for
// each filter (alone, beside a status, beside a status and a country, beside a language, and the common pairs)
// and each sort, on page 1 and on a page by cursor, SQLite's plan reads a seeds index (with a language, a
// seed_languages index, then each seed by its id) and never sorts the matches (no temporary B-tree), before and
// after ANALYZE. Each plan's rows are also those of the same statement left to the planner.
import { CompiledQuery } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import { SEED_SORTS, type SeedSort } from '../../src/domain/seeds.js';
import type { Database, SeedTable } from '../../src/ports/database.js';
import { encodeCursor } from '../../src/services/cursor.js';
import {
  createSeedRepository,
  type ReviewFilter,
  type SeedFilter,
} from '../../src/services/seed-repository/index.js';
import { seedCountQuery, seedOrder, seedPageQuery } from '../../src/services/seed-repository/list.js';
import { NO_FACTS } from '../../src/services/seed-repository/rows.js';

type Filter = SeedFilter & ReviewFilter;

/** One value of each filter the list and the review page offer. */
const EACH: Filter[] = [
  { country: 'de' },
  { source_type: 'media' },
  { category: 'news' },
  { language: 'fr' },
  { ai: 'allowed' },
  { freshness: 'fresh' },
  { freshness: 'unknown' },
  { health: 'failing' },
  { verdict: 'news' },
  { authority: 'com' },
  { robots_allowed: false },
  { fetch_type: 'rss' },
  { main_feed: true },
  { alive: false },
];

const FILTERS: Filter[] = [
  {},
  { status: 'draft' },
  ...EACH,
  ...EACH.map((f) => ({ status: 'draft' as const, ...f })),
  ...EACH.map((f) => ({ status: 'draft' as const, country: 'de', ...f })),
  { status: 'active', verdict: 'news', health: 'ok' },
  { status: 'draft', category: 'news', verdict: 'maybe', language: 'fr' },
  { country: 'de', verdict: 'news' },
  { country: 'de', language: 'de', freshness: 'stale' },
  // A language with every other filter: alone, beside a status, beside a status and a country.
  ...EACH.map((f) => ({ language: 'fr', ...f })),
  ...EACH.map((f) => ({ status: 'draft' as const, language: 'fr', ...f })),
  ...EACH.map((f) => ({ status: 'active' as const, country: 'fr', language: 'fr', ...f })),
  { language: 'fr-ca' },
  { status: 'draft', language: 'en', country: 'de' },
];
const SORTS: Array<SeedSort | undefined> = [undefined, ...SEED_SORTS];

const COUNTRIES = ['de', 'fr', 'sg', 'my'];
const SEEDS = 1200;

function seedRow(i: number): SeedTable {
  const country = COUNTRIES[i % COUNTRIES.length] as string;
  const domain = `site${String(i).padStart(5, '0')}.example`;
  const authority = i % 3 === 0 ? 'gov' : 'com';
  const rate = i % 5 === 0 ? null : (i % 17) * 1.5;
  const stale = i % 7 === 0 ? null : i % 2 === 0;
  return {
    ...NO_FACTS,
    seed_id: `${authority}:${country}:${domain}::news`,
    domain_id: `${authority}:${country}:${domain}`,
    registrable_domain: domain,
    country,
    category: i % 4 === 0 ? 'politics' : 'news',
    content_type: 'news',
    source_type: i % 2 === 0 ? 'media' : 'government',
    status: i % 3 === 0 ? 'active' : 'draft',
    version: 1,
    name: null,
    entry_url: `https://${domain}/`,
    fetch: JSON.stringify({ type: i % 2 === 0 ? 'rss' : 'html', urls: [] }),
    schedule: null,
    policy: JSON.stringify(i % 11 === 0 ? {} : { robots_allowed: i % 4 !== 1 }),
    discovery: JSON.stringify({ alive: i % 6 === 0 ? null : i % 5 !== 2 }),
    provenance: '{}',
    // Every tenth seed shares a creation time with its neighbour, so the tie-break is walked too.
    created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 60_000).toISOString(),
    updated_at: '2026-01-01T00:00:00.000Z',
    promoted_at: null,
    human_fields: '[]',
    last_revision: 1,
    feeds: JSON.stringify(i % 3 === 1 ? [{ url: `https://${domain}/feed`, role: 'main' }] : []),
    freshness: stale === null ? null : JSON.stringify({ items_per_day: rate, stale }),
    items_per_day: rate,
    language_codes: i % 10 === 0 ? ',en,fr,fr-ca,' : i % 2 === 0 ? ',fr,' : ',de,',
    ai_status: ['allowed', 'disallowed', 'reserved', null][i % 4] as string | null,
    health_state: ['ok', 'failing', 'stale', null][i % 4] as string | null,
    news_verdict: ['news', 'maybe', 'not_news', null][i % 4] as string | null,
  };
}

/** A cursor past the middle of the list in each order: the page it starts is a range, not a scan. */
function cursorFor(sort: SeedSort | undefined): string {
  const order = seedOrder(sort);
  const middle = seedRow(SEEDS / 2);
  const value = order.key === 'created_at' ? middle.created_at : order.key === 'rate_rank' ? -3 : null;
  return encodeCursor({
    order: order.name,
    after: order.key === 'seed_id' ? [middle.seed_id] : [value, middle.seed_id],
  });
}

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
        for (const cursor of [undefined, cursorFor(sort)]) {
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

  it('counts a status with the walked filters from one covering index, not from the rows', async () => {
    const walked = EACH.filter((f) =>
      ['source_type', 'freshness', 'robots_allowed', 'fetch_type', 'main_feed', 'alive'].includes(
        Object.keys(f)[0] as string,
      ),
    );
    expect(walked).toHaveLength(7);
    for (const filter of [
      ...walked.map((f) => ({ status: 'draft' as const, ...f })),
      ...walked.map((f) => ({ status: 'active' as const, country: 'de', ...f })),
    ]) {
      const compiled = seedCountQuery(database, filter).compile();
      const plan = await planOf(compiled);
      expect(plan.join(' | '), JSON.stringify(filter)).toMatch(
        /^SEARCH seeds USING COVERING INDEX seeds_status_counts/,
      );
      const counted = await database.db.executeQuery<{ n: number }>(compiled);
      const free = await database.db.executeQuery<{ n: number }>(
        CompiledQuery.raw(compiled.sql.replaceAll(/ indexed by \w+/g, ''), [...compiled.parameters]),
      );
      expect(counted.rows, JSON.stringify(filter)).toEqual(free.rows);
    }
  });

  it('finds matches for the filters (the plans above are not of empty pages)', async () => {
    const repository = createSeedRepository(database);
    for (const filter of EACH) {
      const { rows } = await repository.list({ status: 'draft', ...filter, limit: 5, offset: 0 });
      expect(rows.length, JSON.stringify(filter)).toBeGreaterThan(0);
    }
  });
});
