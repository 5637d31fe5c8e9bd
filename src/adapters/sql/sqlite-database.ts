// SQLite (WAL) behind the Database port: the embedded default, one file in the data directory.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import {
  CompiledQuery,
  type DatabaseConnection,
  Kysely,
  Migrator,
  type QueryResult,
  type SqliteDatabase,
  SqliteDialect,
  SqliteDriver,
  sql,
} from 'kysely';
import {
  type Database,
  type DbTransaction,
  NumberedValues,
  type RunNow,
  type Tables,
  type TransactionOptions,
  withLentConnection,
} from '../../ports/database.js';
import { startCheckpointer } from './checkpointer.js';
import { groupCommit } from './group-commit.js';
import { migrationProvider } from './migrations.js';
import { keptDescriptor, type SyncFile, walSync } from './wal-sync.js';

/**
 * `path` is a file path, or ':memory:' for tests. `syncWal` replaces the WAL's fdatasync (tests hold it to see
 * that nobody is answered before it).
 */
export function createSqliteDatabase(path: string, options: { syncWal?: SyncFile } = {}): Database {
  const inMemory = path === ':memory:';
  if (!inMemory) mkdirSync(dirname(path), { recursive: true });
  const connection = new BetterSqlite3(path);
  connection.pragma('journal_mode = WAL');
  // An accepted batch survives power loss, not only a killed process: a commit writes the WAL (NORMAL), and is
  // answered after the WAL's fdatasync on a libuv thread (wal-sync.ts), not inside COMMIT on the main thread (FULL).
  connection.pragma(inMemory ? 'synchronous = FULL' : 'synchronous = NORMAL');
  connection.pragma('busy_timeout = 10000');
  // A statement that changes many rows inside a transaction (a chunk's 100 claims, its item results) keeps the
  // pages it changes in a statement journal, to undo itself alone. Past 64 KiB SQLite spilled that journal to a temp
  // file: an open, a write a page and an unlink on the main thread, ≈ 0.9 writes a URL on the research pipeline.
  // Kept in memory instead (it is never read after a crash: an uncommitted transaction is not in the WAL's commits).
  connection.pragma('temp_store = MEMORY');
  connection.pragma('foreign_keys = ON');
  // A file's checkpoints run on a thread of their own (checkpointer.ts); this connection takes them back should
  // that thread be lost.
  if (!inMemory) connection.pragma('wal_autocheckpoint = 0');
  const checkpointer = inMemory
    ? undefined
    : startCheckpointer(path, () => connection.pragma(`wal_autocheckpoint = ${DEFAULT_AUTOCHECKPOINT}`));
  const statements = withStatementCache(connection);
  const walFile = inMemory ? undefined : keptDescriptor();
  const wal = walFile && walSync(`${path}-wal`, options.syncWal ?? walFile.sync);
  const afterCommit = wal?.afterCommit;
  const db = new Kysely<Tables>({
    dialect: new ImmediateSqliteDialect({ database: statements }, { connection, statements, afterCommit }),
  });
  const runNow = directRun(statements);
  const transaction = groupCommit(db, {
    afterCommit,
    savepoint: (command) => void runNow(SAVEPOINT_STATEMENTS[command]),
  });

  return {
    dialect: 'sqlite',
    db,
    transaction<T>(work: (trx: DbTransaction) => Promise<T>, options?: TransactionOptions): Promise<T> {
      // The work's statements that come as compiled text (executeCompiled) run on the connection directly.
      return transaction((trx) => withLentConnection(trx, runNow, work), options);
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
      // The thread's connection first: the main one must be the last to close, which checkpoints the rest.
      await checkpointer?.close();
      await db.destroy();
      await wal?.settled();
      await walFile?.close();
    },
  };
}

/** Group commit's savepoint statements, compiled once. */
const SAVEPOINT_STATEMENTS = {
  savepoint: CompiledQuery.raw('savepoint "grouped"'),
  release: CompiledQuery.raw('release "grouped"'),
  'rollback to': CompiledQuery.raw('rollback to "grouped"'),
} as const;

/** SQLite's own `wal_autocheckpoint` (pages), for a connection whose checkpoint thread was lost. */
const DEFAULT_AUTOCHECKPOINT = 1000;

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

interface Durability {
  connection: BetterSqlite3.Database;
  statements: ReturnType<typeof withStatementCache>;
  /** The WAL's sync after a commit; none in memory. */
  afterCommit: (() => Promise<void>) | undefined;
}

/**
 * Transactions start with BEGIN IMMEDIATE: a deferred transaction that reads and then writes can fail with
 * SQLITE_BUSY when another process (an `api` beside a `worker`) wrote in between, whatever busy_timeout says.
 * A write outside any transaction (an autocommit: POST /research's stored mark, migrations) is answered once the
 * WAL is synced; transactions' commits are group commit's (`group-commit.ts`), which waits for the sync itself
 * without holding the connection.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  readonly #durability: Durability;
  #connection: DatabaseConnection | undefined;
  constructor(config: ConstructorParameters<typeof SqliteDriver>[0], durability: Durability) {
    super(config);
    this.#durability = durability;
  }
  override async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await super.acquireConnection();
    this.#connection ??= serviceConnection(connection, this.#durability);
    return this.#connection;
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }
}

/** Kysely's connection, taking numbered values (NumberedValues) and making autocommits durable (`afterCommit`). */
function serviceConnection(
  inner: DatabaseConnection,
  { connection, statements, afterCommit }: Durability,
): DatabaseConnection {
  return {
    async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
      const inTransaction = connection.inTransaction;
      const result = runWithNumberedValues<R>(statements, query) ?? (await inner.executeQuery<R>(query));
      // Outside a transaction before and after: an autocommit, which wrote unless the statement is read-only.
      if (
        afterCommit !== undefined &&
        !inTransaction &&
        !connection.inTransaction &&
        !statements.prepare(query.sql).readonly
      )
        await afterCommit();
      return result;
    },
    streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
  };
}

/**
 * A statement whose last parameter is NumberedValues, run here (undefined for any other): Kysely's connection
 * hands better-sqlite3 one array, which binds only plain `?`; the numbered values go in as an object beside it.
 */
function runWithNumberedValues<R>(
  statements: Durability['statements'],
  query: CompiledQuery,
): QueryResult<R> | undefined {
  const { parameters } = query;
  const numbered = parameters[parameters.length - 1];
  if (!(numbered instanceof NumberedValues)) return undefined;
  const statement = statements.prepare(query.sql);
  const plain = parameters.slice(0, -1);
  if (statement.reader) return { rows: statement.all(plain, numbered.byNumber) as R[] };
  const { changes, lastInsertRowid } = statement.run(plain, numbered.byNumber);
  return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
}

/**
 * A statement as Kysely's SQLite connection runs it (or runWithNumberedValues, for numbered values), without the
 * executor around it: for a transaction's lent connection (withLentConnection), where the connection is the
 * transaction's anyway and no autocommit can happen.
 */
function directRun(statements: Durability['statements']): RunNow {
  return (query) => {
    const numbered = runWithNumberedValues<unknown>(statements, query);
    if (numbered !== undefined) return numbered;
    const statement = statements.prepare(query.sql);
    if (statement.reader) return { rows: statement.all(query.parameters) };
    const { changes, lastInsertRowid } = statement.run(query.parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  };
}

class ImmediateSqliteDialect extends SqliteDialect {
  readonly #config: ConstructorParameters<typeof SqliteDialect>[0];
  readonly #durability: Durability;
  constructor(config: ConstructorParameters<typeof SqliteDialect>[0], durability: Durability) {
    super(config);
    this.#config = config;
    this.#durability = durability;
  }
  override createDriver(): SqliteDriver {
    return new ImmediateSqliteDriver(this.#config, this.#durability);
  }
}
