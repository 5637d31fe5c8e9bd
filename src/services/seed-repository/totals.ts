// The seed list's kept totals: `pagination.total` of a filter the triggers on `seeds` keep counted, read as a sum of a
// few rows instead of a count of every match. `seed_totals` (migration 0013) holds each status and country;
// `seed_filter_totals` (migration 0016) each status, country (or every country, '') and value of the filters a page
// checks on the rows it walks. docs/databases.md, "Totals are kept", says which filter is summed and which counted.
import { sql } from 'kysely';
import type { Database } from '../../ports/database.js';
import type { ReviewFilter, SeedFilter } from './filters.js';

type ListFilter = SeedFilter & ReviewFilter;

/** The filters `seed_totals` holds. */
const BY_STATUS_AND_COUNTRY = new Set<string>(['status', 'country']);
/** The filters `seed_filter_totals` holds, any of them together. */
const BY_WALKED_FILTERS = new Set<string>([
  'status',
  'country',
  'authority',
  'source_type',
  'freshness',
  'robots_allowed',
  'fetch_type',
  'main_feed',
  'alive',
]);

/** Summed rows of a kept total past which PostgreSQL folds its table (rows of changes beyond one a key). */
const FOLD_AT = 4096;
/** The advisory lock one fold at a time holds (any number; the same in every process). */
const FOLD_LOCK = 7_210_013;

const flag = (value: boolean) => (value ? 1 : 0);

/** The filters given (a value that is not undefined), by name. */
function given(filter: ListFilter): string[] {
  return Object.entries(filter)
    .filter(([, value]) => value !== undefined)
    .map(([key]) => key);
}

/**
 * The total of the filter from the kept totals, or undefined when they do not hold one of its filters (the list
 * counts it then). `filter` holds filters only: no page, order or cursor.
 */
export async function keptTotal(database: Database, filter: ListFilter): Promise<number | undefined> {
  const table = keptTable(filter);
  if (table === undefined) return undefined;
  return table === 'seed_totals' ? statusCountryTotal(database, filter) : walkedFilterTotal(database, filter);
}

/** The kept-totals table that holds every filter given, if one does. */
export function keptTable(filter: ListFilter): 'seed_totals' | 'seed_filter_totals' | undefined {
  const keys = given(filter);
  if (keys.every((key) => BY_STATUS_AND_COUNTRY.has(key))) return 'seed_totals';
  if (keys.every((key) => BY_WALKED_FILTERS.has(key))) return 'seed_filter_totals';
  return undefined;
}

async function statusCountryTotal(database: Database, filter: ListFilter): Promise<number> {
  const row = await database.db
    .selectFrom('seed_totals')
    .select((eb) => [eb.fn.sum('n').as('n'), eb.fn.countAll().as('rows')])
    .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status as string))
    .$if(filter.country !== undefined, (qb) => qb.where('country', '=', filter.country as string))
    .executeTakeFirstOrThrow();
  if (database.dialect === 'postgres' && Number(row.rows) > FOLD_AT)
    await foldTotals(database, 'seed_totals');
  return Number(row.n ?? 0);
}

/**
 * The sum of the rows of the country (or of every country, '') whose key matches the filter: at most one row per
 * combination of the other key columns' values, however many seeds match. On PostgreSQL the rows of changes not
 * yet folded are summed too, and folded once they outnumber the combinations by FOLD_AT.
 */
async function walkedFilterTotal(database: Database, filter: ListFilter): Promise<number> {
  const row = await filterTotalsQuery(database, filter).executeTakeFirstOrThrow();
  const postgres = database.dialect === 'postgres';
  const keys = Number((row as { keys?: number }).keys ?? 0);
  if (postgres && Number(row.rows) > keys + FOLD_AT) await foldTotals(database, 'seed_filter_totals');
  return Number(row.n ?? 0);
}

/** The sum of `seed_filter_totals` for the filter (its rows, and on PostgreSQL its key combinations, counted). */
export function filterTotalsQuery(database: Database, filter: ListFilter) {
  // SQLite is told its key, as the list's walks are (list.ts): with the statistics of a small table it would read it
  // whole, and the table grows with the countries and combinations in use.
  const table =
    database.dialect === 'sqlite'
      ? (sql`seed_filter_totals`.as(
          sql.raw('seed_filter_totals indexed by seed_filter_totals_key'),
        ) as unknown as 'seed_filter_totals')
      : 'seed_filter_totals';
  return database.db
    .selectFrom(table)
    .select((eb) => [eb.fn.sum('n').as('n'), eb.fn.countAll().as('rows')])
    .$if(database.dialect === 'postgres', (qb) =>
      qb.select(
        sql<number>`count(distinct (status, authority, source_type, freshness_state, robots_allowed, fetch_type,
          main_feed, alive))`.as('keys'),
      ),
    )
    .where('country', '=', filter.country ?? '')
    .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status as string))
    .$if(filter.authority !== undefined, (qb) => qb.where('authority', '=', filter.authority as string))
    .$if(filter.source_type !== undefined, (qb) => qb.where('source_type', '=', filter.source_type as string))
    .$if(filter.freshness !== undefined, (qb) => qb.where('freshness_state', '=', filter.freshness as string))
    .$if(filter.robots_allowed !== undefined, (qb) =>
      qb.where('robots_allowed', '=', flag(filter.robots_allowed as boolean)),
    )
    .$if(filter.fetch_type !== undefined, (qb) => qb.where('fetch_type', '=', filter.fetch_type as string))
    .$if(filter.main_feed !== undefined, (qb) =>
      qb.where('main_feed', '=', flag(filter.main_feed as boolean)),
    )
    .$if(filter.alive !== undefined, (qb) => qb.where('alive', '=', flag(filter.alive as boolean)));
}

/** Each kept-totals table's key: the columns its rows are summed by when folded. */
const FOLD_KEYS = {
  seed_totals: 'status, country',
  seed_filter_totals:
    'country, status, authority, source_type, freshness_state, robots_allowed, fetch_type, main_feed, alive',
} as const;

/**
 * PostgreSQL's kept totals, a row per change, summed into a row per key. One statement deletes the rows it sees
 * and inserts their sums, so a reader sees the rows before or the sums after, never both; a change committed
 * meanwhile keeps its row. One fold at a time (the others skip it: the next read folds).
 */
export async function foldTotals(database: Database, table: keyof typeof FOLD_KEYS): Promise<void> {
  const key = FOLD_KEYS[table];
  await database.transaction(async (trx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as locked`.execute(trx);
    if (rows[0]?.locked !== true) return;
    await sql
      .raw(`with gone as (delete from ${table} returning ${key}, n)
      insert into ${table} (${key}, n)
      select ${key}, sum(n) from gone group by ${key} having sum(n) <> 0`)
      .execute(trx);
  });
}
