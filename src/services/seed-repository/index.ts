// The seed repository: every SQL statement on `seeds` and `seed_revisions`, and nothing else. Services decide
// (the state machine, human edits win, health rules); this module reads and writes rows for them. A method that
// takes an executor runs in the caller's transaction; the others read outside any.

import type { AiStatus, NewsVerdictValue, SeedDiscovery } from '../../domain/seed-facts.js';
import type { HealthState } from '../../domain/seed-health.js';
import type { SeedStatus } from '../../domain/seeds.js';
import type { Database, DbExecutor, SeedTable } from '../../ports/database.js';
import { insertRows, insertRowsCounted } from '../bulk-insert.js';
import type { CursorPageRequest, PageRequest } from '../common.js';
import { type ReviewFilter, type SeedFilter, whereSeedsMatch } from './filters.js';
import { countSeeds, listSeeds, seedsInOrder } from './list.js';
import {
  listColumnsOf,
  type NewRevision,
  REVISION_COLUMNS,
  type RevisionView,
  revisionOfRow,
  revisionRow,
  SEED_COLUMNS,
  type SeedValues,
  STORED_SEED_COLUMNS,
  storedRowOf,
} from './rows.js';

export type SeedRepository = ReturnType<typeof createSeedRepository>;

/** Rows per multi-row INSERT: 100 seeds of 30 columns stay far below SQLite's and PostgreSQL's bound parameters. */
const INSERT_ROWS = 100;

/** The seeds of a domain, as a check of it updates them (health, and a suspension). */
export interface DomainSeedRow {
  seed_id: string;
  registrable_domain: string;
  status: string;
  health: string | null;
}

export function createSeedRepository(database: Database) {
  const { db } = database;
  const filtered = (filter: SeedFilter & ReviewFilter) => whereSeedsMatch(db.selectFrom('seeds'), filter);

  /** The row, locked for this transaction on PostgreSQL so two writers of one seed take turns. */
  function find(executor: DbExecutor, seedId: string, lock = false): Promise<SeedTable | undefined> {
    return executor
      .selectFrom('seeds')
      .selectAll()
      .where('seed_id', '=', seedId)
      .$if(lock && database.dialect === 'postgres', (qb) => qb.forUpdate())
      .executeTakeFirst();
  }

  /**
   * A new seed and its first revision. With `ifAbsent`, a seed committed meanwhile by another writer (PostgreSQL
   * runs contracts side by side) makes this a no-op that answers false, instead of a unique violation.
   */
  async function insert(
    executor: DbExecutor,
    row: SeedTable,
    first: NewRevision,
    options: { ifAbsent?: boolean } = {},
  ): Promise<boolean> {
    // As text, like insertMany: every contract run that finds a new domain writes one, and Kysely's builder took
    // a third of this statement's time on the main thread (its 40-odd columns turned into nodes and compiled back).
    const inserted = await insertRowsCounted(
      executor,
      database.dialect,
      'seeds',
      STORED_SEED_COLUMNS,
      [storedRowOf(row)],
      options.ifAbsent === true ? 'on conflict (seed_id) do nothing' : '',
    );
    if (inserted === 0) return false;
    await insertRows(executor, database.dialect, 'seed_revisions', REVISION_COLUMNS, [revisionRow(first)]);
    return true;
  }

  /**
   * The rows of these seeds (those that exist), locked on PostgreSQL in seed id order: an import's group reads
   * its seeds in one statement, and two writers locking in the same order cannot deadlock.
   */
  async function findMany(executor: DbExecutor, seedIds: readonly string[], lock = false) {
    if (seedIds.length === 0) return [];
    return executor
      .selectFrom('seeds')
      .selectAll()
      .where('seed_id', 'in', [...seedIds])
      .orderBy('seed_id')
      .$if(lock && database.dialect === 'postgres', (qb) => qb.forUpdate())
      .execute();
  }

  /**
   * New seeds and their first revisions, in multi-row statements of INSERT_ROWS rows written as text
   * (bulk-insert.ts: a statement per row, or Kysely's builder, would cost an import most of its time). A seed
   * that exists already is left as it is; the answer is how many were inserted, so a caller that expected them
   * all absent can tell a concurrent writer came first.
   */
  async function insertMany(
    executor: DbExecutor,
    rows: readonly SeedTable[],
    firsts: readonly NewRevision[],
  ): Promise<number> {
    let inserted = 0;
    for (let i = 0; i < rows.length; i += INSERT_ROWS)
      inserted += await insertRowsCounted(
        executor,
        database.dialect,
        'seeds',
        STORED_SEED_COLUMNS,
        rows.slice(i, i + INSERT_ROWS).map(storedRowOf),
        'on conflict (seed_id) do nothing',
      );
    if (inserted < rows.length) return inserted;
    for (let i = 0; i < firsts.length; i += INSERT_ROWS)
      await insertRows(
        executor,
        database.dialect,
        'seed_revisions',
        REVISION_COLUMNS,
        firsts.slice(i, i + INSERT_ROWS).map(revisionRow),
      );
    return inserted;
  }

  async function update(executor: DbExecutor, seedId: string, columns: Partial<SeedTable>): Promise<void> {
    await executor
      .updateTable('seeds')
      .set({ ...columns, ...listColumnsOf(columns) })
      .where('seed_id', '=', seedId)
      .execute();
  }

  /** A page of seeds by cursor or offset, the cursor of the next page, and the total (list.ts). */
  function list(filter: SeedFilter & ReviewFilter & CursorPageRequest) {
    return listSeeds(database, filter);
  }

  /**
   * A page of seeds in seed id order after `after` (keyset paging: no offset scan), each row an array of its
   * SEED_COLUMNS values: what a reader of every seed needs, and no object a row. Named `seeds.` since a
   * language filter reads through seed_languages.
   */
  function seedValuesAfter(filter: SeedFilter, after: string | null, size: number): Promise<SeedValues[]> {
    const query = seedsInOrder(database, db, filter, undefined, after === null ? undefined : [after])
      .select(SEED_COLUMNS.map((column) => `seeds.${column}` as const))
      .limit(size);
    return database.readArrays(query.compile());
  }

  /** The seeds a status move may take, in seed id order on the filter's index: those it matches, less `except`. */
  const movable = (
    executor: DbExecutor,
    filter: SeedFilter & ReviewFilter,
    except: SeedStatus | undefined,
    after: string | null,
  ) =>
    seedsInOrder(database, executor, filter, undefined, after === null ? undefined : [after]).$if(
      except !== undefined,
      (qb) => qb.where('seeds.status', '!=', except as SeedStatus),
    );

  /**
   * The ids of the next `limit` seeds a status move may take, in seed id order after `after` (keyset paging: no
   * offset scan, so the millionth match costs what the first does).
   */
  async function movableIdsAfter(
    executor: DbExecutor,
    match: { filter: SeedFilter & ReviewFilter; except?: SeedStatus },
    after: string | null,
    limit: number,
  ): Promise<string[]> {
    const rows = await movable(executor, match.filter, match.except, after)
      .select('seeds.seed_id')
      .limit(limit)
      .execute();
    return rows.map((row) => row.seed_id);
  }

  /** How many seeds a status move may take: the list's count (kept totals where they cover the filter). */
  async function countMovable(match: { filter: SeedFilter & ReviewFilter; except?: SeedStatus }) {
    const all = await countSeeds(database, match.filter);
    if (match.except === undefined) return all;
    if (match.filter.status !== undefined) return match.filter.status === match.except ? 0 : all;
    return all - (await countSeeds(database, { ...match.filter, status: match.except }));
  }

  /** Which of these seeds the filter matches now. */
  async function matchingAmong(
    executor: DbExecutor,
    filter: SeedFilter & ReviewFilter,
    seedIds: readonly string[],
  ): Promise<Set<string>> {
    if (seedIds.length === 0) return new Set();
    const rows = await whereSeedsMatch(executor.selectFrom('seeds'), filter)
      .select('seed_id')
      .where('seed_id', 'in', [...seedIds])
      .execute();
    return new Set(rows.map((row) => row.seed_id));
  }

  /** The same columns on many seeds, in one statement. */
  async function updateMany(executor: DbExecutor, seedIds: readonly string[], columns: Partial<SeedTable>) {
    if (seedIds.length === 0) return;
    await executor
      .updateTable('seeds')
      .set(columns)
      .where('seed_id', 'in', [...seedIds])
      .execute();
  }

  async function countries(): Promise<string[]> {
    const rows = await db.selectFrom('seeds').select('country').distinct().orderBy('country').execute();
    return rows.map((row) => row.country);
  }

  /** Every seed of a registrable domain (but `except`, written by its caller) learns its latest liveness. */
  async function setDiscovery(
    executor: DbExecutor,
    registrableDomain: string,
    change: { discovery: SeedDiscovery; at: string; except?: string },
  ) {
    const discovery = JSON.stringify(change.discovery);
    await executor
      .updateTable('seeds')
      .set({ ...listColumnsOf({ discovery }), discovery, updated_at: change.at })
      .where('registrable_domain', '=', registrableDomain)
      .$if(change.except !== undefined, (qb) => qb.where('seed_id', '!=', change.except as string))
      .execute();
  }

  function seedsOfDomain(executor: DbExecutor, domainId: string): Promise<DomainSeedRow[]> {
    return executor
      .selectFrom('seeds')
      .select(['seed_id', 'registrable_domain', 'status', 'health'])
      .where('domain_id', '=', domainId)
      .execute();
  }

  /** Active seeds to re-check, in seed id order. */
  function activeSeeds(filter: { country?: string; category?: string; seedIds?: readonly string[] }) {
    return db
      .selectFrom('seeds')
      .select(['domain_id', 'registrable_domain', 'country', 'category'])
      .where('status', '=', 'active')
      .$if(filter.country !== undefined, (qb) => qb.where('country', '=', filter.country as string))
      .$if(filter.category !== undefined, (qb) => qb.where('category', '=', filter.category as string))
      .$if(filter.seedIds !== undefined, (qb) => qb.where('seed_id', 'in', [...(filter.seedIds ?? [])]))
      .orderBy('seed_id')
      .execute();
  }

  /** Which of these registrable domains have a seed (any status, any category). */
  async function registrableDomainsIn(
    executor: DbExecutor,
    domains: readonly string[],
  ): Promise<Set<string>> {
    if (domains.length === 0) return new Set();
    const rows = await executor
      .selectFrom('seeds')
      .select('registrable_domain')
      .where('registrable_domain', 'in', [...new Set(domains)])
      .execute();
    return new Set(rows.map((row) => row.registrable_domain));
  }

  /** The seed ids of each of these registrable domains that has seeds. */
  async function seedIdsOf(domains: readonly string[]): Promise<Map<string, string[]>> {
    const found = new Map<string, string[]>();
    if (domains.length === 0) return found;
    const rows = await db
      .selectFrom('seeds')
      .select(['registrable_domain', 'seed_id'])
      .where('registrable_domain', 'in', [...new Set(domains)])
      .orderBy('seed_id')
      .execute();
    for (const row of rows)
      found.set(row.registrable_domain, [...(found.get(row.registrable_domain) ?? []), row.seed_id]);
    return found;
  }

  /** The active and draft seeds of a country (a discovery's citing sources), in seed id order. */
  function citingSeeds(country: string, category: string | null) {
    return db
      .selectFrom('seeds')
      .select(['seed_id', 'entry_url', 'registrable_domain', 'country'])
      .where('country', '=', country)
      .where('status', 'in', ['draft', 'active'])
      .$if(category !== null, (qb) => qb.where('category', '=', category as string))
      .orderBy('seed_id')
      .execute();
  }

  async function exists(seedId: string): Promise<boolean> {
    const row = await db
      .selectFrom('seeds')
      .select('seed_id')
      .where('seed_id', '=', seedId)
      .executeTakeFirst();
    return row !== undefined;
  }

  async function countByStatus(): Promise<Record<string, number>> {
    const rows = await db
      .selectFrom('seeds')
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('status')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
  }

  /** Seeds whose latest check did not reach the source, by status. */
  async function countFailing(): Promise<Record<string, number>> {
    const rows = await filtered({ health: 'failing' })
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('status')
      .orderBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  }

  /** Active seeds by health (`unchecked`: no check yet). */
  async function countActiveByHealth(): Promise<Record<HealthState | 'unchecked', number>> {
    const rows = await db
      .selectFrom('seeds')
      .select(['health_state', (eb) => eb.fn.countAll().as('n')])
      .where('status', '=', 'active')
      .groupBy('health_state')
      .execute();
    const counts: Record<HealthState | 'unchecked', number> = { ok: 0, failing: 0, stale: 0, unchecked: 0 };
    for (const row of rows) {
      const key = (row.health_state ?? 'unchecked') as HealthState | 'unchecked';
      counts[key in counts ? key : 'unchecked'] += Number(row.n);
    }
    return counts;
  }

  /** Seeds by their news verdict (`unjudged`: no discovery judged them yet). */
  async function countByNews(): Promise<Record<NewsVerdictValue | 'unjudged', number>> {
    const rows = await db
      .selectFrom('seeds')
      .select(['news_verdict', (eb) => eb.fn.countAll().as('n')])
      .groupBy('news_verdict')
      .execute();
    const counts: Record<NewsVerdictValue | 'unjudged', number> = {
      news: 0,
      maybe: 0,
      not_news: 0,
      unjudged: 0,
    };
    for (const row of rows) {
      const key = (row.news_verdict ?? 'unjudged') as NewsVerdictValue | 'unjudged';
      counts[key in counts ? key : 'unjudged'] += Number(row.n);
    }
    return counts;
  }

  /** Seeds by what their source says to AI crawlers (`unknown` also counts seeds never measured). */
  async function countByAi(): Promise<Record<AiStatus, number>> {
    const rows = await db
      .selectFrom('seeds')
      .select(['ai_status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('ai_status')
      .execute();
    const counts: Record<AiStatus, number> = { disallowed: 0, reserved: 0, allowed: 0, unknown: 0 };
    for (const row of rows) {
      const key = (row.ai_status ?? 'unknown') as AiStatus;
      counts[key in counts ? key : 'unknown'] += Number(row.n);
    }
    return counts;
  }

  // Revisions.

  async function insertRevision(executor: DbExecutor, revision: NewRevision): Promise<void> {
    await executor.insertInto('seed_revisions').values(revisionRow(revision)).execute();
  }

  async function openProposals(executor: DbExecutor, seedId: string): Promise<RevisionView[]> {
    const rows = await executor
      .selectFrom('seed_revisions')
      .selectAll()
      .where('seed_id', '=', seedId)
      .where('status', '=', 'proposed')
      .orderBy('number')
      .execute();
    return rows.map(revisionOfRow);
  }

  /** Settles open proposals (a settled one is left as it is). */
  async function settle(
    executor: DbExecutor,
    seedId: string,
    numbers: number[],
    decision: { status: RevisionView['status']; by: string; at: string },
  ): Promise<void> {
    if (numbers.length === 0) return;
    await executor
      .updateTable('seed_revisions')
      .set({ status: decision.status, settled_by: decision.by, settled_at: decision.at })
      .where('seed_id', '=', seedId)
      .where('number', 'in', numbers)
      .where('status', '=', 'proposed')
      .execute();
  }

  async function findRevision(executor: DbExecutor, seedId: string, number: number) {
    const row = await executor
      .selectFrom('seed_revisions')
      .selectAll()
      .where('seed_id', '=', seedId)
      .where('number', '=', number)
      .executeTakeFirst();
    return row ? revisionOfRow(row) : undefined;
  }

  async function listRevisions(seedId: string, request: PageRequest) {
    const query = db.selectFrom('seed_revisions').where('seed_id', '=', seedId);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('number').limit(request.limit).offset(request.offset).execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { revisions: rows.map(revisionOfRow), total: Number(total.n) };
  }

  return {
    find,
    findMany,
    insert,
    insertMany,
    update,
    updateMany,
    list,
    seedValuesAfter,
    movableIdsAfter,
    countMovable,
    matchingAmong,
    countries,
    setDiscovery,
    seedsOfDomain,
    activeSeeds,
    registrableDomainsIn,
    seedIdsOf,
    citingSeeds,
    exists,
    countByStatus,
    countFailing,
    countActiveByHealth,
    countByAi,
    countByNews,
    insertRevision,
    openProposals,
    settle,
    findRevision,
    listRevisions,
  };
}

export type { ReviewFilter, SeedFilter } from './filters.js';
