// A page of seeds at any depth, and how many match: each page is a walk of one index in the list's order that
// starts after the last row of the page before (keyset paging, services/cursor.ts) and checks the filters the
// index does not hold on the rows it reads, so no page sorts its matches and a deep page costs what page 1
// does. A language is walked in `seed_languages` (migration 0015), joined to its seeds. The total is a sum of kept
// totals (totals.ts) when they hold every filter given; another filter is counted.
// docs/databases.md, "The seed list: paging and indexes", says which index serves which filter, and why.
import { type SelectQueryBuilder, sql } from 'kysely';
import { ValidationError } from '../../domain/errors.js';
import type { SeedSort } from '../../domain/seeds.js';
import type { Database, DbExecutor, StoredSeedTable, Tables } from '../../ports/database.js';
import type { CursorPageRequest } from '../common.js';
import { cursorPosition, type KeyValue, keysetPage } from '../cursor.js';
import { FILTER_KEYS, type ReviewFilter, type SeedFilter, whereSeedsMatch } from './filters.js';
import { keptTotal } from './totals.js';

type SeedQuery = SelectQueryBuilder<Tables, 'seeds', object>;
type LanguageQuery = SelectQueryBuilder<Tables, 'seed_languages', object>;
type ListFilter = SeedFilter & ReviewFilter;

/** The column a list order sorts on before its seed id tie-break, and the way the walk goes. */
export interface SeedOrder {
  /** The order's name in a cursor. */
  name: string;
  key: 'seed_id' | 'created_at' | 'rate_rank';
  descending: boolean;
}

/**
 * Each order ends in the seed id, so it is total and paging is stable. `-found` is `found` walked backwards (ties
 * by seed id descending); `-rate` is `rate_rank` ascending, which puts the highest rate first and the unmeasured
 * last in both databases.
 */
export function seedOrder(sort: SeedSort | undefined): SeedOrder {
  if (sort === 'found') return { name: 'found', key: 'created_at', descending: false };
  if (sort === '-found') return { name: '-found', key: 'created_at', descending: true };
  if (sort === '-rate') return { name: '-rate', key: 'rate_rank', descending: false };
  return { name: 'seed_id', key: 'seed_id', descending: false };
}

/**
 * The index a SQLite page walks: with a language, the `seed_languages` index (migration 0015) of the language with
 * the status (and country) when given, in the order; otherwise the `seeds` index (migration 0013) whose equality
 * columns hold the most selective of the filters given and whose next columns are the order. SQLite is told
 * (INDEXED BY) rather than left to choose, because without statistics it takes an index that matches more filters
 * and sorts what it finds.
 */
export function seedListIndex(filter: ListFilter, order: SeedOrder): string {
  const suffix = order.key === 'seed_id' ? 'seed' : order.key === 'created_at' ? 'found' : 'rate';
  if (filter.language !== undefined) {
    if (filter.status === undefined) return `seed_languages_${suffix}`;
    return `seed_languages_status_${filter.country !== undefined ? 'country_' : ''}${suffix}`;
  }
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

/** The table a page walks in its order: `seed_languages` when a language is given (its rows name the seeds). */
type Walk = 'seeds' | 'seed_languages';

function walkOf(filter: ListFilter): Walk {
  return filter.language !== undefined ? 'seed_languages' : 'seeds';
}

/** The filter less what the walk of `seed_languages` holds (language, status, country): checked on each seed. */
function seedChecks(filter: ListFilter): ListFilter {
  if (walkOf(filter) === 'seeds') return filter;
  const { language: _language, status: _status, country: _country, ...rest } = filter;
  return rest;
}

/** A table of the walk, told its index on SQLite. */
function indexedTable(database: Database, executor: DbExecutor, table: Walk, index: string) {
  if (database.dialect !== 'sqlite') return executor.selectFrom(table);
  return executor.selectFrom(sql.table(table).as(sql.raw(`${table} indexed by ${index}`)));
}

/**
 * The seeds the walk reaches, matching the filter but its order: `seeds` through its index, or a language's rows of
 * `seed_languages` (an exact prefix of one of its indexes) each joined to its seed, where the other filters are
 * checked. Columns of `seeds` are named `seeds.<column>`, as the join needs.
 */
function walkFrom(database: Database, executor: DbExecutor, filter: ListFilter, index: string): SeedQuery {
  if (walkOf(filter) === 'seeds')
    return whereSeedsMatch(indexedTable(database, executor, 'seeds', index) as unknown as SeedQuery, filter);
  // A cross join, which SQLite never reorders, keeps the walk the outer loop; PostgreSQL plans it as the inner
  // join it is.
  const walk = languageRows(
    indexedTable(database, executor, 'seed_languages', index) as unknown as LanguageQuery,
    filter,
  )
    .crossJoin('seeds')
    .whereRef('seeds.seed_id', '=', 'seed_languages.seed_id');
  // Typed as a query of `seeds`: what follows names only columns of `seeds`, or the walk's by sql.ref.
  return whereSeedsMatch(walk as unknown as SeedQuery, seedChecks(filter));
}

/** The rows of `seed_languages` of the filter's language, status and country (those given). */
function languageRows(query: LanguageQuery, filter: ListFilter): LanguageQuery {
  return query
    .where('seed_languages.language', '=', (filter.language as string).toLowerCase())
    .$if(filter.status !== undefined, (q) => q.where('seed_languages.status', '=', filter.status as string))
    .$if(filter.country !== undefined, (q) =>
      q.where('seed_languages.country', '=', filter.country as string),
    );
}

/** The walk's order: its key, then the seed id, both columns of the table walked. */
function inOrder<Q extends SeedQuery>(query: Q, walk: Walk, order: SeedOrder): Q {
  const direction = order.descending ? 'desc' : 'asc';
  const seedId = sql.ref(`${walk}.seed_id`);
  if (order.key === 'seed_id') return query.orderBy(seedId, direction) as Q;
  return query.orderBy(sql.ref(`${walk}.${order.key}`), direction).orderBy(seedId, direction) as Q;
}

/**
 * The seeds matching the filter, in its order, read through the index that walks them in that order; after
 * `after` (a row's sort key in the order) when given: a range of the index, not a scan from its start. Select
 * `seeds.*` (selectAll('seeds')) and name columns `seeds.<column>`: a language walk joins another table.
 */
export function seedsInOrder(
  database: Database,
  executor: DbExecutor,
  filter: ListFilter,
  sort: SeedSort | undefined,
  after?: readonly KeyValue[],
): SeedQuery {
  const order = seedOrder(sort);
  const walk = walkOf(filter);
  const query = inOrder(walkFrom(database, executor, filter, seedListIndex(filter, order)), walk, order);
  if (after === undefined) return query;
  const past = order.descending ? '<' : '>';
  const seedId = sql.ref<string>(`${walk}.seed_id`);
  if (order.key === 'seed_id') return query.where(seedId, past, after[0] as string);
  const [value, id] = after as [string | number, string];
  // A row comparison, which both databases seek to in the index: `key > v OR (key = v AND id > x)` spelled out
  // would read every row tied with the last one (a rate shared by thousands of seeds) before the page starts.
  return query.where((eb) =>
    eb(sql`(${sql.ref(`${walk}.${order.key}`)}, ${seedId})`, past, eb.tuple(value, id)),
  );
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
  const query = seedsInOrder(database, database.db, request, request.sort, after).selectAll('seeds');
  return (after !== undefined ? query : query.offset(request.offset)).limit(request.limit + 1);
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

/**
 * How many seeds match: a sum of the kept totals when they hold every filter given (totals.ts: a status, a
 * country and the filters a page checks on the rows it walks), otherwise a count the filter's indexes answer.
 */
export async function countSeeds(database: Database, filter: ListFilter): Promise<number> {
  const kept = await keptTotal(database, filtersOf(filter));
  if (kept !== undefined) return kept;
  return Number((await seedCountQuery(database, filter).executeTakeFirstOrThrow()).n);
}

/** The filters of a request, without its page, order or cursor. */
function filtersOf(request: ListFilter): ListFilter {
  return Object.fromEntries(FILTER_KEYS.map((key) => [key, request[key]])) as ListFilter;
}

/**
 * The count of a filter the kept totals do not cover: one with a category, verdict, health, AI policy or language.
 * A language with at most a status and a country is a count of one range of a `seed_languages` index, from the index
 * alone; with other filters, of the walk that checks them. The others are the planner's choice, which beside a
 * status is the filter's composite (`seeds_status_category_seed`, …): a range of the matches, checked row by row
 * for any walked filter beside it.
 */
export function seedCountQuery(database: Database, filter: ListFilter) {
  if (walkOf(filter) === 'seed_languages') {
    const checks = seedChecks(filter);
    const query = FILTER_KEYS.some((key) => checks[key] !== undefined)
      ? walkFrom(database, database.db, filter, seedListIndex(filter, seedOrder(undefined)))
      : (languageRows(database.db.selectFrom('seed_languages'), filter) as unknown as SeedQuery);
    return query.select((eb) => eb.fn.countAll().as('n'));
  }
  return whereSeedsMatch(database.db.selectFrom('seeds'), filter).select((eb) => eb.fn.countAll().as('n'));
}
