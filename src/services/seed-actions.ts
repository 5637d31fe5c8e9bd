// Promote and archive, on a selection or on every seed a filter matches (docs/api.md, "Promote and archive"). Up to
// AT_ONCE_LIMIT seeds are moved in the request, in one transaction, and answered per seed. More become a batch of
// type `promote` or `archive` on SEED_ACTION_QUEUE whose items are the seeds, one answer each. Such a batch grows a
// step at a time: it is made with the first SEED_ACTION_READ_AHEAD matches (keyset, in seed id order), and the chunk
// holding its last item reads the next matches after that item's id and adds them, in the transaction that answers
// its own seeds — so memory stays bounded however many match, and a crash never answers a seed twice nor reads a
// step twice (the chunk protocol skips a chunk whose items are answered).
import type { BatchView, ChunkWork, ItemResult } from '../domain/batches.js';
import { canonicalSeedId } from '../domain/domains.js';
import {
  AT_ONCE_LIMIT,
  decideAction,
  SEED_ACTION_CHUNK_SIZE,
  SEED_ACTION_READ_AHEAD,
  type SeedAction,
  type SeedActionAnswer,
  type SeedActionOutcome,
} from '../domain/seed-actions.js';
import type { SeedStatus } from '../domain/seeds.js';
import type { Database, DbTransaction, SeedTable } from '../ports/database.js';
import type { BatchService } from './batches.js';
import type { ChunkLedger } from './chunk-ledger.js';
import type { Clock } from './common.js';
import type { ReviewFilter, SeedFilter, SeedRepository } from './seed-repository/index.js';

/** The filters a status move takes: the list's, and the review page's (its order aside). */
export type SeedActionFilter = SeedFilter & Omit<ReviewFilter, 'sort'>;

export interface SeedActionRequest {
  seedIds?: string[];
  filter?: SeedActionFilter;
  /** With a filter: only the first `limit` matches by seed id. */
  limit?: number;
}

/** The answer of a move done at once: how many moved (`promoted` or `archived`), how many were skipped, per seed. */
export interface AtOnceAnswer {
  promoted?: number;
  archived?: number;
  skipped: number;
  results: SeedActionAnswer[];
}

/** Done in the request, or a batch (new, or the one an Idempotency-Key names). */
export type SeedActionOutcomeOf =
  | { kind: 'answer'; answer: AtOnceAnswer }
  | { kind: 'batch'; batch: BatchView; created: boolean };

/** What a batch was made with, kept in its summary so every chunk's step sees it. */
export interface SeedActionPlan {
  action: SeedAction;
  filter: SeedActionFilter | null;
  limit: number | null;
}

/** Batches whose plans a process keeps at hand (a few run at once). */
const PLANS_KEPT = 64;

/** The seeds a move may take for a filter: promote takes drafts, archive every seed not archived yet. */
export function movableMatch(action: SeedAction, filter: SeedActionFilter) {
  return action === 'promote'
    ? { filter: { ...filter, status: 'draft' as const } }
    : { filter, except: 'archived' as const };
}

interface Decided {
  answer: SeedActionAnswer;
  outcome: SeedActionOutcome;
}

/**
 * Moves these seeds (those the state machine lets move) in the caller's transaction: each row read (locked on
 * PostgreSQL, in seed id order), decided, and the moved ones written in one statement. With `filter`, a seed that
 * no longer matches it is skipped. A status move is not a revision: the contract and a person's fields stay as
 * they are, as with PATCH {status}.
 */
export async function moveSeeds(
  trx: DbTransaction,
  repository: SeedRepository,
  action: SeedAction,
  seedIds: readonly string[],
  context: { at: string; filter: SeedActionFilter | null },
): Promise<Decided[]> {
  const rows = await repository.findMany(trx, seedIds, true);
  const statusOf = new Map(rows.map((row: SeedTable) => [row.seed_id, row.status as SeedStatus]));
  const matching = context.filter ? await repository.matchingAmong(trx, context.filter, seedIds) : null;
  const decided = seedIds.map((seedId) =>
    decideAction(action, seedId, statusOf.get(seedId) ?? null, matching?.has(seedId) ?? true),
  );
  const moved = decided.filter((d) => d.answer.result !== 'skipped').map((d) => d.answer.seed_id);
  const { at } = context;
  await repository.updateMany(
    trx,
    moved,
    action === 'promote'
      ? { status: 'active', promoted_at: at, updated_at: at }
      : { status: 'archived', updated_at: at },
  );
  return decided;
}

function answerOf(action: SeedAction, decided: readonly Decided[]): AtOnceAnswer {
  const results = decided.map((d) => d.answer);
  const moved = results.filter((r) => r.result !== 'skipped').length;
  const skipped = results.length - moved;
  return action === 'promote' ? { promoted: moved, skipped, results } : { archived: moved, skipped, results };
}

/**
 * A move in the request, in one transaction: the ids named, or the first matches of the filter. With
 * `whole`, a filter matching more than AT_ONCE_LIMIT (within `limit`) moves nothing and answers null: a batch
 * must take it. Without, the first min(limit, AT_ONCE_LIMIT) matches are moved.
 */
export function moveAtOnce(
  deps: { database: Database; repository: SeedRepository },
  action: SeedAction,
  request: SeedActionRequest,
  at: string,
  whole = false,
): Promise<AtOnceAnswer | null> {
  const { database, repository } = deps;
  return database.transaction(async (trx) => {
    let ids: string[];
    if (request.seedIds) ids = [...new Set(request.seedIds.map(canonicalSeedId))];
    else {
      const cap = Math.min(request.limit ?? Number.POSITIVE_INFINITY, AT_ONCE_LIMIT);
      const overflows = whole && (request.limit ?? Number.POSITIVE_INFINITY) > AT_ONCE_LIMIT;
      const match = movableMatch(action, request.filter ?? {});
      ids = await repository.movableIdsAfter(trx, match, null, overflows ? cap + 1 : cap);
      if (ids.length > cap) return null;
    }
    return answerOf(action, await moveSeeds(trx, repository, action, ids, { at, filter: null }));
  });
}

export type SeedActionService = ReturnType<typeof createSeedActionService>;

export function createSeedActionService(deps: {
  database: Database;
  repository: SeedRepository;
  batches: Pick<BatchService, 'create' | 'storedSummary'>;
  ledger: Pick<ChunkLedger, 'addChunks' | 'lastChunkNo'>;
  clock: Clock;
}) {
  const { database, repository, batches, ledger } = deps;
  const now = () => deps.clock().toISOString();
  const plans = new Map<string, SeedActionPlan>();

  /**
   * A move as the API takes it. Without an Idempotency-Key, a selection, or a filter matching up to AT_ONCE_LIMIT,
   * is answered at once; a larger match becomes a batch. With a key the move is always a batch (a key names a
   * batch, and replaying it answers the same batch, whatever has moved since).
   */
  async function run(
    action: SeedAction,
    request: SeedActionRequest,
    options: { idempotencyKey: string | null; author: string },
  ): Promise<SeedActionOutcomeOf> {
    if (options.idempotencyKey === null) {
      const answer = await moveAtOnce({ database, repository }, action, request, now(), true);
      if (answer) return { kind: 'answer', answer };
    }
    return { kind: 'batch', ...(await makeBatch(action, request, options)) };
  }

  async function makeBatch(
    action: SeedAction,
    request: SeedActionRequest,
    options: { idempotencyKey: string | null; author: string },
  ) {
    const filter = request.filter ?? null;
    const limit = request.seedIds ? null : (request.limit ?? null);
    const cap = limit ?? Number.POSITIVE_INFINITY;
    let items: string[];
    let matched: number;
    if (filter) {
      const match = movableMatch(action, filter);
      items = await repository.movableIdsAfter(
        database.db,
        match,
        null,
        Math.min(cap, SEED_ACTION_READ_AHEAD),
      );
      matched = Math.min(cap, await repository.countMovable(match));
    } else {
      items = [...new Set((request.seedIds ?? []).map(canonicalSeedId))];
      matched = items.length;
    }
    const plan: SeedActionPlan = { action, filter, limit };
    return batches.create({
      type: action,
      queue: 'SEED_ACTION_QUEUE',
      country: filter?.country ?? 'all',
      category: filter?.category ?? null,
      items,
      chunkSize: SEED_ACTION_CHUNK_SIZE,
      summary: { ...plan, matched, by: options.author },
      idempotencyKey: options.idempotencyKey,
      request: { action, ...request },
    });
  }

  /** The plan a batch was made with (read outside any transaction: SQLite has one connection). */
  async function planOf(batchId: string): Promise<SeedActionPlan> {
    const kept = plans.get(batchId);
    if (kept) return kept;
    const summary = await batches.storedSummary(batchId);
    const plan: SeedActionPlan = {
      action: summary['action'] === 'archive' ? 'archive' : 'promote',
      filter: (summary['filter'] as SeedActionFilter | null | undefined) ?? null,
      limit: typeof summary['limit'] === 'number' ? summary['limit'] : null,
    };
    if (plans.size >= PLANS_KEPT) plans.delete(plans.keys().next().value as string);
    plans.set(batchId, plan);
    return plan;
  }

  /**
   * One chunk's seeds moved and answered, in the chunk's transaction; when the chunk holds the batch's last item
   * and the batch moves by filter, the next matches after it are added to the batch in the same transaction.
   */
  async function recordChunk(
    trx: DbTransaction,
    work: ChunkWork<string>,
    plan: SeedActionPlan,
    unanswered: (index: number) => boolean,
  ): Promise<ItemResult[]> {
    const items = work.items.map((seedId, i) => ({
      seedId,
      index: work.itemOffset + i,
      input: work.inputs[i],
    }));
    const open = items.filter((item) => unanswered(item.index));
    // The chunk's items are answered all together, with the next step: none open means both are in.
    if (open.length === 0) return [];
    const decided = await moveSeeds(
      trx,
      repository,
      plan.action,
      open.map((item) => item.seedId),
      { at: now(), filter: plan.filter },
    );
    if (plan.filter && (await ledger.lastChunkNo(trx, work.batchId)) === work.chunk)
      await readAhead(trx, work, plan, plan.filter);
    return open.map((item, i) => {
      const { answer, outcome } = decided[i] as Decided;
      return {
        index: item.index,
        input: item.input,
        status: answer.result === 'skipped' ? 'skipped' : 'succeeded',
        outcome,
        reason: answer.reason ?? null,
        result: answer,
      };
    });
  }

  async function readAhead(
    trx: DbTransaction,
    work: ChunkWork<string>,
    plan: SeedActionPlan,
    filter: SeedActionFilter,
  ) {
    const last = work.items.at(-1);
    const remaining = (plan.limit ?? Number.POSITIVE_INFINITY) - (work.itemOffset + work.items.length);
    if (last === undefined || remaining <= 0) return;
    const match = movableMatch(plan.action, filter);
    const next = await repository.movableIdsAfter(
      trx,
      match,
      last,
      Math.min(remaining, SEED_ACTION_READ_AHEAD),
    );
    await ledger.addChunks(trx, work.batchId, 'SEED_ACTION_QUEUE', next, SEED_ACTION_CHUNK_SIZE);
  }

  return { run, planOf, recordChunk };
}
