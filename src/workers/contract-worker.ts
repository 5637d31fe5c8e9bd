// CONTRACT_QUEUE: one chunk of domain ids (from POST /queues/contract, or one domain fanned out by an
// orchestration) → evidence objects, draft seeds, and per-item results in the batch.
import type { Database } from '../ports/database.js';
import type { BatchService, ItemResult } from '../services/batches.js';
import type { ContractService } from '../services/contracts.js';
import { chunkWorker } from './chunk-worker.js';
import { mapLimit } from './map-limit.js';
import type { WorkerDefinition } from './runner.js';
import type { ContractItem } from './seed-file-worker.js';

/** Domains of one chunk discovered at once; the fetcher's own limits keep each host polite. */
const DOMAINS_IN_PARALLEL = 4;

export function contractWorker(deps: {
  database: Database;
  batches: BatchService;
  contracts: ContractService;
  concurrency: number;
  today: () => string;
}): WorkerDefinition {
  const { database, batches, contracts } = deps;
  return chunkWorker({
    queue: 'CONTRACT_QUEUE',
    concurrency: deps.concurrency,
    batches,
    async process(work, message) {
      const partition = {
        country: work.country,
        category: work.category ?? 'news',
        date: work.date ?? deps.today(),
      };
      const collected = await mapLimit(work.items, DOMAINS_IN_PARALLEL, (input, i) => {
        const item: ContractItem = typeof input === 'string' ? { domain_id: input } : (input as ContractItem);
        return contracts.collect({
          index: work.itemOffset + i,
          input,
          domainId: String(item.domain_id ?? '')
            .trim()
            .toLowerCase(),
          partition,
          force: Boolean(item.force),
          source: item.source_file
            ? { batch_id: work.batchId, raw_file_path: item.source_file }
            : { batch_id: work.batchId },
        });
      });
      await database.transaction(async (trx) => {
        const results: ItemResult[] = [];
        for (const c of collected) results.push(c.write ? await c.write(trx) : c.item);
        await batches.recordItems(trx, work.batchId, work.chunk, results);
        await batches.completeChunk(trx, message);
      });
      // The checkpoint comes last: it says the seed is in the database, so a later run may skip the domain.
      for (const c of collected) if (c.checkpointKey) await contracts.writeCheckpoint(c.checkpointKey);
    },
  });
}
