// The EnhancedResearchDataset (a raw chunk's content) and its streaming serialisation. Unknown fields are
// kept: the schemas are loose objects, and nothing is re-shaped on the way to storage.
import { Readable } from 'node:stream';
import { z } from 'zod';
import { AUTHORITIES, SOURCE_TYPES } from './domains.js';
import {
  categorySchema,
  chunkRefSchema,
  countrySchema,
  dateSchema,
  type Partition,
  padChunk,
} from './identifiers.js';

export const ENGINE_NAME = 'seedbed';

export const datasetRecordSchema = z.looseObject({
  raw_url: z.string().min(1).max(4096),
  normalized_url: z.string().max(4096).optional(),
  registrable_domain: z.string().max(253).optional(),
  domain_id: z.string().max(300).optional(),
  authority: z.enum(AUTHORITIES).optional(),
  source_type: z.enum(SOURCE_TYPES).optional(),
  discovery_method: z.string().max(200).optional(),
  confidence: z.number().min(0).max(1).optional(),
  content_hints: z.array(z.string().max(200)).max(100).optional(),
});
export type DatasetRecord = z.infer<typeof datasetRecordSchema>;

export const datasetMetaSchema = z.looseObject({
  dataset_id: z.string().max(200).optional(),
  country: countrySchema,
  category: categorySchema,
  date: dateSchema,
  chunk: chunkRefSchema.optional(),
  discovered_at: z.iso.datetime({ offset: true }).optional(),
  research_methods: z.array(z.string().max(200)).max(100).optional(),
  queries: z.array(z.string().max(2000)).max(1000).optional(),
  engine: z.looseObject({ name: z.string().max(100), version: z.string().max(100) }).optional(),
  record_count: z.number().int().nonnegative().optional(),
});

export type DatasetMeta = z.infer<typeof datasetMetaSchema>;

export const enhancedResearchDatasetSchema = z
  .looseObject({
    meta: datasetMetaSchema,
    records: z.array(datasetRecordSchema).max(1_000_000),
  })
  .meta({
    id: 'EnhancedResearchDataset',
    description: 'One raw chunk: meta + records; unknown fields are kept',
  });
export type EnhancedResearchDataset = z.infer<typeof enhancedResearchDatasetSchema>;

export function datasetIdOf(partition: Partition, chunk: number): string {
  return `${partition.country}-${partition.category}-${partition.date}-${padChunk(chunk)}`;
}

/**
 * Serialises a dataset record by record, so a 20 MB chunk is never held twice in memory as one string.
 * The output is the same JSON that JSON.stringify would give.
 */
export function serializeDataset(dataset: {
  meta: object;
  records: readonly object[];
  [k: string]: unknown;
}): Readable {
  function* parts(): Generator<string> {
    let first = true;
    // Keys in the object's own order, exactly as JSON.stringify writes them; only `records` is streamed.
    for (const [key, value] of Object.entries(dataset)) {
      if (value === undefined || typeof value === 'function' || typeof value === 'symbol') continue;
      yield `${first ? '{' : ','}${JSON.stringify(key)}:`;
      first = false;
      if (key !== 'records' || !Array.isArray(value)) {
        yield JSON.stringify(value);
        continue;
      }
      let batch = '[';
      for (let i = 0; i < value.length; i++) {
        batch += (i === 0 ? '' : ',') + (JSON.stringify(value[i]) ?? 'null');
        if (batch.length >= 64 * 1024) {
          yield batch;
          batch = '';
        }
      }
      yield `${batch}]`;
    }
    yield first ? '{}' : '}';
  }
  return Readable.from(parts(), { objectMode: false });
}

/**
 * The stored form of a streamed upload, the same bytes serializeDataset gives for the parsed dataset: meta,
 * then the records (already serialised, comma-joined, read from a spool), then the other members in order.
 */
export function serializeSpooledDataset(
  meta: object,
  /** Opened only when the bytes are read: a write refused before reading (the object exists) opens nothing. */
  records: () => AsyncIterable<Uint8Array | string>,
  extras: ReadonlyArray<readonly [string, unknown]>,
): Readable {
  async function* parts(): AsyncGenerator<Uint8Array | string> {
    yield `{"meta":${JSON.stringify(meta)},"records":[`;
    yield* records();
    let tail = ']';
    for (const [key, value] of extras) tail += `,${JSON.stringify(key)}:${JSON.stringify(value)}`;
    yield `${tail}}`;
  }
  return Readable.from(parts(), { objectMode: false });
}
