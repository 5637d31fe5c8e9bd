// The reads every contract domain makes are index lookups, not table scans, in both databases (a scan per
// domain makes a batch grow with the square of the directory); and SQLite's kept-prepared statements give the
// same answers as fresh ones, after a stream left midway too.
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../src/ports/database.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';

/** The health lookup of seed-health.ts: a domain's seeds by their domain id. */
const BY_DOMAIN_ID = 'select seed_id, registrable_domain, status, health from seeds where domain_id = ';

const pgUp = await pgAvailable();

describe('lookups by domain id', () => {
  let opened: { database: Database; schema?: string } | undefined;
  afterEach(async () => {
    await opened?.database.close();
    if (opened?.schema) await dropSchemas([opened.schema]);
    opened = undefined;
  });

  it('finds a domain’s seeds through an index in SQLite', async () => {
    opened = { database: createSqliteDatabase(':memory:') };
    await opened.database.migrate();
    const plan = await sql
      .raw<{ detail: string }>(`explain query plan ${BY_DOMAIN_ID}'com:fr:a.fr'`)
      .execute(opened.database.db);
    expect(plan.rows.map((r) => r.detail).join(' | ')).toMatch(/USING INDEX seeds_domain_id/);
  });

  it.skipIf(!pgUp)('finds a domain’s seeds through an index in PostgreSQL', async () => {
    const schema = uniqueSchemaName('seedbed_lookup');
    opened = {
      database: createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 1 }),
      schema,
    };
    await opened.database.migrate();
    // An empty table is cheapest to scan; with scans priced out, the plan shows whether an index exists.
    const plan = await opened.database.transaction(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      return sql.raw<{ 'QUERY PLAN': string }>(`explain ${BY_DOMAIN_ID}'com:fr:a.fr'`).execute(trx);
    });
    expect(plan.rows.map((r) => r['QUERY PLAN']).join(' | ')).toMatch(/Index.*seeds_domain_id/);
  });
});

describe('SQLite statements kept prepared', () => {
  it('answers each run afresh, and a stream left midway does not spoil its text for the next run', async () => {
    const database = createSqliteDatabase(':memory:');
    try {
      const { db } = database;
      await sql`create table t (n integer primary key)`.execute(db);
      await sql`insert into t (n) values (1), (2), (3)`.execute(db);
      const count = async () =>
        (
          await db
            .selectFrom('t' as never)
            .select(sql<number>`count(*)`.as('c'))
            .executeTakeFirstOrThrow()
        ).c;
      expect(await count()).toBe(3);
      await sql`insert into t (n) values (4)`.execute(db);
      expect(await count()).toBe(4);

      const all = () =>
        db
          .selectFrom('t' as never)
          .select(sql<number>`n`.as('n'))
          .orderBy(sql`n`);
      const streamed: number[] = [];
      for await (const row of all().stream(1)) {
        streamed.push(row.n);
        if (streamed.length === 2) break;
      }
      expect(streamed).toEqual([1, 2]);
      expect((await all().execute()).map((r) => r.n)).toEqual([1, 2, 3, 4]);
    } finally {
      await database.close();
    }
  });
});
