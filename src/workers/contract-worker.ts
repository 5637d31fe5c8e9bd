// CONTRACT_QUEUE: one chunk of domain ids (from POST /queues/contract, or one domain fanned out by an
// orchestration) → evidence objects, draft seeds, and per-item results in the batch.
import { PermanentError } from '../domain/errors.js';
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
      if (!work.category) throw new PermanentError(`batch ${work.batchId} has no category for its seeds`);
      const partition = { country: work.country, category: work.category, date: work.date ?? deps.today() };
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
      // Seeds and item results first; an earlier attempt's answers stand (it may have crashed after them).
      await database.transaction(async (trx) => {
        const answered = await batches.answeredItems(trx, work);
        const results: ItemResult[] = [];
        for (const c of collected) if (!answered.has(c.index)) results.push(await c.record(trx));
        await batches.recordItems(trx, work.batchId, work.chunk, results);
      });
      // Then the checkpoints (they say the seed is stored), and only then the chunk is done: a batch that
      // reports completed has every checkpoint in place.
      for (const c of collected) if (c.checkpointKey) await contracts.writeCheckpoint(c.checkpointKey);
      await database.transaction((trx) => batches.completeChunk(trx, message));
    },
  });
}
