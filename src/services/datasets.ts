// Raw dataset chunks: immutable objects under raw/…, indexed by a catalog table so listings and
// statistics need no bucket scan. A chunk number is reserved in the catalog before its object is written.
//
// One service for its callers, made of three parts: reads of the catalog (dataset-catalog), writes of chunks
// (dataset-writes) and the statistics (dataset-stats).
import { ENGINE_NAME } from '../domain/dataset.js';
import type { Partition } from '../domain/identifiers.js';
import type { Database, DbTransaction } from '../ports/database.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { Clock } from './common.js';
import { createDatasetCatalog } from './dataset-catalog.js';
import { createDatasetStats } from './dataset-stats.js';
import { createDatasetWrites } from './dataset-writes.js';

export type { ChunkView, PartitionView } from './dataset-catalog.js';
export type { WrittenChunk } from './dataset-writes.js';

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
  const catalog = createDatasetCatalog({ database, objects });
  const writes = createDatasetWrites({
    database,
    objects,
    now: () => clock().toISOString(),
    getInfo: catalog.getInfo,
    onChunkRemoved: deps.onChunkRemoved,
  });

  function engineMeta() {
    return { name: ENGINE_NAME, version };
  }

  return {
    reserveChunk: writes.reserveChunk,
    releaseReservation: writes.releaseReservation,
    writeReserved: writes.writeReserved,
    writeReservedObject: writes.writeReservedObject,
    markStored: writes.markStored,
    store: writes.store,
    storeSerialized: writes.storeSerialized,
    open: catalog.open,
    getInfo: catalog.getInfo,
    listChunks: catalog.listChunks,
    listPartitions: catalog.listPartitions,
    allPartitions: catalog.allPartitions,
    stats: createDatasetStats({ database }),
    remove: writes.remove,
    checkpoint: writes.checkpoint,
    countStoredByOwnerPrefix: catalog.countStoredByOwnerPrefix,
    unfinishedRequestChunks: catalog.unfinishedRequestChunks,
    engineMeta,
  };
}
