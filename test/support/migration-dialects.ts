// The two databases a migration test runs on, each opened empty (PostgreSQL in a schema of its own, dropped after
// the test), and a migrator that stops at a given key: a migration's backfill is tested on rows written as the
// table stood before it.
import { Migrator } from 'kysely';
import { afterEach } from 'vitest';
import { migrationProvider } from '../../src/adapters/sql/migrations.js';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../src/ports/database.js';
import { dropSchemas, uniqueSchemaName } from './postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from './services.js';

export interface OpenedDatabase {
  database: Database;
  schema?: string;
}

export type MigrationDialect = [name: string, available: boolean, open: () => OpenedDatabase];

/** SQLite in memory, and PostgreSQL when it is reachable (a schema named after `prefix`). */
export async function migrationDialects(prefix: string): Promise<MigrationDialect[]> {
  const pgUp = await pgAvailable();
  return [
    ['SQLite', true, () => ({ database: createSqliteDatabase(':memory:') })],
    [
      'PostgreSQL',
      pgUp,
      () => {
        const schema = uniqueSchemaName(prefix);
        return { database: createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 2 }), schema };
      },
    ],
  ];
}

/**
 * Opens a database per test and closes it (and drops its schema) after each; call inside a describe. `open()`
 * returns the test's database.
 */
export function openedPerTest(open: () => OpenedDatabase): () => OpenedDatabase {
  let opened: OpenedDatabase | undefined;
  afterEach(async () => {
    await opened?.database.close();
    if (opened?.schema) await dropSchemas([opened.schema]);
    opened = undefined;
  });
  return () => {
    opened = open();
    return opened;
  };
}

/** Migrates the database up to `key`, inclusive (a failed migration fails the test). */
export async function migrateTo({ database, schema }: OpenedDatabase, key: string): Promise<Migrator> {
  const migrator = new Migrator({
    db: database.db,
    provider: migrationProvider,
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error } = await migrator.migrateTo(key);
  if (error) throw error;
  return migrator;
}
