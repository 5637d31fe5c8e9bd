// The Database contract on SQLite, in memory with the real migrations.
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import { runDatabaseContract } from './database.contract.js';

runDatabaseContract(
  'SQLite',
  async () => {
    const database = createSqliteDatabase(':memory:');
    return { database, cleanup: () => database.close() };
  },
  // One in-process connection per file; several processes share it through SQLite's own file locking.
  { concurrentMigrations: false },
);
