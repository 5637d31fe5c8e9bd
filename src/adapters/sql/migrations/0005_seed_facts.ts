import type { Migration } from 'kysely';
import type { AnyDb } from './any-db.js';

/** What discovery found about a seed's source, beside its contract: ranked feeds and the sitemap summary. */
export const seedFacts: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .alterTable('seeds')
      .addColumn('feeds', 'text', (c) => c.notNull().defaultTo('[]'))
      .execute();
    await db.schema.alterTable('seeds').addColumn('sitemap', 'text').execute();
  },
};
