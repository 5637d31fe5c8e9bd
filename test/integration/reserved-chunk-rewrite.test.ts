// A reserved raw chunk whose object an earlier attempt left behind: kept when whole, written again when it is
// a fragment. S3 itself never stores a PUT cut short, but s3rver killed mid-write kept an empty file, and the
// chaos test (test/e2e/backend-outage.test.ts) then found a raw chunk nobody could read.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createFsObjectStore } from '../../src/adapters/fs-object-store.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import { rawChunkKey } from '../../src/domain/keys.js';
import type { Database } from '../../src/ports/database.js';
import type { ObjectStore } from '../../src/ports/object-store.js';
import { createDatasetService } from '../../src/services/datasets.js';

const PARTITION = { country: 'fr', category: 'news', date: '2026-03-01' };

describe('writing a reserved raw chunk again', () => {
  let dir: string;
  let database: Database;
  let objects: ObjectStore;
  let datasets: ReturnType<typeof createDatasetService>;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-reserved-'));
    database = createSqliteDatabase(':memory:');
    await database.migrate();
    objects = createFsObjectStore(dir);
    datasets = createDatasetService({ database, objects, clock: () => new Date(), version: 'test' });
  });
  afterEach(async () => {
    await database.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function reserveAndWrite(earlier: string | null) {
    const { chunk } = await database.transaction((trx) =>
      datasets.reserveChunk(trx, PARTITION, { owner: 'research:test', origin: 'research' }),
    );
    const key = rawChunkKey(PARTITION, chunk);
    if (earlier !== null) await objects.put(key, earlier);
    const dataset = {
      meta: { dataset_id: `fr-news-2026-03-01-${chunk}`, ...PARTITION, chunk, record_count: 1 },
      records: [{ raw_url: 'https://a.fr/', normalized_url: 'https://a.fr/' }],
    };
    await datasets.writeReserved(PARTITION, chunk, dataset as never);
    const stream = await objects.get(key);
    const parts: Buffer[] = [];
    for await (const part of stream ?? []) parts.push(Buffer.from(part));
    return Buffer.concat(parts).toString('utf8');
  }

  it('writes the chunk over a fragment an earlier attempt left', async () => {
    for (const fragment of ['', '{"meta":{"dataset_id":"fr-news']) {
      const stored = JSON.parse(await reserveAndWrite(fragment));
      expect(stored.records).toEqual([{ raw_url: 'https://a.fr/', normalized_url: 'https://a.fr/' }]);
    }
  });

  it('keeps a whole object an earlier attempt wrote', async () => {
    const earlier = JSON.stringify({ meta: { written: 'earlier' }, records: [] });
    expect(await reserveAndWrite(earlier)).toBe(earlier);
  });
});
