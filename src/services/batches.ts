// Batches for routes: creation (batch row, chunk rows and queue messages in one transaction), status with
// derived progress and summary, and per-item results. Workers drive chunks through the chunk ledger instead.
import { createHash } from 'node:crypto';
import type { BatchStatus, BatchType, BatchView, ItemStatus, ItemView } from '../domain/batches.js';
import { NotFoundError, UnprocessableError } from '../domain/errors.js';
import { uuidv7 } from '../domain/ids.js';
import type { ChunkQueueName } from '../domain/jobs.js';
import type { Database } from '../ports/database.js';
import type { ChunkLedger } from './chunk-ledger.js';
import {
  type Clock,
  chunked,
  countByStatus as countStatuses,
  isUniqueViolation,
  type Page,
  type PageRequest,
  page,
  parseJson,
} from './common.js';
import { cursorPosition, keysetPage } from './cursor.js';
import { readItemInputs } from './item-inputs.js';

export interface NewBatch {
  type: BatchType;
  queue: ChunkQueueName;
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

/** Type-specific facts of a batch that other services own (a research batch's domains and raw chunks). */
export type BatchSummaries = Partial<
  Record<BatchType, (batchId: string) => Promise<Record<string, unknown>>>
>;

const FIRST_ERRORS = 10;

/** The orders of the batch list (newest first, ties by id) and of a batch's items (by index), as cursors name them. */
const BATCH_ORDER = '-created';
const ITEM_ORDER = 'item_index';

/** Which batches to list: created from `createdFrom` to `createdTo`, both included (ISO timestamps). */
export interface BatchListFilter {
  type?: BatchType;
  status?: BatchStatus;
  createdFrom?: string;
  createdTo?: string;
}

/** A batch in a list: what its row says, with chunk progress from the row's counters. */
export interface BatchListItem {
  batchId: string;
  type: BatchType;
  status: BatchStatus;
  country: string;
  category: string | null;
  date: string | null;
  total_items: number;
  chunk_size: number;
  chunks: { total: number; succeeded: number; failed: number };
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export type BatchService = ReturnType<typeof createBatchService>;

export function createBatchService(deps: {
  database: Database;
  ledger: Pick<ChunkLedger, 'insertChunks'>;
  clock: Clock;
  summaries?: BatchSummaries;
}) {
  const { database, clock, ledger } = deps;
  const now = () => clock().toISOString();
  const summaries = deps.summaries ?? {};

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
        await ledger.insertChunks(trx, id, input.queue, chunks, 1, 0);
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

  /** The summary the batch was made with (its parameters), without counting its items. */
  async function storedSummary(batchId: string): Promise<Record<string, unknown>> {
    const row = await database.db
      .selectFrom('batches')
      .select('summary')
      .where('id', '=', batchId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`no batch ${batchId}`);
    return parseJson<Record<string, unknown>>(row.summary, {});
  }

  async function get(batchId: string): Promise<BatchView> {
    const row = await database.db
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', batchId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`no batch ${batchId}`);
    const [chunkCounts, itemCounts, errors, running] = await Promise.all([
      database.db
        .selectFrom('batch_chunks')
        .select(['status', (eb) => eb.fn.countAll().as('n')])
        .where('batch_id', '=', batchId)
        .groupBy('status')
        .execute(),
      // One pass over the items gives both the status counts and the outcome counts of the summary.
      database.db
        .selectFrom('batch_items')
        .select(['status', 'outcome', (eb) => eb.fn.countAll().as('n')])
        .where('batch_id', '=', batchId)
        .groupBy(['status', 'outcome'])
        .execute(),
      database.db
        .selectFrom('batch_items')
        .select(['item_index', 'chunk_no', 'input', 'reason'])
        .where('batch_id', '=', batchId)
        .where('status', '=', 'failed')
        .orderBy('item_index')
        .limit(FIRST_ERRORS)
        .execute(),
      runningItems(batchId, Number(row.total_items)),
    ]);
    const errorInputs = await readItemInputs(database.db, batchId, errors);
    const chunkCount = (status: string) => Number(chunkCounts.find((c) => c.status === status)?.n ?? 0);
    const itemCount = (status: string) =>
      itemCounts.filter((c) => c.status === status).reduce((sum, c) => sum + Number(c.n), 0);
    const processed = itemCount('succeeded') + itemCount('failed') + itemCount('skipped');
    const outcomeCounts: Record<string, number> = {};
    for (const c of itemCounts) {
      if (c.outcome !== null) outcomeCounts[c.outcome] = (outcomeCounts[c.outcome] ?? 0) + Number(c.n);
    }
    const summary: Record<string, unknown> = {
      ...parseJson<Record<string, unknown>>(row.summary, {}),
      outcomes: outcomeCounts,
      ...(await summaries[row.type as BatchType]?.(batchId)),
    };
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
        running,
        pending: Math.max(0, Number(row.total_items) - processed - running),
      },
      created_at: row.created_at,
      started_at: row.started_at,
      finished_at: row.finished_at,
      summary,
      errors: errors.map((e, i) => ({
        item_index: Number(e.item_index),
        input: errorInputs[i],
        reason: e.reason,
      })),
    };
  }

  /**
   * Items of the chunks workers hold (status running) that have no result yet. A chunk's size is where the
   * next chunk's items start (chunks number a batch's items without gaps), or the batch's end for the last.
   */
  async function runningItems(batchId: string, totalItems: number): Promise<number> {
    const chunks = await database.db
      .selectFrom('batch_chunks')
      .select(['chunk_no', 'item_offset'])
      .where('batch_id', '=', batchId)
      .where('status', '=', 'running')
      .execute();
    if (chunks.length === 0) return 0;
    const numbers = chunks.map((c) => Number(c.chunk_no));
    const [next, answered] = await Promise.all([
      database.db
        .selectFrom('batch_chunks')
        .select(['chunk_no', 'item_offset'])
        .where('batch_id', '=', batchId)
        .where(
          'chunk_no',
          'in',
          numbers.map((n) => n + 1),
        )
        .execute(),
      database.db
        .selectFrom('batch_items')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('batch_id', '=', batchId)
        .where('chunk_no', 'in', numbers)
        .executeTakeFirstOrThrow(),
    ]);
    const startOf = new Map(next.map((c) => [Number(c.chunk_no), Number(c.item_offset)]));
    const held = chunks.reduce(
      (sum, c) => sum + (startOf.get(Number(c.chunk_no) + 1) ?? totalItems) - Number(c.item_offset),
      0,
    );
    return Math.max(0, held - Number(answered.n));
  }

  async function items(
    batchId: string,
    filter: { status?: ItemStatus } & PageRequest & { cursor?: string },
  ): Promise<Page<ItemView>> {
    const after = cursorPosition(filter, ITEM_ORDER, 1)?.after[0];
    const exists = await database.db
      .selectFrom('batches')
      .select('id')
      .where('id', '=', batchId)
      .executeTakeFirst();
    if (!exists) throw new NotFoundError(`no batch ${batchId}`);
    let query = database.db.selectFrom('batch_items').where('batch_id', '=', batchId);
    if (filter.status) query = query.where('status', '=', filter.status);
    const [rows, total] = await Promise.all([
      query
        .selectAll()
        .$if(after !== undefined, (q) => q.where('item_index', '>', Number(after)))
        .orderBy('item_index')
        .limit(filter.limit + 1)
        .offset(filter.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    const shown = keysetPage(rows, filter.limit, ITEM_ORDER, (r) => [Number(r.item_index)]);
    const inputs = await readItemInputs(database.db, batchId, shown.rows);
    return page(
      shown.rows.map((r, i) => ({
        item_index: Number(r.item_index),
        chunk: Number(r.chunk_no),
        input: inputs[i],
        status: r.status as ItemStatus,
        outcome: r.outcome,
        reason: r.reason,
        result: parseJson(r.result, null),
        updated_at: r.updated_at,
      })),
      filter,
      Number(total.n),
      shown.next,
    );
  }

  /**
   * Batches newest first, from their rows alone (no per-batch item counts): a list of 100 batches costs two
   * queries. The full progress and summary of one batch is GET /queues/batch/:batchId.
   */
  async function list(
    filter: BatchListFilter & PageRequest & { cursor?: string },
  ): Promise<Page<BatchListItem>> {
    const after = cursorPosition(filter, BATCH_ORDER, 2)?.after as [string, string] | undefined;
    let query = database.db.selectFrom('batches');
    if (filter.type) query = query.where('type', '=', filter.type);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.createdFrom) query = query.where('created_at', '>=', filter.createdFrom);
    if (filter.createdTo) query = query.where('created_at', '<=', filter.createdTo);
    const [rows, total] = await Promise.all([
      query
        .selectAll()
        .$if(after !== undefined, (q) =>
          q.where((eb) => eb(eb.refTuple('created_at', 'id'), '<', eb.tuple(...(after as [string, string])))),
        )
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(filter.limit + 1)
        .offset(filter.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    const shown = keysetPage(rows, filter.limit, BATCH_ORDER, (row) => [row.created_at, row.id]);
    return page(
      shown.rows.map((row) => ({
        batchId: row.id,
        type: row.type,
        status: row.status,
        country: row.country,
        category: row.category,
        date: row.date,
        total_items: Number(row.total_items),
        chunk_size: Number(row.chunk_size),
        chunks: {
          total: Number(row.chunks_total),
          succeeded: Number(row.chunks_succeeded),
          failed: Number(row.chunks_failed),
        },
        created_at: row.created_at,
        started_at: row.started_at,
        finished_at: row.finished_at,
      })),
      filter,
      Number(total.n),
      shown.next,
    );
  }

  const countByStatus = () => countStatuses(database.db, 'batches');

  return { create, get, storedSummary, items, list, countByStatus };
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}
