import type { Migration } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * Re-checks (docs/design.md §11): a seed's health from its checks (the JSON, and its state alone for the `?health=`
 * filter), and where the domain's last discovery stored its domain_metadata.json, to revalidate against.
 */
export const rechecks: Migration = {
  async up(db: AnyDb) {
    await db.schema.alterTable('seeds').addColumn('health', 'text').execute();
    await db.schema.alterTable('seeds').addColumn('health_state', 'text').execute();
    await db.schema.createIndex('seeds_health_state').on('seeds').column('health_state').execute();
    await db.schema.alterTable('domain_discoveries').addColumn('metadata_key', 'text').execute();
  },
};
