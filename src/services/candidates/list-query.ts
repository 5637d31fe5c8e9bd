// The candidate list's queries (docs/discovery.md, "Listing candidates"). Every filter combination is answered by
// an index walked in the order asked for, never by sorting the matches: the open equality filters (state and news
// verdict, four values each at most) are enumerated, each (state, verdict) group is read from the index led by
// [country,] state, news_verdict, in order, after the cursor, and the groups' few rows are merged here. A page
// costs at most one short index range per group, at any depth.
import { type ExpressionBuilder, PostgresAdapter, type SelectQueryBuilder, sql } from 'kysely';
import { CANDIDATE_STATES, type CandidateSort, type CandidateState } from '../../domain/candidates.js';
import { NEWS_VERDICTS, type NewsVerdictValue } from '../../domain/seed-facts.js';
import type { DbExecutor, Tables } from '../../ports/database.js';
import type { PageRequest } from '../common.js';
import { cursorPosition, type KeyValue, keysetPage } from '../cursor.js';

export interface CandidateFilter {
  country?: string;
  state?: CandidateState;
  verdict?: NewsVerdictValue;
  min_score?: number;
  sort?: CandidateSort;
}

export type CandidatePageRequest = CandidateFilter & PageRequest & { cursor?: string };

/** The list's orders: by domain (the API's default), or by one column highest / newest first, ties by domain. */
export type CandidateOrder = 'domain' | CandidateSort;

const ORDER_COLUMNS = { score: 'score', citations: 'citations', first_seen: 'first_seen_at' } as const;
type OrderColumn = (typeof ORDER_COLUMNS)[CandidateSort];

/**
 * A part of an order: by a column, rows with a value (highest first) come before rows without one (only the score
 * can be missing: an unqualified candidate), which follow by domain. Ordering by domain is one part.
 */
type Segment = 'valued' | 'unvalued' | 'domain';

/** The columns a page is chosen by: the domain and the order's column, both in the index it walks. */
export interface CandidateKeyRow {
  domain: string;
  score?: number | null;
  citations?: number;
  first_seen_at?: string;
}

/** One (state, verdict) pair: the filters' exact prefix of the index a group is read from. */
interface Group {
  state: CandidateState;
  verdict: NewsVerdictValue | null;
}

/**
 * The groups a filter reads. A score comes with its verdict (a qualification writes both from one news verdict),
 * so a minimum score leaves out the candidates without a verdict rather than walk them all to find no score.
 */
function groupsOf(filter: CandidateFilter): Group[] {
  const states = filter.state ? [filter.state] : CANDIDATE_STATES;
  const verdicts = filter.verdict
    ? [filter.verdict]
    : filter.min_score === undefined
      ? [null, ...NEWS_VERDICTS]
      : NEWS_VERDICTS;
  return states.flatMap((state) => verdicts.map((verdict) => ({ state, verdict })));
}

function orderOf(filter: CandidateFilter): CandidateOrder {
  return filter.sort ?? 'domain';
}

/**
 * The parts an order is read in. Only the score can be missing, so only the score order has an unvalued part: read
 * for citations or first seen (columns never null) it would find nothing, and SQLite, whose statistics see that,
 * plans it as a range of the domain index sorted after.
 */
function segmentsOf(order: CandidateOrder): Segment[] {
  if (order === 'domain') return ['domain'];
  return order === 'score' ? ['valued', 'unvalued'] : ['valued'];
}

function keyOf(order: CandidateOrder, row: CandidateKeyRow): KeyValue[] {
  return order === 'domain' ? [row.domain] : [orderValue(order, row), row.domain];
}

function orderValue(order: CandidateSort, row: CandidateKeyRow): string | number | null {
  const value = row[ORDER_COLUMNS[order]];
  return value === null || value === undefined ? null : typeof value === 'string' ? value : Number(value);
}

/**
 * The filter's rows of one group. Read in an order other than by score, the minimum score is checked on each row
 * of the ordered index (`+score`, which no index answers), or SQLite would take the score's range and sort it.
 */
function groupRows(executor: DbExecutor, filter: CandidateFilter, group: Group, ordered = true) {
  const score = ordered && orderOf(filter) !== 'score' ? sql<number>`+score` : sql.ref<number>('score');
  return executor
    .selectFrom('candidates')
    .$if(filter.country !== undefined, (q) => q.where('country', '=', filter.country as string))
    .where('state', '=', group.state)
    .where('news_verdict', group.verdict === null ? 'is' : '=', group.verdict)
    .$if(filter.min_score !== undefined, (q) => q.where(score, '>=', filter.min_score as number));
}

/**
 * One group's rows of one segment, in the order's index order, after `after` (a sort key of this segment) when
 * given: a range of the index, so a deep page seeks where a first page starts.
 */
export function segmentQuery(
  executor: DbExecutor,
  filter: CandidateFilter,
  group: Group,
  segment: Segment,
  after: KeyValue[] | undefined,
  limit: number,
): SelectQueryBuilder<Tables, 'candidates', CandidateKeyRow> {
  const order = orderOf(filter);
  const keys = order === 'domain' ? (['domain'] as const) : (['domain', ORDER_COLUMNS[order]] as const);
  const rows = groupRows(executor, filter, group).select([...keys]) as SelectQueryBuilder<
    Tables,
    'candidates',
    CandidateKeyRow
  >;
  const last = after?.at(-1) as string | undefined;
  // Ordered by the group's verdict first, though it is one value here: PostgreSQL sees that `news_verdict = x`
  // leaves one value, not that `news_verdict is null` does, and would sort what the index already orders. So is
  // the missing score of the unvalued part.
  if (segment !== 'valued') {
    const column = order === 'domain' ? null : ORDER_COLUMNS[order];
    return rows
      .$if(column !== null, (q) => q.where(column as OrderColumn, 'is', null))
      .$if(last !== undefined, (q) => q.where(domainKey(executor), '>', last as string))
      .orderBy('news_verdict')
      .$if(column !== null, (q) => q.orderBy(column as OrderColumn, 'desc'))
      .orderBy(domainKey(executor))
      .limit(limit);
  }
  const column = ORDER_COLUMNS[order as CandidateSort];
  const value = after?.[0];
  return rows
    .where(column, 'is not', null)
    .$if(after !== undefined, (q) =>
      q.where((eb: ExpressionBuilder<Tables, 'candidates'>) =>
        eb.and([
          eb(column, '<=', value as never),
          eb.or([eb(column, '<', value as never), eb(tieKey(executor), '>', last as string)]),
        ]),
      ),
    )
    .orderBy('news_verdict')
    .orderBy(column, 'desc')
    .orderBy(domainKey(executor))
    .limit(limit);
}

/**
 * The domain as the lists order it: bytewise, as the merge below compares. SQLite's default; on PostgreSQL the
 * `C` collation, whatever the database's (a linguistic one puts `a-b.com` after `ab.com`), as the indexes hold it.
 */
function domainKey(executor: DbExecutor) {
  return executor.getExecutor().adapter instanceof PostgresAdapter
    ? sql<string>`domain collate "C"`
    : sql.ref<string>('domain');
}

/**
 * The domain in the tie of a cursor (`value < v or domain > d`), checked on the few rows at `v`: on SQLite written
 * `+domain`, so the OR is not split into two index lookups whose union is sorted (SQLite does that when its
 * statistics find the range before `v` small).
 */
function tieKey(executor: DbExecutor) {
  return executor.getExecutor().adapter instanceof PostgresAdapter
    ? domainKey(executor)
    : sql<string>`+domain`;
}

/** Sorts one segment's rows from every group into the segment's order. */
function compareIn(order: CandidateOrder, segment: Segment) {
  const byDomain = (a: CandidateKeyRow, b: CandidateKeyRow) =>
    a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0;
  if (segment !== 'valued' || order === 'domain') return byDomain;
  return (a: CandidateKeyRow, b: CandidateKeyRow) => {
    const x = orderValue(order, a) as string | number;
    const y = orderValue(order, b) as string | number;
    return x > y ? -1 : x < y ? 1 : byDomain(a, b);
  };
}

/**
 * Adds the first `room` of the groups' rows to `chosen`, in order. One row at a time, not `push(...rows)`: a deep
 * offset page brings up to offset + limit rows a group, and a spread that long overflows the call stack (a
 * 900,000-row offset answered 500 at a million candidates).
 */
export function appendInOrder(
  chosen: CandidateKeyRow[],
  groupsRows: readonly CandidateKeyRow[][],
  compare: (a: CandidateKeyRow, b: CandidateKeyRow) => number,
  room: number,
): void {
  const merged = groupsRows.flat().sort(compare);
  for (let i = 0; i < merged.length && i < room; i++) chosen.push(merged[i] as CandidateKeyRow);
}

/**
 * The domains of one page, in order, and the cursor of the page after it (null on the last). A page by offset
 * reads `offset` rows more from each group; a page by cursor starts in the segment its cursor's row is in.
 */
export async function candidatePage(
  executor: DbExecutor,
  request: CandidatePageRequest,
): Promise<{ domains: string[]; next: string | null }> {
  const order = orderOf(request);
  const position = cursorPosition(request, order, order === 'domain' ? 1 : 2);
  const need = request.offset + request.limit + 1;
  const segments = segmentsOf(order);
  // A cursor on a row without a value (an unscored candidate) is past every row with one.
  const startAt = position && order !== 'domain' && position.after[0] === null ? 1 : 0;
  const groups = groupsOf(request);
  const chosen: CandidateKeyRow[] = [];
  for (const [index, segment] of segments.entries()) {
    if (index < startAt) continue;
    const after = index === startAt ? position?.after : undefined;
    const room = need - chosen.length;
    const found = await Promise.all(
      groups.map((group) => segmentQuery(executor, request, group, segment, after, room).execute()),
    );
    appendInOrder(chosen, found, compareIn(order, segment), room);
    if (chosen.length >= need) break;
  }
  const { rows, next } = keysetPage(chosen.slice(request.offset), request.limit, order, (row) =>
    keyOf(order, row),
  );
  return { domains: rows.map((row) => row.domain), next };
}

/** Every query a page of this filter may run (each group, each segment, first page and after a cursor). */
export function pageQueries(executor: DbExecutor, filter: CandidateFilter) {
  const order = orderOf(filter);
  const after: KeyValue[] = order === 'domain' ? ['m'] : [order === 'first_seen' ? '2026' : 1, 'm'];
  return groupsOf(filter).flatMap((group) =>
    segmentsOf(order).flatMap((segment) => [
      segmentQuery(executor, filter, group, segment, undefined, 26),
      segmentQuery(executor, filter, group, segment, after, 26),
    ]),
  );
}

/**
 * How many candidates match: the sum of the kept totals of the filter's (country, state, verdict) rows (a table
 * of a few thousand rows at most, kept by the repository with every write). A minimum score is not in the totals:
 * then each group's count of its range of the score index, read from the index alone.
 */
export async function candidateTotal(executor: DbExecutor, filter: CandidateFilter): Promise<number> {
  if (filter.min_score === undefined) {
    const kept = await executor
      .selectFrom('candidate_totals')
      .select((eb) => eb.fn.sum<number | string | null>('n').as('n'))
      .$if(filter.country !== undefined, (q) => q.where('country', '=', filter.country as string))
      .$if(filter.state !== undefined, (q) => q.where('state', '=', filter.state as string))
      .$if(filter.verdict !== undefined, (q) => q.where('verdict', '=', filter.verdict as string))
      .executeTakeFirstOrThrow();
    return Number(kept.n ?? 0);
  }
  const counts = await Promise.all(
    groupsOf(filter).map((group) =>
      groupRows(executor, filter, group, false)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow(),
    ),
  );
  return counts.reduce((sum, counted) => sum + Number(counted.n), 0);
}
