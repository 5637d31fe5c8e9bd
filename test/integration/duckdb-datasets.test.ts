// The raw datasets are queryable as stored: DuckDB reads the object folder with Hive partitioning
// (country=/category=/date=) and counts the same chunks, records and bytes per partition as the service does
// (GET /datasets/stats and the metadata snapshot). The README's query is run as it is written there.
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  chunkUrl,
  createApiSeedbed,
  dataset,
  datasetRecord,
  inject,
  postDataset,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';
import { serviceOrSkip } from '../support/services.js';

type DuckDb = typeof import('@duckdb/node-api');
let duckdb: DuckDb | null = null;
const available = await serviceOrSkip('the @duckdb/node-api module (a dev dependency)', async () => {
  duckdb = await import('@duckdb/node-api');
});

/** The README's query with bytes added (each file's size), over a folder of objects. */
function partitionQuery(objects: string): string {
  const glob = join(objects, 'raw', '*', '*', '*', 'raw_*.json').replaceAll("'", "''");
  return `
    SELECT chunk.country, chunk.category, CAST(chunk.date AS VARCHAR) AS date,
           count(*) AS chunks, sum(len(chunk.records)) AS records, sum(file.size) AS bytes
    FROM read_json('${glob}', hive_partitioning = true, filename = true,
                   columns = {records: 'JSON[]'}, maximum_object_size = 1073741824) AS chunk
    JOIN read_text('${glob}') AS file USING (filename)
    GROUP BY ALL ORDER BY ALL`;
}

/** Exactly as the README shows it (run in SEEDBED_DATA_DIR). */
const README_QUERY = `SELECT country, category, date, count(*) AS chunks, sum(len(records)) AS records
FROM read_json('objects/raw/*/*/*/raw_*.json', hive_partitioning = true,
               columns = {records: 'JSON[]'}, maximum_object_size = 1073741824)
GROUP BY ALL ORDER BY ALL;`;

describe.skipIf(!available)('DuckDB reads the stored datasets', () => {
  let t: TestSeedbed;
  const P: Array<{ country: string; category: string; date: string }> = [
    { country: 'sg', category: 'news', date: '2026-06-01' },
    { country: 'sg', category: 'news', date: '2026-06-02' },
    { country: 'sg', category: 'policy', date: '2026-06-01' },
    { country: 'my', category: 'news', date: '2026-06-01' },
  ];

  beforeAll(async () => {
    t = await createApiSeedbed();
    let i = 0;
    // Chunks of different sizes, records of different shapes, and one chunk deleted again.
    const sizesOf = [[3, 5, 1], [2], [7, 4], [1, 1]];
    for (const [n, p] of P.entries()) {
      const sizes = sizesOf[n] ?? [];
      for (const size of sizes) {
        const records = Array.from({ length: size }, () =>
          datasetRecord(i++, i % 3 === 0 ? { language: 'en', extra: { nested: [1, 2] } } : {}),
        );
        const response = await postDataset(t.app, dataset(p, records));
        expect(response.statusCode, response.body).toBe(201);
      }
    }
    const deleted = await inject(t.app, { method: 'DELETE', url: chunkUrl(P[2]!, 2) });
    expect(deleted.statusCode).toBe(204);
  });
  afterAll(() => t?.close());

  it('counts the same chunks, records and bytes per partition, country and category as the service', async () => {
    const { DuckDBInstance } = duckdb as DuckDb;
    const instance = await DuckDBInstance.create(':memory:');
    const connection = await instance.connect();
    try {
      const reader = await connection.runAndReadAll(partitionQuery(join(t.dir, 'objects')));
      const rows = reader.getRowObjectsJson() as Array<Record<string, string | number>>;
      const partitions = rows.map((r) => ({
        country: String(r['country']),
        category: String(r['category']),
        date: String(r['date']),
        chunks: Number(r['chunks']),
        records: Number(r['records']),
        bytes: Number(r['bytes']),
      }));
      expect(partitions.map((p) => [p.country, p.category, p.date, p.chunks, p.records])).toEqual([
        ['my', 'news', '2026-06-01', 2, 2],
        ['sg', 'news', '2026-06-01', 3, 9],
        ['sg', 'news', '2026-06-02', 1, 2],
        ['sg', 'policy', '2026-06-01', 1, 7],
      ]);

      // The README's query, as written there, run in the data directory.
      const readme = await connection.runAndReadAll(
        README_QUERY.replace("'objects/", `'${join(t.dir, 'objects').replaceAll("'", "''")}/`),
      );
      expect(
        readme
          .getRowObjectsJson()
          .map((r) => [
            r['country'],
            r['category'],
            String(r['date']),
            Number(r['chunks']),
            Number(r['records']),
          ]),
      ).toEqual(partitions.map((p) => [p.country, p.category, p.date, p.chunks, p.records]));

      // Per partition, as the metadata snapshot has them.
      const snapshot = (await inject(t.app, { method: 'GET', url: '/api/v1/metadata/snapshot' })).json();
      for (const p of partitions) {
        const node = snapshot.countries[p.country].categories[p.category][p.date];
        expect(
          { chunks: p.chunks, records: p.records, bytes: p.bytes },
          `${p.country}/${p.category}/${p.date}`,
        ).toEqual({
          chunks: node.chunks,
          records: node.records,
          bytes: node.bytes,
        });
      }
      // And rolled up, as GET /datasets/stats has them.
      const stats = (await inject(t.app, { method: 'GET', url: '/api/v1/datasets/stats' })).json();
      const sum = (key: 'country' | 'category') => {
        const out = new Map<string, { chunks: number; records: number; bytes: number }>();
        for (const p of partitions) {
          const name = String(p[key]);
          const acc = out.get(name) ?? { chunks: 0, records: 0, bytes: 0 };
          out.set(name, {
            chunks: acc.chunks + p.chunks,
            records: acc.records + p.records,
            bytes: acc.bytes + p.bytes,
          });
        }
        return [...out].map(([name, counts]) => ({ [key]: name, ...counts }));
      };
      expect(stats.by_country).toEqual(sum('country'));
      expect(stats.by_category).toEqual(sum('category'));
      expect(stats.totals).toMatchObject({
        partitions: partitions.length,
        chunks: partitions.reduce((n, p) => n + p.chunks, 0),
        records: partitions.reduce((n, p) => n + p.records, 0),
        countries: 2,
      });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  });
});
