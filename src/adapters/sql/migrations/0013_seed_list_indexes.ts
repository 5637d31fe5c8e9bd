import { type Migration, PostgresAdapter, sql } from 'kysely';
import type { AnyDb } from './any-db.js';

/**
 * The seed list at a million seeds (docs/databases.md, "The seed list: paging and indexes"): plain columns for
 * the review page's filters that were LIKE matches on JSON, a `-rate` sort key without NULLs, indexes that walk
 * each filter in each order (so no page sorts its matches), and the seed totals by status and country that
 * triggers keep, so `pagination.total` is not a count of every match.
 */
export const seedListIndexes: Migration = {
  async up(db: AnyDb) {
    const columns: Array<[string, 'text' | 'integer' | 'double precision', string | number | null]> = [
      ['freshness_state', 'text', 'unknown'],
      ['robots_allowed', 'integer', null],
      ['fetch_type', 'text', 'html'],
      ['main_feed', 'integer', 0],
      ['alive', 'integer', null],
      ['rate_rank', 'double precision', 1],
    ];
    for (const [name, type, fallback] of columns)
      await db.schema
        .alterTable('seeds')
        .addColumn(name, type, (c) => (fallback === null ? c : c.notNull().defaultTo(fallback)))
        .execute();
    // Filled as the LIKE filters they replace matched the JSON, so every filter selects what it selected before.
    await sql`update seeds set
      freshness_state = case when freshness like '%"stale":true%' then 'stale'
        when freshness like '%"stale":false%' then 'fresh' else 'unknown' end,
      robots_allowed = case when policy like '%"robots_allowed":true%' then 1
        when policy like '%"robots_allowed":false%' then 0 else null end,
      fetch_type = case when "fetch" like '%"type":"rss"%' then 'rss' when "fetch" like '%"type":"sitemap"%' then 'sitemap'
        when "fetch" like '%"type":"api"%' then 'api' else 'html' end,
      main_feed = case when feeds like '%"role":"main"%' then 1 else 0 end,
      alive = case when discovery like '%"alive":true%' then 1 when discovery like '%"alive":false%' then 0 else null end,
      rate_rank = case when items_per_day is null then 1 else 0 - items_per_day end`.execute(db);

    // Replaced by the composites below, which serve the same lookups and the list's orders.
    for (const name of ['seeds_filter', 'seeds_health_state', 'seeds_items_per_day', 'seeds_ai_status'])
      await db.schema.dropIndex(name).execute();
    for (const [name, keys] of SEED_LIST_INDEXES)
      await db.schema
        .createIndex(name)
        .on('seeds')
        .columns([...keys])
        .execute();

    await db.schema
      .createTable('seed_totals')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('country', 'text', (c) => c.notNull())
      .addColumn('n', 'integer', (c) => c.notNull())
      .execute();
    const postgres = db.getExecutor().adapter instanceof PostgresAdapter;
    // SQLite has one writer: one row per status and country, upserted. PostgreSQL has many: a row per change
    // (no row lock for writers to queue or deadlock on), summed by readers and folded now and then.
    const key = db.schema.createIndex('seed_totals_key').on('seed_totals').columns(['status', 'country']);
    await (postgres ? key : key.unique()).execute();
    await sql`insert into seed_totals (status, country, n)
      select status, country, count(*) from seeds group by status, country`.execute(db);
    if (postgres) await postgresTotalsTrigger(db);
    else await sqliteTotalsTriggers(db);
  },
};

/**
 * Every index of the seed list (name, columns), each ending in the list's tie-break (seed_id). With a status:
 * one per order, and the country, category, health, verdict and AI composites for the filters that can be
 * sparse (country in every order; the others in seed id order, the review page's default). Without a status:
 * one per order, and country in seed id order. The other filters are checked on the rows an index walks, and
 * counted from seeds_status_counts.
 */
export const SEED_LIST_INDEXES = [
  ['seeds_status_seed', ['status', 'seed_id']],
  ['seeds_status_found', ['status', 'created_at', 'seed_id']],
  ['seeds_status_rate', ['status', 'rate_rank', 'seed_id']],
  ['seeds_found', ['created_at', 'seed_id']],
  ['seeds_rate', ['rate_rank', 'seed_id']],
  ['seeds_country_seed', ['country', 'seed_id']],
  ['seeds_status_country_seed', ['status', 'country', 'seed_id']],
  ['seeds_status_country_found', ['status', 'country', 'created_at', 'seed_id']],
  ['seeds_status_country_rate', ['status', 'country', 'rate_rank', 'seed_id']],
  ['seeds_status_category_seed', ['status', 'category', 'seed_id']],
  ['seeds_status_health_seed', ['status', 'health_state', 'seed_id']],
  ['seeds_status_ai_seed', ['status', 'ai_status', 'seed_id']],
  // Not walked: the total of a status (and country) with the filters checked on walked rows, counted from
  // this index alone instead of reading every row of the status.
  [
    'seeds_status_counts',
    [
      'status',
      'country',
      'source_type',
      'freshness_state',
      'robots_allowed',
      'fetch_type',
      'main_feed',
      'alive',
    ],
  ],
] as const;

async function sqliteTotalsTriggers(db: AnyDb) {
  const bump = (status: string, country: string, delta: number) =>
    `insert into seed_totals (status, country, n) values (${status}, ${country}, ${delta})
       on conflict (status, country) do update set n = n + excluded.n;`;
  await sql
    .raw(`create trigger seeds_totals_insert after insert on seeds begin
      ${bump('new.status', 'new.country', 1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger seeds_totals_delete after delete on seeds begin
      ${bump('old.status', 'old.country', -1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger seeds_totals_update after update of status, country on seeds
      when old.status is not new.status or old.country is not new.country begin
      ${bump('old.status', 'old.country', -1)} ${bump('new.status', 'new.country', 1)} end`)
    .execute(db);
}

async function postgresTotalsTrigger(db: AnyDb) {
  await sql`create function seed_totals_track() returns trigger language plpgsql as $$
    begin
      if tg_op = 'UPDATE' and old.status = new.status and old.country = new.country then return null; end if;
      if tg_op in ('UPDATE', 'DELETE') then
        insert into seed_totals (status, country, n) values (old.status, old.country, -1);
      end if;
      if tg_op in ('UPDATE', 'INSERT') then
        insert into seed_totals (status, country, n) values (new.status, new.country, 1);
      end if;
      return null;
    end $$`.execute(db);
  await sql`create trigger seeds_totals after insert or delete or update of status, country on seeds
    for each row execute function seed_totals_track()`.execute(db);
}
