// Item results committed in groups (a discovery's qualifications on SQLite): the results of a window share one
// transaction, an item answered by an earlier attempt keeps its answer, and one item's failing record step fails
// only that item.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createEmbeddedQueue } from '../../src/adapters/embedded-queue.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { ChunkWork } from '../../src/domain/batches.js';
import type { Database } from '../../src/ports/database.js';
import { type ChunkLedger, createChunkLedger, type RecordItemStep } from '../../src/services/chunk-ledger.js';
import { itemCommitGroups } from '../../src/workers/item-commit-groups.js';

const BATCH = 'batch-groups';
const ITEMS = ['a.test', 'b.test', 'c.test', 'd.test'];

describe('item commits in groups', () => {
  let database: Database;
  let ledger: ChunkLedger;
  let work: ChunkWork;
  let transactions: number;

  beforeEach(async () => {
    const inner = createSqliteDatabase(':memory:');
    await inner.migrate();
    transactions = 0;
    // The ledger's transactions, counted: a group is one.
    database = {
      ...inner,
      transaction: (run) => {
        transactions += 1;
        return inner.transaction(run);
      },
    };
    ledger = createChunkLedger({ database, queue: createEmbeddedQueue(inner), clock: () => new Date() });
    await inner.transaction(async (trx) => {
      await trx
        .insertInto('batches')
        .values({
          id: BATCH,
          type: 'discovery',
          status: 'queued',
          country: 'sg',
          category: 'news',
          date: '2026-11-26',
          total_items: ITEMS.length,
          chunk_size: ITEMS.length,
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
      await ledger.insertChunks(trx, BATCH, 'DISCOVERY_QUEUE', [ITEMS], 1, 0);
    });
    work = (await ledger.beginChunk({ batchId: BATCH, chunk: 1 }, 1)) as ChunkWork;
    transactions = 0;
  });
  afterEach(() => database.close());

  const answer =
    (index: number, outcome = 'news'): RecordItemStep =>
    async () => ({ index, input: ITEMS[index], status: 'succeeded', outcome });
  const rows = async () =>
    (
      await database.db
        .selectFrom('batch_items')
        .select(['item_index', 'status', 'outcome'])
        .orderBy('item_index')
        .execute()
    ).map((r) => [Number(r.item_index), r.status, r.outcome]);

  it('commits the results that come within the window in one transaction', async () => {
    const items = itemCommitGroups(ledger, { windowMs: 20, maxItems: 100 }).of(work);
    const statuses = await Promise.all([0, 1, 2].map((i) => items.commit(i, answer(i))));
    expect(statuses).toEqual(['succeeded', 'succeeded', 'succeeded']);
    expect(transactions).toBe(1);
    expect(await rows()).toEqual([
      [0, 'succeeded', 'news'],
      [1, 'succeeded', 'news'],
      [2, 'succeeded', 'news'],
    ]);
    // A result after the group was written starts the next one.
    expect(await items.commit(3, answer(3))).toBe('succeeded');
    expect(transactions).toBe(2);
  });

  it('writes a full group at once, without waiting for the window', async () => {
    // The window's timer never fires here: only a full group can be written.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const items = itemCommitGroups(ledger, { windowMs: 1_000, maxItems: 2 }).of(work);
      expect(await Promise.all([items.commit(0, answer(0)), items.commit(1, answer(1))])).toEqual([
        'succeeded',
        'succeeded',
      ]);
      expect(transactions).toBe(1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('leaves an item an earlier attempt answered as it was, and answers with its status', async () => {
    await ledger.commitItem(work, 1, async () => ({
      index: 1,
      input: ITEMS[1],
      status: 'failed',
      reason: 'x',
    }));
    const items = itemCommitGroups(ledger, { windowMs: 5, maxItems: 100 }).of(work);
    let ranAgain = false;
    const statuses = await Promise.all([
      items.commit(0, answer(0)),
      items.commit(1, async () => {
        ranAgain = true;
        return { index: 1, input: ITEMS[1], status: 'succeeded', outcome: 'news' };
      }),
    ]);
    expect(statuses).toEqual(['succeeded', 'failed']);
    expect(ranAgain).toBe(false);
    expect(await rows()).toEqual([
      [0, 'succeeded', 'news'],
      [1, 'failed', null],
    ]);
  });

  it('fails only the item whose record step throws; the others of its group are committed', async () => {
    const items = itemCommitGroups(ledger, { windowMs: 5, maxItems: 100 }).of(work);
    const results = await Promise.allSettled([
      items.commit(0, answer(0)),
      items.commit(1, async (unit) => {
        // A row written before the failure is rolled back with it.
        await unit
          .insertInto('api_keys')
          .values({ id: 'k', name: 'k', key_hash: 'k', scopes: '[]', created_at: new Date().toISOString() })
          .execute();
        throw new Error('the record step failed');
      }),
      items.commit(2, answer(2, 'not_news')),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect((results[1] as PromiseRejectedResult).reason).toEqual(new Error('the record step failed'));
    expect(await rows()).toEqual([
      [0, 'succeeded', 'news'],
      [2, 'succeeded', 'not_news'],
    ]);
    expect(await database.db.selectFrom('api_keys').selectAll().execute()).toEqual([]);
  });

  it('commitItems answers an item given as another index with an error, committing nothing', async () => {
    await expect(
      ledger.commitItems([
        { work, index: 0, record: answer(0) },
        { work, index: 1, record: answer(2) },
      ]),
    ).rejects.toThrow('item 1 was answered as item 2');
    expect(await rows()).toEqual([]);
  });
});
