// The Database contract on PostgreSQL: each test gets a schema of its own, dropped afterwards.
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { BackendUnavailableError } from '../../src/domain/errors.js';
import type { Database } from '../../src/ports/database.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';
import { runDatabaseContract } from './database.contract.js';

const up = await pgAvailable();

describe.skipIf(!up)('PostgreSQL database', () => {
  runDatabaseContract(
    'PostgreSQL',
    async () => {
      const schema = uniqueSchemaName('seedbed_db');
      const open = () => createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 3 });
      const opened: Database[] = [open()];
      return {
        database: opened[0]!,
        openAnother() {
          const another = open();
          opened.push(another);
          return another;
        },
        async cleanup() {
          await Promise.all(opened.map((database) => database.close()));
          await dropSchemas([schema]);
        },
      };
    },
    { concurrentMigrations: true },
  );
});

describe.skipIf(!up)('PostgreSQL database: a connection cut by the server', () => {
  it('survives a transaction whose connection is terminated between two statements, and recovers', async () => {
    const schema = uniqueSchemaName('seedbed_db');
    let reportLost: (error: unknown) => void = () => {};
    const lost = new Promise<unknown>((resolve) => {
      reportLost = resolve;
    });
    const database = createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 2, onError: reportLost });
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    try {
      await database.migrate();
      const failed = database.transaction(async (trx) => {
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
        // The connection is checked out and idle, as in a transaction waiting on an object write. Without a
        // listener on it, the 'error' pg emits now would end the process.
        await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
        await lost;
        await sql`select 1`.execute(trx);
      });
      await expect(failed).rejects.toBeInstanceOf(BackendUnavailableError);
      // The broken connection left the pool: the next work gets a fresh one.
      const { rows } = await sql<{ one: number }>`select 1 as one`.execute(database.db);
      expect(rows).toEqual([{ one: 1 }]);
    } finally {
      await admin.end();
      await database.close();
      await dropSchemas([schema]);
    }
  });
});
