// PostgreSQL behind the Database port, for scale-out. The dialect differences the shared queries must not
// see (int8 and numeric arriving as strings, the schema to work in) are all handled here.
import { Kysely, Migrator, PostgresDialect, type PostgresPool, type PostgresPoolClient, sql } from 'kysely';
import pg from 'pg';
import { BackendUnavailableError } from '../../domain/errors.js';
import type { Database, DbTransaction, Tables } from '../../ports/database.js';
import { isPostgresUnavailable } from '../backend-errors.js';
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

/** How long opening a connection may take (pg waits for ever by default). */
const CONNECT_TIMEOUT_MS = 10_000;

export function createPostgresDatabase(url: string, options: PostgresDatabaseOptions = {}): Database {
  const { schema } = options;
  if (schema !== undefined && !SCHEMA_NAME.test(schema)) {
    throw new Error(`invalid PostgreSQL schema name "${schema}": use lower-case letters, digits and _`);
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: options.poolSize ?? 10,
    types: numberTypes(),
    // A server that accepts connections but never answers must not hold a request or a job for ever: a
    // connection attempt gives up after this, and the caller sees the backend as unavailable.
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    // Sent in the startup packet, so every connection the pool ever opens has it before its first query:
    // no per-connection hook to race with.
    ...(schema !== undefined ? { options: `-c search_path=${schema}` } : {}),
  });
  const onError = options.onError ?? (() => {});
  pool.on('error', onError);
  // pg-pool listens for errors only on idle clients. A checked-out client whose server goes away between two
  // statements (a transaction waiting on other work, PostgreSQL restarting) emits 'error' with nobody
  // listening, and Node ends the process. With this listener its next query fails instead, the caller's
  // transaction rolls back, and the broken client is dropped from the pool when it is released.
  pool.on('connect', (client) => {
    client.on('error', onError);
  });
  const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool: outageAware(pool) }) });
  let closing: Promise<void> | null = null;

  return {
    dialect: 'postgres',
    db,
    transaction<T>(work: (trx: DbTransaction) => Promise<T>): Promise<T> {
      return db.transaction().execute(work);
    },
    async readArrays(query) {
      try {
        const result = await pool.query({
          text: query.sql,
          values: [...query.parameters],
          rowMode: 'array',
        });
        return result.rows as unknown[][];
      } catch (error) {
        throw isPostgresUnavailable(error) ? new BackendUnavailableError('database', error) : error;
      }
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

/**
 * The pool as Kysely sees it, where a refused or lost connection (PostgreSQL down or restarting) surfaces as
 * BackendUnavailableError: the job that hit it is handed back unspent. Statement errors pass unchanged.
 */
function outageAware(pool: pg.Pool): PostgresPool {
  const unavailable = (error: unknown) =>
    isPostgresUnavailable(error) ? new BackendUnavailableError('database', error) : error;
  // Kysely keys its connection objects by client: one wrapper per pooled client, not one per checkout.
  const wrappers = new WeakMap<pg.PoolClient, PostgresPoolClient>();
  const wrap = (client: pg.PoolClient): PostgresPoolClient => {
    const wrapper: PostgresPoolClient = {
      // biome-ignore lint/suspicious/noExplicitAny: passes both of pg's query overloads through
      query: ((text: any, parameters?: readonly unknown[]) => {
        if (typeof text !== 'string') return client.query(text); // a cursor (streaming): pg's own object
        return client.query(text, parameters as unknown[]).catch((error: unknown) => {
          throw unavailable(error);
        });
      }) as PostgresPoolClient['query'],
      release: () => client.release(),
    };
    wrappers.set(client, wrapper);
    return wrapper;
  };
  return {
    async connect() {
      try {
        const client = await pool.connect();
        return wrappers.get(client) ?? wrap(client);
      } catch (error) {
        throw unavailable(error);
      }
    },
    end: () => pool.end(),
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
