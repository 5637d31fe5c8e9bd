// SQLite's group commit: transactions asked for together share one commit, each keeps its own all-or-nothing,
// and none is answered before the commit that made it durable.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { groupCommit } from '../../../src/adapters/sql/group-commit.js';

interface Tables {
  notes: { id: number; text: string };
  parents: { id: number };
  children: { id: number; parent: number };
}

let dir: string;
let file: string;
let db: Kysely<Tables>;
let commits: number;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'group-commit-'));
  file = join(dir, 'db.sqlite');
  const connection = new BetterSqlite3(file);
  connection.pragma('journal_mode = WAL');
  connection.pragma('foreign_keys = ON');
  connection.exec(`
    create table notes (id integer primary key, text text not null);
    create table parents (id integer primary key);
    create table children (id integer primary key,
      parent integer not null references parents (id) deferrable initially deferred);
  `);
  commits = 0;
  db = new Kysely<Tables>({
    dialect: new SqliteDialect({
      database: {
        prepare(text: string) {
          if (text === 'commit') commits += 1;
          return connection.prepare(text);
        },
        close: () => connection.close(),
      },
    }),
  });
});

afterEach(async () => {
  await db.destroy();
  await rm(dir, { recursive: true, force: true });
});

const insertNote = (id: number) => async (trx: Kysely<Tables>) => {
  await trx
    .insertInto('notes')
    .values({ id, text: `note ${id}` })
    .execute();
  return id;
};

const noteIds = async () =>
  (await db.selectFrom('notes').select('id').orderBy('id').execute()).map((row) => row.id);

describe('group commit', () => {
  it('commits the transactions asked for in one turn together, each answered with its own value', async () => {
    const transaction = groupCommit(db);
    const answers = await Promise.all([1, 2, 3].map((id) => transaction(insertNote(id))));
    expect(answers).toEqual([1, 2, 3]);
    expect(commits).toBe(1);
    expect(await noteIds()).toEqual([1, 2, 3]);
  });

  it('lets works that may wait share a commit across turns, until the earliest wait is over', async () => {
    const transaction = groupCommit(db);
    const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
    const first = transaction(insertNote(1), { shareCommitWithinMs: 60 });
    await sleep(5);
    const second = transaction(insertNote(2), { shareCommitWithinMs: 60 });
    await sleep(5);
    // Neither is answered nor even written before the first one's wait is over.
    expect(commits).toBe(0);
    expect(await Promise.all([first, second])).toEqual([1, 2]);
    expect(commits).toBe(1);
    // A work that cannot wait starts the group at once and takes the waiting one along (were it left to its
    // wait of ten minutes, the test would time out).
    const waiting = transaction(insertNote(3), { shareCommitWithinMs: 600_000 });
    await sleep(5);
    await Promise.all([transaction(insertNote(4)), waiting]);
    expect(commits).toBe(2);
    expect(await noteIds()).toEqual([1, 2, 3, 4]);
  });

  it('gives each work the writes of the works before it in the group', async () => {
    const transaction = groupCommit(db);
    const [, seen] = await Promise.all([
      transaction(insertNote(1)),
      transaction(async (trx) => (await trx.selectFrom('notes').select('id').execute()).length),
    ]);
    expect(seen).toBe(1);
  });

  it('rolls back only the work that failed, first or later in its group, and fails only its caller', async () => {
    const transaction = groupCommit(db);
    const failing = (id: number) => async (trx: Kysely<Tables>) => {
      await insertNote(id)(trx);
      throw new Error(`work ${id} failed`);
    };
    const results = await Promise.allSettled([
      transaction(failing(1)),
      transaction(insertNote(2)),
      transaction(failing(3)),
      transaction(insertNote(4)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toEqual(new Error('work 3 failed'));
    expect(await noteIds()).toEqual([2, 4]);
  });

  it('answers a work only once its commit is durable: another connection already reads its rows', async () => {
    const transaction = groupCommit(db);
    const other = new BetterSqlite3(file, { readonly: true });
    try {
      const seenOnAnswer = await Promise.all(
        [1, 2].map((id) =>
          transaction(insertNote(id)).then(
            () => other.prepare('select count(*) as n from notes where id = ?').get(id) as { n: number },
          ),
        ),
      );
      expect(seenOnAnswer).toEqual([{ n: 1 }, { n: 1 }]);
    } finally {
      other.close();
    }
  });

  it('fails every work of a group whose commit fails, and writes none of them', async () => {
    const transaction = groupCommit(db);
    const results = await Promise.allSettled([
      transaction(insertNote(1)),
      // A deferred foreign key is checked at commit: this child's parent never exists.
      transaction(async (trx) => {
        await trx.insertInto('children').values({ id: 1, parent: 99 }).execute();
      }),
      transaction(insertNote(2)),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(await noteIds()).toEqual([]);
    // The connection is free again: the next transaction commits.
    await transaction(insertNote(3));
    expect(await noteIds()).toEqual([3]);
    const count = await sql<{ n: number }>`select count(*) as n from children`.execute(db);
    expect(count.rows[0]?.n).toBe(0);
  });
});
