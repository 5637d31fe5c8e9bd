// Migration 0013_seed_list_indexes on both databases: the list columns it fills from the JSON already stored are
// the ones the repository derives when it writes the same JSON (rows.ts listColumnsOf), and the seed totals it
// starts from are the seeds by status and country. On PostgreSQL the totals, a row per change, fold into a row per
// pair once a read sums more than 4,096 of them, and answer the same.
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { SeedTable, StoredSeedTable } from '../../src/ports/database.js';
import { createSeedRepository } from '../../src/services/seed-repository/index.js';
import { countSeeds } from '../../src/services/seed-repository/list.js';
import { listColumnsOf, NO_FACTS } from '../../src/services/seed-repository/rows.js';
import { migrateTo, migrationDialects, openedPerTest } from '../support/migration-dialects.js';

const AT = '2026-01-02T03:04:05.000Z';

function seedRow(i: number, json: Partial<SeedTable> = {}): SeedTable {
  const domain = `s${i}.example`;
  return {
    ...NO_FACTS,
    seed_id: `com:fr:${domain}::news`,
    domain_id: `com:fr:${domain}`,
    registrable_domain: domain,
    country: ['fr', 'de', 'sg'][i % 3] as string,
    category: 'news',
    content_type: 'news',
    source_type: 'media',
    status: (['draft', 'active', 'archived'] as const)[i % 3 === 0 ? 0 : i % 2 === 0 ? 1 : 2],
    version: 1,
    name: null,
    entry_url: `https://${domain}/`,
    fetch: '{"type":"html","urls":[]}',
    schedule: null,
    policy: '{}',
    provenance: '{}',
    created_at: AT,
    updated_at: AT,
    promoted_at: null,
    human_fields: '[]',
    last_revision: 1,
    ...json,
  };
}

/** JSON as writers left it before the migration: every value each list column is derived from. */
const STORED: Array<Partial<SeedTable>> = [
  {},
  { policy: '{"robots_allowed":true}', fetch: '{"type":"rss","urls":[]}', discovery: '{"alive":true}' },
  { policy: '{"robots_allowed":false}', fetch: '{"type":"sitemap","urls":[]}', discovery: '{"alive":false}' },
  { fetch: '{"type":"api","urls":[]}', feeds: '[{"url":"https://a/feed","role":"main"}]' },
  { feeds: '[{"url":"https://a/feed","role":"section"}]', freshness: '{"items_per_day":2.5,"stale":false}' },
  { freshness: '{"items_per_day":0,"stale":true}' },
  { freshness: '{"items_per_day":null,"stale":null}' },
  { discovery: '{"alive":null,"checked_at":null}', freshness: '{"items_per_day":40,"stale":false}' },
];
const LIST_COLUMNS = [
  'freshness_state',
  'robots_allowed',
  'fetch_type',
  'main_feed',
  'alive',
  'rate_rank',
] as const;

const dialects = await migrationDialects('seedbed_list');

for (const [name, available, open] of dialects) {
  describe(`migration 0013_seed_list_indexes on ${name}`, () => {
    const openDatabase = openedPerTest(open);

    it.skipIf(!available)(
      'fills the list columns as the repository derives them, and the totals',
      async () => {
        const opened = openDatabase();
        const { database } = opened;
        await migrateTo(opened, '0012_discovery');
        const rows = STORED.map((json, i) => {
          const row = seedRow(i, json);
          const rate = JSON.parse(row.freshness ?? 'null')?.items_per_day ?? null;
          return { ...row, items_per_day: rate };
        });
        await database.db
          .insertInto('seeds')
          .values(rows as unknown as StoredSeedTable[])
          .execute();
        await database.migrate();

        const stored = await database.db.selectFrom('seeds').selectAll().orderBy('seed_id').execute();
        for (const row of rows) {
          const found = stored.find((s) => s.seed_id === row.seed_id);
          const picked = Object.fromEntries(LIST_COLUMNS.map((c) => [c, found?.[c]]));
          expect(picked, row.seed_id).toEqual(listColumnsOf(row));
        }
        const byPair = await database.db
          .selectFrom('seeds')
          .select(['status', 'country', (eb) => eb.fn.countAll().as('n')])
          .groupBy(['status', 'country'])
          .execute();
        for (const { status, country, n } of byPair)
          expect(
            await countSeeds(database, { status: status as 'draft', country }),
            `${status} ${country}`,
          ).toBe(Number(n));
        expect(await countSeeds(database, {})).toBe(rows.length);
      },
    );

    it.skipIf(!available)(
      'keeps the totals through many writes (PostgreSQL: folded, the same sums)',
      async () => {
        const { database } = openDatabase();
        await database.migrate();
        const repository = createSeedRepository(database);
        const rows = Array.from({ length: 4200 }, (_, i) => seedRow(i));
        for (let i = 0; i < rows.length; i += 500)
          await database.transaction((trx) => repository.insertMany(trx, rows.slice(i, i + 500), []));
        await database.transaction((trx) =>
          repository.update(trx, rows[0]?.seed_id as string, { status: 'active', country: 'it' }),
        );
        const kept = async () =>
          Number(
            (
              await database.db
                .selectFrom('seed_totals')
                .select((eb) => eb.fn.countAll().as('n'))
                .executeTakeFirstOrThrow()
            ).n,
          );
        const before = await kept();
        expect(before).toBe(name === 'PostgreSQL' ? 4202 : 6);
        // The first read past 4,096 rows answers from them and folds them.
        expect(await countSeeds(database, {})).toBe(4200);
        expect(await kept()).toBe(6);
        expect(await countSeeds(database, {})).toBe(4200);
        expect(await countSeeds(database, { status: 'active', country: 'it' })).toBe(1);
        expect(await countSeeds(database, { status: 'draft' })).toBe(1399);
        const { rows: real } = await sql<{
          n: number;
        }>`select count(*) as n from seeds where status = 'draft'`.execute(database.db);
        expect(Number(real[0]?.n)).toBe(1399);
      },
    );
  });
}
