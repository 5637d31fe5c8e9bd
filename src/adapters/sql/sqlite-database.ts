// SQLite (WAL) behind the Database port: the embedded default, one file in the data directory.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  Migrator,
  SqliteDialect,
  SqliteDriver,
  sql,
} from 'kysely';
import type { Database, DbTransaction, Tables } from '../../ports/database.js';
import { migrationProvider } from './migrations.js';

/** `path` is a file path, or ':memory:' for tests. */
export function createSqliteDatabase(path: string): Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const connection = new BetterSqlite3(path);
  connection.pragma('journal_mode = WAL');
  // FULL: an accepted batch survives power loss, not only a killed process.
  connection.pragma('synchronous = FULL');
  connection.pragma('busy_timeout = 10000');
  connection.pragma('foreign_keys = ON');
  const db = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: connection }) });

  return {
    dialect: 'sqlite',
    db,
    transaction<T>(work: (trx: DbTransaction) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },
    async migrate() {
      const { error } = await new Migrator({ db, provider: migrationProvider }).migrateToLatest();
      if (error) throw error;
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    async close() {
      await db.destroy();
    },
  };
}

/**
 * Transactions start with BEGIN IMMEDIATE: a deferred transaction that reads and then writes can fail with
 * SQLITE_BUSY when another process (an `api` beside a `worker`) wrote in between, whatever busy_timeout says.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0]) {
    super(config);
    this.#config = config;
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.#config);
  }
}
