// Every SQL statement on candidates, candidate_citations, citing_sources and discovery_steps. The candidate
// service decides; this module reads and writes rows for it (the seeds it must skip come from the seed
// repository, never from here).
import type { CandidateState } from '../../domain/candidates.js';
import type {
  CandidateCitationTable,
  CandidateTable,
  CandidateTotalTable,
  Database,
  DbExecutor,
} from '../../ports/database.js';
import { insertRows } from '../bulk-insert.js';
import { runText, type SqlText, sqlText } from '../sql-text.js';
import { type CandidatePageRequest, candidatePage, candidateTotal } from './list-query.js';

export type { CandidateFilter, CandidatePageRequest } from './list-query.js';

export type CandidateRepository = ReturnType<typeof createCandidateRepository>;

/** The columns a candidate's kept total is counted under. */
type TotalsKey = Pick<CandidateTable, 'country' | 'state' | 'news_verdict'>;

/** Every column of a citation, in the order its insert names them. */
const CITATION_COLUMNS = [
  'domain',
  'citing',
  'citing_country',
  'url',
  'anchor',
  'found_in',
  'seen_at',
] as const satisfies ReadonlyArray<keyof CandidateCitationTable>;
/** Compiles only while CITATION_COLUMNS names every column of the table. */
export const CITATION_COLUMNS_COMPLETE: [
  Exclude<keyof CandidateCitationTable, (typeof CITATION_COLUMNS)[number]>,
] extends [never]
  ? true
  : never = true;

// A qualification's statements as SQL text (sql-text.ts): every candidate of a discovery runs them once, and
// Kysely's building and compiling cost more of the main thread than running them.
const FIND = sqlText('select * from "candidates" where "domain" = ?');
const FIND_FOR_UPDATE = sqlText('select * from "candidates" where "domain" = ? for update');
const ADD_TO_TOTAL = sqlText(
  'insert into "candidate_totals" ("country", "state", "verdict", "n") values (?, ?, ?, ?) ' +
    'on conflict ("country", "state", "verdict") do update set "n" = "candidate_totals"."n" + "excluded"."n"',
);
/** An update of a candidate's columns, by the columns' names in the order given (a few sets are ever used). */
const updates = new Map<string, SqlText>();
const MAX_UPDATE_TEXTS = 64;

function updateText(columns: readonly string[]): SqlText {
  const key = columns.join(',');
  let text = updates.get(key);
  if (text === undefined) {
    for (const column of columns)
      if (!/^[a-z_]+$/.test(column)) throw new Error(`not a column name: ${column}`);
    text = sqlText(
      `update "candidates" set ${columns.map((c) => `"${c}" = ?`).join(', ')} where "domain" = ?`,
    );
    if (updates.size < MAX_UPDATE_TEXTS) updates.set(key, text);
  }
  return text;
}

export function createCandidateRepository(database: Database) {
  const { db } = database;

  /** A page of candidates in the order asked for, the cursor of the next, and how many match. */
  async function list(request: CandidatePageRequest) {
    const [{ domains, next }, total] = await Promise.all([
      candidatePage(db, request),
      candidateTotal(db, request),
    ]);
    const byDomain = new Map((await findMany(db, domains)).map((row) => [row.domain, row]));
    const rows = domains.flatMap((domain) => byDomain.get(domain) ?? []);
    return { rows, total, next };
  }

  async function find(executor: DbExecutor, domain: string): Promise<CandidateTable | undefined> {
    const text = database.dialect === 'postgres' ? FIND_FOR_UPDATE : FIND;
    const { rows } = await runText<CandidateTable>(executor, database.dialect, text, [domain]);
    return rows[0];
  }

  async function findMany(executor: DbExecutor, domains: readonly string[]): Promise<CandidateTable[]> {
    if (domains.length === 0) return [];
    return executor
      .selectFrom('candidates')
      .selectAll()
      .where('domain', 'in', [...domains])
      .execute();
  }

  /** Inserts the candidate unless it exists; true when this call made it. */
  async function insertIfAbsent(executor: DbExecutor, row: CandidateTable): Promise<boolean> {
    const result = await executor
      .insertInto('candidates')
      .values(row)
      .onConflict((oc) => oc.column('domain').doNothing())
      .executeTakeFirst();
    const made = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    if (made) await keepTotals(executor, [[row, 1]]);
    return made;
  }

  /**
   * Updates a candidate's columns; a change of its country, state or verdict moves it between kept totals.
   * `current`: the row as this transaction read it (locked, on PostgreSQL), so it is not read again.
   */
  async function update(
    executor: DbExecutor,
    domain: string,
    columns: Partial<CandidateTable>,
    current?: TotalsKey,
  ) {
    const moves = 'country' in columns || 'state' in columns || 'news_verdict' in columns;
    const before = !moves
      ? undefined
      : (current ??
        (await executor
          .selectFrom('candidates')
          .select(['country', 'state', 'news_verdict'])
          .where('domain', '=', domain)
          .executeTakeFirst()));
    // Kysely's set() leaves out a column given as undefined; so does this.
    const names = Object.keys(columns).filter(
      (c) => columns[c as keyof CandidateTable] !== undefined,
    ) as Array<keyof CandidateTable>;
    if (names.length > 0)
      await runText(executor, database.dialect, updateText(names), [...names.map((c) => columns[c]), domain]);
    if (before)
      await keepTotals(executor, [
        [before, -1],
        [{ ...before, ...columns }, 1],
      ]);
  }

  /** New candidates, those already known left as they are (one statement per hundred rows). */
  async function insertMissing(executor: DbExecutor, rows: readonly CandidateTable[]): Promise<void> {
    const made: Array<[TotalsKey, number]> = [];
    for (let i = 0; i < rows.length; i += 100) {
      const inserted = await executor
        .insertInto('candidates')
        .values(rows.slice(i, i + 100))
        .onConflict((oc) => oc.column('domain').doNothing())
        .returning(['country', 'state', 'news_verdict'])
        .execute();
      for (const row of inserted) made.push([row, 1]);
    }
    await keepTotals(executor, made);
  }

  /**
   * Adds each move to the kept totals, in the transaction of the write that made it, one statement per (country,
   * state, verdict) touched, in key order (two transactions moving the same totals take their rows in one order).
   */
  async function keepTotals(executor: DbExecutor, moves: ReadonlyArray<readonly [TotalsKey, number]>) {
    const sums = new Map<string, CandidateTotalTable>();
    for (const [key, n] of moves) {
      const row = { country: key.country, state: key.state, verdict: key.news_verdict ?? '', n: 0 };
      const id = JSON.stringify([row.country, row.state, row.verdict]);
      const sum = sums.get(id) ?? row;
      sum.n += n;
      sums.set(id, sum);
    }
    for (const id of [...sums.keys()].sort()) {
      const row = sums.get(id) as CandidateTotalTable;
      if (row.n === 0) continue;
      await runText(executor, database.dialect, ADD_TO_TOTAL, [row.country, row.state, row.verdict, row.n]);
    }
  }

  /**
   * Citations, once per (candidate, citing source); each cited candidate's count of distinct citers grows by the
   * citations this call added. An increment, not a count read again: on PostgreSQL a recount's subquery sees
   * only what had committed when its statement began, so a citer committing while another waited on the
   * candidate's row would be lost from the count.
   */
  async function citeAll(executor: DbExecutor, rows: readonly CandidateCitationTable[]): Promise<void> {
    if (rows.length === 0) return;
    const added = new Map<string, number>();
    for (let i = 0; i < rows.length; i += 100) {
      // As text (bulk-insert.ts): every contract run that finds outlinks writes them, and Kysely's builder cost
      // more of the main thread than running the statement.
      const inserted = (await insertRows(
        executor,
        database.dialect,
        'candidate_citations',
        CITATION_COLUMNS,
        rows.slice(i, i + 100),
        'on conflict ("domain", "citing") do nothing returning "domain"',
      )) as { domain: string }[];
      for (const { domain } of inserted) added.set(domain, (added.get(domain) ?? 0) + 1);
    }
    const byCount = new Map<number, string[]>();
    for (const [domain, n] of added) byCount.set(n, [...(byCount.get(n) ?? []), domain]);
    for (const [n, domains] of byCount) {
      for (let i = 0; i < domains.length; i += 500) {
        await executor
          .updateTable('candidates')
          .set((eb) => ({ citations: eb('citations', '+', n) }))
          .where('domain', 'in', domains.slice(i, i + 500))
          .execute();
      }
    }
  }

  /** A citation, once per (candidate, citing source); the count of distinct citers grows with a new one. */
  async function cite(executor: DbExecutor, citation: CandidateCitationTable): Promise<boolean> {
    const result = await executor
      .insertInto('candidate_citations')
      .values(citation)
      .onConflict((oc) => oc.columns(['domain', 'citing']).doNothing())
      .executeTakeFirst();
    const added = Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
    if (added) {
      await executor
        .updateTable('candidates')
        .set((eb) => ({ citations: eb('citations', '+', 1) }))
        .where('domain', '=', citation.domain)
        .execute();
    }
    return added;
  }

  function citations(executor: DbExecutor, domain: string, limit: number) {
    return executor
      .selectFrom('candidate_citations')
      .selectAll()
      .where('domain', '=', domain)
      .orderBy('seen_at')
      .orderBy('citing')
      .limit(limit)
      .execute();
  }

  /**
   * Countries of each candidate's citers, with how many cite it from each (an empty record for one nobody
   * cites): one statement for a chunk's candidates, not one each.
   */
  async function citingCountries(domains: readonly string[]): Promise<Map<string, Record<string, number>>> {
    const byDomain = new Map<string, Record<string, number>>(domains.map((d) => [d, {}]));
    for (let i = 0; i < domains.length; i += 500) {
      const rows = await db
        .selectFrom('candidate_citations')
        .select(['domain', 'citing_country', (eb) => eb.fn.countAll().as('n')])
        .where('domain', 'in', domains.slice(i, i + 500))
        .where('citing', 'not like', 'import:%')
        .groupBy(['domain', 'citing_country'])
        .execute();
      for (const r of rows) {
        const countries = byDomain.get(r.domain);
        if (countries) countries[r.citing_country] = Number(r.n);
      }
    }
    return byDomain;
  }

  /**
   * The candidates to qualify next: in `states`, of the country, cited by at least `minCitations`, most cited
   * first; with `citedByCandidates`, only those a qualified candidate links to (a snowball round's finds).
   */
  async function toQualify(select: {
    country: string;
    states: readonly CandidateState[];
    minCitations: number;
    limit: number;
    citedByCandidates?: boolean;
  }): Promise<string[]> {
    const rows = await db
      .selectFrom('candidates')
      .select('domain')
      .where('country', '=', select.country)
      .where('state', 'in', [...select.states])
      .where('citations', '>=', select.minCitations)
      .$if(select.citedByCandidates === true, (q) =>
        q.where('domain', 'in', (eb) =>
          eb.selectFrom('candidate_citations').select('domain').where('citing', 'like', 'candidate:%'),
        ),
      )
      .orderBy('citations', 'desc')
      .orderBy('domain')
      .limit(select.limit)
      .execute();
    return rows.map((r) => r.domain);
  }

  async function lastRead(executor: DbExecutor, citing: string): Promise<string | null> {
    const row = await executor
      .selectFrom('citing_sources')
      .select('read_at')
      .where('citing', '=', citing)
      .executeTakeFirst();
    return row?.read_at ?? null;
  }

  async function markRead(executor: DbExecutor, citing: string, at: string, outlinks: number) {
    const row = { citing, read_at: at, outlinks };
    await executor
      .insertInto('citing_sources')
      .values(row)
      .onConflict((oc) => oc.column('citing').doUpdateSet({ read_at: at, outlinks }))
      .execute();
  }

  /** Records a discovery batch's step once; false when another chunk already did (it fanned the step out). */
  async function claimStep(
    executor: DbExecutor,
    step: { batchId: string; step: string; items: number; at: string },
  ) {
    const result = await executor
      .insertInto('discovery_steps')
      .values({ batch_id: step.batchId, step: step.step, items: step.items, created_at: step.at })
      .onConflict((oc) => oc.columns(['batch_id', 'step']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
  }

  /** A discovery batch's claimed steps, in order. */
  function steps(batchId: string) {
    return db
      .selectFrom('discovery_steps')
      .select(['step', 'items'])
      .where('batch_id', '=', batchId)
      .orderBy('created_at')
      .orderBy('step')
      .execute();
  }

  async function countByState(): Promise<Record<string, number>> {
    const rows = await db
      .selectFrom('candidates')
      .select(['state', (eb) => eb.fn.countAll().as('n')])
      .groupBy('state')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.state, Number(r.n)]));
  }

  return {
    list,
    find,
    findMany,
    insertIfAbsent,
    insertMissing,
    update,
    cite,
    citeAll,
    citations,
    citingCountries,
    toQualify,
    lastRead,
    markRead,
    claimStep,
    steps,
    countByState,
  };
}
