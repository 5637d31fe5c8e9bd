// Migration 0004 on a database that already holds liveness results: each latest result becomes the first entry
// of its domain's history, so a domain checked before the upgrade still has a history.
import { Migrator } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { migrationProvider } from '../../src/adapters/sql/migrations.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../src/ports/database.js';

describe('migration 0004_liveness_history', () => {
  let database: Database | undefined;
  afterEach(() => database?.close());

  it('copies every latest result into the new history table', async () => {
    database = createSqliteDatabase(':memory:');
    const migrator = new Migrator({ db: database.db, provider: migrationProvider });
    expect((await migrator.migrateTo('0001_initial')).error).toBeUndefined();
    await database.db
      .insertInto('liveness_results')
      .values({
        domain: 'www.a.fr',
        alive: 0,
        state: 'dead',
        http_status: 503,
        final_url: null,
        https: 1,
        latency_ms: 40,
        error_code: null,
        error_message: 'unavailable',
        checked_at: '2025-01-02T03:04:05.678Z',
        batch_id: 'b1',
      })
      .execute();
    await database.migrate();
    const history = await database.db.selectFrom('liveness_history').selectAll().execute();
    expect(history).toEqual([
      {
        id: '0-www.a.fr',
        domain: 'www.a.fr',
        registrable_domain: null,
        alive: 0,
        state: 'dead',
        http_status: 503,
        final_url: null,
        https: 1,
        latency_ms: 40,
        error_code: null,
        error_message: 'unavailable',
        checked_at: '2025-01-02T03:04:05.678Z',
        batch_id: 'b1',
        evidence: null,
      },
    ]);
  });
});
