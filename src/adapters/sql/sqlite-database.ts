// SQLite (WAL) behind the Database port: the embedded default, one file in the data directory.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  Migrator,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  sql,
} from 'kysely';
import type { Database, DbTransaction, Tables, TransactionOptions } from '../../ports/database.js';
import { groupCommit } from './group-commit.js';
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
  const statements = withStatementCache(connection);
  const db = new Kysely<Tables>({ dialect: new ImmediateSqliteDialect({ database: statements }) });
  const transaction = groupCommit(db);

  return {
    dialect: 'sqlite',
    db,
    transaction<T>(work: (trx: DbTransaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
      return transaction(work, options);
    },
    readArrays(query) {
      // Through Kysely's hold on its one connection: a transaction open on it is waited for, never read into.
      return db.connection().execute(async () => {
        const statement = statements.prepare(query.sql);
        statement.raw(true);
        try {
          return statement.all(...query.parameters) as unknown[][];
        } finally {
          statement.raw(false);
        }
      });
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

/** Statements kept prepared: the service sends a few dozen distinct ones, over and over. */
const STATEMENT_CACHE_SIZE = 256;

/**
 * The connection as Kysely sees it, each distinct SQL text prepared once. Kysely prepares every query it runs,
 * and preparing (parsing and planning) cost as much of the main thread as running them on a contract batch.
 * Kysely runs one query at a time on its one connection, so a kept statement is free when asked for; should one
 * still be iterating (busy), its text gets a fresh statement rather than an error.
 */
function withStatementCache(connection: BetterSqlite3.Database) {
  const cache = new Map<string, BetterSqlite3.Statement>();
  return {
    prepare(text: string): BetterSqlite3.Statement {
      const cached = cache.get(text);
      if (cached && !cached.busy) return cached;
      const statement = connection.prepare(text);
      if (!cached) {
        if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
        cache.set(text, statement);
      }
      return statement;
    },
    close() {
      connection.close();
    },
  } satisfies SqliteDatabase;
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
