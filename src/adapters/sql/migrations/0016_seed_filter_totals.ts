import { type Migration, PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * The seed list's totals for the filters a page checks on the rows it walks (docs/databases.md, "Totals are kept"):
 * `seed_filter_totals` holds the seeds of each status, country, authority, source type, freshness, robots answer,
 * fetch type, main feed and liveness, and again of each of those without the country (country ''), so the total of
 * any of these filters together (`status=draft&freshness=stale`, the review page's fetch type in a country, …) is a
 * sum of a few rows, bounded by the number of their value combinations, not a count of every seed of the status.
 * Triggers on `seeds` keep it in the writing transaction, as they keep `seed_totals`.
 */
export const seedFilterTotals: Migration = {
  async up(db: AnyDb) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    let table = db.schema.createTable('seed_filter_totals');
    for (const [column, type] of FILTER_TOTAL_COLUMNS)
      table = table.addColumn(column, type, (c) => c.notNull());
    await table.addColumn('n', 'bigint', (c) => c.notNull()).execute();
    // SQLite has one writer: one row per combination, upserted. PostgreSQL has many: a row per change, summed by
    // readers and folded now and then (as seed_totals, migration 0013). Led by the country: a total without one
    // reads the rows of country ''.
    const key = db.schema
      .createIndex('seed_filter_totals_key')
      .on('seed_filter_totals')
      .columns(FILTER_TOTAL_COLUMNS.map(([column]) => column));
    await (postgres ? key : key.unique()).execute();
    const values = filterValues('seeds', postgres);
    for (const byCountry of [true, false])
      await sql
        .raw(`insert into seed_filter_totals (${KEY}, n)
          select ${byCountry ? 'seeds.country' : "''"}, ${values}, count(*) from seeds
          group by ${byCountry ? 'seeds.country, ' : ''}${values}`)
        .execute(db);
    if (postgres) await postgresTrigger(db);
    else await sqliteTriggers(db);
    // Its one use, those totals counted from the index (every seed of the status read for each page), is the sums
    // above now; every insert and every move of a seed wrote it.
    await db.schema.dropIndex('seeds_status_counts').execute();
  },
};

/** The key of a kept total, in index order. Null flags are -1 (a unique index holds NULLs apart). */
export const FILTER_TOTAL_COLUMNS = [
  ['country', 'text'],
  ['status', 'text'],
  ['authority', 'text'],
  ['source_type', 'text'],
  ['freshness_state', 'text'],
  ['robots_allowed', 'integer'],
  ['fetch_type', 'text'],
  ['main_feed', 'integer'],
  ['alive', 'integer'],
] as const;

const KEY = FILTER_TOTAL_COLUMNS.map(([column]) => column).join(', ');

/** The columns of `seeds` that move a seed from one kept total to another. */
const TRACKED = [
  'status',
  'country',
  'domain_id',
  'source_type',
  'freshness_state',
  'robots_allowed',
  'fetch_type',
  'main_feed',
  'alive',
];

/** A row's key after the country, as SQL over `row` (a table, or a trigger's old / new). */
function filterValues(row: string, postgres: boolean): string {
  // The authority is the domain id's first part (`gov:sg:mom.gov.sg`), as the filter's `LIKE 'gov:%'` reads it.
  const authority = postgres
    ? `split_part(${row}.domain_id, ':', 1)`
    : `substr(${row}.domain_id, 1, instr(${row}.domain_id, ':') - 1)`;
  return [
    `${row}.status`,
    authority,
    `${row}.source_type`,
    `${row}.freshness_state`,
    `coalesce(${row}.robots_allowed, -1)`,
    `${row}.fetch_type`,
    `${row}.main_feed`,
    `coalesce(${row}.alive, -1)`,
  ].join(', ');
}

async function sqliteTriggers(db: AnyDb) {
  // The row's combination in its country and in every country ('').
  const bump = (row: string, delta: number) =>
    [`${row}.country`, "''"]
      .map(
        (
          country,
        ) => `insert into seed_filter_totals (${KEY}, n) values (${country}, ${filterValues(row, false)}, ${delta})
          on conflict (${KEY}) do update set n = n + excluded.n;`,
      )
      .join('\n');
  await sql
    .raw(`create trigger seed_filter_totals_insert after insert on seeds begin ${bump('new', 1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger seed_filter_totals_delete after delete on seeds begin ${bump('old', -1)} end`)
    .execute(db);
  const changed = TRACKED.map((column) => `old.${column} is not new.${column}`).join(' or ');
  await sql
    .raw(`create trigger seed_filter_totals_update after update of ${TRACKED.join(', ')} on seeds
      when ${changed} begin ${bump('old', -1)} ${bump('new', 1)} end`)
    .execute(db);
}

async function postgresTrigger(db: AnyDb) {
  const rows = (row: string, delta: number) =>
    `insert into seed_filter_totals (${KEY}, n) values
      (${row}.country, ${filterValues(row, true)}, ${delta}), ('', ${filterValues(row, true)}, ${delta});`;
  const same = TRACKED.map((column) => `old.${column} is not distinct from new.${column}`).join(' and ');
  await sql
    .raw(`create function seed_filter_totals_track() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and ${same} then return null; end if;
      if tg_op in ('UPDATE', 'DELETE') then ${rows('old', -1)} end if;
      if tg_op in ('UPDATE', 'INSERT') then ${rows('new', 1)} end if;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger seeds_filter_totals after insert or delete or update of ${TRACKED.join(', ')} on seeds
      for each row execute function seed_filter_totals_track()`)
    .execute(db);
}
