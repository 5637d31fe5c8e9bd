// The chunk ledger: the one owner of chunk and item rows. Workers drive a chunk through it — claim it, commit
// one item's result as soon as it is known, commit the rest (item rows plus whatever the queue's handler
// writes, in one transaction), complete it (closing the batch with its last chunk), or fail it when retries
// run out — and fan out new chunks. Idempotent throughout.
//
// This module is the ledger's contract (the interface and the steps handlers pass to it); chunk-ledger-tables
// keeps it in the batch_chunks and batch_items tables.
import type { ChunkMessage, ChunkWork, ItemResult, ItemStatus } from '../domain/batches.js';
import type { ChunkQueueName } from '../domain/jobs.js';
import type { DbExecutor, DbTransaction } from '../ports/database.js';

export { createChunkLedger } from './chunk-ledger-tables.js';

/**
 * What a queue's handler writes with its results: runs inside the chunk's transaction, only for the items no
 * earlier attempt answered (a redelivery after a crash must neither redo nor contradict what was recorded).
 * The transaction is opaque to handlers: they pass it on to the service that owns the rows.
 */
export type Unit = DbTransaction;
export type RecordStep = (unit: Unit, unanswered: (index: number) => boolean) => Promise<ItemResult[]>;
/** What a handler writes with one item's result, inside that item's own transaction. */
export type RecordItemStep = (unit: Unit) => Promise<ItemResult>;
/**
 * What a handler writes when a delivery claims its chunk, inside the claim's transaction (research claims its
 * URLs there): it commits with the claim or not at all, and runs again on every delivery that claims the chunk.
 */
export type BeginStep = (work: ChunkWork, unit: Unit) => Promise<void>;

/**
 * The one owner of a batch's chunk and item rows, and the only way a worker moves a chunk along.
 *
 * Lifecycle of one chunk, as src/workers/chunk-worker.ts drives it for one delivery of the chunk's message:
 *
 *   insertChunks / addChunks ─► beginChunk ─► commitItem* ─► commitResults ─► after-commit ─► completeChunk
 *   (pending, message queued)   (running)     (optional)     (results in)     (handler's)     (succeeded)
 *                                    └──────── a step throws or the worker dies: redelivered ──────┘
 *                                         the queue gives up on the message: failChunk (failed)
 *
 * What a worker must call, in this order:
 *   1. beginChunk: claim the chunk, with the handler's begin step if it has one. `null` means it already
 *      finished (a duplicate or late redelivery): stop, acknowledge the message, call nothing else.
 *   2. commitItem, any number of times, while the handler works (outside any transaction of the ledger's).
 *   3. commitResults, once per delivery, with the handler's record step.
 *   4. The after-commit step, if the handler has one. Not a ledger call: it follows commitResults because
 *      what it writes (checkpoints) vouches for rows that must already be committed.
 *   5. completeChunk. With no after-commit step, 3 and 5 may be one call: commitResults with `complete`.
 *   When the queue gives up on the message (retries exhausted, a permanent error, or the worker holding the
 *   final attempt died), failChunk instead of 3–5. Never completeChunk before commitResults: completing does
 *   not look at item rows, so a chunk completed early counts as succeeded without its results. commitItem and
 *   commitResults do not check the chunk's status either: call them only between a non-null beginChunk and
 *   completeChunk.
 *
 * A crash (or a thrown error) at each step, and what the redelivery finds:
 *   - during insertChunks/addChunks: the caller's transaction rolls back, chunk rows and messages together
 *     (they are written in it), so there is never a chunk without its message or the reverse.
 *   - during beginChunk: its transaction rolls back, the chunk (and whatever the begin step wrote) is as it was.
 *     After it: the chunk is `running` with one more attempt counted, the begin step's rows committed with it.
 *     Either way the redelivery claims it again (a chunk not yet finished is always claimable), gets the same
 *     items, and runs the begin step again: it must be idempotent.
 *   - during the handler's work: items already given to commitItem stay committed. The redelivery's commitItem
 *     for them records nothing and answers the earlier status; the handler may redo the work, not the answer.
 *   - during commitResults: its one transaction rolls back, nothing of it is written. The redelivery runs the
 *     record step again, told which items are still unanswered.
 *   - after commitResults, during the after-commit step: results are committed, the chunk is still `running`.
 *     The redelivery processes again, commitResults records nothing new (every item is answered), and the
 *     after-commit step runs again: it must be idempotent.
 *   - after completeChunk, before the message is acknowledged: the redelivery's beginChunk answers `null`.
 *   - during failChunk: its transaction rolls back, and the message comes back past its final attempt, which
 *     calls failChunk again. An error failChunk throws is only logged (src/workers/runner.ts): the chunk then
 *     stays `running` and its batch open.
 */
export interface ChunkLedger {
  /**
   * Creation: chunk rows numbered from `firstChunkNo`, whose items are numbered from `firstItemIndex`, each
   * `pending` with its queue message, all in the caller's transaction (with the batch row it belongs to).
   * Each message's singleton key is `batchId:chunkNo`: while one is live, a second enqueue of it is dropped.
   */
  insertChunks(
    executor: DbExecutor,
    batchId: string,
    queueName: ChunkQueueName,
    chunks: unknown[][],
    firstChunkNo: number,
    firstItemIndex: number,
  ): Promise<void>;

  /**
   * Fan-out: adds `items`, `chunkSize` to a chunk, to a running batch (an orchestration's contracts), in the
   * caller's transaction. The batch's counters grow in the same transaction, so the batch cannot close before
   * the new chunks finish. Nothing happens for no items.
   */
  addChunks(
    executor: DbExecutor,
    batchId: string,
    queueName: ChunkQueueName,
    items: readonly unknown[],
    chunkSize: number,
  ): Promise<void>;

  /**
   * The highest chunk number the batch holds, read in the caller's transaction: a batch that grows one step at a
   * time (promote and archive by filter) lets only its last chunk add the next.
   */
  lastChunkNo(executor: DbExecutor, batchId: string): Promise<number>;

  /**
   * Claims a chunk for one delivery of its message: marks it `running`, counts the attempt, and starts its
   * batch if this is the batch's first claim; `begin` runs in the same transaction, once the chunk is claimed.
   * Resolves with the chunk's work, or `null` when the chunk already succeeded or failed (nothing to do, and
   * `begin` is not called). Throws NotFoundError for a chunk that does not exist.
   */
  beginChunk(message: ChunkMessage, attempt: number, begin?: BeginStep): Promise<ChunkWork | null>;

  /**
   * One item's result as soon as it is known, in its own transaction with the handler's rows for it, so the
   * batch's progress moves item by item. An item an earlier attempt answered is left as it was and `record`
   * is not called. Resolves, once committed, with the item's status: its own, or the earlier answer's.
   * Throws when `record` answers another item than `index` (nothing is committed).
   */
  commitItem(work: ChunkWork, index: number, record: RecordItemStep): Promise<ItemStatus>;

  /**
   * The rest of the chunk's results in one transaction: the rows `record` writes and the item results, only
   * for the items no earlier call (this attempt's commitItem, or an earlier attempt) answered. All or nothing. Two
   * deliveries of one chunk committing at once take turns, so the second sees the first's answers. With `complete`
   * (a handler with no after-commit step), the same transaction also completes the chunk as completeChunk would:
   * one durable commit instead of two, and a crash leaves both steps undone or both done.
   */
  commitResults(work: ChunkWork, record: RecordStep, complete?: ChunkMessage): Promise<void>;

  /**
   * The chunk succeeded: moved to `succeeded` and counted once (a second call, or one after failChunk, does
   * nothing), and the batch closed with its final status when this was its last chunk.
   */
  completeChunk(message: ChunkMessage): Promise<void>;

  /**
   * Retries exhausted: the chunk fails with `reason`, its unanswered items fail with it (answered ones keep
   * their answer), counted once, and the batch closed when this was its last chunk. A chunk already finished,
   * or unknown, is left alone.
   */
  failChunk(message: ChunkMessage, reason: string): Promise<void>;

  /**
   * How far a batch's items that came from one raw file have got (fan-out items carry `source_file` in their
   * input): a read, outside the lifecycle.
   */
  sourceFileProgress(batchId: string, sourceFile: string): Promise<SourceFileProgress>;
  /**
   * Whether every item the batch holds so far is answered (a discovery adds its next round then): a read,
   * outside the lifecycle. Cheap enough to ask after every chunk: false at once while a chunk waits to be claimed.
   */
  allAnswered(batchId: string): Promise<boolean>;
}

export interface SourceFileProgress {
  /** The file's items in the batch's contract chunks. */
  total: number;
  /** Those with an item result. */
  answered: number;
  /**
   * Answered as failed without an outcome of their own: their chunk ran out of retries (e.g. our own network
   * was down).
   */
  unanswerable: number;
}
