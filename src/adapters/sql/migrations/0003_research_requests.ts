import type { Migration } from 'kysely';
import type { AnyDb } from './any-db.js';

/** Synchronous research requests under an Idempotency-Key (a retry resumes the same claims). */
export const researchRequests: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createTable('research_requests')
      .addColumn('owner', 'text', (c) => c.primaryKey())
      .addColumn('request_hash', 'text', (c) => c.notNull())
      .addColumn('created_at', 'text', (c) => c.notNull())
      .execute();
  },
};
