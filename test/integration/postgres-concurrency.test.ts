// Writers that race on PostgreSQL, where transactions run side by side (SQLite serialises them): parallel
// uploads and research chunks of one partition each get their own chunk number; parallel contracts for one
// seed make one seed.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFsObjectStore } from '../../src/adapters/fs-object-store.js';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import type { Database } from '../../src/ports/database.js';
import { createChangeService } from '../../src/services/changes.js';
import { createDatasetService } from '../../src/services/datasets.js';
import { createResearchService } from '../../src/services/research.js';
import { createSeedContractRuns } from '../../src/services/seed-contract-runs.js';
import { createSeedHealthService } from '../../src/services/seed-health.js';
import { createSeedRepository } from '../../src/services/seed-repository/index.js';
import { createSeedService } from '../../src/services/seeds.js';
import { writeDraft } from '../support/contract-runs.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';

const up = await pgAvailable();

describe.skipIf(!up)('chunk reservation on PostgreSQL', () => {
  const schema = uniqueSchemaName('seedbed_chunks');
  let database: Database;
  let dir: string;
  let datasets: ReturnType<typeof createDatasetService>;
  let research: ReturnType<typeof createResearchService>;
  beforeAll(async () => {
    database = createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 12 });
    await database.migrate();
    dir = await mkdtemp(join(tmpdir(), 'seedbed-pg-chunks-'));
    const clock = () => new Date();
    datasets = createDatasetService({ database, objects: createFsObjectStore(dir), clock, version: 'test' });
    research = createResearchService({ database, datasets, clock });
  });
  afterAll(async () => {
    await database.close();
    await dropSchemas([schema]);
    await rm(dir, { recursive: true, force: true });
  });

  it('gives twelve parallel uploads twelve distinct chunk numbers', async () => {
    const uploads = Array.from({ length: 12 }, (_, i) =>
      datasets.store({
        meta: { country: 'fr', category: 'news', date: '2026-03-01' },
        records: [{ raw_url: `https://x${i}.fr/` }],
      }),
    );
    const chunks = (await Promise.all(uploads)).map((c) => c.chunk).sort((a, b) => a - b);
    expect(chunks).toEqual(Array.from({ length: 12 }, (_, i) => i + 1));
  });

  it('lets parallel research chunks of one partition each write their own raw chunk, every URL once', async () => {
    const partition = { country: 'fr', category: 'policy', date: '2026-03-02' };
    const owners = Array.from({ length: 8 }, (_, n) =>
      research.ingest({
        partition,
        owner: `batch:test:${n}`,
        // Neighbouring owners share half their URLs: each URL must land in exactly one chunk.
        inputs: Array.from({ length: 20 }, (_, i) => ({ index: i, input: `https://site.fr/${n * 10 + i}` })),
        defaultMethod: 'test',
      }),
    );
    const results = await Promise.all(owners);
    const claimed = results.flatMap((r) => r.outcomes.filter((o) => o.status === 'succeeded'));
    expect(claimed.length).toBe(90);
    // An owner whose URLs were all claimed by its neighbours first writes no chunk at all.
    const written = results.map((r) => r.chunk).filter((c): c is number => c !== null);
    expect(new Set(written).size).toBe(written.length);
    const stored = await datasets.listChunks(partition);
    expect(stored.map((c) => c.chunk).sort((a, b) => a - b)).toEqual([...written].sort((a, b) => a - b));
    expect(stored.reduce((n, c) => n + c.record_count, 0)).toBe(90);
  });

  it('turns parallel contracts for one seed into one created seed and updates, never an error', async () => {
    const clock = () => new Date();
    const repository = createSeedRepository(database);
    const seeds = createSeedService({ database, clock, repository });
    const changes = createChangeService({ database, clock });
    const health = createSeedHealthService({ repository, changes, autoSuspendAfter: null });
    const services = {
      contractRuns: createSeedContractRuns({ repository, revisions: seeds.revisions, health, clock }),
    };
    const draft = (n: number) => ({
      domainId: 'gov:fr:interieur.gouv.fr',
      category: 'news',
      name: null,
      entry_url: 'https://interieur.gouv.fr/',
      fetch: { type: 'html', urls: [`https://interieur.gouv.fr/${n % 2}`] },
      schedule: '0 6 * * *',
      policy: {},
      provenance: { n },
    });
    const outcomes = await Promise.all(
      Array.from({ length: 8 }, (_, n) => database.transaction((trx) => writeDraft(services, trx, draft(n)))),
    );
    expect(outcomes.filter((o) => o.outcome === 'created')).toHaveLength(1);
    expect(outcomes.every((o) => ['created', 'updated', 'unchanged'].includes(o.outcome))).toBe(true);
    const list = await seeds.list({ country: 'fr', limit: 10, offset: 0 });
    expect(list.pagination.total).toBe(1);
  });
});
