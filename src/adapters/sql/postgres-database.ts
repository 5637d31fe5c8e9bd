// PostgreSQL behind the Database port, for scale-out. The dialect differences the shared queries must not
// see (int8 and numeric arriving as strings, the schema to work in) are all handled here.
import { Kysely, Migrator, PostgresDialect, sql } from 'kysely';
import pg from 'pg';
import type { Database, DbTransaction, Tables } from '../../ports/database.js';
import { migrationProvider } from './migrations.js';

export interface PostgresDatabaseOptions {
  /** Work in this schema (created by migrate() when missing) instead of the connection's default. */
  schema?: string;
  poolSize?: number;
  /**
   * An idle pooled connection that breaks (server restart, network) is dropped by the pool, which then
   * reports it here; without a listener pg's pool would crash the process with an unhandled 'error'.
   */
  onError?: (error: unknown) => void;
}

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Lower-case identifiers only, so the name needs no quoting in search_path or in pg's startup options. */
const SCHEMA_NAME = /^[a-z_][a-z0-9_]{0,62}$/;

export function createPostgresDatabase(url: string, options: PostgresDatabaseOptions = {}): Database {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`invalid PostgreSQL schema name "${schema}": use lower-case letters, digits and _`);
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: numberTypes(),
    // Sent in the startup packet, so every connection the pool ever opens has it before its first query:
    // no per-connection hook to race with.
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
  });
  const onError = options.onError ?? (() => {});
  pool.on('error', onError);
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }) });
  let closing: Promise<void> | null = null;

  return {
    dialect: 'postgres',
    db,
    transaction<T>(work: (trx: DbTransaction) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },
    async migrate() {
      // Kysely's Migrator serialises concurrent runs with a session advisory lock and applies the pending
      // migrations in one transaction, re-reading what ran once it holds the lock; creating its own tables
      // (and the schema) before that tolerates losing the race. migrationTableSchema matters: without it,
      // the migrator would take a kysely_migration table in ANY schema (another test's, public) as its own.
      const migrationTableSchema = schema ?? (await currentSchema(db));
      const migrator = new Migrator({
        db,
        provider: migrationProvider,
        ...(migrationTableSchema !== null ? { migrationTableSchema } : {}),
      });
      const { error } = await migrator.migrateToLatest();
      if (error) throw error;
    },
    async ping() {
      await sql`select 1`.execute(db);
    },
    close() {
      closing ??= db.destroy();
      return closing;
    },
  };
}

/** The schema unqualified names are created in (the first existing one on search_path). */
async function currentSchema(db: Kysely<Tables>): Promise<string | null> {
  const { rows } = await sql<{ schema: string | null }>`select current_schema() as schema`.execute(db);
  return rows[0]?.schema ?? null;
}

/**
 * count(*), sum() and bigint columns arrive from pg as strings (int8 can exceed 2^53); SQLite returns numbers.
 * Our int8 values are epoch milliseconds, byte sizes and counts, far below 2^53, so they become numbers.
 * Per pool, not pg.types: the global parser table is shared with every other pg user in the process.
 */
function numberTypes(): pg.CustomTypesConfig {
  const types = new pg.TypeOverrides();
  types.setTypeParser(INT8_OID, 'text', Number);
  types.setTypeParser(NUMERIC_OID, 'text', Number);
  return types;
}
