// Schema migrations shared by SQLite and PostgreSQL. Only portable column types are used, so the same
// Kysely queries run on both (see ports/database.ts for the conventions). One module per migration under
// migrations/, named after its key.
//
// A key and the SQL behind it never change once released: existing databases record the keys they applied and
// would skip an edited migration or run a renamed one twice. A schema change is a new migration with the next
// key. (There is no 0002: the keys are not renumbered to close the gap, for the same reason.)
import type { Migration, MigrationProvider } from 'kysely';
import { initial } from './migrations/0001_initial.js';
import { researchRequests } from './migrations/0003_research_requests.js';
import { livenessHistory } from './migrations/0004_liveness_history.js';
import { seedFacts } from './migrations/0005_seed_facts.js';
import { seedSourceFacts } from './migrations/0006_seed_source_facts.js';
import { revisions } from './migrations/0007_revisions.js';
import { changes } from './migrations/0008_changes.js';
import { rechecks } from './migrations/0009_rechecks.js';
import { seedRate } from './migrations/0010_seed_rate.js';
import { seedsByDomainId } from './migrations/0011_seeds_domain_id.js';
import { discovery } from './migrations/0012_discovery.js';
import { seedListIndexes } from './migrations/0013_seed_list_indexes.js';
import { listIndexes } from './migrations/0014_list_indexes.js';
import { seedLanguages } from './migrations/0015_seed_languages.js';
import { seedFilterTotals } from './migrations/0016_seed_filter_totals.js';
import { batchItemsInputNullable } from './migrations/0017_batch_items_input_nullable.js';

export { ratePerDay } from './migrations/0010_seed_rate.js';

/** Every migration by key, in key order (the order Kysely's Migrator applies them in, as it sorts by key). */
export const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0003_research_requests': researchRequests,
  '0004_liveness_history': livenessHistory,
  '0005_seed_facts': seedFacts,
  '0006_seed_source_facts': seedSourceFacts,
  '0007_revisions': revisions,
  '0008_changes': changes,
  '0009_rechecks': rechecks,
  '0010_seed_rate': seedRate,
  '0011_seeds_domain_id': seedsByDomainId,
  '0012_discovery': discovery,
  '0013_seed_list_indexes': seedListIndexes,
  '0014_list_indexes': listIndexes,
  '0015_seed_languages': seedLanguages,
  '0016_seed_filter_totals': seedFilterTotals,
  '0017_batch_items_input_nullable': batchItemsInputNullable,
};

export const migrationProvider: MigrationProvider = {
  async getMigrations() {
    return migrations;
  },
};
