import { type Migration, PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * The seed list's totals beyond a status and a country (docs/databases.md, "Totals are kept"), so the total of a
 * filter is a sum of a few rows, bounded by the number of its columns' value combinations, not a count of every
 * seed that matches:
 * - `seed_filter_totals`: the filters a page checks on the rows it walks (authority, source type, freshness,
 *   robots answer, fetch type, main feed, liveness), any of them together (`status=draft&freshness=stale`);
 * - `seed_fact_totals`: category, news verdict, health and AI policy, any of them together.
 * Each holds the seeds of every combination with their status, in their country and again in every country (country
 * ''). Triggers on `seeds` keep them in the writing transaction, as they keep `seed_totals`.
 */
export const seedFilterTotals: Migration = {
  async up(db: AnyDb) {
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    for (const table of KEPT_TOTALS) await keptTotals(db, table, postgres);
    // Its one use, the total of the walked filters counted from the index (every seed of the status read for each
    // page), is a sum of seed_filter_totals now; every insert and every move of a seed wrote it.
    await db.schema.dropIndex('seeds_status_counts').execute();
  },
};

interface KeptTotals {
  name: 'seed_filter_totals' | 'seed_fact_totals';
  /** After the country and the status: each column, its type, and its value as SQL over a row of `seeds`. */
  columns: Array<[string, 'text' | 'integer', (row: string, postgres: boolean) => string]>;
  /** The columns of `seeds` whose change moves a seed from one total to another. */
  tracked: string[];
}

const column = (name: string) => (row: string) => `${row}.${name}`;
/** A null is '' or -1: a unique index holds NULLs apart, so an upsert would never find their row. */
const orEmpty = (name: string) => (row: string) => `coalesce(${row}.${name}, '')`;
const orMinusOne = (name: string) => (row: string) => `coalesce(${row}.${name}, -1)`;

export const KEPT_TOTALS: KeptTotals[] = [
  {
    name: 'seed_filter_totals',
    columns: [
      // The domain id's first part (`gov:sg:mom.gov.sg`), as the filter's `LIKE 'gov:%'` reads it.
      [
        'authority',
        'text',
        (row, postgres) =>
          postgres
            ? `split_part(${row}.domain_id, ':', 1)`
            : `substr(${row}.domain_id, 1, instr(${row}.domain_id, ':') - 1)`,
      ],
      ['source_type', 'text', column('source_type')],
      ['freshness_state', 'text', column('freshness_state')],
      ['robots_allowed', 'integer', orMinusOne('robots_allowed')],
      ['fetch_type', 'text', column('fetch_type')],
      ['main_feed', 'integer', column('main_feed')],
      ['alive', 'integer', orMinusOne('alive')],
    ],
    tracked: [
      'domain_id',
      'source_type',
      'freshness_state',
      'robots_allowed',
      'fetch_type',
      'main_feed',
      'alive',
    ],
  },
  {
    name: 'seed_fact_totals',
    columns: [
      ['category', 'text', column('category')],
      ['news_verdict', 'text', orEmpty('news_verdict')],
      ['health_state', 'text', orEmpty('health_state')],
      ['ai_status', 'text', orEmpty('ai_status')],
    ],
    tracked: ['category', 'news_verdict', 'health_state', 'ai_status'],
  },
];

/** The table's key, in index order: led by the country, so a total without one reads the rows of country ''. */
function keyOf(table: KeptTotals): string {
  return ['country', 'status', ...table.columns.map(([name]) => name)].join(', ');
}

/** A row's key after the country, as SQL over `row` (a table, or a trigger's old / new). */
function valuesOf(table: KeptTotals, row: string, postgres: boolean): string {
  return [`${row}.status`, ...table.columns.map(([, , value]) => value(row, postgres))].join(', ');
}

async function keptTotals(db: AnyDb, table: KeptTotals, postgres: boolean) {
  let create = db.schema
    .createTable(table.name)
    .addColumn('country', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull());
  for (const [name, type] of table.columns) create = create.addColumn(name, type, (c) => c.notNull());
  await create.addColumn('n', 'bigint', (c) => c.notNull()).execute();
  // SQLite has one writer: one row per combination, upserted. PostgreSQL has many: a row per change, summed by
  // readers and folded now and then (as seed_totals, migration 0013).
  const key = db.schema.createIndex(`${table.name}_key`).on(table.name).columns(keyOf(table).split(', '));
  await (postgres ? key : key.unique()).execute();
  const values = valuesOf(table, 'seeds', postgres);
  for (const byCountry of [true, false])
    await sql
      .raw(`insert into ${table.name} (${keyOf(table)}, n)
        select ${byCountry ? 'seeds.country' : "''"}, ${values}, count(*) from seeds
        group by ${byCountry ? 'seeds.country, ' : ''}${values}`)
      .execute(db);
  const tracked = ['status', 'country', ...table.tracked];
  if (postgres) await postgresTrigger(db, table, tracked);
  else await sqliteTriggers(db, table, tracked);
}

async function sqliteTriggers(db: AnyDb, table: KeptTotals, tracked: string[]) {
  // The row's combination in its country and in every country ('').
  const bump = (row: string, delta: number) =>
    [`${row}.country`, "''"]
      .map(
        (country) => `insert into ${table.name} (${keyOf(table)}, n)
          values (${country}, ${valuesOf(table, row, false)}, ${delta})
          on conflict (${keyOf(table)}) do update set n = n + excluded.n;`,
      )
      .join('\n');
  await sql
    .raw(`create trigger ${table.name}_insert after insert on seeds begin ${bump('new', 1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger ${table.name}_delete after delete on seeds begin ${bump('old', -1)} end`)
    .execute(db);
  const changed = tracked.map((name) => `old.${name} is not new.${name}`).join(' or ');
  await sql
    .raw(`create trigger ${table.name}_update after update of ${tracked.join(', ')} on seeds
      when ${changed} begin ${bump('old', -1)} ${bump('new', 1)} end`)
    .execute(db);
}

async function postgresTrigger(db: AnyDb, table: KeptTotals, tracked: string[]) {
  const rows = (row: string, delta: number) =>
    `insert into ${table.name} (${keyOf(table)}, n) values
      (${row}.country, ${valuesOf(table, row, true)}, ${delta}), ('', ${valuesOf(table, row, true)}, ${delta});`;
  const same = tracked.map((name) => `old.${name} is not distinct from new.${name}`).join(' and ');
  await sql
    .raw(`create function ${table.name}_track() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and ${same} then return null; end if;
      if tg_op in ('UPDATE', 'DELETE') then ${rows('old', -1)} end if;
      if tg_op in ('UPDATE', 'INSERT') then ${rows('new', 1)} end if;
      return null;
    end $$`)
    .execute(db);
  await sql
    .raw(`create trigger seeds_${table.name} after insert or delete or update of ${tracked.join(', ')} on seeds
      for each row execute function ${table.name}_track()`)
    .execute(db);
}
