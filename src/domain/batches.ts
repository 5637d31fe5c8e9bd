// Batches as data: their types and states, the chunk message every chunk queue carries, the items each
// queue's chunks hold, and the per-item results workers record. No I/O: services and workers share these.
import { z } from 'zod';
import { PermanentError } from './errors.js';
import type { Partition } from './identifiers.js';

/**
 * `recheck`: active seeds sent back through the contract pipeline (docs/design.md §11); `discovery`: a country's
 * seeds read for links and the candidates found qualified (docs/discovery.md); `promote` and `archive`: a status
 * move for every seed a filter matches, past what one request answers (docs/api.md, "Promote and archive").
 */
export const BATCH_TYPES = [
  'research',
  'liveness',
  'contract',
  'seed',
  'recheck',
  'discovery',
  'promote',
  'archive',
] as const;
export type BatchType = (typeof BATCH_TYPES)[number];

export const BATCH_STATUSES = ['queued', 'running', 'completed', 'completed_with_errors', 'failed'] as const;
export type BatchStatus = (typeof BATCH_STATUSES)[number];

export const CHUNK_STATUSES = ['pending', 'running', 'succeeded', 'failed'] as const;
export type ChunkStatus = (typeof CHUNK_STATUSES)[number];

export const ITEM_STATUSES = ['succeeded', 'failed', 'skipped'] as const;
export type ItemStatus = (typeof ITEM_STATUSES)[number];

/** The payload of every chunk message: where to find the chunk's work in the database. */
export const chunkMessageSchema = z.object({
  batchId: z.string().min(1),
  chunk: z.number().int().positive(),
});
export type ChunkMessage = z.infer<typeof chunkMessageSchema>;

/** A RESEARCH_QUEUE item: one URL as the client sent it (invalid URLs become failed items, not bad chunks). */
export const researchItemSchema = z.string();

/** A LIVENESS_QUEUE item: a host, a URL or a domain id. */
export const livenessItemSchema = z.string();

/** A CONTRACT_QUEUE item: one domain id, and where it was found when an orchestration fanned it out. */
const contractItemObject = z.object({
  domain_id: z.string(),
  source_file: z.string().optional(),
  /** From a forced orchestration: collect again even where a checkpoint exists. */
  force: z.boolean().optional(),
});
export type ContractItem = z.output<typeof contractItemObject>;
export const contractItemSchema: z.ZodType<ContractItem, unknown> = z.union([
  z.string().transform((domain_id): ContractItem => ({ domain_id })),
  contractItemObject,
]);

/** A SEED_QUEUE item: one raw file of the partition. */
export const seedFileItemSchema = z.union([
  z.string().transform((file) => ({ file, force: false })),
  z.object({ file: z.string(), force: z.boolean().default(false) }),
]);
export type SeedFileItem = z.output<typeof seedFileItemSchema>;

/** A SEED_ACTION_QUEUE item: one seed id, to promote or archive as its batch's type says. */
export const seedActionItemSchema = z.string().min(1);

/** One item's answer: its status, a type-specific outcome word for summaries, and the result or the reason. */
export interface ItemResult {
  index: number;
  input: unknown;
  status: ItemStatus;
  outcome?: string | null;
  reason?: string | null;
  result?: unknown;
}

/** A claimed chunk: its batch's partition and its items, numbered across the whole batch from itemOffset. */
export interface ChunkWork<Item = unknown> {
  batchId: string;
  type: BatchType;
  country: string;
  category: string | null;
  date: string | null;
  chunk: number;
  itemOffset: number;
  /** The items as checked against the queue's item schema. */
  items: Item[];
  /** The items as stored, for the item results' `input` (what the client sent). */
  inputs: unknown[];
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
  /** running: items of chunks a worker holds that have no result yet; pending: the rest without one. */
  items: { succeeded: number; failed: number; skipped: number; running: number; pending: number };
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

/** A batch's final state from its chunk counters and whether any item failed. */
export function finalBatchStatus(
  chunksTotal: number,
  chunksFailed: number,
  anyItemFailed: boolean,
): BatchStatus {
  if (chunksFailed === chunksTotal) return 'failed';
  return chunksFailed > 0 || anyItemFailed ? 'completed_with_errors' : 'completed';
}

/** The partition a chunk writes into; a batch created without one cannot be worked, retried or not. */
export function partitionOfChunk(work: ChunkWork<unknown>, defaultDate?: string): Partition {
  const date = work.date ?? defaultDate;
  if (!work.category || !date)
    throw new PermanentError(
      `batch ${work.batchId} has no ${work.category ? 'date' : 'category'} for its partition`,
    );
  return { country: work.country, category: work.category, date };
}
