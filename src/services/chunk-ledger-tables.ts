// The chunk ledger kept in the batch_chunks and batch_items tables (the contract, and why each step is there:
// chunk-ledger.ts). Every write is idempotent, so a redelivered message can run any step again.
import {
  type BatchType,
  type ChunkMessage,
  type ChunkWork,
  finalBatchStatus,
  type ItemResult,
  type ItemStatus,
} from '../domain/batches.js';
import { NotFoundError } from '../domain/errors.js';
import { type ChunkQueueName, JOBS } from '../domain/jobs.js';
import type {
  BatchChunkTable,
  BatchItemTable,
  Database,
  DbExecutor,
  DbTransaction,
  Tables,
} from '../ports/database.js';
import type { JobQueue } from '../ports/queue.js';
import { insertRowsCounted, onConflictReplace } from './bulk-insert.js';
import type { BeginStep, ChunkLedger, RecordItemStep, RecordStep } from './chunk-ledger.js';
import { type Clock, chunked } from './common.js';
import { storedItemInput } from './item-inputs.js';
import { changedRows, runText, sqlText } from './sql-text.js';

const ROWS_PER_INSERT = 200;
/**
 * Domains finish one at a time, rarely in the same turn; on SQLite each item's commit alone would block the main
 * thread for its fsync (2–9 ms, docs/fetching.md). Waiting up to 10 ms lets the items of those milliseconds share
 * one commit: short beside a domain's seconds of fetching, and nobody is answered before the commit.
 */
const ITEM_COMMIT_SHARING = { shareCommitWithinMs: 10 };
/**
 * A chunk's claim and its results wait up to 1 ms for company too. Research chunks (16 at once on SQLite) each
 * came to their two commits alone, and most of a commit is its WAL frames: the claims' random URLs dirty a
 * leaf of the partition's key apiece, and claims committed together share their leaves. With the wait, 200
 * chunks took ≈ 32 commits instead of ≈ 135, and half the commit time; 5 ms grouped no better and left the main
 * thread idle longer (docs/performance.md, "Third pass"). PostgreSQL ignores it. Research chunks only (the one
 * handler with a begin step, and type `research`): a contract or liveness chunk's commits come alone anyway, seconds of
 * network apart, and the wait measured as a small loss in the contracts-latency bench (docs/performance.md).
 */
const CHUNK_COMMIT_SHARING = { shareCommitWithinMs: 1 };

const ITEM_COLUMNS = [
  'batch_id',
  'item_index',
  'chunk_no',
  'input',
  'status',
  'outcome',
  'reason',
  'result',
  'updated_at',
] as const satisfies ReadonlyArray<keyof BatchItemTable>;
const CHUNK_COLUMNS = [
  'batch_id',
  'chunk_no',
  'queue',
  'status',
  'items',
  'item_offset',
  'attempts',
  'last_error',
  'started_at',
  'finished_at',
] as const satisfies ReadonlyArray<keyof BatchChunkTable>;
const UPSERT_ITEM = onConflictReplace(
  ['batch_id', 'item_index'],
  ['status', 'outcome', 'reason', 'result', 'updated_at'],
);

// The statements every chunk runs, as text (sql-text.ts): Kysely's builders were most of their cost.
const FIND_CHUNK = sqlText(
  'select "batch_chunks"."status", "batch_chunks"."items", "batch_chunks"."item_offset", "batches"."type", ' +
    '"batches"."country", "batches"."category", "batches"."date" from "batch_chunks" ' +
    'inner join "batches" on "batches"."id" = "batch_chunks"."batch_id" ' +
    'where "batch_chunks"."batch_id" = ? and "batch_chunks"."chunk_no" = ?',
);
interface FoundChunk {
  status: string;
  items: string;
  item_offset: number;
  type: string;
  country: string;
  category: string;
  date: string;
}
const START_CHUNK = sqlText(
  `update "batch_chunks" set "status" = 'running', "attempts" = "attempts" + 1, ` +
    `"started_at" = coalesce("started_at", ?) where "batch_id" = ? and "chunk_no" = ?`,
);
const START_BATCH = sqlText(
  `update "batches" set "status" = 'running', "started_at" = ? where "id" = ? and "status" = 'queued'`,
);
const FINISH_CHUNK = sqlText(
  'update "batch_chunks" set "status" = ?, "finished_at" = ?, "last_error" = ? ' +
    `where "batch_id" = ? and "chunk_no" = ? and "status" not in ('succeeded', 'failed')`,
);
interface ChunkCounters {
  chunks_total: number;
  chunks_succeeded: number;
  chunks_failed: number;
}
const COUNT_CHUNK = {
  succeeded: sqlText(
    'update "batches" set "chunks_succeeded" = "chunks_succeeded" + 1 where "id" = ? ' +
      'returning "chunks_total", "chunks_succeeded", "chunks_failed"',
  ),
  failed: sqlText(
    'update "batches" set "chunks_failed" = "chunks_failed" + 1 where "id" = ? ' +
      'returning "chunks_total", "chunks_succeeded", "chunks_failed"',
  ),
} as const;
const ANSWERED_ITEMS = sqlText(
  'select "item_index" from "batch_items" where "batch_id" = ? and "item_index" >= ? and "item_index" < ?',
);

export function createChunkLedger(deps: { database: Database; queue: JobQueue; clock: Clock }): ChunkLedger {
  const { database, queue, clock } = deps;
  const now = () => clock().toISOString();

  /**
   * Research chunks of this process between their claim and their results' commit, and how many of them wait
   * for a commit right now. A chunk's transaction waits for company (CHUNK_COMMIT_SHARING) only when some other
   * chunk is in flight and not already waiting: when every other one waits, or there is none, nobody can join,
   * and the wait would only leave the main thread idle (docs/performance.md, "Fourth pass"). Group commit starts
   * a group at once when a work that does not wait comes, and every waiting work joins it. A chunk whose
   * handler throws stays counted until its retry commits or it fails: at worst it waits as before.
   */
  const research = { inFlight: new Set<string>(), waiting: 0 };
  const chunkKey = (batchId: string, chunk: number) => `${batchId}:${chunk}`;
  function researchTransaction<T>(key: string, work: (trx: DbTransaction) => Promise<T>): Promise<T> {
    const others = research.inFlight.size - (research.inFlight.has(key) ? 1 : 0) - research.waiting;
    research.waiting += 1;
    let waited = true;
    const started = () => {
      if (!waited) return;
      waited = false;
      research.waiting -= 1;
    };
    return database
      .transaction(
        (trx) => {
          started();
          return work(trx);
        },
        others > 0 ? CHUNK_COMMIT_SHARING : undefined,
      )
      .finally(started);
  }

  /**
   * A ledger table's rows, ROWS_PER_INSERT a statement, each column every row shares (the batch, the chunk, the time)
   * bound once a statement (bulk-insert.ts, `shareEqual`).
   */
  async function insertLedgerRows<
    T extends 'batch_chunks' | 'batch_items',
    Row extends { [C in Column]: unknown },
    Column extends string,
  >(
    executor: DbExecutor,
    table: T,
    columns: readonly (Column & keyof Tables[T])[],
    rows: readonly Row[],
    tail: string,
  ): Promise<void> {
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT)
      await insertRowsCounted(
        executor,
        database.dialect,
        table,
        columns,
        rows.slice(i, i + ROWS_PER_INSERT),
        tail,
        {
          shareEqual: true,
        },
      );
  }

  /** Chunk rows and their messages, in the caller's transaction. */
  async function insertChunks(
    executor: DbExecutor,
    batchId: string,
    queueName: ChunkQueueName,
    chunks: unknown[][],
    firstChunkNo: number,
    firstItemIndex: number,
  ): Promise<void> {
    let itemOffset = firstItemIndex;
    const rows = chunks.map((items, i) => {
      const row = {
        batch_id: batchId,
        chunk_no: firstChunkNo + i,
        queue: queueName,
        status: 'pending' as const,
        items: JSON.stringify(items),
        item_offset: itemOffset,
        attempts: 0,
        last_error: null,
        started_at: null,
        finished_at: null,
      };
      itemOffset += items.length;
      return row;
    });
    // As text (bulk-insert.ts): Kysely's builder made a node of each of a 20,000-URL batch's 2,000 values.
    await insertLedgerRows(executor, 'batch_chunks', CHUNK_COLUMNS, rows, '');
    await queue.enqueue(
      executor,
      rows.map((row) => ({
        queue: queueName,
        payload: JOBS[queueName].payload({ batchId, chunk: row.chunk_no }),
        singletonKey: `${batchId}:${row.chunk_no}`,
      })),
    );
  }

  async function beginChunk(
    message: ChunkMessage,
    attempt: number,
    begin?: BeginStep,
  ): Promise<ChunkWork | null> {
    if (begin === undefined) return database.transaction((trx) => claimChunk(trx, message, attempt));
    const key = chunkKey(message.batchId, message.chunk);
    research.inFlight.add(key);
    try {
      const work = await researchTransaction(key, (trx) => claimChunk(trx, message, attempt, begin));
      if (work === null) research.inFlight.delete(key);
      return work;
    } catch (error) {
      research.inFlight.delete(key);
      throw error;
    }
  }

  async function claimChunk(
    trx: DbTransaction,
    message: ChunkMessage,
    attempt: number,
    begin?: BeginStep,
  ): Promise<ChunkWork | null> {
    const { dialect } = database;
    const [found] = (await runText<FoundChunk>(trx, dialect, FIND_CHUNK, [message.batchId, message.chunk]))
      .rows;
    if (!found) throw new NotFoundError(`no chunk ${message.chunk} in batch ${message.batchId}`);
    if (found.status === 'succeeded' || found.status === 'failed') return null;
    const at = now();
    const inputs = JSON.parse(found.items) as unknown[];
    await runText(trx, dialect, START_CHUNK, [at, message.batchId, message.chunk]);
    await runText(trx, dialect, START_BATCH, [at, message.batchId]);
    const work: ChunkWork = {
      batchId: message.batchId,
      type: found.type as BatchType,
      country: found.country,
      category: found.category,
      date: found.date,
      chunk: message.chunk,
      itemOffset: Number(found.item_offset),
      items: inputs,
      inputs,
      attempt,
    };
    await begin?.(work, trx);
    return work;
  }

  /**
   * Upserts item results: a redelivered chunk writes the same rows again, never twice (and never changes an
   * `input` written before). With `fromChunk` (a research chunk's answers), an answer whose input is the chunk's
   * own item at its index stores none: readItemInputs (item-inputs.ts) rebuilds it from the chunk's `items`,
   * which were committed with the batch, before any answer could be.
   */
  async function recordItems(
    executor: DbExecutor,
    batchId: string,
    chunk: number,
    results: readonly ItemResult[],
    fromChunk?: Pick<ChunkWork, 'inputs' | 'itemOffset'>,
  ) {
    const at = now();
    const rows = results.map((r) => ({
      batch_id: batchId,
      item_index: r.index,
      chunk_no: chunk,
      input: storedItemInput(r.input, r.index, fromChunk),
      status: r.status,
      outcome: r.outcome ?? null,
      reason: r.reason ?? null,
      result: r.result === undefined ? null : JSON.stringify(r.result),
      updated_at: at,
    }));
    // A chunk's rows share their batch, chunk and time (and often status and outcome): bound once a statement.
    await insertLedgerRows(executor, 'batch_items', ITEM_COLUMNS, rows, UPSERT_ITEM);
  }

  /** Moves a chunk to its final state once, counts it, and finishes the batch with its last chunk. */
  async function finishChunk(
    executor: DbExecutor,
    message: ChunkMessage,
    outcome: 'succeeded' | 'failed',
    error?: string,
  ) {
    const at = now();
    const { dialect } = database;
    const moved = await runText(executor, dialect, FINISH_CHUNK, [
      outcome,
      at,
      error ?? null,
      message.batchId,
      message.chunk,
    ]);
    if (changedRows(moved) === 0) return;
    // An atomic increment: on PostgreSQL the row lock orders concurrent finishers, so exactly one sees the end.
    const counted = await runText<ChunkCounters>(executor, dialect, COUNT_CHUNK[outcome], [message.batchId]);
    const counters = counted.rows[0];
    if (!counters) throw new Error(`no batch ${message.batchId} to count chunk ${message.chunk} in`);
    const done = Number(counters.chunks_succeeded) + Number(counters.chunks_failed);
    if (done < Number(counters.chunks_total)) return;
    const failedItem = await executor
      .selectFrom('batch_items')
      .select('item_index')
      .where('batch_id', '=', message.batchId)
      .where('status', '=', 'failed')
      .limit(1)
      .executeTakeFirst();
    const status = finalBatchStatus(
      Number(counters.chunks_total),
      Number(counters.chunks_failed),
      failedItem !== undefined,
    );
    await executor
      .updateTable('batches')
      .set({ status, finished_at: at })
      .where('id', '=', message.batchId)
      .execute();
  }

  /** Item indexes of a chunk that an earlier attempt already answered (redelivery after a crash). */
  async function answeredItems(executor: DbExecutor, work: ChunkWork): Promise<Set<number>> {
    const { rows } = await runText<{ item_index: number }>(executor, database.dialect, ANSWERED_ITEMS, [
      work.batchId,
      work.itemOffset,
      work.itemOffset + work.items.length,
    ]);
    return new Set(rows.map((r) => Number(r.item_index)));
  }

  /**
   * The results of a chunk in one transaction: the handler's own rows and the item results, each only for the
   * items no earlier attempt answered.
   */
  async function commitResults(work: ChunkWork, record: RecordStep, complete?: ChunkMessage): Promise<void> {
    if (work.type !== 'research')
      return database.transaction((trx) => writeResults(trx, work, record, complete));
    const key = chunkKey(work.batchId, work.chunk);
    try {
      await researchTransaction(key, (trx) => writeResults(trx, work, record, complete));
    } finally {
      research.inFlight.delete(key);
    }
  }

  async function writeResults(
    trx: DbTransaction,
    work: ChunkWork,
    record: RecordStep,
    complete?: ChunkMessage,
  ): Promise<void> {
    // Two deliveries of one chunk at once (a lease ran out while the first still worked) take turns here on
    // PostgreSQL, so the second sees what the first answered; SQLite runs one transaction at a time anyway.
    if (database.dialect === 'postgres')
      await trx
        .selectFrom('batch_chunks')
        .select('chunk_no')
        .where('batch_id', '=', work.batchId)
        .where('chunk_no', '=', work.chunk)
        .forUpdate()
        .execute();
    const answered = await answeredItems(trx, work);
    const results = await record(trx, (index) => !answered.has(index));
    await recordItems(
      trx,
      work.batchId,
      work.chunk,
      results.filter((r) => !answered.has(r.index)),
      work.type === 'research' ? work : undefined,
    );
    if (complete) await finishChunk(trx, complete, 'succeeded');
  }

  /**
   * One item's result as soon as it is known, in its own transaction with the handler's rows for it, so a
   * batch's counters move item by item. An item an earlier attempt answered is left as it is. Resolves with
   * the item's status once committed: its own, or the earlier answer's.
   */
  async function commitItem(work: ChunkWork, index: number, record: RecordItemStep): Promise<ItemStatus> {
    return database.transaction(async (trx) => {
      const earlier = await trx
        .selectFrom('batch_items')
        .select('status')
        .where('batch_id', '=', work.batchId)
        .where('item_index', '=', index)
        .executeTakeFirst();
      if (earlier) return earlier.status as ItemStatus;
      const result = await record(trx);
      if (result.index !== index) throw new Error(`item ${index} was answered as item ${result.index}`);
      await recordItems(trx, work.batchId, work.chunk, [result]);
      return result.status;
    }, ITEM_COMMIT_SHARING);
  }

  /** The chunk is done: counted once, and the batch closed when it was the last one. */
  async function completeChunk(message: ChunkMessage): Promise<void> {
    await database.transaction((trx) => finishChunk(trx, message, 'succeeded'));
  }

  /** Retries exhausted: the chunk fails with its last error, its unanswered items fail with it, the batch goes on. */
  async function failChunk(message: ChunkMessage, reason: string): Promise<void> {
    research.inFlight.delete(chunkKey(message.batchId, message.chunk));
    await database.transaction(async (trx) => {
      const chunk = await trx
        .selectFrom('batch_chunks')
        .select(['items', 'item_offset', 'status'])
        .where('batch_id', '=', message.batchId)
        .where('chunk_no', '=', message.chunk)
        .executeTakeFirst();
      if (!chunk || chunk.status === 'succeeded' || chunk.status === 'failed') return;
      const inputs = JSON.parse(chunk.items) as unknown[];
      const offset = Number(chunk.item_offset);
      const answered = await trx
        .selectFrom('batch_items')
        .select('item_index')
        .where('batch_id', '=', message.batchId)
        .where('item_index', '>=', offset)
        .where('item_index', '<', offset + inputs.length)
        .execute();
      const done = new Set(answered.map((a) => Number(a.item_index)));
      const unanswered = inputs
        .map((input, i) => ({ index: offset + i, input }))
        .filter((item) => !done.has(item.index))
        .map((item) => ({ ...item, status: 'failed' as const, reason: `chunk failed: ${reason}` }));
      await recordItems(trx, message.batchId, message.chunk, unanswered);
      await finishChunk(trx, message, 'failed', reason.slice(0, 2000));
    });
  }

  async function lastChunkNo(executor: DbExecutor, batchId: string): Promise<number> {
    const row = await executor
      .selectFrom('batch_chunks')
      .select((eb) => eb.fn.max('chunk_no').as('last'))
      .where('batch_id', '=', batchId)
      .executeTakeFirst();
    return Number(row?.last ?? 0);
  }

  /** Fan-out: adds chunks to a running batch (an orchestration's contracts), in the caller's transaction. */
  async function addChunks(
    executor: DbExecutor,
    batchId: string,
    queueName: ChunkQueueName,
    items: readonly unknown[],
    chunkSize: number,
  ) {
    if (items.length === 0) return;
    const chunks = chunked(items as unknown[], chunkSize);
    const counters = await executor
      .updateTable('batches')
      .set((eb) => ({
        chunks_total: eb('chunks_total', '+', chunks.length),
        total_items: eb('total_items', '+', items.length),
      }))
      .where('id', '=', batchId)
      .returning(['chunks_total', 'total_items'])
      .executeTakeFirstOrThrow();
    await insertChunks(
      executor,
      batchId,
      queueName,
      chunks,
      Number(counters.chunks_total) - chunks.length + 1,
      Number(counters.total_items) - items.length,
    );
  }

  /**
   * How far a batch's items that came from one raw file have got: how many there are, how many are answered,
   * and how many failed without an answer of their own (their chunk ran out of retries, e.g. our own network
   * was down). Fan-out items carry `source_file` in their input.
   */
  /**
   * Whether every item a batch holds so far is answered (a discovery's next step waits for that): false at once
   * while one of its chunks still waits to be claimed, else its answered items counted against its total. Two
   * reads on primary keys, run after every chunk, where the batch view counts every item by status and outcome.
   */
  async function allAnswered(batchId: string): Promise<boolean> {
    const waiting = await database.db
      .selectFrom('batch_chunks')
      .select('chunk_no')
      .where('batch_id', '=', batchId)
      .where('status', '=', 'pending')
      .limit(1)
      .executeTakeFirst();
    if (waiting) return false;
    const [batch, answered] = await Promise.all([
      database.db.selectFrom('batches').select('total_items').where('id', '=', batchId).executeTakeFirst(),
      database.db
        .selectFrom('batch_items')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('batch_id', '=', batchId)
        .executeTakeFirstOrThrow(),
    ]);
    return batch !== undefined && Number(answered.n) >= Number(batch.total_items);
  }

  async function sourceFileProgress(batchId: string, sourceFile: string) {
    const fromFile = (input: string) => {
      const value = JSON.parse(input) as { source_file?: unknown } | null;
      return value !== null && typeof value === 'object' && value.source_file === sourceFile;
    };
    // A LIKE on the JSON narrows the rows; the exact match is made on the parsed value. Rows with no `input` of
    // their own (readItemInputs) are a research chunk's, never one of the contract chunks counted here.
    const hint = `%${JSON.stringify(sourceFile).slice(1, -1)}%`;
    const [chunks, items] = await Promise.all([
      database.db
        .selectFrom('batch_chunks')
        .select('items')
        .where('batch_id', '=', batchId)
        .where('queue', '=', 'CONTRACT_QUEUE')
        .where('items', 'like', hint)
        .execute(),
      database.db
        .selectFrom('batch_items')
        .select(['input', 'status', 'outcome'])
        .where('batch_id', '=', batchId)
        .where('input', 'like', hint)
        .execute(),
    ]);
    const total = chunks
      .flatMap((c) => JSON.parse(c.items) as unknown[])
      .filter((item) => fromFile(JSON.stringify(item))).length;
    const answered = items.filter((i) => i.input !== null && fromFile(i.input));
    return {
      total,
      answered: answered.length,
      unanswerable: answered.filter((i) => i.status === 'failed' && i.outcome === null).length,
    };
  }

  return {
    insertChunks,
    beginChunk,
    commitItem,
    commitResults,
    completeChunk,
    failChunk,
    addChunks,
    lastChunkNo,
    sourceFileProgress,
    allAnswered,
  };
}
