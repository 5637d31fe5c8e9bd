// Schema migrations shared by SQLite and PostgreSQL. Only portable column types are used, so the same
// Kysely queries run on both (see ports/database.ts for the conventions).
import { type Kysely, type Migration, type MigrationProvider, sql } from 'kysely';

// biome-ignore lint/suspicious/noExplicitAny: migrations run against an untyped schema by design
type AnyDb = Kysely<any>;

const initial: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('batches')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('category', 'text')
      .addColumn('date', 'text')
      .addColumn('total_items', 'integer', (c) => c.notNull())
      .addColumn('chunk_size', 'integer', (c) => c.notNull())
      .addColumn('chunks_total', 'integer', (c) => c.notNull())
      .addColumn('chunks_succeeded', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('chunks_failed', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('idempotency_key', 'text', (c) => c.unique())
      .addColumn('request_hash', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema.createIndex('batches_status').on('batches').columns(['status', 'created_at']).execute();

    await db.schema
      .createTable('batch_chunks')
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('chunk_no', 'integer', (c) => c.notNull())
      .addColumn('queue', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('items', 'text', (c) => c.notNull())
      .addColumn('item_offset', 'integer', (c) => c.notNull())
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('last_error', 'text')
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .addPrimaryKeyConstraint('batch_chunks_pk', ['batch_id', 'chunk_no'])
      .execute();

    await db.schema
      .createTable('batch_items')
      .addColumn('batch_id', 'text', (c) => c.notNull())
      .addColumn('item_index', 'integer', (c) => c.notNull())
      .addColumn('chunk_no', 'integer', (c) => c.notNull())
      .addColumn('input', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('outcome', 'text')
      .addColumn('reason', 'text')
      .addColumn('result', 'text')
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('batch_items_pk', ['batch_id', 'item_index'])
      .execute();
    await db.schema
      .createIndex('batch_items_status')
      .on('batch_items')
      .columns(['batch_id', 'status', 'item_index'])
      .execute();

    await db.schema
      .createTable('jobs')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('queue', 'text', (c) => c.notNull())
      .addColumn('payload', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('singleton_key', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('max_attempts', 'integer', (c) => c.notNull())
      .addColumn('run_at', 'bigint', (c) => c.notNull())
      .addColumn('lease_until', 'bigint')
      .addColumn('last_error', 'text')
      .addColumn('created_at', 'bigint', (c) => c.notNull())
      .execute();
    await db.schema.createIndex('jobs_ready').on('jobs').columns(['queue', 'state', 'run_at']).execute();
    await db.schema
      .createIndex('jobs_singleton')
      .on('jobs')
      .columns(['queue', 'singleton_key'])
      .unique()
      .where(sql<boolean>`singleton_key is not null and state in ('queued', 'active')`)
      .execute();

    await db.schema
      .createTable('research_records')
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('queries', 'text', (c) => c.notNull())
      .addColumn('methods', 'text', (c) => c.notNull())
      .addColumn('notes', 'text')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('research_records_pk', ['country', 'category', 'date'])
      .execute();

    await db.schema
      .createTable('research_sources')
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('normalized_url', 'text', (c) => c.notNull())
      .addColumn('raw_url', 'text', (c) => c.notNull())
      .addColumn('registrable_domain', 'text', (c) => c.notNull())
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('authority', 'text', (c) => c.notNull())
      .addColumn('source_type', 'text', (c) => c.notNull())
      .addColumn('discovery_method', 'text', (c) => c.notNull())
      .addColumn('confidence', 'double precision', (c) => c.notNull())
      .addColumn('content_hints', 'text', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.notNull())
      .addColumn('raw_chunk', 'integer')
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addPrimaryKeyConstraint('research_sources_pk', ['country', 'category', 'date', 'normalized_url'])
      .execute();
    await db.schema.createIndex('research_sources_owner').on('research_sources').column('owner').execute();

    await db.schema
      .createTable('dataset_chunks')
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('date', 'text', (c) => c.notNull())
      .addColumn('chunk', 'integer', (c) => c.notNull())
      .addColumn('key', 'text', (c) => c.notNull())
      .addColumn('record_count', 'integer', (c) => c.notNull())
      .addColumn('bytes', 'bigint', (c) => c.notNull())
      .addColumn('origin', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('owner', 'text', (c) => c.unique())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('checkpointed_at', 'text')
      .addPrimaryKeyConstraint('dataset_chunks_pk', ['country', 'category', 'date', 'chunk'])
      .execute();

    await db.schema
      .createTable('seeds')
      .addColumn('seed_id', 'text', (c) => c.primaryKey())
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('registrable_domain', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('category', 'text', (c) => c.notNull())
      .addColumn('content_type', 'text', (c) => c.notNull())
      .addColumn('source_type', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('version', 'integer', (c) => c.notNull())
      .addColumn('name', 'text')
      .addColumn('entry_url', 'text')
      .addColumn('fetch', 'text', (c) => c.notNull())
      .addColumn('schedule', 'text')
      .addColumn('policy', 'text', (c) => c.notNull())
      .addColumn('discovery', 'text', (c) => c.notNull())
      .addColumn('provenance', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('updated_at', 'text', (c) => c.notNull())
      .addColumn('promoted_at', 'text')
      .execute();
    await db.schema
      .createIndex('seeds_filter')
      .on('seeds')
      .columns(['country', 'status', 'source_type'])
      .execute();
    await db.schema.createIndex('seeds_domain').on('seeds').column('registrable_domain').execute();

    await db.schema
      .createTable('liveness_results')
      .addColumn('domain', 'text', (c) => c.primaryKey())
      .addColumn('alive', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('http_status', 'integer')
      .addColumn('final_url', 'text')
      .addColumn('https', 'integer', (c) => c.notNull())
      .addColumn('latency_ms', 'integer')
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .addColumn('checked_at', 'text', (c) => c.notNull())
      .addColumn('batch_id', 'text')
      .execute();

    await db.schema
      .createTable('metadata_tasks')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('trigger', 'text', (c) => c.notNull())
      .addColumn('target', 'text')
      .addColumn('commit_id', 'text')
      .addColumn('snapshot_hash', 'text')
      .addColumn('error', 'text')
      .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('started_at', 'text')
      .addColumn('finished_at', 'text')
      .execute();
    await db.schema.createIndex('metadata_tasks_created').on('metadata_tasks').column('created_at').execute();

    await db.schema
      .createTable('api_keys')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('name', 'text', (c) => c.notNull().unique())
      .addColumn('key_hash', 'text', (c) => c.notNull().unique())
      .addColumn('scopes', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};

/** Synchronous research requests under an Idempotency-Key (a retry resumes the same claims). */
const researchRequests: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('research_requests')
      .addColumn('owner', 'text', (c) => c.primaryKey())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};

/**
 * Every liveness check of a domain, not only the latest: written beside the latest-per-host row by the liveness
 * service. Existing latest rows seed the history, so a domain checked before this migration has one entry. Also
 * the indexes of the batch list.
 */
const livenessHistory: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('liveness_history')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('domain', 'text', (c) => c.notNull())
      .addColumn('registrable_domain', 'text')
      .addColumn('alive', 'integer', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('http_status', 'integer')
      .addColumn('final_url', 'text')
      .addColumn('https', 'integer', (c) => c.notNull())
      .addColumn('latency_ms', 'integer')
      .addColumn('error_code', 'text')
      .addColumn('error_message', 'text')
      .addColumn('checked_at', 'text', (c) => c.notNull())
      .addColumn('batch_id', 'text')
      .addColumn('evidence', 'text')
      .execute();
    // What a verdict rests on (a challenge recognised, the status that blocked us), kept with the latest too.
    await db.schema.alterTable('liveness_results').addColumn('evidence', 'text').execute();
    await db.schema
      .createIndex('liveness_history_domain')
      .on('liveness_history')
      .columns(['domain', 'checked_at'])
      .execute();
    await db.schema
      .createIndex('liveness_history_registrable')
      .on('liveness_history')
      .columns(['registrable_domain', 'checked_at'])
      .execute();
    // The id of a backfilled row only has to be unique and to sort before every new (UUIDv7) id.
    await sql`insert into liveness_history (id, domain, registrable_domain, alive, state, http_status, final_url,
        https, latency_ms, error_code, error_message, checked_at, batch_id)
      select '0-' || domain, domain, null, alive, state, http_status, final_url, https, latency_ms, error_code,
        error_message, checked_at, batch_id
      from liveness_results`.execute(db);
    // GET /queues/batches lists newest first, by type or by status (batches_status covers status).
    await db.schema.createIndex('batches_created').on('batches').column('created_at').execute();
    await db.schema.createIndex('batches_type').on('batches').columns(['type', 'created_at']).execute();
  },
};

/** What discovery found about a seed's source, beside its contract: ranked feeds and the sitemap summary. */
const seedFacts: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('seeds')
      .addColumn('feeds', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('seeds').addColumn('sitemap', 'text').execute();
  },
};

/**
 * Revisions of a seed's contract (docs/design.md §3) and the fields a person set, which a contract run never overwrites.
 * A seed created through the API before this migration counts its whole contract and name as set by a person.
 */
const revisions: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('seeds')
      .addColumn('human_fields', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    // The last revision number handed out: raised by an UPDATE, which serialises two writers of one seed.
    await db.schema
      .alterTable('seeds')
      .addColumn('last_revision', 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
    await sql`update seeds set human_fields = '["name","entry_url","fetch","schedule","policy"]'
      where provenance like '%"source":"api"%'`.execute(db);
    await db.schema
      .createTable('seed_revisions')
      .addColumn('seed_id', 'text', (c) => c.notNull())
      .addColumn('number', 'integer', (c) => c.notNull())
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('author', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .addColumn('base_version', 'integer', (c) => c.notNull())
      .addColumn('changes', 'text', (c) => c.notNull())
      .addColumn('settled_by', 'text')
      .addColumn('settled_at', 'text')
      .addPrimaryKeyConstraint('seed_revisions_pk', ['seed_id', 'number'])
      .execute();
    await db.schema
      .createIndex('seed_revisions_status')
      .on('seed_revisions')
      .columns(['seed_id', 'status'])
      .execute();
  },
};

/**
 * Changes between two discoveries of a domain (events, with their evidence), and the summary of the last
 * discovery of each domain they are computed against.
 */
const changes: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('domain_discoveries')
      .addColumn('registrable_domain', 'text', (c) => c.primaryKey())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('collected_at', 'text', (c) => c.notNull())
      .addColumn('batch_id', 'text')
      .execute();
    await db.schema
      .createTable('domain_changes')
      .addColumn('id', 'text', (c) => c.primaryKey())
      .addColumn('registrable_domain', 'text', (c) => c.notNull())
      .addColumn('domain_id', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('before', 'text')
      .addColumn('after', 'text')
      .addColumn('evidence', 'text', (c) => c.notNull())
      .addColumn('batch_id', 'text')
      .addColumn('detected_at', 'text', (c) => c.notNull())
      .execute();
    await db.schema
      .createIndex('domain_changes_detected')
      .on('domain_changes')
      .column('detected_at')
      .execute();
    await db.schema
      .createIndex('domain_changes_domain')
      .on('domain_changes')
      .columns(['registrable_domain', 'detected_at'])
      .execute();
  },
};

/**
 * What discovery measured about a seed's source (docs/design.md §3): freshness, languages and the AI policy as JSON, plus
 * two plain columns the seed list filters on (`?language=`, `?ai=`) in both databases.
 */
const seedSourceFacts: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('seeds').addColumn('freshness', 'text').execute();
    await db.schema
      .alterTable('seeds')
      .addColumn('languages', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('seeds').addColumn('ai', 'text').execute();
    await db.schema.alterTable('seeds').addColumn('language_codes', 'text').execute();
    await db.schema.alterTable('seeds').addColumn('ai_status', 'text').execute();
    await db.schema.createIndex('seeds_ai_status').on('seeds').column('ai_status').execute();
  },
};

/**
 * Re-checks (docs/design.md §11): a seed's health from its checks (the JSON, and its state alone for the `?health=`
 * filter), and where the domain's last discovery stored its domain_metadata.json, to revalidate against.
 */
const rechecks: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('seeds').addColumn('health', 'text').execute();
    await db.schema.alterTable('seeds').addColumn('health_state', 'text').execute();
    await db.schema.createIndex('seeds_health_state').on('seeds').column('health_state').execute();
    await db.schema.alterTable('domain_discoveries').addColumn('metadata_key', 'text').execute();
  },
};

/**
 * The publication rate as a plain number beside the freshness JSON, so the seed list sorts by it (`sort=-rate`)
 * in both databases. Backfilled from the JSON already stored: parsed here, a page at a time, rather than with
 * each dialect's JSON functions.
 */
const seedRate: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('seeds').addColumn('items_per_day', 'double precision').execute();
    await db.schema.createIndex('seeds_items_per_day').on('seeds').column('items_per_day').execute();
    let after = '';
    for (;;) {
      const rows: Array<{ seed_id: string; freshness: string }> = await db
        .selectFrom('seeds')
        .select(['seed_id', 'freshness'])
        .where('freshness', 'is not', null)
        .where('seed_id', '>', after)
        .orderBy('seed_id')
        .limit(500)
        .execute();
      for (const row of rows) {
        const rate = ratePerDay(row.freshness);
        if (rate !== null)
          await db
            .updateTable('seeds')
            .set({ items_per_day: rate })
            .where('seed_id', '=', row.seed_id)
            .execute();
      }
      const last = rows.at(-1);
      if (!last || rows.length < 500) return;
      after = last.seed_id;
    }
  },
};

/**
 * Every contract run and re-check finds a domain's seeds by their domain id (to record the check's health):
 * without an index that read scans the whole seeds table, once per domain, so a batch grew with the square of
 * the directory.
 */
const seedsByDomainId: Migration = {
  async up(db: AnyDb) {
    await db.schema.createIndex('seeds_domain_id').on('seeds').column('domain_id').execute();
  },
};

/** items_per_day of a stored freshness JSON, or null (unparsable, absent, not a finite number). */
export function ratePerDay(freshness: string | null | undefined): number | null {
  if (!freshness) return null;
  try {
    const rate = (JSON.parse(freshness) as { items_per_day?: unknown } | null)?.items_per_day;
    return typeof rate === 'number' && Number.isFinite(rate) ? rate : null;
  } catch {
    return null;
  }
}

export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0003_research_requests': researchRequests,
  '0004_liveness_history': livenessHistory,
  '0005_seed_facts': seedFacts,
  '0006_seed_source_facts': seedSourceFacts,
  '0007_revisions': revisions,
  '0008_changes': changes,
  '0009_rechecks': rechecks,
  '0010_seed_rate': seedRate,
  '0011_seeds_domain_id': seedsByDomainId,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
