// seed_filter_totals and seed_fact_totals (migration 0016) on both databases: filled by the migration from the seeds already stored, and
// kept by its triggers through every kind of write the repository makes (an import and a create insert, a contract
// run and a patch update, a promote and an archive move many, a liveness check sets `alive`), a delete and a
// rolled-back write: summed by key, it always holds the seeds of each combination, in their country and in every
// country (''). The list's totals of the filters it holds (every walked filter, alone, beside a status, beside a
// status and a country, and together) are then the counts of the rows.
import { describe, expect, it } from 'vitest';
import type { Database, SeedTable, StoredSeedTable } from '../../src/ports/database.js';
import { createSeedRepository } from '../../src/services/seed-repository/index.js';
import { countSeeds, seedCountQuery } from '../../src/services/seed-repository/list.js';
import { factColumns, storedRowOf } from '../../src/services/seed-repository/rows.js';
import { foldTotals, keptTable } from '../../src/services/seed-repository/totals.js';
import { migrateTo, migrationDialects, openedPerTest } from '../support/migration-dialects.js';
import { type Filter, seedRow } from '../support/seed-list-cases.js';

type SumTable = 'seed_filter_totals' | 'seed_fact_totals';

/** Each table's key after the country, as the seed's values. */
const KEYS: Record<SumTable, (seed: StoredSeedTable) => Array<string | number>> = {
  seed_filter_totals: (seed) => [
    seed.status,
    seed.domain_id.split(':')[0] as string,
    seed.source_type,
    seed.freshness_state,
    seed.robots_allowed ?? -1,
    seed.fetch_type,
    Number(seed.main_feed),
    seed.alive ?? -1,
  ],
  seed_fact_totals: (seed) => [
    seed.status,
    seed.category,
    seed.news_verdict ?? '',
    seed.health_state ?? '',
    seed.ai_status ?? '',
  ],
};
const COLUMNS: Record<SumTable, string[]> = {
  seed_filter_totals: [
    'status',
    'authority',
    'source_type',
    'freshness_state',
    'robots_allowed',
    'fetch_type',
    'main_feed',
    'alive',
  ],
  seed_fact_totals: ['status', 'category', 'news_verdict', 'health_state', 'ai_status'],
};
const TABLES = Object.keys(KEYS) as SumTable[];

/** What a table must hold, summed by key: each combination of the seeds as they are now, and again with country ''. */
async function expectedTotals(database: Database, table: SumTable): Promise<Map<string, number>> {
  const seeds = await database.db.selectFrom('seeds').selectAll().execute();
  const totals = new Map<string, number>();
  for (const seed of seeds)
    for (const country of [seed.country, '']) {
      const key = JSON.stringify([country, ...KEYS[table](seed)]);
      totals.set(key, (totals.get(key) ?? 0) + 1);
    }
  return totals;
}

async function keptTotals(database: Database, table: SumTable): Promise<Map<string, number>> {
  const rows = (await database.db.selectFrom(table).selectAll().execute()) as unknown as Array<
    Record<string, string | number>
  >;
  const totals = new Map<string, number>();
  for (const row of rows) {
    const key = JSON.stringify(
      ['country', ...COLUMNS[table]].map((column) =>
        typeof row[column] === 'string' ? row[column] : Number(row[column]),
      ),
    );
    totals.set(key, (totals.get(key) ?? 0) + Number(row['n']));
  }
  // A combination whose seeds all moved away sums to 0 (SQLite keeps its row at 0; PostgreSQL's rows cancel).
  for (const [key, n] of totals) if (n === 0) totals.delete(key);
  return totals;
}

/** Filters the kept totals answer: each alone, beside a status, a status and a country, and together. */
const WALKED: Filter[] = [
  { category: 'politics' },
  { verdict: 'news' },
  { health: 'failing' },
  { ai: 'allowed' },
  { authority: 'gov' },
  { source_type: 'media' },
  { freshness: 'stale' },
  { freshness: 'unknown' },
  { robots_allowed: false },
  { robots_allowed: true },
  { fetch_type: 'rss' },
  { main_feed: true },
  { alive: false },
];
const KEPT_FILTERS: Filter[] = [
  ...WALKED,
  ...WALKED.map((f) => ({ status: 'draft' as const, ...f })),
  ...WALKED.map((f) => ({ status: 'active' as const, country: 'fr', ...f })),
  { status: 'draft', freshness: 'stale', fetch_type: 'rss', alive: true },
  { country: 'de', authority: 'com', main_feed: false, robots_allowed: true },
  { status: 'draft', category: 'news', verdict: 'maybe', health: 'stale' },
  { country: 'sg', verdict: 'not_news', ai: 'disallowed' },
];

async function expectKept(database: Database, step: string) {
  for (const table of TABLES) {
    const expected = await expectedTotals(database, table);
    expect(expected.size, `${step} ${table}`).toBeGreaterThan(0);
    expect(await keptTotals(database, table), `${step} ${table}`).toEqual(expected);
  }
  for (const filter of KEPT_FILTERS) {
    expect(keptTable(filter), JSON.stringify(filter)).toMatch(/totals$/);
    const counted = Number((await seedCountQuery(database, filter).executeTakeFirstOrThrow()).n);
    expect(await countSeeds(database, filter), `${step} ${JSON.stringify(filter)}`).toBe(counted);
  }
}

const dialects = await migrationDialects('seedbed_filter_totals');

for (const [name, available, open] of dialects) {
  describe(`seed_filter_totals and seed_fact_totals on ${name}`, () => {
    const openDatabase = openedPerTest(open);

    it.skipIf(!available)('is filled by migration 0016 from the seeds already stored', async () => {
      const opened = openDatabase();
      const { database } = opened;
      await migrateTo(opened, '0015_seed_languages');
      const rows = Array.from({ length: 60 }, (_, i) => storedRowOf(seedRow(i)));
      await database.db
        .insertInto('seeds')
        .values(rows as unknown as StoredSeedTable[])
        .execute();
      await database.migrate();
      await expectKept(database, 'migrated');
      // Some stale drafts, so the sums above are not all of empty sets.
      expect(await countSeeds(database, { status: 'draft', freshness: 'stale' })).toBeGreaterThan(0);
    });

    it.skipIf(!available)('is kept by every write to seeds, in the writing transaction', async () => {
      const { database } = openDatabase();
      await database.migrate();
      const repository = createSeedRepository(database);
      const rows = Array.from({ length: 60 }, (_, i) => seedRow(i));
      const ids = rows.map((row) => row.seed_id);
      await database.transaction((trx) => repository.insertMany(trx, rows.slice(1), []));
      await database.transaction((trx) =>
        repository.insert(trx, rows[0] as SeedTable, {
          seedId: ids[0] as string,
          number: 1,
          status: 'applied',
          author: 'test',
          baseVersion: 1,
          changes: {},
          at: '2026-01-01T00:00:00.000Z',
        }),
      );
      await expectKept(database, 'inserted');
      // A contract run: a seed goes stale, its main feed is gone and its fetch becomes a sitemap.
      await database.transaction((trx) =>
        repository.update(trx, ids[2] as string, {
          ...factColumns({
            feeds: [],
            sitemap: null,
            freshness: { items_per_day: 0.1, stale: true } as never,
          }),
          fetch: JSON.stringify({ type: 'sitemap', urls: [] }),
        }),
      );
      // A patch: another country, and robots now refused; an update that changes none of the key.
      await database.transaction(async (trx) => {
        await repository.update(trx, ids[3] as string, {
          country: 'pt',
          policy: JSON.stringify({ robots_allowed: false }),
        });
        await repository.update(trx, ids[4] as string, { updated_at: '2026-02-01T00:00:00.000Z' });
      });
      await expectKept(database, 'contract run and patch');
      await database.transaction((trx) => repository.updateMany(trx, ids.slice(0, 30), { status: 'active' }));
      await database.transaction((trx) =>
        repository.updateMany(trx, ids.slice(20, 40), { status: 'archived' }),
      );
      await expectKept(database, 'promote and archive');
      await database.transaction((trx) =>
        repository.setDiscovery(trx, rows[7]?.registrable_domain as string, {
          discovery: {
            alive: false,
            checked_at: '2026-03-01T00:00:00.000Z',
            http_status: 500,
            state: null,
            error_code: null,
          },
          at: '2026-03-01T00:00:00.000Z',
        }),
      );
      await expectKept(database, 'liveness');
      await expect(
        database.transaction(async (trx) => {
          await repository.updateMany(trx, ids.slice(40), { status: 'active' });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await expectKept(database, 'rolled back');
      await database.db.deleteFrom('seeds').where('seed_id', 'in', ids.slice(50)).execute();
      await expectKept(database, 'deleted');
      // A write of a fact: a contract run's verdict, a check's health.
      await database.transaction(async (trx) => {
        await repository.update(trx, ids[8] as string, { news_verdict: 'not_news', health_state: 'failing' });
        await repository.update(trx, ids[9] as string, { ai_status: null });
        // Each fact alone, so a trigger that missed one column would be seen.
        await repository.update(trx, ids[10] as string, { category: 'sport' });
        await repository.update(trx, ids[11] as string, { health_state: 'ok' });
      });
      await expectKept(database, 'facts');
      if (database.dialect === 'postgres')
        for (const table of TABLES) {
          // Folded: one row a combination, the same sums.
          await foldTotals(database, table);
          await expectKept(database, `folded ${table}`);
          const { n } = await database.db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow();
          expect(Number(n)).toBe((await expectedTotals(database, table)).size);
        }
    });
  });
}
