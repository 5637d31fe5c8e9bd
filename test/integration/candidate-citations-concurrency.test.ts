// Citations recorded side by side on PostgreSQL (SQLite serialises transactions): a discovery chunk harvests its
// seeds at once, each in its own transaction, and two workers run chunks together, so several citing sources add a
// citation to the same candidate concurrently. Its count of distinct citers must count every one.
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import type { Database } from '../../src/ports/database.js';
import { type CandidateService, createCandidateService } from '../../src/services/candidates/index.js';
import { createChangeService } from '../../src/services/changes.js';
import { createSeedContractRuns } from '../../src/services/seed-contract-runs.js';
import { createSeedHealthService } from '../../src/services/seed-health.js';
import { createSeedRepository } from '../../src/services/seed-repository/index.js';
import { createSeedService } from '../../src/services/seeds.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';
import { gate, until } from '../support/waiting.js';

const up = await pgAvailable();

describe.skipIf(!up)('candidate citations on PostgreSQL', () => {
  const schema = uniqueSchemaName('seedbed_citations');
  let database: Database;
  let candidates: CandidateService;
  beforeAll(async () => {
    database = createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 4 });
    await database.migrate();
    const clock = () => new Date('2026-11-26T08:00:00.000Z');
    const repository = createSeedRepository(database);
    const seeds = createSeedService({ database, clock, repository });
    const changes = createChangeService({ database, clock });
    const health = createSeedHealthService({ repository, changes, autoSuspendAfter: null });
    const contractRuns = createSeedContractRuns({ repository, revisions: seeds.revisions, health, clock });
    candidates = createCandidateService({ database, seeds: repository, contractRuns, clock });
  });
  afterAll(async () => {
    await database.close();
    await dropSchemas([schema]);
  });

  const link = { domain: 'coastal-courier.com.au', url: 'http://coastal-courier.com.au/', anchor: 'Courier' };
  const citer = (id: string) => ({ id, country: 'au', at: '2026-11-26T08:00:00.000Z' });

  /** Backends waiting for a lock while writing candidates (C, behind B's open transaction). */
  async function waitingOnCandidates(): Promise<boolean> {
    const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
      where datname = current_database() and wait_event_type = 'Lock' and query like '%candidates%'`.execute(
      database.db,
    );
    return Number(rows[0]?.n ?? 0) > 0;
  }

  it('counts a citation committed while another citer of the same candidate was recording', async () => {
    await database.transaction((trx) =>
      candidates.recordOutlinks(trx, citer('seed:a'), [{ ...link, found_in: 'homepage' }]),
    );
    // B records and holds its transaction open; C records meanwhile (it waits on B's row lock), then B commits.
    const release = gate();
    let recorded!: () => void;
    const bRecorded = new Promise<void>((resolve) => {
      recorded = resolve;
    });
    const b = database.transaction(async (trx) => {
      await candidates.recordOutlinks(trx, citer('seed:b'), [{ ...link, found_in: 'homepage' }]);
      recorded();
      await release.wait;
    });
    await bRecorded;
    const c = database.transaction((trx) =>
      candidates.recordOutlinks(trx, citer('seed:c'), [{ ...link, found_in: 'homepage' }]),
    );
    await until('C waits for B', waitingOnCandidates);
    release.open();
    await Promise.all([b, c]);

    const courier = await candidates.get(link.domain);
    expect(courier.cited_by.map((cited) => cited.seed_id).sort()).toEqual(['seed:a', 'seed:b', 'seed:c']);
    expect(courier.citations).toBe(3);
  });
});
