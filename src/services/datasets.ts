// Raw dataset chunks: immutable objects under raw/…, indexed by a catalog table so listings and
// statistics need no bucket scan. A chunk number is reserved in the catalog before its object is written.
import type { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import type { ExpressionBuilder } from 'kysely';
import {
  type DatasetMeta,
  datasetIdOf,
  ENGINE_NAME,
  type EnhancedResearchDataset,
  serializeDataset,
} from '../domain/dataset.js';
import { ConflictError, NotFoundError, UnprocessableError } from '../domain/errors.js';
import { MAX_CHUNK, type Partition, padChunk } from '../domain/identifiers.js';
import { checkpointKey, rawChunkKey } from '../domain/keys.js';
import type { Database, DatasetChunkTable, DbExecutor, DbTransaction, Tables } from '../ports/database.js';
import { type ObjectBody, ObjectExistsError, type ObjectStore } from '../ports/object-store.js';
import { type Clock, type Page, type PageRequest, page } from './common.js';

export interface ChunkView {
  country: string;
  category: string;
  date: string;
  chunk: number;
  file: string;
  key: string;
  dataset_id: string;
  record_count: number;
  bytes: number;
  origin: DatasetChunkTable['origin'];
  created_at: string;
  checkpointed_at: string | null;
}

export interface PartitionView {
  country: string;
  category: string;
  date: string;
  chunks: number;
  records: number;
  bytes: number;
  last_modified: string;
}

export type DatasetService = ReturnType<typeof createDatasetService>;

export function createDatasetService(deps: {
  database: Database;
  objects: ObjectStore;
  clock: Clock;
  version: string;
  /** In the removal's transaction: the research service frees the chunk's URLs (it owns those rows). */
  onChunkRemoved?: (trx: DbTransaction, partition: Partition, chunk: number) => Promise<void>;
}) {
  const { database, objects, clock, version } = deps;
  const now = () => clock().toISOString();
  const partitionWhere = (p: Partition) => (eb: ExpressionBuilder<Tables, 'dataset_chunks'>) =>
    eb.and([eb('country', '=', p.country), eb('category', '=', p.category), eb('date', '=', p.date)]);

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

  async function getInfo(partition: Partition, chunk: number): Promise<ChunkView> {
    const row = await database.db
      .selectFrom('dataset_chunks')
      .selectAll()
      .where(partitionWhere(partition))
      .where('chunk', '=', chunk)
      .where('status', '=', 'stored')
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`no chunk ${padChunk(chunk)} in ${describe(partition)}`);
    return toView(row);
  }

  async function open(partition: Partition, chunk: number): Promise<{ stream: Readable; info: ChunkView }> {
    const info = await getInfo(partition, chunk);
    const stream = await objects.get(info.key);
    if (!stream)
      throw new NotFoundError(`chunk ${padChunk(chunk)} of ${describe(partition)} is missing from storage`);
    return { stream, info };
  }

  async function listChunks(partition: Partition): Promise<ChunkView[]> {
    const rows = await database.db
      .selectFrom('dataset_chunks')
      .selectAll()
      .where(partitionWhere(partition))
      .where('status', '=', 'stored')
      .orderBy('chunk')
      .execute();
    if (rows.length === 0) throw new NotFoundError(`no dataset chunks in ${describe(partition)}`);
    return rows.map(toView);
  }

  /** Stored chunks grouped by partition: one query shape for the paginated list and the snapshot. */
  function partitionsQuery(filter: { country?: string; category?: string }) {
    let query = database.db.selectFrom('dataset_chunks').where('status', '=', 'stored');
    if (filter.country) query = query.where('country', '=', filter.country);
    if (filter.category) query = query.where('category', '=', filter.category);
    return query
      .select((eb) => [
        'country',
        'category',
        'date',
        eb.fn.countAll().as('chunks'),
        eb.fn.sum('record_count').as('records'),
        eb.fn.sum('bytes').as('bytes'),
        eb.fn.max('created_at').as('last_modified'),
      ])
      .groupBy(['country', 'category', 'date']);
  }

  function toPartitionView(r: {
    country: string;
    category: string;
    date: string;
    chunks: unknown;
    records: unknown;
    bytes: unknown;
    last_modified: unknown;
  }): PartitionView {
    return {
      country: r.country,
      category: r.category,
      date: r.date,
      chunks: Number(r.chunks),
      records: Number(r.records ?? 0),
      bytes: Number(r.bytes ?? 0),
      last_modified: String(r.last_modified),
    };
  }

  async function listPartitions(
    filter: { country?: string; category?: string } & PageRequest,
  ): Promise<Page<PartitionView>> {
    const grouped = partitionsQuery(filter);
    const [rows, total] = await Promise.all([
      grouped
        .orderBy('country')
        .orderBy('category')
        .orderBy('date', 'desc')
        .limit(filter.limit)
        .offset(filter.offset)
        .execute(),
      database.db
        .selectFrom(grouped.as('partitions'))
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ]);
    return page(rows.map(toPartitionView), filter, Number(total.n));
  }

  /** Every partition, in country/category/date order (the metadata snapshot's tree). */
  async function allPartitions(): Promise<PartitionView[]> {
    const rows = await partitionsQuery({}).orderBy('country').orderBy('category').orderBy('date').execute();
    return rows.map(toPartitionView);
  }

  async function stats() {
    const base = database.db.selectFrom('dataset_chunks').where('status', '=', 'stored');
    const [totals, byCountry, byCategory] = await Promise.all([
      base
        .select((eb) => [
          eb.fn.countAll().as('chunks'),
          eb.fn.sum('record_count').as('records'),
          eb.fn.sum('bytes').as('bytes'),
          eb.fn
            .count(eb.fn('concat', ['country', eb.val('/'), 'category', eb.val('/'), 'date']))
            .distinct()
            .as('partitions'),
          eb.fn.count('country').distinct().as('countries'),
          eb.fn.max('created_at').as('last_modified'),
        ])
        .executeTakeFirstOrThrow(),
      base
        .select((eb) => [
          'country',
          eb.fn.countAll().as('chunks'),
          eb.fn.sum('record_count').as('records'),
          eb.fn.sum('bytes').as('bytes'),
        ])
        .groupBy('country')
        .orderBy('country')
        .execute(),
      base
        .select((eb) => [
          'category',
          eb.fn.countAll().as('chunks'),
          eb.fn.sum('record_count').as('records'),
          eb.fn.sum('bytes').as('bytes'),
        ])
        .groupBy('category')
        .orderBy('category')
        .execute(),
    ]);
    const numbers = (r: { chunks: unknown; records: unknown; bytes: unknown }) => ({
      chunks: Number(r.chunks),
      records: Number(r.records ?? 0),
      bytes: Number(r.bytes ?? 0),
    });
    return {
      totals: {
        ...numbers(totals),
        partitions: Number(totals.partitions),
        countries: Number(totals.countries),
        last_modified: totals.last_modified ?? null,
      },
      by_country: byCountry.map((r) => ({ country: r.country, ...numbers(r) })),
      by_category: byCategory.map((r) => ({ category: r.category, ...numbers(r) })),
    };
  }

  /** Research chunks whose number was reserved by a synchronous request but never confirmed stored. */
  async function unfinishedRequestChunks(partition?: Partition) {
    const rows = await database.db
      .selectFrom('dataset_chunks')
      .select(['country', 'category', 'date', 'chunk', 'owner', 'created_at'])
      .where('status', '=', 'writing')
      .where('origin', '=', 'research')
      .where('owner', 'like', 'request:%')
      .$if(partition !== undefined, (qb) => qb.where(partitionWhere(partition as Partition)))
      .execute();
    return rows.map((r) => ({
      partition: { country: r.country, category: r.category, date: r.date },
      chunk: Number(r.chunk),
      owner: r.owner as string,
      createdAt: r.created_at,
    }));
  }

  /** Stored chunks written by owners that start with `prefix` (a research batch's chunks). */
  async function countStoredByOwnerPrefix(prefix: string): Promise<number> {
    const row = await database.db
      .selectFrom('dataset_chunks')
      .select((eb) => eb.fn.countAll().as('n'))
      .where('owner', 'like', `${prefix}%`)
      .where('status', '=', 'stored')
      .executeTakeFirstOrThrow();
    return Number(row.n);
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

  function engineMeta() {
    return { name: ENGINE_NAME, version };
  }

  return {
    reserveChunk,
    writeReserved,
    store,
    storeSerialized,
    open,
    getInfo,
    listChunks,
    listPartitions,
    allPartitions,
    stats,
    remove,
    checkpoint,
    countStoredByOwnerPrefix,
    unfinishedRequestChunks,
    engineMeta,
  };
}

function describe(p: Partition): string {
  return `${p.country}/${p.category}/${p.date}`;
}

function chunkExists(partition: Partition, chunk: number): ConflictError {
  return new ConflictError(
    `chunk ${padChunk(chunk)} of ${describe(partition)} already exists; raw chunks are immutable`,
    'chunk_exists',
    { chunk },
  );
}

function toView(row: DatasetChunkTable): ChunkView {
  const chunk = Number(row.chunk);
  const partition = { country: row.country, category: row.category, date: row.date };
  return {
    ...partition,
    chunk,
    file: `raw_${padChunk(chunk)}.json`,
    key: row.key,
    dataset_id: datasetIdOf(partition, chunk),
    record_count: Number(row.record_count),
    bytes: Number(row.bytes),
    origin: row.origin,
    created_at: row.created_at,
    checkpointed_at: row.checkpointed_at,
  };
}
