// The database port: one Kysely schema shared by SQLite and PostgreSQL. Portable column types only:
// JSON as text, timestamps as ISO-8601 text, queue times as epoch milliseconds, booleans as 0/1.
import type { CompiledQuery, Kysely, QueryResult, Transaction } from 'kysely';
import type { BatchStatus, BatchType, ChunkStatus, ItemStatus } from '../domain/batches.js';
import type { Authority, SourceType } from '../domain/domains.js';
import type { QueueName } from '../domain/jobs.js';
import type { TaskStatus } from '../domain/metadata-tasks.js';
import type { LivenessState } from '../domain/seed-facts.js';
import type { RevisionStatus, SeedStatus } from '../domain/seeds.js';

export interface BatchTable {
  id: string;
  type: BatchType;
  status: BatchStatus;
  country: string;
  category: string | null;
  date: string | null;
  total_items: number;
  chunk_size: number;
  chunks_total: number;
  chunks_succeeded: number;
  chunks_failed: number;
  summary: string;
  idempotency_key: string | null;
  request_hash: string | null;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface BatchChunkTable {
  batch_id: string;
  chunk_no: number;
  queue: QueueName;
  status: ChunkStatus;
  /** JSON array of this chunk's inputs. */
  items: string;
  /** Index of the chunk's first item in the batch (items are numbered across the whole batch). */
  item_offset: number;
  attempts: number;
  last_error: string | null;
  started_at: string | null;
  finished_at: string | null;
}

export interface BatchItemTable {
  batch_id: string;
  item_index: number;
  chunk_no: number;
  /**
   * The item's input as JSON, or null where it is its chunk's own item (a research chunk's answers, migration
   * 0017): read it through services/item-inputs.ts `readItemInputs`, never directly.
   */
  input: string | null;
  status: ItemStatus;
  /** A type-specific word for summaries: new/duplicate, alive/dead, created/updated... */
  outcome: string | null;
  reason: string | null;
  result: string | null;
  updated_at: string;
}

export interface JobTable {
  id: string;
  queue: QueueName;
  payload: string;
  state: 'queued' | 'active' | 'dead';
  singleton_key: string | null;
  attempts: number;
  max_attempts: number;
  run_at: number;
  lease_until: number | null;
  last_error: string | null;
  created_at: number;
}

export interface ResearchRecordTable {
  country: string;
  category: string;
  date: string;
  queries: string;
  methods: string;
  notes: string | null;
  created_at: string;
  updated_at: string;
}

export interface ResearchSourceTable {
  country: string;
  category: string;
  date: string;
  normalized_url: string;
  raw_url: string;
  registrable_domain: string;
  domain_id: string;
  authority: Authority;
  source_type: SourceType;
  discovery_method: string;
  confidence: number;
  content_hints: string;
  /** Which unit of work owns (and writes) this source: a batch chunk, or a synchronous POST /research call. */
  owner: string;
  raw_chunk: number | null;
  created_at: string;
}

/** A synchronous research request made under an Idempotency-Key: its owner name and what it asked. */
export interface ResearchRequestTable {
  owner: string;
  request_hash: string;
  created_at: string;
}

export interface DatasetChunkTable {
  country: string;
  category: string;
  date: string;
  chunk: number;
  key: string;
  record_count: number;
  bytes: number;
  /** research | upload | adopted (an object found in the bucket that the catalog did not know). */
  origin: 'research' | 'upload' | 'adopted';
  /** writing (number reserved, object not yet confirmed) | stored. Only stored chunks are listed. */
  status: 'writing' | 'stored';
  /** The unit of work that allocated the chunk number, so a retry finds the same number again. */
  owner: string | null;
  created_at: string;
  checkpointed_at: string | null;
}

export interface SeedTable {
  seed_id: string;
  domain_id: string;
  registrable_domain: string;
  country: string;
  category: string;
  content_type: string;
  source_type: SourceType;
  status: SeedStatus;
  version: number;
  name: string | null;
  entry_url: string | null;
  fetch: string;
  schedule: string | null;
  policy: string;
  discovery: string;
  provenance: string;
  created_at: string;
  updated_at: string;
  promoted_at: string | null;
  /** JSON: the feeds discovery found, ranked, with their roles (not part of the contract). */
  feeds: string;
  /** JSON: the sitemap summary of the latest discovery (counts, truncation), or null. */
  sitemap: string | null;
  /** JSON: the revision fields a person set (POST or PATCH); a contract run only proposes changes to them. */
  human_fields: string;
  /** The last revision number handed out for this seed. */
  last_revision: number;
  /** JSON: freshness and publication rate of the latest discovery, or null. */
  freshness: string | null;
  /** JSON: languages with their sources. */
  languages: string;
  /** JSON: what robots.txt, TDMRep and noai say to AI crawlers (shown as `policy.ai`), or null. */
  ai: string | null;
  /** Every language code and its primary subtag, comma-wrapped (`,fr,fr-ca,`): the `?language=` filter. */
  language_codes: string | null;
  /** disallowed | reserved | allowed | unknown: the `?ai=` filter; null when never measured. */
  ai_status: string | null;
  /** freshness.items_per_day as a number, so the list sorts by publication rate; null when not measured. */
  items_per_day: number | null;
  /** JSON: the seed's health from its checks (state, consecutive failures, last check), or null before one. */
  health: string | null;
  /** ok | failing | stale: the `?health=` filter; null before the first check. */
  health_state: string | null;
  /** JSON: the news verdict with its reasons, or null before a discovery judged it. */
  news: string | null;
  /** news | maybe | not_news: the `?verdict=` filter. */
  news_verdict: string | null;
  /** JSON: the country guess with its reasons, or null. */
  country_guess: string | null;
}

/**
 * Columns of `seeds` the repository derives from the JSON on every write (rows.ts, listColumnsOf), so the list
 * filters and sorts on plain values an index or a row check reads (docs/databases.md, "The seed list").
 */
export interface SeedListColumns {
  /** fresh | stale | unknown: the `?freshness=` filter. */
  freshness_state: string;
  /** policy.robots_allowed as 1 or 0; null when the policy does not say. */
  robots_allowed: number | null;
  /** fetch.type: the review page's fetch type filter. */
  fetch_type: string;
  /** 1 when a feed has the main role. */
  main_feed: number;
  /** discovery.alive as 1 or 0; null before a liveness check. */
  alive: number | null;
  /** The `-rate` order as one ascending number: minus items_per_day, or 1 when unmeasured (rates are >= 0). */
  rate_rank: number;
}

/** A stored seed: what services write, and the list columns the repository derives from it. */
export type StoredSeedTable = SeedTable & SeedListColumns;

/** Seeds by status and country, kept by triggers on `seeds` (SQLite: one row a pair; PostgreSQL: a row a change). */
export interface SeedTotalTable {
  status: string;
  country: string;
  n: number;
}

/**
 * Seeds by the filters a list page checks on the rows it walks, in a country and in every country (country ''):
 * kept by triggers on `seeds` (migration 0016; SQLite: one row a combination; PostgreSQL: a row a change).
 */
export interface SeedFilterTotalTable {
  /** The seeds' country, or '' for the same combination in every country. */
  country: string;
  status: string;
  /** The domain id's first part (gov, com, …). */
  authority: string;
  source_type: string;
  freshness_state: string;
  /** 1 or 0; -1 when the policy does not say. */
  robots_allowed: number;
  fetch_type: string;
  main_feed: number;
  /** 1 or 0; -1 before a liveness check. */
  alive: number;
  n: number;
}

/**
 * Seeds by category, news verdict, health and AI policy, in a country and in every country (country ''): kept by
 * triggers on `seeds` (migration 0016), as `seed_filter_totals`. A null fact is ''.
 */
export interface SeedFactTotalTable {
  country: string;
  status: string;
  category: string;
  news_verdict: string;
  health_state: string;
  ai_status: string;
  n: number;
}

/**
 * A seed's language codes, a row each, with the seed's status, country and order keys: the `?language=` filter
 * walked in the list's order. Kept by triggers on `seeds` (migration 0015), never written by services.
 */
export interface SeedLanguageTable {
  seed_id: string;
  /** A code of the seed's `language_codes` (a code, or the primary subtag of one). */
  language: string;
  status: string;
  country: string;
  created_at: string;
  rate_rank: number;
}

/** A site Seedbed has seen but that is not a seed (docs/discovery.md). */
export interface CandidateTable {
  /** Its registrable domain. */
  domain: string;
  state: string;
  /** The country it is a candidate for: its guess once qualified (unless intl), else its citers' country. */
  country: string;
  news: string | null;
  news_verdict: string | null;
  score: number | null;
  country_guess: string | null;
  languages: string;
  /** Distinct citing sources. */
  citations: number;
  feeds_found: number | null;
  /** JSON {exists, news}. */
  sitemap: string | null;
  robots_allowed: number | null;
  alive: number | null;
  /** JSON: the contract its qualification found, for a draft seed built on accept. */
  qualification: string | null;
  /** JSON: the labels of the lists it was imported from. */
  sources: string;
  first_seen_at: string;
  last_checked_at: string | null;
  reject_reason: string | null;
  decided_by: string | null;
  decided_at: string | null;
}

/** How many candidates have each (country, state, verdict): the list's totals, kept with every candidate write. */
export interface CandidateTotalTable {
  country: string;
  state: string;
  /** The news verdict, or '' for none (a key column cannot be null in PostgreSQL). */
  verdict: string;
  n: number;
}

export interface CandidateCitationTable {
  domain: string;
  /** A seed id, `candidate:<domain>` for a qualified candidate's own links, or `import:<label>`. */
  citing: string;
  citing_country: string;
  url: string;
  anchor: string;
  found_in: string;
  seen_at: string;
}

/** When a citing source's links were last read, so a discovery does not read them again the same week. */
export interface CitingSourceTable {
  citing: string;
  read_at: string;
  outlinks: number;
}

export interface DiscoveryStepTable {
  batch_id: string;
  step: string;
  items: number;
  created_at: string;
}

/** One revision of a seed's contract: applied, or proposed by a contract run and settled by a person. */
export interface SeedRevisionTable {
  seed_id: string;
  number: number;
  status: RevisionStatus;
  /** `batch:<id>` for a contract run, the API key's name (or `anonymous`) for a person. */
  author: string;
  created_at: string;
  /** The seed's version when the revision was recorded. */
  base_version: number;
  /** JSON: { field: { before, after } }. */
  changes: string;
  settled_by: string | null;
  settled_at: string | null;
}

/** The summary of the last discovery of a domain, which the next one is compared with. */
export interface DomainDiscoveryTable {
  registrable_domain: string;
  /** JSON of a DiscoverySummary. */
  summary: string;
  collected_at: string;
  batch_id: string | null;
  /** The domain_metadata.json of the last discovery that reached the site (kept through dead runs); null before. */
  metadata_key: string | null;
}

/** A difference between two discoveries of a domain. */
export interface DomainChangeTable {
  /** UUIDv7: sorts in the order the changes were found. */
  id: string;
  registrable_domain: string;
  domain_id: string;
  kind: string;
  message: string;
  /** JSON, or null. */
  before: string | null;
  after: string | null;
  /** JSON: the batch and the evidence objects the change rests on. */
  evidence: string;
  batch_id: string | null;
  detected_at: string;
}

export interface LivenessResultTable {
  domain: string;
  alive: number;
  state: LivenessState;
  http_status: number | null;
  final_url: string | null;
  https: number;
  latency_ms: number | null;
  error_code: string | null;
  error_message: string | null;
  checked_at: string;
  batch_id: string | null;
  /** JSON of the engine's LivenessEvidence, or null. */
  evidence: string | null;
}

/** One row per liveness check (the latest per host is in liveness_results). */
export interface LivenessHistoryTable extends LivenessResultTable {
  /** UUIDv7: sorts in insertion order, a tie-breaker for checks with one checked_at. */
  id: string;
  /** Null on rows carried over from before the history existed. */
  registrable_domain: string | null;
}

export interface MetadataTaskTable {
  id: string;
  kind: 'sync';
  status: TaskStatus;
  trigger: string;
  target: string | null;
  commit_id: string | null;
  snapshot_hash: string | null;
  error: string | null;
  attempts: number;
  created_at: string;
  started_at: string | null;
  finished_at: string | null;
}

export interface ApiKeyTable {
  id: string;
  name: string;
  key_hash: string;
  scopes: string;
  created_at: string;
}

export interface Tables {
  batches: BatchTable;
  batch_chunks: BatchChunkTable;
  batch_items: BatchItemTable;
  jobs: JobTable;
  research_records: ResearchRecordTable;
  research_sources: ResearchSourceTable;
  research_requests: ResearchRequestTable;
  dataset_chunks: DatasetChunkTable;
  seeds: StoredSeedTable;
  seed_totals: SeedTotalTable;
  seed_languages: SeedLanguageTable;
  seed_filter_totals: SeedFilterTotalTable;
  seed_fact_totals: SeedFactTotalTable;
  seed_revisions: SeedRevisionTable;
  domain_discoveries: DomainDiscoveryTable;
  domain_changes: DomainChangeTable;
  liveness_results: LivenessResultTable;
  liveness_history: LivenessHistoryTable;
  metadata_tasks: MetadataTaskTable;
  api_keys: ApiKeyTable;
  candidates: CandidateTable;
  candidate_citations: CandidateCitationTable;
  candidate_totals: CandidateTotalTable;
  citing_sources: CitingSourceTable;
  discovery_steps: DiscoveryStepTable;
}

export type Db = Kysely<Tables>;
export type DbTransaction = Transaction<Tables>;
/** Anything queries can run on: the database itself or an open transaction. */
export type DbExecutor = Kysely<Tables> | Transaction<Tables>;

export type Dialect = 'sqlite' | 'postgres';

/**
 * The values of a SQLite statement's numbered placeholders (`?1`, `?2`, …), passed as its last parameter after the
 * values of its plain `?`: a value every row of a multi-row insert has is bound once, not once a row
 * (bulk-insert.ts). Only the SQLite adapter takes it; PostgreSQL's texts number every placeholder anyway.
 */
export class NumberedValues {
  /** By placeholder number (`{ 1: …, 2: … }`), as better-sqlite3 binds them. */
  readonly byNumber: Readonly<Record<number, unknown>>;
  constructor(values: readonly unknown[]) {
    const byNumber: Record<number, unknown> = {};
    for (const [i, value] of values.entries()) byNumber[i + 1] = value;
    this.byNumber = byNumber;
  }
}

/** A statement run at once on the connection an open transaction holds, as the adapter's driver would run it. */
export type RunNow = (query: CompiledQuery) => QueryResult<unknown>;

/**
 * Transactions whose statements may skip Kysely's executor: the SQLite adapter lends each transaction it hands a
 * work (better-sqlite3 is synchronous, and the connection is the transaction's until the work ends), and takes it
 * back when the work ends. Kysely's way there (a new executor, the connection's provider, two or three promises
 * a statement) cost ≈ 5 µs a statement against ≈ 1 for the statement itself (docs/performance.md, "Eighth pass").
 */
const lentConnections = new WeakMap<DbExecutor, RunNow>();

/** Lends `trx` the direct way to its connection while `work` runs (see lentConnections). */
export async function withLentConnection<T>(
  trx: DbTransaction,
  runNow: RunNow,
  work: (trx: DbTransaction) => Promise<T>,
): Promise<T> {
  lentConnections.set(trx, runNow);
  try {
    return await work(trx);
  } finally {
    lentConnections.delete(trx);
  }
}

/**
 * Runs a compiled statement in `executor`: directly on a transaction's lent connection (SQLite), else through
 * Kysely. Only for statements the caller awaits before its next one, so the order is the one written either way.
 */
export function executeCompiled<Row>(executor: DbExecutor, query: CompiledQuery): Promise<QueryResult<Row>> {
  const runNow = lentConnections.get(executor);
  if (runNow === undefined) return executor.executeQuery<Row>(query);
  try {
    return Promise.resolve(runNow(query) as QueryResult<Row>);
  } catch (error) {
    return Promise.reject(error);
  }
}

export interface TransactionOptions {
  /**
   * How long (ms) the work may wait to share its durable commit with other transactions. An adapter whose commit
   * blocks the process (SQLite's fsync on the main thread) starts the shared commit when the earliest such wait
   * is over; one whose commit does not block (PostgreSQL) ignores it. Default 0: as soon as it can.
   */
  readonly shareCommitWithinMs?: number;
}

export interface Database {
  readonly dialect: Dialect;
  readonly db: Db;
  transaction<T>(work: (trx: DbTransaction) => Promise<T>, options?: TransactionOptions): Promise<T>;
  /**
   * The rows of a read (outside any transaction) as arrays of their values in the select's column order: for a
   * reader of many rows (the export), which then pays for no object a row.
   */
  readArrays(query: CompiledQuery): Promise<unknown[][]>;
  /** Runs every pending migration; safe to call from several processes at once. */
  migrate(): Promise<void>;
  ping(): Promise<void>;
  close(): Promise<void>;
}
