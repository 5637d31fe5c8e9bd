// Throwaway PostgreSQL schemas for tests: each suite works in schemas of its own, dropped afterwards, so
// test files can run in parallel against one database. Availability guards live in services.ts.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
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
