// SQLite's checkpoints on their own thread (src/adapters/sql/checkpointer.ts): the service's connection takes none
// itself, the thread's connection copies the WAL into the database file, and a lost thread hands them back.
import { statSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from '../../../src/adapters/sql/checkpointer.js';
import { createSqliteDatabase } from '../../../src/adapters/sql/sqlite-database.js';

let dir: string;
let file: string;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sqlite-checkpointer-'));
  file = join(dir, 'seedbed.sqlite');
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A WAL-mode file whose own connection never checkpoints, with `pages` pages of rows committed into its WAL. */
function walWithPages(pages: number): BetterSqlite3.Database {
  const connection = new BetterSqlite3(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('wal_autocheckpoint = 0');
  connection.exec('create table blobs (id integer primary key, body blob)');
  const insert = connection.prepare('insert into blobs (body) values (?)');
  for (let i = 0; i < pages; i++) insert.run(Buffer.alloc(4000, i % 256));
  return connection;
}

describe('SQLite checkpoint thread', () => {
  it('copies the WAL into the database file while the connection that wrote it takes no checkpoint', async () => {
    const connection = walWithPages(300);
    const before = statSync(file).size;
    const checkpointer = startCheckpointer(file, (error) => {
      throw error;
    });
    try {
      // Wait for a checkpoint that found the frames and copied every one.
      let result = await checkpointer.next();
      while (result.log === 0 || result.checkpointed < result.log) result = await checkpointer.next();
      expect(result.checkpointed).toBeGreaterThanOrEqual(300);
      expect(statSync(file).size).toBeGreaterThan(before + 300 * 4000);
    } finally {
      await checkpointer.close();
      connection.close();
    }
  });

  it('tells its owner when the thread is lost (the owner then takes its checkpoints back)', async () => {
    let lost: unknown;
    // A file that is not a database: the thread fails at its first checkpoint.
    const notADatabase = join(dir, 'not-a-database');
    await writeFile(notADatabase, 'x'.repeat(8192));
    const checkpointer = startCheckpointer(notADatabase, (error) => {
      lost = error;
    });
    try {
      for (let i = 0; i < 100 && lost === undefined; i++) await new Promise((r) => setTimeout(r, 20));
      expect(lost).toMatchObject({ code: 'SQLITE_NOTADB' });
    } finally {
      await checkpointer.close();
    }
  });

  it('leaves a file database’s own connection without automatic checkpoints, and closes cleanly', async () => {
    const database = createSqliteDatabase(file);
    await database.migrate();
    const { rows } = await sql`pragma wal_autocheckpoint`.execute(database.db);
    expect(rows).toEqual([{ wal_autocheckpoint: 0 }]);
    const other = new BetterSqlite3(file, { readonly: true });
    try {
      expect(other.prepare('select count(*) as n from kysely_migration').get()).toMatchObject({
        n: expect.any(Number),
      });
    } finally {
      other.close();
    }
    await database.close();
    // The main connection closed last: SQLite checkpointed what was left and removed the WAL.
    expect(() => statSync(`${file}-wal`)).toThrow();
  });
});
