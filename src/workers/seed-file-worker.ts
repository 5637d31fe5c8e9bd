// SEED_QUEUE: reads one raw chunk, validates it, fans its unique domains out to CONTRACT_QUEUE inside the
// orchestration batch, then writes the chunk's `.success` checkpoint.
import { text } from 'node:stream/consumers';
import { enhancedResearchDatasetSchema } from '../domain/dataset.js';
import { parseDomainId } from '../domain/domains.js';
import { PermanentError } from '../domain/errors.js';
import { parseRawChunkKey } from '../domain/keys.js';
import { classifyUrl } from '../domain/urls.js';
import type { Database } from '../ports/database.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { BatchService } from '../services/batches.js';
import type { DatasetService } from '../services/datasets.js';
import { chunkWorker } from './chunk-worker.js';
import type { WorkerDefinition } from './runner.js';

/** A CONTRACT_QUEUE item: one domain, and where it was found. */
export interface ContractItem {
  domain_id: string;
  source_file?: string;
  /** From a forced orchestration: collect again even where a checkpoint exists. */
  force?: boolean;
}

/** A SEED_QUEUE item: one raw file of the partition. */
export interface SeedFileItem {
  file: string;
  force: boolean;
}

function fileItemOf(value: unknown): SeedFileItem | null {
  if (typeof value === 'string') return { file: value, force: false };
  const item = value as Partial<SeedFileItem> | null;
  return item && typeof item.file === 'string' ? { file: item.file, force: Boolean(item.force) } : null;
}

export function seedFileWorker(deps: {
  database: Database;
  objects: ObjectStore;
  batches: BatchService;
  datasets: DatasetService;
  concurrency: number;
}): WorkerDefinition {
  const { database, objects, batches, datasets } = deps;

  async function checkpoint(key: string): Promise<void> {
    const parsed = parseRawChunkKey(key);
    if (parsed) await datasets.checkpoint(parsed.partition, parsed.chunk);
  }

  return chunkWorker({
    queue: 'SEED_QUEUE',
    concurrency: deps.concurrency,
    batches,
    async process(work, message) {
      const item = fileItemOf(work.items[0]);
      const key = item?.file ?? '';
      const parsed = parseRawChunkKey(key);
      if (!item || !parsed) throw new PermanentError(`not a raw chunk key: ${JSON.stringify(work.items[0])}`);
      const stream = await objects.get(key);
      if (!stream) throw new PermanentError(`raw file ${key} no longer exists`);
      let body: unknown;
      try {
        body = JSON.parse(await text(stream));
      } catch (error) {
        throw new PermanentError(`raw file ${key} is not valid JSON: ${(error as Error).message}`);
      }
      const dataset = enhancedResearchDatasetSchema.safeParse(body);
      if (!dataset.success) {
        const first = dataset.error.issues[0];
        throw new PermanentError(
          `raw file ${key} is not an EnhancedResearchDataset: ${first?.path.join('.')}: ${first?.message}`,
        );
      }
      const country = parsed.partition.country;
      const domains = new Map<string, ContractItem>();
      let unusable = 0;
      for (const record of dataset.data.records) {
        let domainId =
          record.domain_id && parseDomainId(record.domain_id) ? record.domain_id.toLowerCase() : null;
        if (!domainId) {
          const classified = classifyUrl(record.normalized_url ?? record.raw_url, country);
          domainId = classified.ok ? classified.value.domain_id : null;
        }
        if (!domainId) unusable++;
        else if (!domains.has(domainId))
          domains.set(domainId, { domain_id: domainId, source_file: key, force: item.force });
      }
      await database.transaction(async (trx) => {
        // An earlier attempt that fanned out already (and crashed before finishing) must not fan out twice.
        if ((await batches.answeredItems(trx, work)).size > 0) return;
        await batches.addChunks(trx, work.batchId, 'CONTRACT_QUEUE', [...domains.values()], 1);
        await batches.recordItems(trx, work.batchId, work.chunk, [
          {
            index: work.itemOffset,
            input: work.items[0],
            status: 'succeeded',
            outcome: 'file_read',
            result: {
              records: dataset.data.records.length,
              domains: domains.size,
              unusable_records: unusable,
            },
          },
        ]);
      });
      // The checkpoint before the chunk completes, so a finished orchestration has all of its checkpoints.
      await checkpoint(key);
      await database.transaction((trx) => batches.completeChunk(trx, message));
    },
  });
}
