// Throwaway PostgreSQL schemas for tests: each suite works in schemas of its own, dropped afterwards, so
// test files can run in parallel against one database. Availability guards live in services.ts.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { createTestSeedbed, type TestSeedbed } from './harness.js';
import { TEST_DATABASE_URL } from './services.js';

/** A schema name no other test uses: `prefix_` + 12 random hex characters. */
export function uniqueSchemaName(prefix: string): string {
  return `${prefix}_${randomBytes(6).toString('hex')}`;
}

export async function dropSchemas(names: readonly string[], url: string = TEST_DATABASE_URL): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    for (const name of names) {
      await client.query(`DROP SCHEMA IF EXISTS ${pg.escapeIdentifier(name)} CASCADE`);
    }
  } finally {
    await client.end();
  }
}

/**
 * A test Seedbed on a PostgreSQL database of its own (created here, dropped on close), for tests whose service
 * path needs transactions side by side with reads outside them (SQLite has one connection). Check pgAvailable first.
 */
export async function createPostgresTestSeedbed(
  env: Record<string, string>,
  prefix: string,
): Promise<TestSeedbed> {
  const name = uniqueSchemaName(prefix);
  const admin = async (statement: string) => {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(statement);
    } finally {
      await client.end();
    }
  };
  await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  const t = await createTestSeedbed({ SEEDBED_RATE_LIMIT: '1000000', ...env, DATABASE_URL: url.toString() });
  return {
    ...t,
    async close() {
      await t.close();
      await admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`);
    },
  };
}
