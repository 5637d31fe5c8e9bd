// Batches: creation (batch row, chunk rows and queue messages in one transaction), progress, per-item
// results and completion. Routes create and read batches; workers drive their chunks through here.
import { createHash } from 'node:crypto';
import { NotFoundError, UnprocessableError } from '../domain/errors.js';
import { uuidv7 } from '../domain/ids.js';
import type { Database, DbExecutor } from '../ports/database.js';
import type { JobQueue, QueueName } from '../ports/queue.js';
import {
  type Clock,
  chunked,
  isUniqueViolation,
  type Page,
  type PageRequest,
  page,
  parseJson,
} from './common.js';

export const BATCH_TYPES = ['research', 'liveness', 'contract', 'seed'] as const;
export type BatchType = (typeof BATCH_TYPES)[number];
export type BatchStatus = 'queued' | 'running' | 'completed' | 'completed_with_errors' | 'failed';
export const ITEM_STATUSES = ['succeeded', 'failed', 'skipped'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** The payload of every chunk message: where to find the chunk's work in the database. */
export interface ChunkMessage {
  batchId: string;
  chunk: number;
}

export interface NewBatch {
  type: BatchType;
  queue: QueueName;
  country: string;
  category?: string | null;
  date?: string | null;
  items: readonly unknown[];
  chunkSize: number;
  /** Static facts known at creation (e.g. files_found for an orchestration). */
  summary?: Record<string, unknown>;
  idempotencyKey?: string | null;
  /** Anything that identifies the request, to tell a retry from a different request reusing a key. */
  request?: unknown;
}

export interface ItemResult {
  index: number;
  input: unknown;
  status: ItemStatus;
  outcome?: string | null;
  reason?: string | null;
  result?: unknown;
}

export interface ChunkWork {
  batchId: string;
  type: BatchType;
  country: string;
  category: string | null;
  date: string | null;
  chunk: number;
  itemOffset: number;
  items: unknown[];
  attempt: number;
}

export interface BatchView {
  batchId: string;
  type: BatchType;
  status: BatchStatus;
  country: string;
  category: string | null;
  date: string | null;
  total_items: number;
  chunk_size: number;
  chunks: { total: number; pending: number; running: number; succeeded: number; failed: number };
  items: { succeeded: number; failed: number; skipped: number; pending: number };
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
  summary: Record<string, unknown>;
  errors: Array<{ item_index: number; input: unknown; reason: string | null }>;
}

export interface ItemView {
  item_index: number;
  chunk: number;
  input: unknown;
  status: ItemStatus;
  outcome: string | null;
  reason: string | null;
  result: unknown;
  updated_at: string;
}

const ROWS_PER_INSERT = 200;
const FIRST_ERRORS = 10;

export type BatchService = ReturnType<typeof createBatchService>;

export function createBatchService(deps: { database: Database; queue: JobQueue; clock: Clock }) {
  const { database, queue, clock } = deps;
  const now = () => clock().toISOString();

  async function insertChunks(
    executor: DbExecutor,
    batchId: string,
    queueName: QueueName,
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
        status: 'pending',
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
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await executor
        .insertInto('batch_chunks')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .execute();
    }
    await queue.enqueue(
      executor,
      rows.map((row) => ({
        queue: queueName,
        payload: { batchId, chunk: row.chunk_no } satisfies ChunkMessage as unknown as Record<
          string,
          unknown
        >,
        singletonKey: `${batchId}:${row.chunk_no}`,
      })),
    );
  }

  async function create(input: NewBatch): Promise<{ batch: BatchView; created: boolean }> {
    const requestHash = input.idempotencyKey ? hashOf(input.request ?? input.items) : null;
    if (input.idempotencyKey) {
      const replay = await findByIdempotencyKey(input.idempotencyKey, requestHash);
      if (replay) return { batch: replay, created: false };
    }
    const id = uuidv7();
    const chunks = chunked(input.items as unknown[], input.chunkSize);
    const createdAt = now();
    try {
      await database.transaction(async (trx) => {
        await trx
          .insertInto('batches')
          .values({
            id,
            type: input.type,
            status: chunks.length === 0 ? 'completed' : 'queued',
            country: input.country,
            category: input.category ?? null,
            date: input.date ?? null,
            total_items: input.items.length,
            chunk_size: input.chunkSize,
            chunks_total: chunks.length,
            chunks_succeeded: 0,
            chunks_failed: 0,
            summary: JSON.stringify(input.summary ?? {}),
            idempotency_key: input.idempotencyKey ?? null,
            request_hash: requestHash,
            created_at: createdAt,
            started_at: null,
            finished_at: chunks.length === 0 ? createdAt : null,
          })
          .execute();
        await insertChunks(trx, id, input.queue, chunks, 1, 0);
      });
    } catch (error) {
      // Two requests with one Idempotency-Key raced: the loser answers with the winner's batch.
      if (input.idempotencyKey && isUniqueViolation(error)) {
        const replay = await findByIdempotencyKey(input.idempotencyKey, requestHash);
        if (replay) return { batch: replay, created: false };
      }
      throw error;
    }
    return { batch: await get(id), created: true };
  }

  async function findByIdempotencyKey(key: string, requestHash: string | null): Promise<BatchView | null> {
    const existing = await database.db
      .selectFrom('batches')
      .select(['id', 'request_hash'])
      .where('idempotency_key', '=', key)
      .executeTakeFirst();
    if (!existing) return null;
    if (existing.request_hash !== requestHash) {
      throw new UnprocessableError(
        'this Idempotency-Key was already used for a different request',
        'idempotency_key_reused',
        { batchId: existing.id },
      );
    }
    return get(existing.id);
  }

  async function get(batchId: string): Promise<BatchView> {
    const row = await database.db
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', batchId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`no batch ${batchId}`);
    const [chunkCounts, itemCounts, outcomes, errors] = await Promise.all([
      database.db
        .selectFrom('batch_chunks')
        .select(['status', (eb) => eb.fn.countAll().as('n')])
        .where('batch_id', '=', batchId)
        .groupBy('status')
        .execute(),
      database.db
        .selectFrom('batch_items')
        .select(['status', (eb) => eb.fn.countAll().as('n')])
        .where('batch_id', '=', batchId)
        .groupBy('status')
        .execute(),
      database.db
        .selectFrom('batch_items')
        .select(['outcome', (eb) => eb.fn.countAll().as('n')])
        .where('batch_id', '=', batchId)
        .where('outcome', 'is not', null)
        .groupBy('outcome')
        .execute(),
      database.db
        .selectFrom('batch_items')
        .select(['item_index', 'input', 'reason'])
        .where('batch_id', '=', batchId)
        .where('status', '=', 'failed')
        .orderBy('item_index')
        .limit(FIRST_ERRORS)
        .execute(),
    ]);
    const chunkCount = (status: string) => Number(chunkCounts.find((c) => c.status === status)?.n ?? 0);
    const itemCount = (status: string) => Number(itemCounts.find((c) => c.status === status)?.n ?? 0);
    const processed = itemCount('succeeded') + itemCount('failed') + itemCount('skipped');
    const summary: Record<string, unknown> = { ...parseJson<Record<string, unknown>>(row.summary, {}) };
    const outcomeCounts: Record<string, number> = {};
    for (const o of outcomes) outcomeCounts[o.outcome as string] = Number(o.n);
    summary.outcomes = outcomeCounts;
    return {
      batchId: row.id,
      type: row.type as BatchType,
      status: row.status as BatchStatus,
      country: row.country,
      category: row.category,
      date: row.date,
      total_items: Number(row.total_items),
      chunk_size: Number(row.chunk_size),
      chunks: {
        total: Number(row.chunks_total),
        pending: chunkCount('pending'),
        running: chunkCount('running'),
        succeeded: chunkCount('succeeded'),
        failed: chunkCount('failed'),
      },
      items: {
        succeeded: itemCount('succeeded'),
        failed: itemCount('failed'),
        skipped: itemCount('skipped'),
        pending: Math.max(0, Number(row.total_items) - processed),
      },
      created_at: row.created_at,
      started_at: row.started_at,
      finished_at: row.finished_at,
      summary,
      errors: errors.map((e) => ({
        item_index: Number(e.item_index),
        input: JSON.parse(e.input),
        reason: e.reason,
      })),
    };
  }

  async function items(
    batchId: string,
    filter: { status?: ItemStatus } & PageRequest,
  ): Promise<Page<ItemView>> {
    const exists = await database.db
      .selectFrom('batches')
      .select('id')
      .where('id', '=', batchId)
      .executeTakeFirst();
    if (!exists) throw new NotFoundError(`no batch ${batchId}`);
    let query = database.db.selectFrom('batch_items').where('batch_id', '=', batchId);
    if (filter.status) query = query.where('status', '=', filter.status);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('item_index').limit(filter.limit).offset(filter.offset).execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return page(
      rows.map((r) => ({
        item_index: Number(r.item_index),
        chunk: Number(r.chunk_no),
        input: JSON.parse(r.input),
        status: r.status as ItemStatus,
        outcome: r.outcome,
        reason: r.reason,
        result: parseJson(r.result, null),
        updated_at: r.updated_at,
      })),
      filter,
      Number(total.n),
    );
  }

  /** Marks a chunk running and returns its work; null when it already finished (a redelivered message). */
  async function beginChunk(message: ChunkMessage, attempt: number): Promise<ChunkWork | null> {
    return database.transaction(async (trx) => {
      const found = await trx
        .selectFrom('batch_chunks')
        .innerJoin('batches', 'batches.id', 'batch_chunks.batch_id')
        .select([
          'batch_chunks.status',
          'batch_chunks.items',
          'batch_chunks.item_offset',
          'batches.type',
          'batches.country',
          'batches.category',
          'batches.date',
        ])
        .where('batch_chunks.batch_id', '=', message.batchId)
        .where('batch_chunks.chunk_no', '=', message.chunk)
        .executeTakeFirst();
      if (!found) throw new NotFoundError(`no chunk ${message.chunk} in batch ${message.batchId}`);
      if (found.status === 'succeeded' || found.status === 'failed') return null;
      const at = now();
      await trx
        .updateTable('batch_chunks')
        .set((eb) => ({
          status: 'running',
          attempts: eb('attempts', '+', 1),
          started_at: eb.fn.coalesce('started_at', eb.val(at)),
        }))
        .where('batch_id', '=', message.batchId)
        .where('chunk_no', '=', message.chunk)
        .execute();
      await trx
        .updateTable('batches')
        .set({ status: 'running', started_at: at })
        .where('id', '=', message.batchId)
        .where('status', '=', 'queued')
        .execute();
      return {
        batchId: message.batchId,
        type: found.type as BatchType,
        country: found.country,
        category: found.category,
        date: found.date,
        chunk: message.chunk,
        itemOffset: Number(found.item_offset),
        items: JSON.parse(found.items) as unknown[],
        attempt,
      };
    });
  }

  /** Upserts item results: a redelivered chunk writes the same rows again, never twice. */
  async function recordItems(
    executor: DbExecutor,
    batchId: string,
    chunk: number,
    results: readonly ItemResult[],
  ) {
    const at = now();
    const rows = results.map((r) => ({
      batch_id: batchId,
      item_index: r.index,
      chunk_no: chunk,
      input: JSON.stringify(r.input ?? null),
      status: r.status,
      outcome: r.outcome ?? null,
      reason: r.reason ?? null,
      result: r.result === undefined ? null : JSON.stringify(r.result),
      updated_at: at,
    }));
    for (let i = 0; i < rows.length; i += ROWS_PER_INSERT) {
      await executor
        .insertInto('batch_items')
        .values(rows.slice(i, i + ROWS_PER_INSERT))
        .onConflict((oc) =>
          oc.columns(['batch_id', 'item_index']).doUpdateSet((eb) => ({
            status: eb.ref('excluded.status'),
            outcome: eb.ref('excluded.outcome'),
            reason: eb.ref('excluded.reason'),
            result: eb.ref('excluded.result'),
            updated_at: eb.ref('excluded.updated_at'),
          })),
        )
        .execute();
    }
  }

  /** Moves a chunk to its final state once, counts it, and finishes the batch with its last chunk. */
  async function finishChunk(
    executor: DbExecutor,
    message: ChunkMessage,
    outcome: 'succeeded' | 'failed',
    error?: string,
  ) {
    const at = now();
    const moved = await executor
      .updateTable('batch_chunks')
      .set({ status: outcome, finished_at: at, last_error: error ?? null })
      .where('batch_id', '=', message.batchId)
      .where('chunk_no', '=', message.chunk)
      .where('status', 'not in', ['succeeded', 'failed'])
      .executeTakeFirst();
    if (Number(moved.numUpdatedRows) === 0) return;
    // An atomic increment: on PostgreSQL the row lock orders concurrent finishers, so exactly one sees the end.
    const counters = await executor
      .updateTable('batches')
      .set((eb) =>
        outcome === 'succeeded'
          ? { chunks_succeeded: eb('chunks_succeeded', '+', 1) }
          : { chunks_failed: eb('chunks_failed', '+', 1) },
      )
      .where('id', '=', message.batchId)
      .returning(['chunks_total', 'chunks_succeeded', 'chunks_failed'])
      .executeTakeFirstOrThrow();
    const done = Number(counters.chunks_succeeded) + Number(counters.chunks_failed);
    if (done < Number(counters.chunks_total)) return;
    const failedItem = await executor
      .selectFrom('batch_items')
      .select('item_index')
      .where('batch_id', '=', message.batchId)
      .where('status', '=', 'failed')
      .limit(1)
      .executeTakeFirst();
    const failedChunks = Number(counters.chunks_failed);
    const status: BatchStatus =
      failedChunks === Number(counters.chunks_total)
        ? 'failed'
        : failedChunks > 0 || failedItem
          ? 'completed_with_errors'
          : 'completed';
    await executor
      .updateTable('batches')
      .set({ status, finished_at: at })
      .where('id', '=', message.batchId)
      .execute();
  }

  /** Item indexes of a chunk that an earlier attempt already answered (redelivery after a crash). */
  async function answeredItems(executor: DbExecutor, work: ChunkWork): Promise<Set<number>> {
    const rows = await executor
      .selectFrom('batch_items')
      .select('item_index')
      .where('batch_id', '=', work.batchId)
      .where('item_index', '>=', work.itemOffset)
      .where('item_index', '<', work.itemOffset + work.items.length)
      .execute();
    return new Set(rows.map((r) => Number(r.item_index)));
  }

  async function completeChunk(executor: DbExecutor, message: ChunkMessage): Promise<void> {
    await finishChunk(executor, message, 'succeeded');
  }

  /** Retries exhausted: the chunk fails with its last error, its unanswered items fail with it, the batch goes on. */
  async function failChunk(message: ChunkMessage, reason: string): Promise<void> {
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

  /** Fan-out: adds chunks to a running batch (an orchestration's contracts), in the caller's transaction. */
  async function addChunks(
    executor: DbExecutor,
    batchId: string,
    queueName: QueueName,
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

  return { create, get, items, beginChunk, recordItems, answeredItems, completeChunk, failChunk, addChunks };
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}
