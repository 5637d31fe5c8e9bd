// seed_languages (migration 0015) on both databases: the rows the migration fills from the seeds already stored,
// and the rows its triggers keep through every kind of write the repository makes (a create and an import insert,
// a patch or a contract run updates, a promote or an archive moves many, a liveness check touches other columns)
// and a delete, are always a row per seed and code of its `language_codes`, with its status, country and order
// keys. The list by language then finds what the LIKE on `language_codes` finds.
import { describe, expect, it } from 'vitest';
import type { SeedStatus } from '../../src/domain/seeds.js';
import type { Database, SeedTable, StoredSeedTable } from '../../src/ports/database.js';
import { createSeedRepository, type SeedFilter } from '../../src/services/seed-repository/index.js';
import { listSeeds } from '../../src/services/seed-repository/list.js';
import { factColumns, NO_FACTS, storedRowOf } from '../../src/services/seed-repository/rows.js';
import { migrateTo, migrationDialects, openedPerTest } from '../support/migration-dialects.js';

const CODES = [null, ',fr,', ',en,fr,fr-ca,', ',de,', ',pt,pt-br,'];

function seedRow(i: number): SeedTable {
  const domain = `s${String(i).padStart(3, '0')}.example`;
  const country = ['fr', 'de', 'br'][i % 3] as string;
  return {
    ...NO_FACTS,
    seed_id: `com:${country}:${domain}::news`,
    domain_id: `com:${country}:${domain}`,
    registrable_domain: domain,
    country,
    category: 'news',
    content_type: 'news',
    source_type: 'media',
    status: i % 4 === 0 ? 'active' : 'draft',
    version: 1,
    name: null,
    entry_url: `https://${domain}/`,
    fetch: '{"type":"html","urls":[]}',
    schedule: null,
    policy: '{}',
    provenance: '{}',
    created_at: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    updated_at: '2026-01-01T00:00:00.000Z',
    promoted_at: null,
    human_fields: '[]',
    last_revision: 1,
    language_codes: CODES[i % CODES.length] as string | null,
    items_per_day: i % 3 === 0 ? null : i,
  };
}

/** What seed_languages must hold: a row per seed and code, from the seeds as they are now. */
async function expectedRows(database: Database) {
  const seeds = await database.db
    .selectFrom('seeds')
    .select(['seed_id', 'language_codes', 'status', 'country', 'created_at', 'rate_rank'])
    .execute();
  return seeds
    .flatMap(({ language_codes, ...seed }) =>
      (language_codes ?? '')
        .split(',')
        .filter((code) => code !== '')
        .map((language) => ({ ...seed, language, rate_rank: Number(seed.rate_rank) })),
    )
    .sort(byKey);
}

async function keptRows(database: Database) {
  const rows = await database.db.selectFrom('seed_languages').selectAll().execute();
  return rows.map((row) => ({ ...row, rate_rank: Number(row.rate_rank) })).sort(byKey);
}

function byKey(a: { seed_id: string; language: string }, b: { seed_id: string; language: string }) {
  const x = `${a.seed_id} ${a.language}`;
  const y = `${b.seed_id} ${b.language}`;
  return x < y ? -1 : x > y ? 1 : 0;
}

async function expectKept(database: Database, step: string) {
  const expected = await expectedRows(database);
  expect(expected.length, step).toBeGreaterThan(0);
  expect(await keptRows(database), step).toEqual(expected);
}

const dialects = await migrationDialects('seedbed_langs');

for (const [name, available, open] of dialects) {
  describe(`seed_languages on ${name}`, () => {
    const openDatabase = openedPerTest(open);

    it.skipIf(!available)('is filled by migration 0015 from the seeds already stored', async () => {
      const opened = openDatabase();
      const { database } = opened;
      await migrateTo(opened, '0014_list_indexes');
      const rows = Array.from({ length: 12 }, (_, i) => storedRowOf(seedRow(i)));
      await database.db
        .insertInto('seeds')
        .values(rows as unknown as StoredSeedTable[])
        .execute();
      await database.migrate();
      await expectKept(database, 'migrated');
      // `fr` is fr and fr-ca; `fr-ca` only itself.
      expect(
        (await keptRows(database)).filter((row) => row.language === 'fr').map((row) => row.seed_id),
      ).toEqual(
        rows
          .filter((row) => row.language_codes?.includes(',fr,'))
          .map((row) => row.seed_id)
          .sort(),
      );
    });

    it.skipIf(!available)('is kept by every write to seeds, in the writing transaction', async () => {
      const { database } = openDatabase();
      await database.migrate();
      const repository = createSeedRepository(database);
      const rows = Array.from({ length: 20 }, (_, i) => seedRow(i));
      const [first, second, third, fourth] = rows.map((row) => row.seed_id) as [
        string,
        string,
        string,
        string,
      ];
      // An import inserts many; a create, one.
      await database.transaction((trx) => repository.insertMany(trx, rows.slice(1), []));
      await database.transaction((trx) =>
        repository.insert(trx, rows[0] as SeedTable, {
          seedId: first,
          number: 1,
          status: 'applied',
          author: 'test',
          baseVersion: 1,
          changes: {},
          at: '2026-01-01T00:00:00.000Z',
        }),
      );
      await expectKept(database, 'inserted');
      // A contract run: new languages (fr with fr-ca becomes es) and a new rate.
      await database.transaction((trx) =>
        repository.update(trx, second, {
          ...factColumns({
            feeds: [],
            sitemap: null,
            languages: [{ code: 'es', sources: ['detected'] }],
            freshness: { items_per_day: 7, stale: false } as never,
          }),
        }),
      );
      await expectKept(database, 'contract run');
      // A run that finds no language; a patch that moves a seed to another country.
      await database.transaction(async (trx) => {
        await repository.update(trx, third, factColumns({ feeds: [], sitemap: null, languages: [] }));
        await repository.update(trx, fourth, { country: 'pt', updated_at: '2026-02-01T00:00:00.000Z' });
      });
      await expectKept(database, 'patch');
      // A promote, then an archive, of many.
      await database.transaction((trx) =>
        repository.updateMany(
          trx,
          rows.slice(0, 10).map((row) => row.seed_id),
          { status: 'active' },
        ),
      );
      await database.transaction((trx) =>
        repository.updateMany(
          trx,
          rows.slice(5, 15).map((row) => row.seed_id),
          { status: 'archived' },
        ),
      );
      await expectKept(database, 'promote and archive');
      // A liveness check writes other columns only.
      await database.transaction((trx) =>
        repository.setDiscovery(trx, rows[4]?.registrable_domain as string, {
          discovery: {
            alive: true,
            checked_at: '2026-03-01T00:00:00.000Z',
            http_status: 200,
            state: null,
            error_code: null,
          },
          at: '2026-03-01T00:00:00.000Z',
        }),
      );
      await expectKept(database, 'liveness');
      // A transaction that fails leaves the rows as they were.
      await expect(
        database.transaction(async (trx) => {
          await repository.update(trx, rows[6]?.seed_id as string, { language_codes: ',it,' });
          throw new Error('rolled back');
        }),
      ).rejects.toThrow('rolled back');
      await expectKept(database, 'rolled back');
      await database.db
        .deleteFrom('seeds')
        .where('seed_id', 'in', [first, rows[5]?.seed_id as string])
        .execute();
      await expectKept(database, 'deleted');
      expect(
        (await keptRows(database)).some((row) => row.seed_id === first || row.seed_id === rows[5]?.seed_id),
      ).toBe(false);

      // The list by language finds what the LIKE on language_codes finds, in each order and total.
      const filters: Array<SeedFilter & { language: string }> = [
        { language: 'fr' },
        { language: 'es' },
        { language: 'fr', status: 'draft' },
        { language: 'pt', status: 'archived', country: 'br' },
        { language: 'en', source_type: 'media' },
      ];
      for (const filter of filters)
        for (const sort of [undefined, 'found', '-found', '-rate'] as const) {
          const listed = await listSeeds(database, { ...filter, sort, limit: 100, offset: 0 });
          const like = await database.db
            .selectFrom('seeds')
            .select('seed_id')
            .where('language_codes', 'like', `%,${filter.language},%`)
            .$if(filter.status !== undefined, (q) => q.where('status', '=', filter.status as SeedStatus))
            .$if(filter.country !== undefined, (q) => q.where('country', '=', filter.country as string))
            .execute();
          const what = JSON.stringify({ ...filter, sort });
          expect(listed.rows.map((row) => row.seed_id).sort(), what).toEqual(
            like.map((row) => row.seed_id).sort(),
          );
          expect(listed.total, what).toBe(like.length);
        }
    });
  });
}
