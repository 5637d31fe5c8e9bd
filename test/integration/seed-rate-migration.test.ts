// Migration 0010_seed_rate on a database that already holds seeds with freshness: items_per_day is copied out of
// the JSON (null when absent, undated or unreadable), and the list sorts by it (unmeasured last) and filters on
// freshness the same way in SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import type { StoredSeedTable } from '../../src/ports/database.js';
import { createSeedService } from '../../src/services/seeds.js';
import { migrateTo, migrationDialects, openedPerTest } from '../support/migration-dialects.js';

const AT = '2026-01-02T03:04:05.000Z';
const fresh = (rate: number | null, stale: boolean | null) =>
  JSON.stringify({
    newest_item_at: rate === null ? null : AT,
    items_last_7d: 0,
    items_per_day: rate,
    measured_at: AT,
    stale,
    based_on: rate === null ? null : 'feed',
  });

/** Seed rows as they stood at 0008 (no items_per_day column yet). */
const BEFORE: Array<[string, string | null]> = [
  ['a.fr', fresh(2.5, false)],
  ['b.fr', fresh(40, false)],
  ['c.fr', fresh(0.14, true)],
  ['d.fr', fresh(null, null)],
  ['e.fr', null],
  ['f.fr', 'not json'],
];

function row(domain: string, freshness: string | null) {
  return {
    seed_id: `com:fr:${domain}::news`,
    domain_id: `com:fr:${domain}`,
    registrable_domain: domain,
    country: 'fr',
    category: 'news',
    content_type: 'news',
    source_type: 'media',
    status: 'draft',
    version: 1,
    name: null,
    entry_url: `https://${domain}/`,
    fetch: '{"type":"html","urls":[]}',
    schedule: null,
    policy: '{}',
    discovery: '{}',
    provenance: '{}',
    created_at: AT,
    updated_at: AT,
    promoted_at: null,
    feeds: '[]',
    sitemap: null,
    human_fields: '[]',
    last_revision: 1,
    freshness,
    languages: '[]',
    ai: null,
    language_codes: null,
    ai_status: null,
  };
}

const dialects = await migrationDialects('seedbed_rate');

describe.each(dialects)('migration 0010_seed_rate on %s', (_name, available, open) => {
  const openDatabase = openedPerTest(open);

  it.skipIf(!available)(
    'backfills the rate from the freshness JSON; the list sorts and filters on it',
    async () => {
      const opened = openDatabase();
      const { database } = opened;
      await migrateTo(opened, '0008_changes');
      // The rows as the table stood before the column existed (hence no items_per_day).
      await database.db
        .insertInto('seeds')
        .values(BEFORE.map(([d, f]) => row(d, f) as unknown as StoredSeedTable))
        .execute();
      await database.migrate();

      const rates = await database.db
        .selectFrom('seeds')
        .select(['registrable_domain', 'items_per_day'])
        .orderBy('registrable_domain')
        .execute();
      expect(rates.map((r) => [r.registrable_domain, r.items_per_day])).toEqual([
        ['a.fr', 2.5],
        ['b.fr', 40],
        ['c.fr', 0.14],
        ['d.fr', null],
        ['e.fr', null],
        ['f.fr', null],
      ]);

      // Unreadable JSON is the migration's worry only: the seed service never writes it.
      await database.db
        .updateTable('seeds')
        .set({ freshness: '{}' })
        .where('registrable_domain', '=', 'f.fr')
        .execute();
      const seeds = createSeedService({ database, clock: () => new Date(AT) });
      const domains = async (filter: Parameters<typeof seeds.list>[0]) =>
        (await seeds.list(filter)).data.map((s) => s.registrable_domain);
      const page = { limit: 10, offset: 0 };
      // Highest first, the unmeasured last (PostgreSQL would put NULLs first without the CASE), ties by id.
      expect(await domains({ ...page, sort: '-rate' })).toEqual([
        'b.fr',
        'a.fr',
        'c.fr',
        'd.fr',
        'e.fr',
        'f.fr',
      ]);
      expect(await domains({ ...page, freshness: 'fresh', sort: '-rate' })).toEqual(['b.fr', 'a.fr']);
      expect(await domains({ ...page, freshness: 'stale' })).toEqual(['c.fr']);
      expect(await domains({ ...page, freshness: 'unknown' })).toEqual(['d.fr', 'e.fr', 'f.fr']);
    },
  );
});
