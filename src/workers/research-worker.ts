// RESEARCH_QUEUE: one chunk of a research batch's URLs into the research record and a raw chunk.
import { partitionOfChunk, researchItemSchema } from '../domain/batches.js';
import type { IngestClaim, ResearchService } from '../services/research.js';
import type { ChunkHandler } from './chunk-worker.js';

export function researchHandler(deps: { research: ResearchService }): ChunkHandler<string, IngestClaim> {
  const { research } = deps;
  return {
    queue: 'RESEARCH_QUEUE',
    item: researchItemSchema,
    // The URLs are claimed in the transaction that claims the chunk: one durable commit for both.
    begin: (work, unit) =>
      research.claimUrls(unit, {
        partition: partitionOfChunk(work),
        // Claims are per owner: a retry of this chunk finds its own URLs (and chunk number) again.
        owner: `batch:${work.batchId}:${work.chunk}`,
        inputs: work.items.map((input, i) => ({ index: work.itemOffset + i, input })),
        methods: ['research_batch'],
        defaultMethod: 'research_batch',
      }),
    async process(_work, _items, claimed) {
      const { outcomes, markStored } = await research.writeClaimed(claimed);
      // The chunk is marked stored with its answers: one transaction, and the batch never shows an answered
      // chunk that is not stored yet.
      return {
        record: async (unit) => {
          await markStored(unit);
          return outcomes;
        },
      };
    },
  };
}
