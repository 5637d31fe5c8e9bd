import type { Migration } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * What discovery measured about a seed's source (docs/design.md §3): freshness, languages and the AI policy as JSON, plus
 * two plain columns the seed list filters on (`?language=`, `?ai=`) in both databases.
 */
export const seedSourceFacts: Migration = {
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
