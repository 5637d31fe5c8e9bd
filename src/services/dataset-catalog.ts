// Reads of the raw dataset catalog (the dataset_chunks table): one chunk, a partition's chunks, the partitions,
// and the chunks still being written. A chunk counts as there once its row says `stored`.
import type { Readable } from 'node:stream';
import type { ExpressionBuilder } from 'kysely';
import { datasetIdOf } from '../domain/dataset.js';
import { NotFoundError } from '../domain/errors.js';
import { type Partition, padChunk } from '../domain/identifiers.js';
import type { Database, DatasetChunkTable, Tables } from '../ports/database.js';
import type { ObjectStore } from '../ports/object-store.js';
import { type Page, type PageRequest, page } from './common.js';
import { startsWith } from './prefix-match.js';

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

/** The catalog rows of one partition. */
export const partitionWhere = (p: Partition) => (eb: ExpressionBuilder<Tables, 'dataset_chunks'>) =>
  eb.and([eb('country', '=', p.country), eb('category', '=', p.category), eb('date', '=', p.date)]);
/** The same as SQL text (sql-text.ts), for any table keyed by partition; its parameters: country, category, date. */
export const PARTITION_IS = '"country" = ? and "category" = ? and "date" = ?';

/** `country/category/date`, as messages name a partition. */
export function describePartition(p: Partition): string {
  return `${p.country}/${p.category}/${p.date}`;
}

export function createDatasetCatalog(deps: { database: Database; objects: ObjectStore }) {
  const { database, objects } = deps;

  async function getInfo(partition: Partition, chunk: number): Promise<ChunkView> {
    const row = await database.db
      .selectFrom('dataset_chunks')
      .selectAll()
      .where(partitionWhere(partition))
      .where('chunk', '=', chunk)
      .where('status', '=', 'stored')
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`no chunk ${padChunk(chunk)} in ${describePartition(partition)}`);
    return toView(row);
  }

  async function open(partition: Partition, chunk: number): Promise<{ stream: Readable; info: ChunkView }> {
    const info = await getInfo(partition, chunk);
    const stream = await objects.get(info.key);
    if (!stream)
      throw new NotFoundError(
        `chunk ${padChunk(chunk)} of ${describePartition(partition)} is missing from storage`,
      );
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
    if (rows.length === 0) throw new NotFoundError(`no dataset chunks in ${describePartition(partition)}`);
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
      .where((eb) => startsWith(eb, 'owner', prefix, database.dialect))
      .where('status', '=', 'stored')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  return {
    getInfo,
    open,
    listChunks,
    listPartitions,
    allPartitions,
    unfinishedRequestChunks,
    countStoredByOwnerPrefix,
  };
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
