import { type Migration, sql } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * Every liveness check of a domain, not only the latest: written beside the latest-per-host row by the liveness
 * service. Existing latest rows seed the history, so a domain checked before this migration has one entry. Also
 * the indexes of the batch list.
 */
export const livenessHistory: Migration = {
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
