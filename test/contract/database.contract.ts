// One behaviour suite for the Database port, run against every adapter (SQLite, PostgreSQL): the same
// queries must see the same JS values on both, whatever the dialect returns underneath.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrations } from '../../src/adapters/sql/migrations.js';
import type {
  BatchItemTable,
  Database,
  ResearchSourceTable,
  StoredSeedTable,
  Tables,
} from '../../src/ports/database.js';
import { insertRows as bulkInsertRows, insertRowsCounted } from '../../src/services/bulk-insert.js';
import { REVISION_COLUMNS, STORED_SEED_COLUMNS } from '../../src/services/seed-repository/rows.js';

export interface DatabaseFixture {
  /** A database on fresh, empty storage, not migrated yet. */
  database: Database;
  /** Another Database on the same storage, as a second process would open it. Closed by cleanup(). */
  openAnother?: () => Database;
  cleanup(): Promise<void>;
}

export interface DatabaseContractOptions {
  /** Whether several instances may migrate the same storage at once (several processes starting). */
  concurrentMigrations: boolean;
}

const AT = '2025-01-02T03:04:05.678Z';

type NullableKey<T> = { [K in keyof T]: null extends T[K] ? K : never }[keyof T];

/** Two rows: `full` with every column set, and a copy with `changes` (keys) and every nullable column null. */
function pair<T>(full: NoInfer<T>, changes: NoInfer<Partial<T>>, nullable: NoInfer<NullableKey<T>>[]): T[] {
  const sparse = { ...full, ...changes };
  for (const key of nullable) sparse[key] = null as T[typeof key];
  return [full, sparse];
}

const ROWS: { [K in keyof Tables]: Tables[K][] } = {
  batches: pair(
    {
      id: 'b1',
      type: 'liveness',
      status: 'running',
      country: 'fr',
      category: 'news',
      date: '2025-01-02',
      total_items: 120,
      chunk_size: 50,
      chunks_total: 3,
      chunks_succeeded: 1,
      chunks_failed: 0,
      summary: '{"alive":1}',
      idempotency_key: 'idem-1',
      request_hash: 'hash-1',
      created_at: AT,
      started_at: AT,
      finished_at: AT,
    },
    { id: 'b2', total_items: 0 },
    ['category', 'date', 'idempotency_key', 'request_hash', 'started_at', 'finished_at'],
  ),
  batch_chunks: pair(
    {
      batch_id: 'b1',
      chunk_no: 0,
      queue: 'LIVENESS_QUEUE',
      status: 'failed',
      items: '["a.fr"]',
      item_offset: 0,
      attempts: 3,
      last_error: 'timeout',
      started_at: AT,
      finished_at: AT,
    },
    { chunk_no: 1, item_offset: 50 },
    ['last_error', 'started_at', 'finished_at'],
  ),
  batch_items: pair(
    {
      batch_id: 'b1',
      item_index: 0,
      chunk_no: 0,
      input: '"a.fr"',
      status: 'succeeded',
      outcome: 'alive',
      reason: 'ok',
      result: '{"s":200}',
      updated_at: AT,
    },
    { item_index: 1 },
    ['outcome', 'reason', 'result'],
  ),
  jobs: pair(
    {
      id: 'j1',
      queue: 'SEED_QUEUE',
      payload: '{"n":1}',
      state: 'active',
      singleton_key: 'k1',
      attempts: 2,
      max_attempts: 4,
      run_at: 1_735_787_045_678,
      lease_until: 1_735_787_105_678,
      last_error: 'boom',
      created_at: 1_735_787_000_001,
    },
    { id: 'j2', run_at: 0, created_at: 1 },
    ['singleton_key', 'lease_until', 'last_error'],
  ),
  research_records: pair(
    {
      country: 'fr',
      category: 'news',
      date: '2025-01-02',
      queries: '["q"]',
      methods: '["search"]',
      notes: 'some notes',
      created_at: AT,
      updated_at: AT,
    },
    { category: 'sport' },
    ['notes'],
  ),
  research_sources: pair(
    {
      country: 'fr',
      category: 'news',
      date: '2025-01-02',
      normalized_url: 'https://a.fr/',
      raw_url: 'https://A.fr',
      registrable_domain: 'a.fr',
      domain_id: 'd1',
      authority: 'gov',
      source_type: 'media',
      discovery_method: 'search',
      confidence: 0.75,
      content_hints: '[]',
      owner: 'b1:0',
      raw_chunk: 7,
      created_at: AT,
    },
    { normalized_url: 'https://b.fr/', confidence: 0 },
    ['raw_chunk'],
  ),
  research_requests: pair(
    { owner: 'request:key:abc', request_hash: 'f'.repeat(64), created_at: '2026-01-05T00:00:00.000Z' },
    { owner: 'request:key:def' },
    [],
  ),
  dataset_chunks: pair(
    {
      country: 'fr',
      category: 'news',
      date: '2025-01-02',
      chunk: 1,
      key: 'k/raw_0001.json',
      record_count: 500,
      bytes: 5_000_000_000,
      origin: 'research',
      status: 'stored',
      owner: 'b1:0',
      created_at: AT,
      checkpointed_at: AT,
    },
    { chunk: 2, bytes: 0, origin: 'upload' },
    ['owner', 'checkpointed_at'],
  ),
  seeds: pair(
    {
      seed_id: 's1',
      domain_id: 'd1',
      registrable_domain: 'a.fr',
      country: 'fr',
      category: 'news',
      content_type: 'news',
      source_type: 'media',
      status: 'active',
      version: 3,
      name: 'A',
      entry_url: 'https://a.fr/',
      fetch: '{}',
      schedule: '0 * * * *',
      policy: '{}',
      discovery: '{}',
      provenance: '{}',
      created_at: AT,
      updated_at: AT,
      promoted_at: AT,
      feeds: '[{"url":"https://example.org/feed"}]',
      sitemap: '{"url_count":3}',
      human_fields: '["name"]',
      last_revision: 2,
      freshness: '{"items_per_day":2.5}',
      languages: '[{"code":"fr","sources":["html_lang"]}]',
      ai: '{"status":"reserved"}',
      language_codes: ',fr,',
      ai_status: 'reserved',
      items_per_day: 2.5,
      health: '{"state":"failing","consecutive_failures":2}',
      health_state: 'failing',
      news: '{"verdict":"news","score":0.9,"reasons":[]}',
      news_verdict: 'news',
      country_guess: '{"code":"fr","confidence":0.8,"reasons":[]}',
      freshness_state: 'stale',
      robots_allowed: 1,
      fetch_type: 'rss',
      main_feed: 1,
      alive: 0,
      rate_rank: -2.5,
    },
    { seed_id: 's2' },
    [
      'name',
      'entry_url',
      'schedule',
      'promoted_at',
      'sitemap',
      'freshness',
      'ai',
      'language_codes',
      'ai_status',
      'items_per_day',
      'health',
      'health_state',
      'news',
      'news_verdict',
      'country_guess',
      'robots_allowed',
      'alive',
    ],
  ),
  seed_revisions: pair(
    {
      seed_id: 's1',
      number: 1,
      status: 'accepted',
      author: 'batch:b1',
      created_at: AT,
      base_version: 2,
      changes: '{"schedule":{"before":null,"after":"0 * * * *"}}',
      settled_by: 'reviewer',
      settled_at: AT,
    },
    { number: 2, status: 'proposed' },
    ['settled_by', 'settled_at'],
  ),
  domain_discoveries: pair(
    {
      registrable_domain: 'a.fr',
      summary: '{"state":"alive"}',
      collected_at: AT,
      batch_id: 'b1',
      metadata_key: 'prod/fr/news/2026-06-01/a.fr/domain_metadata.json',
    },
    { registrable_domain: 'b.fr' },
    ['batch_id', 'metadata_key'],
  ),
  domain_changes: pair(
    {
      id: 'c1',
      registrable_domain: 'a.fr',
      domain_id: 'fr:a.fr:other',
      kind: 'feed_removed',
      message: 'feed removed',
      before: '"https://a.fr/feed"',
      after: 'null',
      evidence: '{"batch_id":"b1"}',
      batch_id: 'b1',
      detected_at: AT,
    },
    { id: 'c2' },
    ['before', 'after', 'batch_id'],
  ),
  liveness_results: pair(
    {
      domain: 'a.fr',
      alive: 1,
      state: 'alive',
      http_status: 200,
      final_url: 'https://a.fr/',
      https: 1,
      latency_ms: 123,
      error_code: 'TLS',
      error_message: 'expired',
      checked_at: AT,
      batch_id: 'b1',
      evidence: '{"kind":"status","status":403,"server":null}',
    },
    { domain: 'b.fr', alive: 0, https: 0 },
    ['http_status', 'final_url', 'latency_ms', 'error_code', 'error_message', 'batch_id', 'evidence'],
  ),
  liveness_history: pair(
    {
      id: 'h1',
      domain: 'www.a.fr',
      registrable_domain: 'a.fr',
      alive: 0,
      state: 'blocked',
      http_status: 403,
      final_url: 'https://www.a.fr/',
      https: 1,
      latency_ms: 45,
      error_code: 'CHALLENGE',
      error_message: 'cloudflare',
      checked_at: AT,
      batch_id: 'b1',
      evidence: '{"kind":"challenge"}',
    },
    { id: 'h2', alive: 1, https: 0 },
    [
      'evidence',
      'registrable_domain',
      'http_status',
      'final_url',
      'latency_ms',
      'error_code',
      'error_message',
      'batch_id',
    ],
  ),
  metadata_tasks: pair(
    {
      id: 'm1',
      kind: 'sync',
      status: 'succeeded',
      trigger: 'cron',
      target: 'git+file:///x',
      commit_id: 'abc',
      snapshot_hash: 'h',
      error: 'none',
      attempts: 1,
      created_at: AT,
      started_at: AT,
      finished_at: AT,
    },
    { id: 'm2', attempts: 0 },
    ['target', 'commit_id', 'snapshot_hash', 'error', 'started_at', 'finished_at'],
  ),
  api_keys: [
    { id: 'a1', name: 'ci', key_hash: 'h1', scopes: 'read,write', created_at: AT },
    { id: 'a2', name: 'ops', key_hash: 'h2', scopes: 'admin', created_at: AT },
  ],
  candidates: pair(
    {
      domain: 'b.fr',
      state: 'qualified',
      country: 'fr',
      news: '{"verdict":"news"}',
      news_verdict: 'news',
      score: 0.875,
      country_guess: '{"code":"fr"}',
      languages: '[{"code":"fr"}]',
      citations: 3,
      feeds_found: 2,
      sitemap: '{"exists":true,"news":true}',
      robots_allowed: 1,
      alive: 1,
      qualification: '{"entry_url":"https://b.fr/"}',
      sources: '["mbfc"]',
      first_seen_at: AT,
      last_checked_at: AT,
      reject_reason: 'a shop',
      decided_by: 'alice',
      decided_at: AT,
    },
    { domain: 'c.fr', citations: 0 },
    [
      'news',
      'news_verdict',
      'score',
      'country_guess',
      'feeds_found',
      'sitemap',
      'robots_allowed',
      'alive',
      'qualification',
      'last_checked_at',
      'reject_reason',
      'decided_by',
      'decided_at',
    ],
  ),
  candidate_citations: [
    {
      domain: 'b.fr',
      citing: 's1',
      citing_country: 'fr',
      url: 'https://b.fr/x',
      anchor: 'B',
      found_in: 'homepage',
      seen_at: AT,
    },
    {
      domain: 'b.fr',
      citing: 'import:mbfc',
      citing_country: 'fr',
      url: '',
      anchor: '',
      found_in: 'import',
      seen_at: AT,
    },
  ],
  citing_sources: [{ citing: 's1', read_at: AT, outlinks: 12 }],
  discovery_steps: [{ batch_id: 'b1', step: 'qualify:1', items: 20, created_at: AT }],
  seed_totals: [
    { status: 'draft', country: 'fr', n: 3 },
    { status: 'active', country: 'de', n: 0 },
  ],
  candidate_totals: [{ country: 'fr', state: 'new', verdict: '', n: 3 }],
  seed_languages: [
    { seed_id: 's1', language: 'fr', status: 'active', country: 'fr', created_at: AT, rate_rank: -2.5 },
    { seed_id: 's1', language: 'fr-ca', status: 'active', country: 'fr', created_at: AT, rate_rank: 1 },
  ],
  seed_filter_totals: [
    {
      country: '',
      status: 'draft',
      authority: 'gov',
      source_type: 'government',
      freshness_state: 'stale',
      robots_allowed: -1,
      fetch_type: 'rss',
      main_feed: 1,
      alive: 0,
      n: 5_000_000_000,
    },
  ],
  seed_fact_totals: [
    {
      country: 'fr',
      status: 'active',
      category: 'news',
      news_verdict: '',
      health_state: 'ok',
      ai_status: 'allowed',
      n: 3,
    },
  ],
};

type TableName = keyof Tables;
const TABLES = Object.keys(ROWS) as TableName[];

/** Order-independent comparison: rows sorted by their content. */
function sorted(rows: readonly object[]): object[] {
  const key = (row: object) => JSON.stringify(Object.entries(row).sort(([a], [b]) => a.localeCompare(b)));
  return [...rows].sort((a, b) => key(a).localeCompare(key(b)));
}

async function insertRows(database: Database, table: TableName): Promise<void> {
  // The table name is a union here; Kysely needs one table to type the values, and the rows are typed above.
  await database.db
    .insertInto(table as 'api_keys')
    .values(ROWS[table] as never)
    .execute();
}

async function countRows(database: Database, table: TableName): Promise<number> {
  const row = await database.db
    .selectFrom(table as 'api_keys')
    .select((eb) => eb.fn.countAll().as('n'))
    .executeTakeFirstOrThrow();
  return row.n as number;
}

async function appliedMigrations(database: Database): Promise<string[]> {
  const { rows } = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(
    database.db,
  );
  return rows.map((r) => r.name);
}

export function runDatabaseContract(
  name: string,
  makeFixture: () => Promise<DatabaseFixture>,
  options: DatabaseContractOptions,
): void {
  describe(`Database contract: ${name}`, () => {
    let fixture: DatabaseFixture;
    beforeEach(async () => {
      fixture = await makeFixture();
    });
    afterEach(async () => {
      await fixture.cleanup();
    });

    it('applies the migrations, and again as a no-op that keeps the data', async () => {
      const { database } = fixture;
      await database.migrate();
      await insertRows(database, 'api_keys');
      await database.migrate();
      expect(await appliedMigrations(database)).toEqual(Object.keys(migrations).sort());
      expect(await countRows(database, 'api_keys')).toBe(2);
      for (const table of TABLES) expect(await countRows(database, table)).toBe(table === 'api_keys' ? 2 : 0);
    });

    it.runIf(options.concurrentMigrations)(
      'migrates once when several instances start at the same time',
      async () => {
        const { database, openAnother } = fixture;
        if (!openAnother) throw new Error('this fixture must offer openAnother() for concurrent migrations');
        const others = [openAnother(), openAnother(), openAnother()];
        await Promise.all([database.migrate(), ...others.map((other) => other.migrate())]);
        expect(await appliedMigrations(database)).toEqual(Object.keys(migrations).sort());
        await insertRows(others[0]!, 'api_keys');
        expect(await countRows(database, 'api_keys')).toBe(2);
      },
    );

    it('stores a row in every table and reads it back with the same JS values and types', async () => {
      const { database } = fixture;
      await database.migrate();
      for (const table of TABLES) {
        // The triggers on seeds kept its totals and languages when its rows went in: only the rows written here
        // are compared.
        if (['seed_totals', 'seed_languages', 'seed_filter_totals', 'seed_fact_totals'].includes(table))
          await database.db.deleteFrom(table).execute();
        await insertRows(database, table);
        const read = await database.db
          .selectFrom(table as 'api_keys')
          .selectAll()
          .execute();
        // toStrictEqual: a bigint column read back as the string '5000000000' or a null as undefined fails.
        expect(sorted(read), table).toStrictEqual(sorted(ROWS[table]));
      }
    });

    it('a bulk insert written as text stores every column of seeds and revisions, and counts what it inserted', async () => {
      const { database } = fixture;
      await database.migrate();
      const [first, second] = ROWS.seeds as [StoredSeedTable, StoredSeedTable];
      const { dialect } = database;
      const tail = 'on conflict (seed_id) do nothing';
      // One row, then both: two shapes of the statement; the first row is skipped the second time and not counted.
      expect(await insertRowsCounted(database.db, dialect, 'seeds', STORED_SEED_COLUMNS, [first], tail)).toBe(
        1,
      );
      expect(
        await insertRowsCounted(database.db, dialect, 'seeds', STORED_SEED_COLUMNS, [first, second], tail),
      ).toBe(1);
      expect(await insertRowsCounted(database.db, dialect, 'seeds', STORED_SEED_COLUMNS, [first], tail)).toBe(
        0,
      );
      await bulkInsertRows(database.db, dialect, 'seed_revisions', REVISION_COLUMNS, ROWS.seed_revisions);
      expect(sorted(await database.db.selectFrom('seeds').selectAll().execute())).toStrictEqual(
        sorted(ROWS.seeds),
      );
      expect(sorted(await database.db.selectFrom('seed_revisions').selectAll().execute())).toStrictEqual(
        sorted(ROWS.seed_revisions),
      );
    });

    it('a bulk insert binding the columns its rows share once stores every row as given, in a transaction too', async () => {
      const { database } = fixture;
      await database.migrate();
      const { dialect } = database;
      const [full, sparse] = ROWS.research_sources as [ResearchSourceTable, ResearchSourceTable];
      // Shared: the partition, hints, owner and time; per row: the URL, the confidence and a null chunk beside a 7.
      const rows = [full, sparse, { ...full, normalized_url: 'https://c.fr/', raw_chunk: null }];
      const columns = Object.keys(full) as (keyof ResearchSourceTable)[];
      const share = { shareEqual: true };
      const tail = 'on conflict do nothing';
      expect(
        await insertRowsCounted(database.db, dialect, 'research_sources', columns, rows, tail, share),
      ).toBe(3);
      const again = [
        rows[2] as ResearchSourceTable,
        { ...full, normalized_url: 'https://d.fr/', confidence: 1 },
      ];
      const inserted = await database.transaction((trx) =>
        insertRowsCounted(trx, dialect, 'research_sources', columns, again, tail, share),
      );
      expect(inserted).toBe(1);
      // Every column the same in both rows but the URL; and rows sharing nothing.
      const items = ROWS.batch_items as BatchItemTable[];
      const itemColumns = Object.keys(items[0] as BatchItemTable) as (keyof BatchItemTable)[];
      await insertRowsCounted(database.db, dialect, 'batch_items', itemColumns, items, '', share);
      expect(sorted(await database.db.selectFrom('research_sources').selectAll().execute())).toStrictEqual(
        sorted([...rows, again[1] as ResearchSourceTable]),
      );
      expect(sorted(await database.db.selectFrom('batch_items').selectAll().execute())).toStrictEqual(
        sorted(items),
      );
    });

    it('answers count(*) and sum() over bigint columns with numbers', async () => {
      const { database } = fixture;
      await database.migrate();
      await insertRows(database, 'jobs');
      await insertRows(database, 'dataset_chunks');
      const jobs = await database.db
        .selectFrom('jobs')
        .select((eb) => [
          eb.fn.countAll().as('n'),
          eb.fn.sum('run_at').as('total'),
          eb.fn.max('run_at').as('last'),
        ])
        .executeTakeFirstOrThrow();
      expect(jobs).toStrictEqual({ n: 2, total: 1_735_787_045_678, last: 1_735_787_045_678 });
      const grouped = await database.db
        .selectFrom('dataset_chunks')
        .select(['origin', (eb) => eb.fn.countAll().as('n'), (eb) => eb.fn.sum('bytes').as('bytes')])
        .groupBy('origin')
        .orderBy('origin')
        .execute();
      expect(grouped).toStrictEqual([
        { origin: 'research', n: 1, bytes: 5_000_000_000 },
        { origin: 'upload', n: 1, bytes: 0 },
      ]);
    });

    it('reads rows as arrays of the same values, in the order of the select', async () => {
      const { database } = fixture;
      await database.migrate();
      await insertRows(database, 'jobs');
      const columns = ['run_at', 'id', 'last_error', 'attempts', 'payload'] as const;
      const query = database.db
        .selectFrom('jobs')
        .select([...columns])
        .orderBy('id');
      const objects = await query.execute();
      const arrays = await database.readArrays(query.compile());
      // toStrictEqual: the bigint run_at must come as a number here too, a null as null.
      expect(arrays).toStrictEqual(objects.map((row) => columns.map((column) => row[column])));
      expect(arrays[0]).toStrictEqual([1_735_787_045_678, 'j1', 'boom', 2, '{"n":1}']);
    });

    it('reads arrays outside an open transaction, never its uncommitted rows', async () => {
      const { database } = fixture;
      await database.migrate();
      let inserted!: () => void;
      const wrote = new Promise<void>((resolve) => {
        inserted = resolve;
      });
      let undo!: () => void;
      const undone = new Promise<void>((resolve) => {
        undo = resolve;
      });
      const writing = database.transaction(async (trx) => {
        await trx.insertInto('batches').values(ROWS.batches).execute();
        inserted();
        await undone;
        throw new Error('rolled back');
      });
      await wrote;
      // SQLite has one connection: the read waits for the transaction to end; PostgreSQL reads beside it.
      const reading = database.readArrays(database.db.selectFrom('batches').select('id').compile());
      undo();
      await expect(writing).rejects.toThrow('rolled back');
      expect(await reading).toEqual([]);
    });

    it('rolls a transaction back entirely when its work throws', async () => {
      const { database } = fixture;
      await database.migrate();
      await expect(
        database.transaction(async (trx) => {
          await trx.insertInto('batches').values(ROWS.batches).execute();
          await trx.insertInto('batch_chunks').values(ROWS.batch_chunks).execute();
          expect(await trx.selectFrom('batches').select('id').execute()).toHaveLength(2);
          throw new Error('boom');
        }),
      ).rejects.toThrow('boom');
      expect(await countRows(database, 'batches')).toBe(0);
      expect(await countRows(database, 'batch_chunks')).toBe(0);
    });

    it('commits a transaction that returns, and passes its result through', async () => {
      const { database } = fixture;
      await database.migrate();
      const result = await database.transaction(async (trx) => {
        await trx.insertInto('seeds').values(ROWS.seeds).execute();
        return 'done';
      });
      expect(result).toBe('done');
      expect(await countRows(database, 'seeds')).toBe(2);
    });

    it('raises on a unique constraint, and the failed transaction leaves nothing', async () => {
      const { database } = fixture;
      await database.migrate();
      await insertRows(database, 'batches');
      const first = ROWS.batches[0]!;
      await expect(database.db.insertInto('batches').values(first).execute()).rejects.toThrow();
      // A unique column that is not the key: batches.idempotency_key.
      await expect(
        database.db
          .insertInto('batches')
          .values({ ...first, id: 'b3' })
          .execute(),
      ).rejects.toThrow();
      await expect(
        database.transaction(async (trx) => {
          await trx.insertInto('api_keys').values(ROWS.api_keys[0]!).execute();
          await trx
            .insertInto('api_keys')
            .values({ ...ROWS.api_keys[1]!, name: ROWS.api_keys[0]!.name })
            .execute();
        }),
      ).rejects.toThrow();
      expect(await countRows(database, 'batches')).toBe(2);
      expect(await countRows(database, 'api_keys')).toBe(0);
    });

    it('answers ping while open, refuses work once closed, and closes twice safely', async () => {
      const { database } = fixture;
      await database.migrate();
      await expect(database.ping()).resolves.toBeUndefined();
      await database.close();
      await expect(database.ping()).rejects.toThrow();
      await expect(database.close()).resolves.toBeUndefined();
    });
  });
}
