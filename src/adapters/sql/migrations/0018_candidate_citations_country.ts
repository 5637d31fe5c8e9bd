import type { Migration } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * A discovery for a country qualifies the candidates its seeds cite, whatever country a candidate was first listed
 * under (docs/discovery.md, "The country a candidate is for"): the citations are walked by the citing country, so
 * that read is an index range at a million candidates, not a scan of every citation.
 */
export const candidateCitationsCountry: Migration = {
  async up(db: AnyDb) {
    await db.schema
      .createIndex('candidate_citations_country')
      .on('candidate_citations')
      .columns(['citing_country', 'domain'])
      .execute();
  },
  async down(db: AnyDb) {
    await db.schema.dropIndex('candidate_citations_country').execute();
  },
};
