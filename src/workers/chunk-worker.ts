// The one chunk protocol every batch queue follows. A queue's handler holds only its business logic: it gets
// the chunk's typed items and returns what to record. This worker does the rest, in this order:
//   1. claim the chunk (a redelivered message whose chunk already finished stops here), with the handler's
//      begin step in the same transaction when it has one;
//   2. the handler's work (fetching, object writes) — outside any transaction; a handler whose items finish
//      one by one (contracts, liveness) commits each item's result as it comes, each in its own transaction;
//   3. one transaction: the handler's rows and the item results, for the items no earlier attempt answered;
//   4. the after-commit step (checkpoints: they vouch for rows that are now committed);
//   5. complete the chunk, closing the batch when it was the last one (in step 3's transaction when there is
//      no step 4).
// When the retries run out, the chunk fails with its last error and its unanswered items fail with it.
import type { z } from 'zod';
import type { ChunkWork, ItemResult, ItemStatus } from '../domain/batches.js';
import { errorMessage, PermanentError } from '../domain/errors.js';
import { type ChunkQueueName, JOBS } from '../domain/jobs.js';
import type { ChunkLedger, RecordItemStep, RecordStep, Unit } from '../services/chunk-ledger.js';
import type { ChunkBudget } from './domain-pool.js';
import type { WorkerDefinition } from './runner.js';

/** What a handler hands back: how to record its results, and what must follow the commit. */
export interface ChunkRecord {
  record: RecordStep;
  afterCommit?: () => Promise<void>;
}

/** Item results committed before the chunk's own commit: a batch's progress moves item by item. */
export interface ItemCommits {
  /**
   * Records one item now, in its own transaction, unless an earlier attempt answered it. Resolves with the
   * item's status once committed (the earlier answer's, if there was one).
   */
  commit(index: number, record: RecordItemStep): Promise<ItemStatus>;
}

/** A domain that ran past its deadline: its item fails with the reason, committed on its own. */
export async function commitDeadline(
  items: ItemCommits,
  index: number,
  input: unknown,
  reason: string,
): Promise<void> {
  await items.commit(index, async () => ({ index, input, status: 'failed', outcome: 'deadline', reason }));
}

/** `Begun`: what the handler's begin step hands to its process step (nothing, for a handler without one). */
export interface ChunkHandler<Item, Begun = undefined> {
  queue: ChunkQueueName;
  /** Every stored item is checked against this before the handler sees it. */
  item: z.ZodType<Item, unknown>;
  /**
   * Rows written in the transaction that claims the chunk, committed with the claim (one durable commit for
   * both). Runs on every delivery that claims the chunk, so it must be idempotent.
   */
  begin?(work: ChunkWork<Item>, unit: Unit): Promise<Begun>;
  process(work: ChunkWork<Item>, items: ItemCommits, begun: Begun): Promise<ChunkRecord>;
}

/** A handler whose results are the whole record: nothing of its own to write in the chunk's transaction. */
export function resultsOnly(results: ItemResult[], afterCommit?: () => Promise<void>): ChunkRecord {
  return { record: async () => results, ...(afterCommit ? { afterCommit } : {}) };
}

function typedWork<Item>(work: ChunkWork, schema: z.ZodType<Item, unknown>): ChunkWork<Item> {
  const items = work.items.map((raw, i) => {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const first = parsed.error.issues[0];
    throw new PermanentError(
      `chunk ${work.chunk} of batch ${work.batchId}: item ${work.itemOffset + i} is malformed: ${first?.message ?? 'invalid'}`,
    );
  });
  return { ...work, items };
}

/**
 * `budget`: the queue's chunks feed a shared pool (domains in flight); chunks are claimed while it has room,
 * up to `concurrency` at once.
 */
export function chunkWorker<Item, Begun>(
  handler: ChunkHandler<Item, Begun>,
  deps: { ledger: ChunkLedger; concurrency: number; budget?: ChunkBudget },
): WorkerDefinition {
  const { ledger, budget } = deps;
  const job = JOBS[handler.queue];
  return {
    queue: handler.queue,
    concurrency: deps.concurrency,
    ...(budget ? { capacity: budget.capacity } : {}),
    async handle(delivery) {
      const message = job.parse(delivery.payload);
      // Counted before the first await, so the consumer's next look at the budget already sees this claim.
      const claim = budget?.claiming();
      let claimed: ChunkWork | null = null;
      let processing: Promise<ChunkRecord> | null = null;
      // Filled inside the claiming transaction by the handler's begin step: its typed items and what it returned.
      const begun: { work?: ChunkWork<Item>; value?: Begun } = {};
      const begin = handler.begin;
      try {
        claimed = await ledger.beginChunk(
          message,
          delivery.attempt,
          begin
            ? async (work, unit) => {
                begun.work = typedWork(work, handler.item);
                begun.value = await begin(begun.work, unit);
              }
            : undefined,
        );
        if (claimed) {
          const work = claimed;
          const items: ItemCommits = { commit: (index, record) => ledger.commitItem(work, index, record) };
          // A handler hands its items to the pool before its first await: counted as the claim ends.
          processing = handler.process(
            begun.work ?? typedWork(work, handler.item),
            items,
            begun.value as Begun,
          );
        }
      } finally {
        claim?.(claimed?.items.length ?? 0);
      }
      if (!claimed || !processing) return;
      const outcome = await processing;
      if (!outcome.afterCommit) {
        // Nothing has to come between the results and completion: one transaction, one durable commit.
        await ledger.commitResults(claimed, outcome.record, message);
        return;
      }
      await ledger.commitResults(claimed, outcome.record);
      await outcome.afterCommit();
      await ledger.completeChunk(message);
    },
    async onExhausted(delivery, error) {
      const message = job.schema.safeParse(delivery.payload);
      if (message.success) await ledger.failChunk(message.data, errorMessage(error));
    },
  };
}
