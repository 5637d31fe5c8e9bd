// Writes of raw dataset chunks: immutable objects under raw/…, each number reserved in the catalog before its
// object is written, then marked stored; and the two changes a stored chunk can still see (its checkpoint, its
// removal).
import { text } from 'node:stream/consumers';
import {
  type DatasetMeta,
  datasetIdOf,
  type EnhancedResearchDataset,
  serializeDataset,
} from '../domain/dataset.js';
import { ConflictError, UnprocessableError } from '../domain/errors.js';
import { MAX_CHUNK, type Partition, padChunk } from '../domain/identifiers.js';
import { checkpointKey, rawChunkKey } from '../domain/keys.js';
import type { Database, DatasetChunkTable, DbExecutor, DbTransaction } from '../ports/database.js';
import { type ObjectBody, ObjectExistsError, type ObjectStore } from '../ports/object-store.js';
import { type ChunkView, describePartition, partitionWhere } from './dataset-catalog.js';

export interface DatasetWriteDeps {
  database: Database;
  objects: ObjectStore;
  /** The time a reservation or checkpoint is stamped with, as an ISO string. */
  now: () => string;
  /** Reads the stored chunk back: what a store answers, and what a removal deletes. */
  getInfo: (partition: Partition, chunk: number) => Promise<ChunkView>;
  /** In the removal's transaction: the research service frees the chunk's URLs (it owns those rows). */
  onChunkRemoved?: (trx: DbTransaction, partition: Partition, chunk: number) => Promise<void>;
}

export function createDatasetWrites(deps: DatasetWriteDeps) {
  const { database, objects, now, getInfo } = deps;

  /**
   * Reserves a chunk number. With an owner, the same owner always gets the same number back, so a
   * retried unit of work rewrites the same object rather than a second one.
   */
  async function reserveChunk(
    executor: DbExecutor,
    partition: Partition,
    options: { owner?: string; requested?: number; origin: DatasetChunkTable['origin'] },
  ): Promise<{ chunk: number; createdAt: string }> {
    const owned = async () => {
      if (!options.owner) return null;
      const mine = await executor
        .selectFrom('dataset_chunks')
        .select(['chunk', 'created_at'])
        .where('owner', '=', options.owner)
        .executeTakeFirst();
      return mine ? { chunk: Number(mine.chunk), createdAt: mine.created_at } : null;
    };
    const earlier = await owned();
    if (earlier) return earlier;
    let candidate = options.requested;
    if (candidate === undefined) {
      const last = await executor
        .selectFrom('dataset_chunks')
        .select((eb) => eb.fn.max('chunk').as('last'))
        .where(partitionWhere(partition))
        .executeTakeFirst();
      candidate = Number(last?.last ?? 0) + 1;
    }
    const createdAt = now();
    // Insert-if-absent, then the next number: two writers that read the same maximum (PostgreSQL runs them
    // side by side) end up with two numbers instead of a unique violation.
    for (; candidate <= MAX_CHUNK; candidate++) {
      const inserted = await executor
        .insertInto('dataset_chunks')
        .values({
          ...partition,
          chunk: candidate,
          key: rawChunkKey(partition, candidate),
          record_count: 0,
          bytes: 0,
          origin: options.origin,
          status: 'writing',
          owner: options.owner ?? null,
          created_at: createdAt,
          checkpointed_at: null,
        })
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { chunk: candidate, createdAt };
      const mine = await owned();
      if (mine) return mine;
      if (options.requested !== undefined) throw chunkExists(partition, candidate);
    }
    throw new UnprocessableError(`partition is full: at most ${MAX_CHUNK} chunks`, 'partition_full');
  }

  async function markStored(
    partition: Partition,
    chunk: number,
    recordCount: number,
    origin?: DatasetChunkTable['origin'],
  ) {
    const info = await objects.head(rawChunkKey(partition, chunk));
    await database.db
      .updateTable('dataset_chunks')
      .set({
        status: 'stored',
        bytes: info?.size ?? 0,
        record_count: recordCount,
        ...(origin ? { origin } : {}),
      })
      .where(partitionWhere(partition))
      .where('chunk', '=', chunk)
      .execute();
  }

  /**
   * Writes a chunk whose number was reserved; an object already there from an earlier attempt is kept when it
   * is whole. S3 never stores a PUT cut short, but a stand-in can (s3rver killed mid-write kept an empty file),
   * and a kept fragment would be a raw chunk that can never be read: the reservation is ours, so it is written
   * again.
   */
  async function writeReserved(
    partition: Partition,
    chunk: number,
    dataset: EnhancedResearchDataset,
  ): Promise<void> {
    const key = rawChunkKey(partition, chunk);
    try {
      await objects.put(key, serializeDataset(dataset), { ifAbsent: true, contentType: 'application/json' });
    } catch (error) {
      if (!(error instanceof ObjectExistsError)) throw error;
      if (!(await isWholeJson(key)))
        await objects.put(key, serializeDataset(dataset), { contentType: 'application/json' });
    }
    await markStored(partition, chunk, dataset.records.length);
  }

  /** Whether the object parses as JSON (a fragment of a chunk does not). */
  async function isWholeJson(key: string): Promise<boolean> {
    const stream = await objects.get(key);
    if (!stream) return false;
    const body = await text(stream);
    try {
      JSON.parse(body);
      return true;
    } catch {
      return false;
    }
  }

  /** POST /datasets: stores a client's dataset as a new immutable chunk. */
  function store(dataset: EnhancedResearchDataset): Promise<ChunkView> {
    return storeSerialized(dataset.meta, dataset.records.length, (meta) =>
      serializeDataset({ ...dataset, meta }),
    );
  }

  /**
   * Stores a chunk whose records were counted already (a streamed upload keeps them on disk): `body` is
   * called with the completed meta, once per attempt, and must give the chunk's bytes.
   */
  async function storeSerialized(
    metaIn: DatasetMeta,
    recordCount: number,
    body: (meta: DatasetMeta) => ObjectBody,
  ): Promise<ChunkView> {
    const partition: Partition = { country: metaIn.country, category: metaIn.category, date: metaIn.date };
    if (metaIn.record_count !== undefined && metaIn.record_count !== recordCount) {
      throw new UnprocessableError(
        `meta.record_count is ${metaIn.record_count} but there are ${recordCount} records`,
        'record_count_mismatch',
      );
    }
    const requested = metaIn.chunk;
    // A number left out takes the next free one; objects written behind the catalog's back are adopted.
    for (let tries = 0; tries < 20; tries++) {
      const { chunk, createdAt } = await database.transaction((trx) =>
        reserveChunk(trx, partition, { origin: 'upload', ...(requested !== undefined ? { requested } : {}) }),
      );
      const meta = {
        ...metaIn,
        dataset_id: datasetIdOf(partition, chunk),
        chunk,
        discovered_at: metaIn.discovered_at ?? createdAt,
        record_count: recordCount,
      };
      try {
        await objects.put(rawChunkKey(partition, chunk), body(meta), {
          ifAbsent: true,
          contentType: 'application/json',
        });
      } catch (error) {
        if (error instanceof ObjectExistsError) {
          await markStored(partition, chunk, 0, 'adopted');
          if (requested !== undefined) throw chunkExists(partition, chunk);
          continue;
        }
        await releaseReservation(partition, chunk);
        throw error;
      }
      await markStored(partition, chunk, recordCount);
      return getInfo(partition, chunk);
    }
    throw new ConflictError('could not find a free chunk number', 'chunk_allocation_failed');
  }

  async function releaseReservation(partition: Partition, chunk: number) {
    await database.db
      .deleteFrom('dataset_chunks')
      .where(partitionWhere(partition))
      .where('chunk', '=', chunk)
      .where('status', '=', 'writing')
      .execute();
  }

  /** Deletes a chunk and its checkpoint; the research service then frees its URLs (onChunkRemoved). */
  async function remove(partition: Partition, chunk: number): Promise<void> {
    const info = await getInfo(partition, chunk);
    await objects.delete(checkpointKey(info.key));
    await objects.delete(info.key);
    await database.transaction(async (trx) => {
      await trx
        .deleteFrom('dataset_chunks')
        .where(partitionWhere(partition))
        .where('chunk', '=', chunk)
        .execute();
      await deps.onChunkRemoved?.(trx, partition, chunk);
    });
  }

  /** Writes the empty `.success` checkpoint next to a raw chunk (the seed-file worker's last step). */
  async function checkpoint(partition: Partition, chunk: number): Promise<void> {
    await objects.put(checkpointKey(rawChunkKey(partition, chunk)), '', {
      contentType: 'application/octet-stream',
    });
    await database.db
      .updateTable('dataset_chunks')
      .set({ checkpointed_at: now() })
      .where(partitionWhere(partition))
      .where('chunk', '=', chunk)
      .execute();
  }

  return { reserveChunk, writeReserved, store, storeSerialized, remove, checkpoint };
}

function chunkExists(partition: Partition, chunk: number): ConflictError {
  return new ConflictError(
    `chunk ${padChunk(chunk)} of ${describePartition(partition)} already exists; raw chunks are immutable`,
    'chunk_exists',
    { chunk },
  );
}
