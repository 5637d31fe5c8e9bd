// CONTRACT_QUEUE: one chunk of domain ids (from POST /queues/contract, or one domain fanned out by an
// orchestration) → evidence objects, draft seeds, and per-item results in the batch.
import {
  type ContractItem,
  contractItemSchema,
  type ItemResult,
  partitionOfChunk,
} from '../domain/batches.js';
import type { ContractService } from '../services/contracts.js';
import type { OrchestrationService } from '../services/orchestration.js';
import type { ChunkHandler } from './chunk-worker.js';
import { mapLimit } from './map-limit.js';

/** Domains of one chunk discovered at once; the fetcher's own limits keep each host polite. */
const DOMAINS_IN_PARALLEL = 4;

export function contractHandler(deps: {
  contracts: ContractService;
  orchestration: Pick<OrchestrationService, 'settleRawFile'>;
  today: () => string;
}): ChunkHandler<ContractItem> {
  const { contracts } = deps;
  return {
    queue: 'CONTRACT_QUEUE',
    item: contractItemSchema,
    async process(work) {
      const partition = partitionOfChunk(work, deps.today());
      const collected = await mapLimit(work.items, DOMAINS_IN_PARALLEL, (item, i) =>
        contracts.collect({
          index: work.itemOffset + i,
          input: work.inputs[i],
          domainId: item.domain_id.trim().toLowerCase(),
          partition,
          force: item.force ?? false,
          source: item.source_file
            ? { batch_id: work.batchId, raw_file_path: item.source_file }
            : { batch_id: work.batchId },
        }),
      );
      return {
        // Seeds and item results; an earlier attempt's answers stand (it may have crashed after them).
        async record(unit, unanswered) {
          const results: ItemResult[] = [];
          for (const c of collected) if (unanswered(c.index)) results.push(await c.record(unit));
          return results;
        },
        // The checkpoints say the seed is stored, so they follow the commit; the chunk completes after them,
        // so a batch that reports completed has every checkpoint in place.
        async afterCommit() {
          for (const c of collected) if (c.checkpointKey) await contracts.writeCheckpoint(c.checkpointKey);
          // An orchestration's raw file is checkpointed by the contract that answers its last domain.
          const files = new Set(work.items.flatMap((item) => (item.source_file ? [item.source_file] : [])));
          for (const file of files) await deps.orchestration.settleRawFile(work.batchId, file);
        },
      };
    },
  };
}
