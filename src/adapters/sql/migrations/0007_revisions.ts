import { type Migration, sql } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * Revisions of a seed's contract (docs/design.md §3) and the fields a person set, which a contract run never overwrites.
 * A seed created through the API before this migration counts its whole contract and name as set by a person.
 */
export const revisions: Migration = {
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
