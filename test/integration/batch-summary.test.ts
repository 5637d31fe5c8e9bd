// A research batch's summary (its distinct domains and stored raw chunks, read on every read of the batch, its
// creation among them) counts exactly the rows its chunks own, and on SQLite reads them from the owner indexes:
// a `like` on the owner read the whole of `research_sources` (17.5 ms at 100,000 sources, docs/performance.md,
// "Tenth pass"). Both databases answer the same counts.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFsObjectStore } from '../../src/adapters/fs-object-store.js';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../src/ports/database.js';
import { createDatasetService } from '../../src/services/datasets.js';
import { prefixEnd } from '../../src/services/prefix-match.js';
import { createResearchService } from '../../src/services/research.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { QueryRecorder, recordedPlans } from '../support/query-plans.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';

const pgUp = await pgAvailable();

/** Owners of batch `b-1`'s chunks, and neighbours that start almost alike but belong to other batches. */
const OWNED = [
  ['batch:b-1:0', 'a.gov.sg'],
  ['batch:b-1:0', 'b.gov.sg'],
  ['batch:b-1:1', 'a.gov.sg'],
  ['batch:b-1:12', 'c.gov.sg'],
] as const;
const NEIGHBOURS = [
  ['batch:b-1;0', 'x.gov.sg'],
  ['batch:b-10:0', 'y.gov.sg'],
  ['batch:b-1', 'z.gov.sg'],
  ['BATCH:b-1:0', 'w.gov.sg'],
  ['batch:b_1:0', 'v.gov.sg'],
] as const;

async function fill(database: Database): Promise<void> {
  const rows = [...OWNED, ...NEIGHBOURS];
  await database.db
    .insertInto('research_sources')
    .values(
      rows.map(([owner, domain], i) => ({
        country: 'sg',
        category: 'news',
        date: '2026-11-28',
        normalized_url: `https://${domain}/${i}`,
        raw_url: `https://${domain}/${i}`,
        registrable_domain: domain,
        domain_id: `gov:sg:${domain}`,
        authority: 'gov' as const,
        source_type: 'government' as const,
        discovery_method: 'research_batch',
        confidence: 1,
        content_hints: '{}',
        owner,
        raw_chunk: i,
        created_at: '2026-11-28T00:00:00.000Z',
      })),
    )
    .execute();
  // One stored chunk per owner, and one still being written (not counted).
  const owners = [...new Set(rows.map(([owner]) => owner)), 'batch:b-1:7'];
  await database.db
    .insertInto('dataset_chunks')
    .values(
      owners.map((owner, i) => ({
        country: 'sg',
        category: 'news',
        date: '2026-11-28',
        chunk: i,
        key: `k/${i}`,
        record_count: 1,
        bytes: 1,
        origin: 'research' as const,
        status: owner === 'batch:b-1:7' ? ('writing' as const) : ('stored' as const),
        owner,
        created_at: '2026-11-28T00:00:00.000Z',
        checkpointed_at: null,
      })),
    )
    .execute();
}

function researchOn(database: Database, dir: string) {
  const clock = () => new Date();
  const datasets = createDatasetService({
    database,
    objects: createFsObjectStore(dir),
    clock,
    version: 'test',
  });
  return createResearchService({ database, datasets, clock });
}

describe('a research batch’s summary', () => {
  let opened: { database: Database; dir: string; schema?: string } | undefined;
  afterEach(async () => {
    await opened?.database.close();
    if (opened?.schema) await dropSchemas([opened.schema]);
    if (opened) await rm(opened.dir, { recursive: true, force: true });
    opened = undefined;
  });

  it('counts its own owners’ rows, from the owner indexes, in SQLite', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seedbed-summary-'));
    const database = createSqliteDatabase(':memory:');
    opened = { database, dir };
    await database.migrate();
    await fill(database);
    const recorder = new QueryRecorder();
    const research = researchOn({ ...database, db: database.db.withPlugin(recorder) }, dir);

    expect(await research.batchSummary('b-1')).toEqual({ domains: 3, raw_chunks: 3 });

    const plans = (await recordedPlans(database, recorder)).map((p) => p.plan);
    expect(plans.join('\n')).toMatch(
      /SEARCH research_sources USING (COVERING )?INDEX research_sources_owner/,
    );
    expect(plans.join('\n')).toMatch(/SEARCH dataset_chunks USING INDEX sqlite_autoindex_dataset_chunks/);
    expect(plans.join('\n')).not.toMatch(/SCAN (research_sources|dataset_chunks)/);
  });

  it.skipIf(!pgUp)('counts its own owners’ rows in PostgreSQL', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seedbed-summary-'));
    const schema = uniqueSchemaName('seedbed_summary');
    const database = createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 1 });
    opened = { database, dir, schema };
    await database.migrate();
    await fill(database);
    expect(await researchOn(database, dir).batchSummary('b-1')).toEqual({ domains: 3, raw_chunks: 3 });
  });
});

describe('prefixEnd', () => {
  it('raises the last character by one, and refuses what is not printable ASCII', () => {
    expect(prefixEnd('batch:b-1:')).toBe('batch:b-1;');
    expect(() => prefixEnd('batch:é')).toThrow(/ASCII/);
    expect(() => prefixEnd('')).toThrow(/ASCII/);
  });
});
