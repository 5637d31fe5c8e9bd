// Migration 0014_list_indexes on a database that already holds candidates: their totals are counted into
// candidate_totals (a candidate without a verdict under ''), and the list's totals read them, in SQLite and
// PostgreSQL.
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/adapters/sql/migrations.js';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../src/ports/database.js';
import { createCandidateRepository } from '../../src/services/candidates/repository.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';

const AT = '2026-01-02T03:04:05.000Z';

/** Candidates as they stood at 0012: (domain, country, state, verdict). */
const BEFORE: Array<[string, string, string, string | null]> = [
  ['a.fr', 'fr', 'new', null],
  ['b.fr', 'fr', 'new', null],
  ['c.fr', 'fr', 'qualified', 'news'],
  ['d.de', 'de', 'qualified', 'news'],
  ['e.de', 'de', 'rejected', 'maybe'],
];

const pgUp = await pgAvailable();
const dialects: Array<[string, boolean, () => { database: Database; schema?: string }]> = [
  ['SQLite', true, () => ({ database: createSqliteDatabase(':memory:') })],
  [
    'PostgreSQL',
    pgUp,
    () => {
      const schema = uniqueSchemaName('seedbed_totals');
      return { database: createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 2 }), schema };
    },
  ],
];

describe.each(dialects)('migration 0014_list_indexes on %s', (_name, available, open) => {
  let opened: { database: Database; schema?: string } | undefined;
  afterEach(async () => {
    await opened?.database.close();
    if (opened?.schema) await dropSchemas([opened.schema]);
    opened = undefined;
  });

  it.skipIf(!available)('counts the candidates already stored into the kept totals', async () => {
    opened = open();
    const { database, schema } = opened;
    const migrator = new Migrator({
      db: database.db,
      provider: migrationProvider,
      ...(schema ? { migrationTableSchema: schema } : {}),
    });
    expect((await migrator.migrateTo('0012_discovery')).error).toBeUndefined();
    await database.db
      .insertInto('candidates')
      .values(
        BEFORE.map(([domain, country, state, verdict]) => ({
          domain,
          state,
          country,
          news: null,
          news_verdict: verdict,
          score: verdict === null ? null : 0.5,
          country_guess: null,
          languages: '[]',
          citations: 0,
          feeds_found: null,
          sitemap: null,
          robots_allowed: null,
          alive: null,
          qualification: null,
          sources: '[]',
          first_seen_at: AT,
          last_checked_at: null,
          reject_reason: null,
          decided_by: null,
          decided_at: null,
        })),
      )
      .execute();
    await database.migrate();

    const kept = await database.db
      .selectFrom('candidate_totals')
      .selectAll()
      .orderBy('country')
      .orderBy('state')
      .execute();
    expect(kept.map((r) => [r.country, r.state, r.verdict, Number(r.n)])).toEqual([
      ['de', 'qualified', 'news', 1],
      ['de', 'rejected', 'maybe', 1],
      ['fr', 'new', '', 2],
      ['fr', 'qualified', 'news', 1],
    ]);
    const repository = createCandidateRepository(database);
    const total = async (filter: object) => (await repository.list({ ...filter, limit: 1, offset: 0 })).total;
    expect(await total({})).toBe(5);
    expect(await total({ state: 'new' })).toBe(2);
    expect(await total({ verdict: 'news' })).toBe(2);
    expect(await total({ country: 'de', state: 'rejected' })).toBe(1);
  });
});
