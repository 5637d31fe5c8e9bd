// CONTRACT_QUEUE: one chunk of domain ids (from POST /queues/contract, or one domain fanned out by an
// orchestration) → evidence objects, draft seeds, and per-item results in the batch. Every domain of the chunk
// runs at once in the process's domain pool, and each is recorded the moment it is done.
import {
  type ChunkWork,
  type ContractItem,
  contractItemSchema,
  partitionOfChunk,
} from '../domain/batches.js';
import type { ContractRequest, ContractService } from '../services/contracts.js';
import type { OrchestrationService } from '../services/orchestration.js';
import { type ChunkHandler, commitDeadline, type ItemCommits } from './chunk-worker.js';
import type { DomainRunner } from './domain-pool.js';

export function contractHandler(deps: {
  contracts: ContractService;
  orchestration: Pick<OrchestrationService, 'settleRawFile'>;
  domains: DomainRunner;
  today: () => string;
}): ChunkHandler<ContractItem> {
  const { contracts, domains } = deps;

  /** One domain: collected in a pool slot, its seed and item committed, then its checkpoint written. */
  async function collectOne(request: ContractRequest, items: ItemCommits): Promise<void> {
    const { index, input } = request;
    // While it waits for a slot, the domain reads its robots.txt: a long chain is let in first.
    const early = contracts.lookahead(request);
    const outcome = await domains.run((scope) => contracts.collect(request, scope, early), early?.read);
    if (!outcome.ok) {
      await commitDeadline(items, index, input, outcome.reason);
      return;
    }
    const collected = outcome.value;
    const status = await items.commit(index, (unit) => contracts.record(unit, collected));
    // The checkpoint says the seed is stored, so it follows the commit (an earlier attempt's failed answer
    // stands, and vouches for nothing); the chunk completes after it, so a batch that reports completed has
    // every checkpoint in place.
    if (collected.checkpointKey && status !== 'failed')
      await contracts.writeCheckpoint(collected.checkpointKey);
  }

  return {
    queue: 'CONTRACT_QUEUE',
    item: contractItemSchema,
    async process(work, items) {
      const partition = partitionOfChunk(work, deps.today());
      const done = await Promise.allSettled(
        work.items.map((item, i) => collectOne(requestOf(work, item, i, partition), items)),
      );
      // Every domain has had its chance; the chunk is retried for the first failure (answered items stand).
      for (const result of done) if (result.status === 'rejected') throw result.reason;
      return {
        // Every item was recorded on its own: an earlier attempt's answers stand, the rest are in.
        record: async () => [],
        // An orchestration's raw file is checkpointed by the contract chunk that finds its last domain answered
        // (each chunk looks once all of its own domains are in, so the last one to finish sees them all).
        async afterCommit() {
          const files = new Set(work.items.flatMap((item) => (item.source_file ? [item.source_file] : [])));
          for (const file of files) await deps.orchestration.settleRawFile(work.batchId, file);
        },
      };
    },
  };
}

function requestOf(
  work: ChunkWork<ContractItem>,
  item: ContractItem,
  i: number,
  partition: ContractRequest['partition'],
): ContractRequest {
  return {
    index: work.itemOffset + i,
    input: work.inputs[i],
    domainId: item.domain_id.trim().toLowerCase(),
    partition,
    force: item.force ?? false,
    source: item.source_file
      ? { batch_id: work.batchId, raw_file_path: item.source_file }
      : { batch_id: work.batchId },
  };
}
