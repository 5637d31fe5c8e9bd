import type { Migration } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * Changes between two discoveries of a domain (events, with their evidence), and the summary of the last
 * discovery of each domain they are computed against.
 */
export const changes: Migration = {
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
