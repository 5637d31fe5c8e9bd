import { type Migration, PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * Keyset paging (docs/api.md, "Paging by cursor"): every list of candidates, changes and batches is answered by an index
 * walked in the order the page asks for, so no page sorts its matches and a deep cursor costs what page 1 costs.
 * Each index ends with the list's unique tie-breaker (domain, id), which the cursor names. The indexes these
 * replace were prefixes of the new ones without the tie-breaker (SQLite kept the rowid there, not the id).
 *
 * Candidates: one index per order, led by the list's equality filters `state, news_verdict` (both small value
 * lists, which the repository enumerates when a filter leaves them open) and again led by `country`, so every
 * combination of filters is an exact prefix (docs/discovery.md, "Listing candidates"). The list's totals are kept
 * in `candidate_totals`, one row per (country, state, verdict).
 */
const CANDIDATE_ORDERS = {
  domain: [],
  score: ['score desc'],
  citations: ['citations desc'],
  first_seen: ['first_seen_at desc'],
} as const;

export const listIndexes: Migration = {
  async up(db: AnyDb) {
    for (const name of [
      'candidates_country_state_score',
      'candidates_country_state_citations',
      'candidates_state_score',
      'candidates_first_seen',
      'domain_changes_detected',
      'domain_changes_domain',
      'batches_created',
      'batches_type',
      'batches_status',
    ])
      await db.schema.dropIndex(name).execute();

    // The domain bytewise (PostgreSQL's `C` collation, SQLite's default), the order the list merges its groups in.
    const domain = db.getExecutor().adapter instanceof PostgresAdapter ? 'domain collate "C"' : 'domain';
    for (const [order, keys] of Object.entries(CANDIDATE_ORDERS)) {
      // The score after the key, where the order is not by score: `min_score` is checked from the index as it is
      // walked, without reading each row.
      const tail = order === 'score' ? [] : ['score'];
      for (const [name, lead] of [
        [`candidates_list_${order}`, []],
        [`candidates_list_country_${order}`, ['country']],
      ] as const) {
        const columns = [...lead, 'state', 'news_verdict', ...keys, domain, ...tail].join(', ');
        await sql.raw(`create index ${name} on candidates (${columns})`).execute(db);
      }
    }

    // The list's totals by (country, state, verdict), kept by the candidate repository in the transaction of each
    // write, counted once here from the rows already stored.
    await db.schema
      .createTable('candidate_totals')
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('state', 'text', (c) => c.notNull())
      .addColumn('verdict', 'text', (c) => c.notNull())
      .addColumn('n', 'bigint', (c) => c.notNull())
      .addPrimaryKeyConstraint('candidate_totals_pk', ['country', 'state', 'verdict'])
      .execute();
    await sql`insert into candidate_totals (country, state, verdict, n)
      select country, state, coalesce(news_verdict, ''), count(*) from candidates
      group by country, state, coalesce(news_verdict, '')`.execute(db);

    for (const [name, columns] of [
      ['domain_changes_list', ['detected_at', 'id']],
      ['domain_changes_domain_list', ['registrable_domain', 'detected_at', 'id']],
      ['domain_changes_kind_list', ['kind', 'detected_at', 'id']],
      ['batches_list', ['created_at', 'id']],
      ['batches_type_list', ['type', 'created_at', 'id']],
      ['batches_status_list', ['status', 'created_at', 'id']],
    ] as const) {
      await db.schema
        .createIndex(name)
        .on(name.startsWith('batches') ? 'batches' : 'domain_changes')
        .columns([...columns])
        .execute();
    }
  },
};
