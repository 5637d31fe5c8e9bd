// GET /datasets/stats adds up the catalog with one query shape on both databases. It once built each
// partition's key with concat() over parameters, whose type PostgreSQL cannot infer: every call was a 500 there.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsObjectStore } from '../../src/adapters/fs-object-store.js';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../src/ports/database.js';
import { createDatasetService, type DatasetService } from '../../src/services/datasets.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';

const up = await pgAvailable();

function statsSuite(name: string, open: () => Database, cleanup: () => Promise<void> = async () => {}) {
  describe(`dataset stats on ${name}`, () => {
    let database: Database;
    let dir: string;
    let datasets: DatasetService;
    beforeAll(async () => {
      database = open();
      await database.migrate();
      dir = await mkdtemp(join(tmpdir(), 'seedbed-dataset-stats-'));
      datasets = createDatasetService({
        database,
        objects: createFsObjectStore(dir),
        clock: () => new Date(),
        version: 'test',
      });
    });
    afterAll(async () => {
      await database.close();
      await cleanup();
      await rm(dir, { recursive: true, force: true });
    });

    it('answers zeros for an empty catalog', async () => {
      expect(await datasets.stats()).toEqual({
        totals: { chunks: 0, records: 0, bytes: 0, partitions: 0, countries: 0, last_modified: null },
        by_country: [],
        by_category: [],
      });
    });

    it('counts chunks, records, bytes, partitions and countries, in total and by country and category', async () => {
      const store = (country: string, category: string, date: string, records: number) =>
        datasets.store({
          meta: { country, category, date },
          records: Array.from({ length: records }, (_, i) => ({
            raw_url: `https://${country}${i}.example/`,
          })),
        });
      // Three partitions: fr/news/2026-03-01 twice, fr/data/2026-03-01 and sg/news/2026-03-02 once each.
      const chunks = [
        await store('fr', 'news', '2026-03-01', 2),
        await store('fr', 'news', '2026-03-01', 1),
        await store('fr', 'data', '2026-03-01', 3),
        await store('sg', 'news', '2026-03-02', 4),
      ];
      const bytes = (of: typeof chunks) => of.reduce((n, c) => n + c.bytes, 0);
      const stats = await datasets.stats();
      expect(stats.totals).toEqual({
        chunks: 4,
        records: 10,
        bytes: bytes(chunks),
        partitions: 3,
        countries: 2,
        last_modified: chunks
          .map((c) => c.created_at)
          .sort()
          .at(-1),
      });
      expect(stats.by_country).toEqual([
        { country: 'fr', chunks: 3, records: 6, bytes: bytes(chunks.slice(0, 3)) },
        { country: 'sg', chunks: 1, records: 4, bytes: bytes(chunks.slice(3)) },
      ]);
      expect(stats.by_category).toEqual([
        { category: 'data', chunks: 1, records: 3, bytes: bytes(chunks.slice(2, 3)) },
        { category: 'news', chunks: 3, records: 7, bytes: bytes([chunks[0]!, chunks[1]!, chunks[3]!]) },
      ]);
    });
  });
}

statsSuite('SQLite', () => createSqliteDatabase(':memory:'));

describe.skipIf(!up)('PostgreSQL', () => {
  const schema = uniqueSchemaName('seedbed_stats');
  statsSuite(
    'PostgreSQL',
    () => createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 3 }),
    () => dropSchemas([schema]),
  );
});
