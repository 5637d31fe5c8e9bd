// An item result's input, as every reader shows it (the items endpoint, a batch's `errors` and so the batch page,
// anything else that reads `batch_items.input`): the row's own `input`, or, where the row stores none (a research
// chunk's answers since migration 0017), the chunk's item it answers, `batch_chunks.items` at
// `item_index - item_offset`. A chunk's items are written with the batch and never change afterwards, and an
// item's row is written with or after them, so the rebuilt input is the one the row would have held.
import type { DbExecutor } from '../ports/database.js';

export interface StoredItemInput {
  item_index: number | string;
  chunk_no: number | string;
  input: string | null;
}

/**
 * The inputs of one batch's item rows, in the rows' order. One read of the chunks the rows with no `input` of
 * their own belong to, none when every row has its own.
 */
export async function readItemInputs(
  executor: DbExecutor,
  batchId: string,
  rows: readonly StoredItemInput[],
): Promise<unknown[]> {
  const chunkNos = [...new Set(rows.filter((r) => r.input === null).map((r) => Number(r.chunk_no)))];
  const chunks = new Map<number, { items: unknown[]; offset: number }>();
  if (chunkNos.length > 0) {
    const found = await executor
      .selectFrom('batch_chunks')
      .select(['chunk_no', 'items', 'item_offset'])
      .where('batch_id', '=', batchId)
      .where('chunk_no', 'in', chunkNos)
      .execute();
    for (const c of found)
      chunks.set(Number(c.chunk_no), {
        items: JSON.parse(c.items) as unknown[],
        offset: Number(c.item_offset),
      });
  }
  return rows.map((r) => {
    if (r.input !== null) return JSON.parse(r.input);
    const chunk = chunks.get(Number(r.chunk_no));
    const at = Number(r.item_index) - (chunk?.offset ?? 0);
    if (!chunk || at < 0 || at >= chunk.items.length)
      throw new Error(
        `item ${r.item_index} of batch ${batchId} has no input and no chunk item ${r.chunk_no}`,
      );
    return chunk.items[at] ?? null;
  });
}

/**
 * The `input` a research chunk's answer stores: none when it is the chunk's own item at its index (the usual
 * case: readItemInputs rebuilds it from the chunk), else the input itself as JSON. `chunk` is the chunk's items
 * as parsed from `batch_chunks.items` and its first item's index; without it the input is always stored.
 */
export function storedItemInput(
  input: unknown,
  index: number,
  chunk?: { inputs: readonly unknown[]; itemOffset: number },
): string | null {
  const at = chunk === undefined ? -1 : index - chunk.itemOffset;
  if (
    chunk !== undefined &&
    at >= 0 &&
    at < chunk.inputs.length &&
    input !== undefined &&
    input === chunk.inputs[at]
  )
    return null;
  return JSON.stringify(input ?? null);
}
