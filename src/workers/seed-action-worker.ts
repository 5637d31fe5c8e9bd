// SEED_ACTION_QUEUE: one chunk of a promote or archive batch — its seeds moved and answered in the chunk's
// transaction, and, from the chunk holding the batch's last item, the next matches added (services/seed-actions.ts).
import { seedActionItemSchema } from '../domain/batches.js';
import type { SeedActionService } from '../services/seed-actions.js';
import type { ChunkHandler } from './chunk-worker.js';

export function seedActionHandler(deps: { actions: SeedActionService }): ChunkHandler<string> {
  const { actions } = deps;
  return {
    queue: 'SEED_ACTION_QUEUE',
    item: seedActionItemSchema,
    async process(work) {
      // Read before the chunk's transaction opens: on SQLite a read beside an open transaction waits for it.
      const plan = await actions.planOf(work.batchId);
      return { record: (unit, unanswered) => actions.recordChunk(unit, work, plan, unanswered) };
    },
  };
}
