// SEED_QUEUE: reads one raw chunk and fans its unique domains out to CONTRACT_QUEUE inside the orchestration
// batch. The chunk's `.success` checkpoint follows once every one of those contracts is answered.
import { type SeedFileItem, seedFileItemSchema } from '../domain/batches.js';
import type { OrchestrationService } from '../services/orchestration.js';
import type { ChunkHandler } from './chunk-worker.js';

export function seedFileHandler(deps: { orchestration: OrchestrationService }): ChunkHandler<SeedFileItem> {
  const { orchestration } = deps;
  return {
    queue: 'SEED_QUEUE',
    item: seedFileItemSchema,
    async process(work) {
      // A seed batch has one file per chunk (chunkSize 1).
      const [item] = work.items;
      if (!item) return { record: async () => [] };
      const file = await orchestration.domainsOfRawFile(item.file, item.force);
      const index = work.itemOffset;
      return {
        async record(unit, unanswered) {
          // An earlier attempt that fanned out already (and crashed before finishing) must not fan out twice.
          if (!unanswered(index)) return [];
          await orchestration.fanOut(unit, work.batchId, file.domains);
          const result = {
            records: file.records,
            domains: file.domains.length,
            unusable_records: file.unusableRecords,
          };
          return [{ index, input: work.inputs[0], status: 'succeeded', outcome: 'file_read', result }];
        },
        // A file with no usable domain is done now; otherwise its last contract writes the checkpoint.
        async afterCommit() {
          if (file.domains.length === 0) await orchestration.checkpointRawFile(file.key);
        },
      };
    },
  };
}
