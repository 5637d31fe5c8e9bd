import type { Migration } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * Every contract run and re-check finds a domain's seeds by their domain id (to record the check's health):
 * without an index that read scans the whole seeds table, once per domain, so a batch grew with the square of
 * the directory.
 */
export const seedsByDomainId: Migration = {
  async up(db: AnyDb) {
    await db.schema.createIndex('seeds_domain_id').on('seeds').column('domain_id').execute();
  },
};
