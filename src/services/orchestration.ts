// Seed orchestration: lists a partition's raw chunks in object storage and puts one SEED_QUEUE message
// per file that has no checkpoint yet (or every file, with force), as one batch of type `seed`. The seed-file
// worker then reads each file through this service and fans its unique domains out to CONTRACT_QUEUE.
import { text } from 'node:stream/consumers';
import type { BatchView, ContractItem } from '../domain/batches.js';
import { enhancedResearchDatasetSchema } from '../domain/dataset.js';
import { type AuthorityOverrides, parseDomainId } from '../domain/domains.js';
import { NotFoundError, PermanentError } from '../domain/errors.js';
import type { Partition } from '../domain/identifiers.js';
import { parseRawChunkKey, rawPartitionPrefix } from '../domain/keys.js';
import { classifyUrl } from '../domain/urls.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { BatchService } from './batches.js';
import type { ChunkLedger, Unit } from './chunk-ledger.js';
import type { DatasetService } from './datasets.js';

export interface OrchestrateResult {
  batchId: string;
  files_found: number;
  messages_sent: number;
  skipped: number;
  skipped_files: string[];
  batch: BatchView;
  /** False when an Idempotency-Key replay answered with an existing batch. */
  created: boolean;
}

export type OrchestrationService = ReturnType<typeof createOrchestrationService>;

/** The unique domains of one raw file, as CONTRACT_QUEUE items. */
export interface RawFileDomains {
  key: string;
  records: number;
  unusableRecords: number;
  domains: ContractItem[];
}

export function createOrchestrationService(deps: {
  objects: ObjectStore;
  batches: BatchService;
  ledger: Pick<ChunkLedger, 'addChunks' | 'sourceFileProgress'>;
  datasets: Pick<DatasetService, 'checkpoint'>;
  authorityOverrides?: AuthorityOverrides;
}) {
  const { objects, batches } = deps;

  async function orchestrate(
    request: Partition & { force?: boolean },
    options: { idempotencyKey?: string | null } = {},
  ): Promise<OrchestrateResult> {
    const partition: Partition = { country: request.country, category: request.category, date: request.date };
    const rawFiles: string[] = [];
    const checkpoints = new Set<string>();
    for await (const object of objects.list(rawPartitionPrefix(partition))) {
      if (parseRawChunkKey(object.key)) rawFiles.push(object.key);
      else if (
        object.key.endsWith('.json.success') &&
        parseRawChunkKey(object.key.slice(0, -'.success'.length))
      ) {
        checkpoints.add(object.key.slice(0, -'.success'.length));
      }
    }
    if (rawFiles.length === 0) {
      throw new NotFoundError(`no raw files under ${rawPartitionPrefix(partition)}`);
    }
    const toSend = request.force ? rawFiles : rawFiles.filter((key) => !checkpoints.has(key));
    const skippedFiles = rawFiles.filter((key) => !toSend.includes(key));
    const { batch, created } = await batches.create({
      type: 'seed',
      queue: 'SEED_QUEUE',
      ...partition,
      items: toSend.map((file) => ({ file, force: Boolean(request.force) })),
      chunkSize: 1,
      summary: {
        files_found: rawFiles.length,
        messages_sent: toSend.length,
        skipped: skippedFiles.length,
        force: Boolean(request.force),
      },
      idempotencyKey: options.idempotencyKey ?? null,
      request: { ...partition, force: Boolean(request.force) },
    });
    const summary = batch.summary as { files_found: number; messages_sent: number; skipped: number };
    return {
      batchId: batch.batchId,
      files_found: summary.files_found,
      messages_sent: summary.messages_sent,
      skipped: summary.skipped,
      skipped_files: skippedFiles,
      batch,
      created,
    };
  }

  /** Reads and validates one raw file; a file that is gone or not a dataset is a permanent failure. */
  async function domainsOfRawFile(key: string, force: boolean): Promise<RawFileDomains> {
    const parsed = parseRawChunkKey(key);
    if (!parsed) throw new PermanentError(`not a raw chunk key: ${JSON.stringify(key)}`);
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
        const classified = classifyUrl(
          record.normalized_url ?? record.raw_url,
          country,
          deps.authorityOverrides,
        );
        domainId = classified.ok ? classified.value.domain_id : null;
      }
      if (!domainId) unusable++;
      else if (!domains.has(domainId))
        domains.set(domainId, { domain_id: domainId, source_file: key, force });
    }
    return {
      key,
      records: dataset.data.records.length,
      unusableRecords: unusable,
      domains: [...domains.values()],
    };
  }

  /** One contract chunk per domain, added to the orchestration's batch in the caller's transaction. */
  async function fanOut(unit: Unit, batchId: string, domains: readonly ContractItem[]): Promise<void> {
    await deps.ledger.addChunks(unit, batchId, 'CONTRACT_QUEUE', domains, 1);
  }

  /** The raw file's `.success` checkpoint. */
  async function checkpointRawFile(key: string): Promise<void> {
    const parsed = parseRawChunkKey(key);
    if (parsed) await deps.datasets.checkpoint(parsed.partition, parsed.chunk);
  }

  /**
   * The checkpoint vouches that every domain of the file has its contract answered. Called after each contract
   * chunk of the file commits: the last one to commit sees them all answered. A domain whose chunk ran out of
   * retries (our own network down, say) has no answer of its own, and then the file gets no checkpoint, so the
   * next orchestration sends it again.
   */
  async function settleRawFile(batchId: string, key: string): Promise<boolean> {
    const progress = await deps.ledger.sourceFileProgress(batchId, key);
    if (progress.total === 0 || progress.answered < progress.total || progress.unanswerable > 0) return false;
    await checkpointRawFile(key);
    return true;
  }

  return { orchestrate, domainsOfRawFile, fanOut, checkpointRawFile, settleRawFile };
}
