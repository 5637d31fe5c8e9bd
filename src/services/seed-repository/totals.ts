// The seed list's kept totals: `pagination.total` of a filter the triggers on `seeds` keep counted, read as a sum of a
// few rows instead of a count of every match. `seed_totals` (migration 0013) holds each status and country;
// `seed_filter_totals` (migration 0016) each status, country (or every country, '') and value of the filters a page
// checks on the rows it walks; `seed_fact_totals` (0016) the same of category, verdict, health and AI policy.
// docs/databases.md, "Totals are kept", says which filter is summed and which counted.
import { sql } from 'kysely';
import type { Database } from '../../ports/database.js';
import type { ReviewFilter, SeedFilter } from './filters.js';

type ListFilter = SeedFilter & ReviewFilter;

/** The filters `seed_totals` holds. */
const BY_STATUS_AND_COUNTRY = new Set<string>(['status', 'country']);

type SumTable = 'seed_filter_totals' | 'seed_fact_totals';

/** Each filter a sum table holds beside the country and status: its column, and the value the filter stands for. */
const SUM_TABLES: Record<
  SumTable,
  Record<string, [column: string, value: (v: unknown) => string | number]>
> = {
  seed_filter_totals: {
    authority: ['authority', String],
    source_type: ['source_type', String],
    freshness: ['freshness_state', String],
    robots_allowed: ['robots_allowed', (v) => (v ? 1 : 0)],
    fetch_type: ['fetch_type', String],
    main_feed: ['main_feed', (v) => (v ? 1 : 0)],
    alive: ['alive', (v) => (v ? 1 : 0)],
  },
  seed_fact_totals: {
    category: ['category', String],
    verdict: ['news_verdict', String],
    health: ['health_state', String],
    ai: ['ai_status', String],
  },
};

/** Summed rows of a kept total past which PostgreSQL folds its table (rows of changes beyond one a key). */
export const FOLD_AT = 4096;
/** The advisory lock one fold at a time holds (any number; the same in every process). */
const FOLD_LOCK = 7_210_013;

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
  return table === 'seed_totals'
    ? statusCountryTotal(database, filter)
    : summedTotal(database, table, filter);
}

/** The kept-totals table that holds every filter given, if one does. */
export function keptTable(filter: ListFilter): 'seed_totals' | SumTable | undefined {
  const keys = given(filter).filter((key) => !BY_STATUS_AND_COUNTRY.has(key));
  if (keys.length === 0) return 'seed_totals';
  return (Object.keys(SUM_TABLES) as SumTable[]).find((table) =>
    keys.every((key) => key in SUM_TABLES[table]),
  );
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
async function summedTotal(database: Database, table: SumTable, filter: ListFilter): Promise<number> {
  const row = (await sumQuery(database, table, filter).executeTakeFirstOrThrow()) as {
    n: unknown;
    rows: unknown;
    keys?: unknown;
  };
  if (database.dialect === 'postgres' && Number(row.rows) > Number(row.keys ?? 0) + FOLD_AT)
    await foldTotals(database, table);
  return Number(row.n ?? 0);
}

/** The sum of a sum table for the filter (its rows, and on PostgreSQL its key combinations, counted). */
export function sumQuery(database: Database, table: SumTable, filter: ListFilter) {
  // SQLite is told the key, as the list's walks are (list.ts): with the statistics of a small table it would read it
  // whole, and the table grows with the countries and combinations in use.
  const from = (
    database.dialect === 'sqlite'
      ? sql`${sql.table(table)}`.as(sql.raw(`${table} indexed by ${table}_key`))
      : table
  ) as 'seed_filter_totals';
  const columns = SUM_TABLES[table];
  let query = database.db
    .selectFrom(from)
    .select((eb) => [eb.fn.sum('n').as('n'), eb.fn.countAll().as('rows')])
    .$if(database.dialect === 'postgres', (qb) =>
      qb.select(
        sql<number>`count(distinct (${sql.raw(['status', ...Object.values(columns).map(([c]) => c)].join(', '))}))`.as(
          'keys',
        ),
      ),
    )
    .where('country', '=', filter.country ?? '')
    .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status as string));
  for (const [key, [column, value]] of Object.entries(columns)) {
    const given = filter[key as keyof ListFilter];
    if (given !== undefined) query = query.where(sql.ref(column), '=', value(given));
  }
  return query;
}

/** Each kept-totals table's key: the columns its rows are summed by when folded. */
const FOLD_KEYS = {
  seed_totals: 'status, country',
  seed_filter_totals:
    'country, status, authority, source_type, freshness_state, robots_allowed, fetch_type, main_feed, alive',
  seed_fact_totals: 'country, status, category, news_verdict, health_state, ai_status',
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

/**
 * Folds every kept-totals table now (PostgreSQL; SQLite keeps one row a key and has nothing to fold). A bulk write
 * calls it once it is done, so the rows of its changes (two or three a seed and table) are not left for the next
 * reader's count to fold.
 */
export async function foldAllTotals(database: Database): Promise<void> {
  if (database.dialect !== 'postgres') return;
  for (const table of Object.keys(FOLD_KEYS) as Array<keyof typeof FOLD_KEYS>)
    await foldTotals(database, table);
}
