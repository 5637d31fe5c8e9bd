// Seed orchestration: lists a partition's raw chunks in object storage and puts one SEED_QUEUE message
// per file that has no checkpoint yet (or every file, with force), as one batch of type `seed`.
import { NotFoundError } from '../domain/errors.js';
import type { Partition } from '../domain/identifiers.js';
import { parseRawChunkKey, rawPartitionPrefix } from '../domain/keys.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { BatchService, BatchView } from './batches.js';

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

export function createOrchestrationService(deps: { objects: ObjectStore; batches: BatchService }) {
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

  return { orchestrate };
}
