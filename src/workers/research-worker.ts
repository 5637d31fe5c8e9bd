// RESEARCH_QUEUE: one chunk of a research batch's URLs into the research record and a raw chunk.
import type { BatchService } from '../services/batches.js';
import type { ResearchService } from '../services/research.js';
import { chunkWorker } from './chunk-worker.js';
import type { WorkerDefinition } from './runner.js';

export function researchWorker(deps: {
  batches: BatchService;
  research: ResearchService;
  concurrency: number;
}): WorkerDefinition {
  const { batches, research } = deps;
  return chunkWorker({
    queue: 'RESEARCH_QUEUE',
    concurrency: deps.concurrency,
    batches,
    async process(work, message) {
      await research.ingest(
        {
          partition: { country: work.country, category: work.category as string, date: work.date as string },
          owner: `batch:${work.batchId}:${work.chunk}`,
          inputs: work.items.map((input, i) => ({ index: work.itemOffset + i, input })),
          methods: ['research_batch'],
          defaultMethod: 'research_batch',
        },
        async (trx, outcomes) => {
          await batches.recordItems(trx, work.batchId, work.chunk, outcomes);
          await batches.completeChunk(trx, message);
        },
      );
    },
  });
}
