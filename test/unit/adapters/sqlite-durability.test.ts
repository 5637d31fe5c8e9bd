// SQLite's durability without an fsync on the main thread: the database file runs synchronous=NORMAL and answers a
// transaction, or a write outside one, only once the WAL's sync (held here by the test) has finished.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../../src/ports/database.js';

let dir: string;
let file: string;
let database: Database;
/** While true, syncs wait in `held` until the test lets them go. */
let holding: boolean;
let held: Array<() => void>;
let syncedPaths: string[];

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sqlite-durability-'));
  file = join(dir, 'seedbed.sqlite');
  holding = false;
  held = [];
  syncedPaths = [];
  database = createSqliteDatabase(file, {
    syncWal: (path) => {
      syncedPaths.push(path);
      return holding ? new Promise<void>((resolve) => held.push(resolve)) : Promise.resolve();
    },
  });
  await sql`create table notes (id integer primary key)`.execute(database.db);
});

afterEach(async () => {
  await database.close();
  await rm(dir, { recursive: true, force: true });
});

const tick = () => new Promise((resolve) => setImmediate(resolve));
const release = () => {
  for (const resolve of held.splice(0)) resolve();
};

/** What another process reads: the committed rows, durable or not. */
function committedIds(): number[] {
  const other = new BetterSqlite3(file, { readonly: true });
  try {
    return other
      .prepare('select id from notes order by id')
      .all()
      .map((row) => (row as { id: number }).id);
  } finally {
    other.close();
  }
}

/** One transaction that writes note `id`. */
function insertNote(id: number): Promise<void> {
  return database.transaction(async (trx) => {
    await trx
      .insertInto('notes' as never)
      .values({ id } as never)
      .execute();
  });
}

function watch(promise: Promise<unknown>) {
  const state = { done: false };
  void promise.then(() => {
    state.done = true;
  });
  return state;
}

describe('SQLite durability', () => {
  it('runs synchronous=NORMAL and syncs the database file’s WAL', async () => {
    const mode = await sql<{ synchronous: number }>`pragma synchronous`.execute(database.db);
    expect(mode.rows[0]?.synchronous).toBe(1);
    expect(syncedPaths).toContain(`${file}-wal`);
  });

  it('keeps a statement’s journal in memory, never in a temp file (temp_store = MEMORY)', async () => {
    const store = await sql<{ temp_store: number }>`pragma temp_store`.execute(database.db);
    expect(store.rows[0]?.temp_store).toBe(2);
  });

  it('answers a transaction only once the WAL sync after its commit has finished', async () => {
    holding = true;
    const answer = watch(insertNote(1));
    for (let i = 0; i < 5; i += 1) await tick();
    expect(committedIds()).toEqual([1]);
    expect(answer.done).toBe(false);
    expect(held).toHaveLength(1);
    release();
    await tick();
    expect(answer.done).toBe(true);
  });

  it('runs the next transaction while the previous one’s sync is in flight', async () => {
    holding = true;
    const first = watch(insertNote(1));
    for (let i = 0; i < 5; i += 1) await tick();
    const second = watch(insertNote(2));
    for (let i = 0; i < 5; i += 1) await tick();
    // Both committed, neither answered: the second waits for a sync of its own, begun after its commit.
    expect(committedIds()).toEqual([1, 2]);
    expect(first.done || second.done).toBe(false);
    release();
    for (let i = 0; i < 5; i += 1) await tick();
    expect(first.done).toBe(true);
    expect(second.done).toBe(false);
    release();
    await tick();
    expect(second.done).toBe(true);
  });

  it('answers a write outside any transaction only once the WAL is synced, and a read at once', async () => {
    holding = true;
    const write = watch(
      database.db
        .insertInto('notes' as never)
        .values({ id: 3 } as never)
        .execute(),
    );
    for (let i = 0; i < 5; i += 1) await tick();
    expect(committedIds()).toEqual([3]);
    expect(write.done).toBe(false);
    release();
    await tick();
    expect(write.done).toBe(true);
    const read = await database.db
      .selectFrom('notes' as never)
      .selectAll()
      .execute();
    expect(read).toHaveLength(1);
    expect(held).toHaveLength(0);
  });
});
