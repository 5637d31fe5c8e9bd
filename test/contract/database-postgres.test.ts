// The Database contract on PostgreSQL: each test gets a schema of its own, dropped afterwards.
import { describe } from 'vitest';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
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
