// The resources the API answers with, as zod schemas: each route serialises its answer through one of these,
// and the OpenAPI document shows them as named components.

import { z } from 'zod';
import { BATCH_STATUSES, BATCH_TYPES, ITEM_STATUSES } from '../domain/batches.js';
import { AUTHORITIES, SOURCE_TYPES } from '../domain/domains.js';
import { EVIDENCE_FILES } from '../domain/keys.js';
import { TASK_STATUSES } from '../domain/metadata-tasks.js';
import { LIVENESS_STATES } from '../domain/seed-facts.js';
import { REVISION_STATUSES, SEED_STATUSES } from '../domain/seeds.js';
import { nullableTimestamp, pageOf, timestampSchema as timestamp } from './responses.js';

const int = z.number().int();
const json = z.record(z.string(), z.unknown());

// Health and root.

const checkSchema = z.object({ ok: z.boolean(), latency_ms: int, error: z.string().optional() });
export const healthSchema = z
  .object({ status: z.literal('ok'), timestamp, version: z.string() })
  .meta({ id: 'Health' });
export const readinessSchema = z
  .object({
    status: z.enum(['ready', 'not_ready']),
    timestamp,
    checks: z.object({ database: checkSchema, objects: checkSchema, queue: checkSchema }),
  })
  .meta({ id: 'Readiness' });
export const processLivenessSchema = z
  .object({ status: z.literal('alive'), timestamp, uptime_seconds: int })
  .meta({ id: 'ProcessLiveness' });
export const apiSummarySchema = z
  .object({
    name: z.string(),
    version: z.string(),
    docs: z.string(),
    openapi: z.string(),
    endpoints: z.array(z.object({ method: z.string(), path: z.string() })),
  })
  .meta({ id: 'ApiSummary' });

// Batches.

export const batchSchema = z
  .object({
    batchId: z.string(),
    type: z.enum(BATCH_TYPES),
    status: z.enum(BATCH_STATUSES),
    country: z.string(),
    category: z.string().nullable(),
    date: z.string().nullable(),
    total_items: int,
    chunk_size: int,
    chunks: z.object({ total: int, pending: int, running: int, succeeded: int, failed: int }),
    items: z.object({
      succeeded: int,
      failed: int,
      skipped: int,
      running: int.meta({
        description:
          'Items without a result in chunks a worker holds now (a contract or liveness chunk runs all its domains at once)',
      }),
      pending: int.meta({ description: 'Items without a result that no worker holds yet' }),
    }),
    created_at: timestamp,
    started_at: nullableTimestamp,
    finished_at: nullableTimestamp,
    summary: json.meta({ description: 'Type-specific: outcomes, domains found, seeds created, …' }),
    errors: z.array(z.object({ item_index: int, input: z.unknown(), reason: z.string().nullable() })),
  })
  .meta({ id: 'Batch' });

export const batchListItemSchema = z
  .object({
    batchId: z.string(),
    type: z.enum(BATCH_TYPES),
    status: z.enum(BATCH_STATUSES),
    country: z.string(),
    category: z.string().nullable(),
    date: z.string().nullable(),
    total_items: int,
    chunk_size: int,
    chunks: z.object({ total: int, succeeded: int, failed: int }),
    created_at: timestamp,
    started_at: nullableTimestamp,
    finished_at: nullableTimestamp,
  })
  .meta({ id: 'BatchListItem' });

export const batchItemSchema = z
  .object({
    item_index: int,
    chunk: int,
    input: z.unknown(),
    status: z.enum(ITEM_STATUSES),
    outcome: z.string().nullable(),
    reason: z.string().nullable(),
    result: z.unknown(),
    updated_at: timestamp,
  })
  .meta({ id: 'BatchItem' });

export const metadataTaskSchema = z
  .object({
    taskId: z.string(),
    kind: z.literal('sync'),
    status: z.enum(TASK_STATUSES),
    trigger: z.string(),
    target: z.string().nullable(),
    commit_id: z.string().nullable(),
    snapshot_hash: z.string().nullable(),
    error: z.string().nullable(),
    attempts: int,
    created_at: timestamp,
    started_at: nullableTimestamp,
    finished_at: nullableTimestamp,
  })
  .meta({ id: 'MetadataTask' });

// Datasets.

export const datasetChunkSchema = z
  .object({
    country: z.string(),
    category: z.string(),
    date: z.string(),
    chunk: int,
    file: z.string(),
    key: z.string(),
    dataset_id: z.string(),
    record_count: int,
    bytes: int,
    origin: z.enum(['research', 'upload', 'adopted']),
    created_at: timestamp,
    checkpointed_at: nullableTimestamp,
  })
  .meta({ id: 'DatasetChunk' });

export const datasetPartitionSchema = z
  .object({
    country: z.string(),
    category: z.string(),
    date: z.string(),
    chunks: int,
    records: int,
    bytes: int,
    last_modified: z.string(),
  })
  .meta({ id: 'DatasetPartition' });

const sizes = { chunks: int, records: int, bytes: int };
export const datasetStatsSchema = z
  .object({
    totals: z.object({ ...sizes, partitions: int, countries: int, last_modified: z.string().nullable() }),
    by_country: z.array(z.object({ country: z.string(), ...sizes })),
    by_category: z.array(z.object({ category: z.string(), ...sizes })),
  })
  .meta({ id: 'DatasetStats' });

export const partitionChunksSchema = z
  .object({
    country: z.string(),
    category: z.string(),
    date: z.string(),
    chunks: z.array(datasetChunkSchema),
  })
  .meta({ id: 'PartitionChunks' });

/** A stored chunk as it is streamed back: what was stored, every unknown field kept. */
export const storedDatasetSchema = z
  .looseObject({
    meta: z.looseObject({ country: z.string(), category: z.string(), date: z.string() }),
    records: z.array(z.looseObject({ raw_url: z.string() })),
  })
  .meta({ id: 'StoredDataset' });

// Metadata.

const dateNode = z.object({ ...sizes, last_modified: z.string() });
const countryTotals = z.object({ categories: int, partitions: int, ...sizes });
const countryNode = z.object({
  totals: countryTotals,
  categories: z.record(z.string(), z.record(z.string(), dateNode)).meta({
    description: 'category → date → sizes',
  }),
});
export const snapshotSchema = z
  .object({
    generated_at: timestamp,
    hash: z.string(),
    totals: z.object({
      countries: int,
      partitions: int,
      ...sizes,
      research_records: int,
      seeds: z.record(z.string(), int),
      seeds_by_ai: z
        .record(z.string(), int)
        .meta({ description: 'Seeds by AI policy: disallowed, reserved, allowed, unknown (never measured)' }),
      seeds_by_news: z
        .record(z.string(), int)
        .meta({ description: 'Seeds by news verdict: news, maybe, not_news, unjudged (never judged)' }),
      candidates: z
        .record(z.string(), int)
        .meta({ description: 'Candidates (sites seen that are not seeds) by state' }),
      active_seeds_by_health: z.record(z.string(), int).meta({
        description:
          'Active seeds by health: ok, failing, stale, unchecked (no contract run or re-check yet)',
      }),
      batches: z.record(z.string(), int),
      changes: z.record(z.string(), int).meta({ description: 'Changes between discoveries, by kind' }),
    }),
    countries: z.record(z.string(), countryNode),
  })
  .meta({ id: 'MetadataSnapshot' });
export const countryMetadataSchema = z
  .object({ generated_at: timestamp, country: z.string(), hash: z.string(), ...countryNode.shape })
  .meta({ id: 'CountryMetadata' });

// Research.

const researchBase = {
  country: z.string(),
  category: z.string(),
  date: z.string(),
  queries: z.array(z.string()),
  methods: z.array(z.string()),
  notes: z.string().nullable(),
  created_at: timestamp,
  updated_at: timestamp,
};
export const researchRecordSchema = z
  .object({ ...researchBase, counts: z.object({ sources: int, domains: int }) })
  .meta({ id: 'ResearchRecord' });
export const researchSourceSchema = z
  .object({
    normalized_url: z.string(),
    raw_url: z.string(),
    registrable_domain: z.string(),
    domain_id: z.string(),
    authority: z.enum(AUTHORITIES),
    source_type: z.enum(SOURCE_TYPES),
    discovery_method: z.string(),
    confidence: z.number(),
    raw_chunk: int.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ResearchSource' });
export const researchDetailSchema = z
  .object({
    ...researchBase,
    counts: z.object({ sources: int, domains: int, raw_chunks: int }),
    raw_chunks: z.array(z.object({ chunk: int, key: z.string(), record_count: int, bytes: int })),
    sources: pageOf(researchSourceSchema),
  })
  .meta({ id: 'ResearchDetail' });
export const researchIndexSchema = z
  .object({
    countries: z.array(
      z.object({
        country: z.string(),
        categories: z.array(
          z.object({ category: z.string(), dates: z.array(z.object({ date: z.string(), sources: int })) }),
        ),
      }),
    ),
    totals: z.object({ records: int, sources: int }),
  })
  .meta({ id: 'ResearchIndex' });
export const researchCreatedSchema = z
  .object({
    record: researchDetailSchema,
    ingest: z.object({
      raw_chunk: int.nullable(),
      accepted: int,
      duplicates: int,
      invalid: int,
      errors: z.array(z.object({ index: int, input: z.unknown(), reason: z.string().nullable() })),
    }),
  })
  .meta({ id: 'ResearchCreated' });

// Seeds.

// The seed's own schema (domain/seed-record.ts) is the one every answer is serialised through.
export { seedSchema } from '../domain/seed-record.js';

const fieldChange = z.object({ before: z.unknown(), after: z.unknown() });
export const seedRevisionSchema = z
  .object({
    seed_id: z.string(),
    number: int,
    status: z.enum(REVISION_STATUSES),
    author: z
      .string()
      .meta({ description: "batch:<id> for a contract run, the API key's name for a person" }),
    created_at: timestamp,
    base_version: int.meta({ description: "The seed's version when the revision was recorded" }),
    changes: z
      .object({
        name: fieldChange.optional(),
        entry_url: fieldChange.optional(),
        fetch: fieldChange.optional(),
        schedule: fieldChange.optional(),
        policy: fieldChange.optional(),
      })
      .meta({ description: 'Each changed field, before and after' }),
    settled_by: z.string().nullable(),
    settled_at: nullableTimestamp,
  })
  .meta({ id: 'SeedRevision', description: 'One revision of a seed (docs/design.md §3, docs/revisions.md)' });
export const settledRevisionSchema = seedRevisionSchema
  .extend({ seed_version: int.meta({ description: "The seed's version after the decision" }) })
  .meta({ id: 'SettledRevision' });

export const domainChangeSchema = z
  .object({
    id: z.string(),
    registrable_domain: z.string(),
    domain_id: z.string(),
    kind: z.string().meta({ description: 'What changed (docs/revisions.md lists the kinds)' }),
    message: z.string(),
    before: z.unknown(),
    after: z.unknown(),
    evidence: json,
    batch_id: z.string().nullable(),
    detected_at: timestamp,
  })
  .meta({ id: 'DomainChange', description: 'A difference between two discoveries of one domain' });

export const promoteResultSchema = z
  .object({
    promoted: int,
    skipped: int,
    results: z.array(
      z.object({
        seed_id: z.string(),
        result: z.enum(['promoted', 'skipped']),
        reason: z.string().optional(),
        status: z.enum(SEED_STATUSES).optional(),
      }),
    ),
  })
  .meta({ id: 'PromoteResult' });

export const archiveResultSchema = z
  .object({
    archived: int,
    skipped: int,
    results: z.array(
      z.object({
        seed_id: z.string(),
        result: z.enum(['archived', 'skipped']),
        reason: z.string().optional(),
        status: z.enum(SEED_STATUSES).optional(),
      }),
    ),
  })
  .meta({ id: 'ArchiveResult' });

export const orchestrateResultSchema = z
  .object({
    batchId: z.string(),
    files_found: int,
    messages_sent: int,
    skipped: int,
    skipped_files: z.array(z.string()),
    batch: batchSchema,
  })
  .meta({ id: 'OrchestrateResult' });

export const evidenceListSchema = z
  .object({
    seed_id: z.string(),
    partition: z.object({ country: z.string(), category: z.string(), date: z.string() }).nullable(),
    files: z.array(
      z.object({
        name: z.enum(EVIDENCE_FILES),
        bytes: int,
        last_modified: timestamp,
        content_type: z.string(),
        href: z.string(),
      }),
    ),
  })
  .meta({ id: 'EvidenceList' });

// Domains.

export const livenessCheckSchema = z
  .object({
    domain: z.string(),
    alive: z.boolean(),
    state: z.enum(LIVENESS_STATES),
    http_status: int.nullable(),
    final_url: z.string().nullable(),
    https: z.boolean(),
    latency_ms: int.nullable(),
    error_code: z.string().nullable(),
    error_message: z.string().nullable(),
    checked_at: timestamp,
    batch_id: z.string().nullable(),
    evidence: z
      .looseObject({ kind: z.enum(['challenge', 'status', 'network']) })
      .nullable()
      .meta({
        description:
          'What the verdict rests on: the challenge recognised, the status that blocked, the canary',
      }),
  })
  .meta({ id: 'LivenessCheck' });

export const domainLivenessSchema = z
  .object({ domain: z.string(), latest: livenessCheckSchema, ...pageOf(livenessCheckSchema).shape })
  .meta({ id: 'DomainLiveness' });
