// Migration 0014_list_indexes on a database that already holds candidates: their totals are counted into
// candidate_totals (a candidate without a verdict under ''), and the list's totals read them, in SQLite and
// PostgreSQL.
import { describe, expect, it } from 'vitest';
import { createCandidateRepository } from '../../src/services/candidates/repository.js';
import { migrateTo, migrationDialects, openedPerTest } from '../support/migration-dialects.js';

const AT = '2026-01-02T03:04:05.000Z';

/** Candidates as they stood at 0012: (domain, country, state, verdict). */
const BEFORE: Array<[string, string, string, string | null]> = [
  ['a.fr', 'fr', 'new', null],
  ['b.fr', 'fr', 'new', null],
  ['c.fr', 'fr', 'qualified', 'news'],
  ['d.de', 'de', 'qualified', 'news'],
  ['e.de', 'de', 'rejected', 'maybe'],
];

const dialects = await migrationDialects('seedbed_totals');

describe.each(dialects)('migration 0014_list_indexes on %s', (_name, available, open) => {
  const openDatabase = openedPerTest(open);

  it.skipIf(!available)('counts the candidates already stored into the kept totals', async () => {
    const opened = openDatabase();
    const { database } = opened;
    await migrateTo(opened, '0012_discovery');
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
