// A page of seeds at any depth, and how many match: each page is a walk of one index in the list's order that
// starts after the last row of the page before (keyset paging, services/cursor.ts) and checks the filters the
// index does not hold on the rows it reads, so no page sorts its matches and a deep page costs what page 1
// does. The total is kept by status and country (migration 0013's triggers); another filter is counted.
// docs/databases.md, "The seed list: paging and indexes", says which index serves which filter, and why.
import { type SelectQueryBuilder, sql } from 'kysely';
import { ValidationError } from '../../domain/errors.js';
import type { SeedSort } from '../../domain/seeds.js';
import type { Database, DbExecutor, StoredSeedTable, Tables } from '../../ports/database.js';
import type { CursorPageRequest } from '../common.js';
import { cursorPosition, type KeyValue, keysetPage } from '../cursor.js';
import { orderSeeds, type ReviewFilter, type SeedFilter, whereSeedsMatch } from './filters.js';

type SeedQuery = SelectQueryBuilder<Tables, 'seeds', object>;
type ListFilter = SeedFilter & ReviewFilter;

/** The column a list order sorts on before its seed id tie-break, and the way the walk goes. */
export interface SeedOrder {
  /** The order's name in a cursor. */
  name: string;
  key: 'seed_id' | 'created_at' | 'rate_rank';
  descending: boolean;
}

export function seedOrder(sort: SeedSort | undefined): SeedOrder {
  if (sort === 'found') return { name: 'found', key: 'created_at', descending: false };
  if (sort === '-found') return { name: '-found', key: 'created_at', descending: true };
  if (sort === '-rate') return { name: '-rate', key: 'rate_rank', descending: false };
  return { name: 'seed_id', key: 'seed_id', descending: false };
}

/** Every filter of the list and the review page: the key of `filter` objects that select seeds. */
const FILTER_KEYS = [
  'country',
  'status',
  'source_type',
  'category',
  'language',
  'ai',
  'freshness',
  'health',
  'verdict',
  'authority',
  'robots_allowed',
  'fetch_type',
  'main_feed',
  'alive',
] as const satisfies ReadonlyArray<keyof ListFilter>;

/**
 * The index (migration 0013) a SQLite page walks: the one whose equality columns hold the most selective of the
 * filters given and whose next columns are the order. SQLite is told (INDEXED BY) rather than left to choose,
 * because without statistics it takes an index that matches more filters and sorts what it finds.
 */
export function seedListIndex(filter: ListFilter, order: SeedOrder): string {
  const suffix = order.key === 'seed_id' ? 'seed' : order.key === 'created_at' ? 'found' : 'rate';
  if (filter.status !== undefined) {
    if (filter.country !== undefined) return `seeds_status_country_${suffix}`;
    if (suffix === 'seed') {
      if (filter.category !== undefined) return 'seeds_status_category_seed';
      if (filter.verdict !== undefined) return 'seeds_status_news_verdict';
      if (filter.health !== undefined) return 'seeds_status_health_seed';
      if (filter.ai !== undefined) return 'seeds_status_ai_seed';
    }
    return `seeds_status_${suffix}`;
  }
  if (suffix !== 'seed') return `seeds_${suffix}`;
  // The primary key's own index (seed_id), as SQLite names it.
  return filter.country !== undefined ? 'seeds_country_seed' : 'sqlite_autoindex_seeds_1';
}

/** The seeds matching the filter, in its order, read through the index that walks them in that order. */
export function seedsInOrder(
  database: Database,
  executor: DbExecutor,
  filter: ListFilter,
  sort: SeedSort | undefined,
): SeedQuery {
  const order = seedOrder(sort);
  const from =
    database.dialect === 'sqlite'
      ? (executor.selectFrom(
          sql`seeds`.as(sql.raw(`seeds indexed by ${seedListIndex(filter, order)}`)),
        ) as unknown as SeedQuery)
      : executor.selectFrom('seeds');
  return orderSeeds(whereSeedsMatch(from, filter), sort);
}

/** The rows after `after` (a row's sort key) in the order: a range of the index, not a scan from its start. */
export function afterKey<Q extends SeedQuery>(query: Q, order: SeedOrder, after: readonly KeyValue[]): Q {
  const past = order.descending ? '<' : '>';
  if (order.key === 'seed_id') return query.where('seed_id', past, after[0] as string) as Q;
  const [value, seedId] = after as [string | number, string];
  // A row comparison, which both databases seek to in the index: `key > v OR (key = v AND id > x)` spelled out
  // would read every row tied with the last one (a rate shared by thousands of seeds) before the page starts.
  return query.where((eb) => eb(eb.refTuple(order.key, 'seed_id'), past, eb.tuple(value, seedId))) as Q;
}

function keyOf(order: SeedOrder) {
  return (row: StoredSeedTable): KeyValue[] =>
    order.key === 'seed_id' ? [row.seed_id] : [row[order.key], row.seed_id];
}

/** The position a cursor names, its values of the types the order's columns hold. */
function startAfter(request: CursorPageRequest, order: SeedOrder): KeyValue[] | undefined {
  const position = cursorPosition(request, order.name, order.key === 'seed_id' ? 1 : 2);
  if (position === undefined) return undefined;
  const keyType = order.key === 'rate_rank' ? 'number' : 'string';
  const [value, seedId] = position.after;
  if (typeof value !== keyType || (order.key !== 'seed_id' && typeof seedId !== 'string'))
    throw ValidationError.field(
      'cursor',
      'is not a cursor this list gave out (use `pagination.next` as it is)',
    );
  return position.after;
}

/** The statement a page reads: its rows and one more (is there a page after it?), by cursor or by offset. */
export function seedPageQuery(database: Database, request: ListFilter & CursorPageRequest) {
  const order = seedOrder(request.sort);
  const after = startAfter(request, order);
  const query = seedsInOrder(database, database.db, request, request.sort).selectAll();
  return (after !== undefined ? afterKey(query, order, after) : query.offset(request.offset)).limit(
    request.limit + 1,
  );
}

/** A page of rows (by cursor or by offset), the cursor of the page after it, and how many seeds match. */
export async function listSeeds(database: Database, request: ListFilter & CursorPageRequest) {
  const order = seedOrder(request.sort);
  const [rows, total] = await Promise.all([
    seedPageQuery(database, request).execute() as Promise<StoredSeedTable[]>,
    countSeeds(database, request),
  ]);
  const { rows: pageRows, next } = keysetPage(rows, request.limit, order.name, keyOf(order));
  return { rows: pageRows, next, total };
}

/** Summed rows of the kept totals past which PostgreSQL folds them into one row a status and country. */
const FOLD_AT = 4096;
/** The advisory lock one fold at a time holds (any number; the same in every process). */
const FOLD_LOCK = 7_210_013;

/**
 * How many seeds match: a sum of the kept totals when the filter is at most a status and a country (the page's
 * usual one, and the one with the most matches), otherwise a count the filter's indexes answer.
 */
export async function countSeeds(database: Database, filter: ListFilter): Promise<number> {
  const kept = FILTER_KEYS.every((key) => filter[key] === undefined || key === 'status' || key === 'country');
  if (!kept) return Number((await seedCountQuery(database, filter).executeTakeFirstOrThrow()).n);
  const row = await database.db
    .selectFrom('seed_totals')
    .select((eb) => [eb.fn.sum('n').as('n'), eb.fn.countAll().as('rows')])
    .$if(filter.status !== undefined, (qb) => qb.where('status', '=', filter.status as string))
    .$if(filter.country !== undefined, (qb) => qb.where('country', '=', filter.country as string))
    .executeTakeFirstOrThrow();
  if (database.dialect === 'postgres' && Number(row.rows) > FOLD_AT) await foldTotals(database);
  return Number(row.n ?? 0);
}

/** The filters seeds_status_counts holds, beside the status (migration 0013). */
const COUNTED_KEYS = new Set<string>([
  'status',
  'country',
  'source_type',
  'freshness',
  'robots_allowed',
  'fetch_type',
  'main_feed',
  'alive',
]);

/**
 * Where a count reads: with a status and only filters seeds_status_counts holds, that index alone (SQLite is
 * told: without statistics it would read every row of the status); otherwise the planner's choice, which for a
 * category, verdict, health or AI policy beside a status is that filter's composite.
 */
function countFrom(database: Database, filter: ListFilter): SeedQuery {
  const counted =
    filter.status !== undefined &&
    FILTER_KEYS.every((key) => filter[key] === undefined || COUNTED_KEYS.has(key));
  if (database.dialect !== 'sqlite' || !counted) return database.db.selectFrom('seeds');
  return database.db.selectFrom(
    sql`seeds`.as(sql.raw('seeds indexed by seeds_status_counts')),
  ) as unknown as SeedQuery;
}

/** The count of a filter the kept totals do not cover. */
export function seedCountQuery(database: Database, filter: ListFilter) {
  return whereSeedsMatch(countFrom(database, filter), filter).select((eb) => eb.fn.countAll().as('n'));
}

/**
 * PostgreSQL's kept totals, a row per change, summed into a row per status and country. One statement deletes
 * the rows it sees and inserts their sums, so a reader sees the rows before or the sums after, never both; a
 * change committed meanwhile keeps its row. One fold at a time (the others skip it: the next read folds).
 */
export async function foldTotals(database: Database): Promise<void> {
  await database.transaction(async (trx) => {
    const { rows } = await sql<{
      locked: boolean;
    }>`select pg_try_advisory_xact_lock(${FOLD_LOCK}) as locked`.execute(trx);
    if (rows[0]?.locked !== true) return;
    await sql`with gone as (delete from seed_totals returning status, country, n)
      insert into seed_totals (status, country, n)
      select status, country, sum(n) from gone group by status, country having sum(n) <> 0`.execute(trx);
  });
}
