import { type Migration, sql } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * The tables of the first release: batches with their chunks and items, the embedded job queue, research,
 * datasets, seeds, liveness, metadata tasks and API keys.
 */
export const initial: Migration = {
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
