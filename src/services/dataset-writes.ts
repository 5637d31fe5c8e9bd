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
import {
  type ObjectBody,
  ObjectExistsError,
  type ObjectStore,
  type PutOptions,
} from '../ports/object-store.js';
import { type ChunkView, describePartition, PARTITION_IS, partitionWhere } from './dataset-catalog.js';
import { changedRows, runText, sqlText } from './sql-text.js';

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

/** Records up to which a reserved chunk is serialised as one string rather than streamed (a batch chunk's most). */
const IN_MEMORY_RECORDS = 1_000;

/** A chunk's object as written (or found whole), for its row's `stored` mark. */
export interface WrittenChunk {
  chunk: number;
  recordCount: number;
  bytes: number;
  origin?: DatasetChunkTable['origin'];
}

// The reservation's and the stored mark's statements, as text (sql-text.ts): every research chunk runs them.
const CHUNK_OF_OWNER = sqlText('select "chunk", "created_at" from "dataset_chunks" where "owner" = ?');
interface ChunkOfOwner {
  chunk: number;
  created_at: string;
}
/**
 * The owner's chunk (a row `owned`, when it has one) and the partition's last number (a row `last`); a null owner
 * matches no row, so without one it is the last number alone.
 */
const OWNED_OR_LAST_CHUNK = sqlText(
  `select 'owned' as "kind", "chunk", "created_at" from "dataset_chunks" where "owner" = ? union all ` +
    `select 'last' as "kind", max("chunk") as "chunk", null as "created_at" from "dataset_chunks" ` +
    `where ${PARTITION_IS}`,
);
type OwnedOrLast =
  | ({ kind: 'owned' } & ChunkOfOwner)
  | { kind: 'last'; chunk: number | null; created_at: null };
/** Conflicts on the number (the partition's key) and on the owner (unique) alike leave nothing inserted. */
const RESERVE_CHUNK = sqlText(
  'insert into "dataset_chunks" ("country", "category", "date", "chunk", "key", "record_count", "bytes", ' +
    `"origin", "status", "owner", "created_at", "checkpointed_at") values (?, ?, ?, ?, ?, 0, 0, ?, 'writing', ?, ?, null) ` +
    'on conflict do nothing',
);
/** The origin is changed only when given (an adopted object's). */
const MARK_STORED = sqlText(
  `update "dataset_chunks" set "status" = 'stored', "bytes" = ?, "record_count" = ?, ` +
    `"origin" = coalesce(?, "origin") where ${PARTITION_IS} and "chunk" = ?`,
);

export function createDatasetWrites(deps: DatasetWriteDeps) {
  const { database, objects, now, getInfo } = deps;

  /**
   * Reserves a chunk number. With an owner, the same owner always gets the same number back, so a
   * retried unit of work rewrites the same object rather than a second one; `earlier` says the number was
   * reserved before (by an earlier attempt, or a concurrent one that committed first).
   */
  async function reserveChunk(
    executor: DbExecutor,
    partition: Partition,
    options: { owner?: string; requested?: number; origin: DatasetChunkTable['origin'] },
  ): Promise<{ chunk: number; createdAt: string; earlier: boolean }> {
    const { dialect } = database;
    const { owner } = options;
    const owned = async () => {
      if (!owner) return null;
      const [mine] = (await runText<ChunkOfOwner>(executor, dialect, CHUNK_OF_OWNER, [owner])).rows;
      return mine ? { chunk: Number(mine.chunk), createdAt: mine.created_at, earlier: true } : null;
    };
    let candidate = options.requested;
    if (candidate === undefined) {
      // The owner's earlier number and the partition's last in one statement (every research chunk asks both).
      const { rows } = await runText<OwnedOrLast>(executor, dialect, OWNED_OR_LAST_CHUNK, [
        owner ?? null,
        partition.country,
        partition.category,
        partition.date,
      ]);
      let last: number | null = null;
      for (const row of rows) {
        if (row.kind === 'owned')
          return { chunk: Number(row.chunk), createdAt: row.created_at, earlier: true };
        last = row.chunk;
      }
      candidate = Number(last ?? 0) + 1;
    } else {
      const earlier = await owned();
      if (earlier) return earlier;
    }
    const createdAt = now();
    // Insert-if-absent, then the next number: two writers that read the same maximum (PostgreSQL runs them
    // side by side) end up with two numbers instead of a unique violation.
    for (; candidate <= MAX_CHUNK; candidate++) {
      const inserted = await runText(executor, dialect, RESERVE_CHUNK, [
        partition.country,
        partition.category,
        partition.date,
        candidate,
        rawChunkKey(partition, candidate),
        options.origin,
        owner ?? null,
        createdAt,
      ]);
      if (changedRows(inserted) > 0) return { chunk: candidate, createdAt, earlier: false };
      const mine = await owned();
      if (mine) return mine;
      if (options.requested !== undefined) throw chunkExists(partition, candidate);
    }
    throw new UnprocessableError(`partition is full: at most ${MAX_CHUNK} chunks`, 'partition_full');
  }

  /** Marks a written chunk stored, in `executor` (a caller may fold it into its own transaction). */
  async function markStored(executor: DbExecutor, partition: Partition, written: WrittenChunk) {
    await runText(executor, database.dialect, MARK_STORED, [
      written.bytes,
      written.recordCount,
      written.origin ?? null,
      partition.country,
      partition.category,
      partition.date,
      written.chunk,
    ]);
  }

  async function writtenSize(partition: Partition, chunk: number): Promise<number> {
    return (await objects.head(rawChunkKey(partition, chunk)))?.size ?? 0;
  }

  /**
   * Writes the object of a chunk whose number was reserved, without marking it stored (the caller does, with
   * markStored); an object already there from an earlier attempt is kept when it is whole. S3 never stores a
   * PUT cut short, but a stand-in can (s3rver killed mid-write kept an empty file), and a kept fragment would be
   * a raw chunk that can never be read: the reservation is ours, so it is written again.
   */
  async function writeReservedObject(
    partition: Partition,
    chunk: number,
    dataset: EnhancedResearchDataset,
  ): Promise<WrittenChunk> {
    const key = rawChunkKey(partition, chunk);
    const recordCount = dataset.records.length;
    // A batch-sized chunk is one buffer (one write and one sync for the folder store, its size known); a large
    // one is streamed, so it is never held twice in memory. The buffer, not the string: it is held while the put
    // waits on its syncs, and bytes outside V8's heap are never copied by its young-generation collections, where a
    // 35 KB string held across one by each of 32 chunks in flight was (docs/performance.md, "Eleventh pass").
    const inMemory = recordCount <= IN_MEMORY_RECORDS ? Buffer.from(JSON.stringify(dataset)) : null;
    const put = async (options: PutOptions): Promise<WrittenChunk> => {
      const bytes = inMemory ?? serializeDataset(dataset);
      await objects.put(key, bytes, { ...options, contentType: 'application/json' });
      const size = inMemory ? inMemory.length : await writtenSize(partition, chunk);
      return { chunk, recordCount, bytes: size };
    };
    try {
      return await put({ ifAbsent: true });
    } catch (error) {
      if (!(error instanceof ObjectExistsError)) throw error;
      if (!(await isWholeJson(key))) return put({});
      return { chunk, recordCount, bytes: await writtenSize(partition, chunk) };
    }
  }

  /** writeReservedObject, then marked stored on its own. */
  async function writeReserved(
    partition: Partition,
    chunk: number,
    dataset: EnhancedResearchDataset,
  ): Promise<void> {
    await markStored(database.db, partition, await writeReservedObject(partition, chunk, dataset));
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
          const bytes = await writtenSize(partition, chunk);
          await markStored(database.db, partition, { chunk, recordCount: 0, bytes, origin: 'adopted' });
          if (requested !== undefined) throw chunkExists(partition, chunk);
          continue;
        }
        await releaseReservation(database.db, partition, chunk);
        throw error;
      }
      const bytes = await writtenSize(partition, chunk);
      await markStored(database.db, partition, { chunk, recordCount, bytes });
      return getInfo(partition, chunk);
    }
    throw new ConflictError('could not find a free chunk number', 'chunk_allocation_failed');
  }

  /** Gives a reserved number back (its object was never written). */
  async function releaseReservation(executor: DbExecutor, partition: Partition, chunk: number) {
    await executor
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

  return {
    reserveChunk,
    releaseReservation,
    writeReservedObject,
    markStored,
    writeReserved,
    store,
    storeSerialized,
    remove,
    checkpoint,
  };
}

function chunkExists(partition: Partition, chunk: number): ConflictError {
  return new ConflictError(
    `chunk ${padChunk(chunk)} of ${describePartition(partition)} already exists; raw chunks are immutable`,
    'chunk_exists',
    { chunk },
  );
}
