// A handler's begin step (research claims its URLs there) commits with the chunk's claim or not at all, and runs
// again on a redelivery; a chunk that already finished never runs it.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createEmbeddedQueue } from '../../src/adapters/embedded-queue.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../src/ports/database.js';
import { type BeginStep, type ChunkLedger, createChunkLedger } from '../../src/services/chunk-ledger.js';

const BATCH = 'batch-begin';
const MESSAGE = { batchId: BATCH, chunk: 1 };

describe('the begin step of a chunk claim', () => {
  let database: Database;
  let ledger: ChunkLedger;
  beforeEach(async () => {
    database = createSqliteDatabase(':memory:');
    await database.migrate();
    ledger = createChunkLedger({ database, queue: createEmbeddedQueue(database), clock: () => new Date() });
    await database.transaction(async (trx) => {
      await trx
        .insertInto('batches')
        .values({
          id: BATCH,
          type: 'research',
          status: 'queued',
          country: 'sg',
          category: 'news',
          date: '2026-11-26',
          total_items: 2,
          chunk_size: 2,
          chunks_total: 1,
          chunks_succeeded: 0,
          chunks_failed: 0,
          summary: '{}',
          idempotency_key: null,
          request_hash: null,
          created_at: new Date().toISOString(),
          started_at: null,
          finished_at: null,
        })
        .execute();
      await ledger.insertChunks(trx, BATCH, 'RESEARCH_QUEUE', [['a', 'b']], 1, 0);
    });
  });
  afterEach(() => database.close());

  /** A row the begin step writes: an api key stands for any row a handler owns. */
  const writeMarker =
    (name: string): BeginStep =>
    async (_work, unit) => {
      await unit
        .insertInto('api_keys')
        .values({ id: name, name, key_hash: name, scopes: '[]', created_at: new Date().toISOString() })
        .execute();
    };
  const markers = async () =>
    (await database.db.selectFrom('api_keys').select('name').execute()).map((row) => row.name);
  const chunk = () =>
    database.db.selectFrom('batch_chunks').select(['status', 'attempts']).executeTakeFirstOrThrow();

  it('rolls the claim back with a begin step that fails, and runs the step again on the redelivery', async () => {
    await expect(
      ledger.beginChunk(MESSAGE, 1, async (work, unit) => {
        await writeMarker('first')(work, unit);
        throw new Error('crashed in the begin step');
      }),
    ).rejects.toThrow('crashed in the begin step');
    expect(await markers()).toEqual([]);
    expect(await chunk()).toEqual({ status: 'pending', attempts: 0 });

    const work = await ledger.beginChunk(MESSAGE, 2, writeMarker('second'));
    expect(work?.items).toEqual(['a', 'b']);
    expect(await markers()).toEqual(['second']);
    expect(await chunk()).toEqual({ status: 'running', attempts: 1 });
  });

  it('does not run the begin step for a chunk that already finished', async () => {
    await ledger.beginChunk(MESSAGE, 1);
    await ledger.commitResults(
      (await ledger.beginChunk(MESSAGE, 2)) as NonNullable<Awaited<ReturnType<ChunkLedger['beginChunk']>>>,
      async () => [],
      MESSAGE,
    );
    expect(await ledger.beginChunk(MESSAGE, 3, writeMarker('late'))).toBeNull();
    expect(await markers()).toEqual([]);
  });
});
