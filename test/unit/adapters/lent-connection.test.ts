// The SQLite adapter's transactions run compiled text (executeCompiled) and group commit's savepoints on the
// connection directly: the same all-or-nothing per work as through Kysely, and the way in is taken back when
// the work ends.
import { CompiledQuery, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createSqliteDatabase } from '../../../src/adapters/sql/sqlite-database.js';
import { type Database, type DbTransaction, executeCompiled } from '../../../src/ports/database.js';

let database: Database;

beforeEach(async () => {
  database = createSqliteDatabase(':memory:');
  await sql`create table notes (id integer primary key, text text not null)`.execute(database.db);
});

afterEach(async () => {
  await database.close();
});

const insertNote = (executor: DbTransaction, id: number) =>
  executeCompiled(
    executor,
    CompiledQuery.raw('insert into notes (id, text) values (?, ?)', [id, `note ${id}`]),
  );

const noteIds = async () =>
  (await sql<{ id: number }>`select id from notes order by id`.execute(database.db)).rows.map((r) => r.id);

describe('a transaction’s lent connection (SQLite)', () => {
  it('keeps each grouped work all-or-nothing: a failed one leaves none of its rows, the others keep theirs', async () => {
    const results = await Promise.allSettled([
      database.transaction(async (trx) => insertNote(trx, 1)),
      database.transaction(async (trx) => {
        await insertNote(trx, 2);
        throw new Error('work 2 fails after its insert');
      }),
      database.transaction(async (trx) => {
        await insertNote(trx, 3);
        // A constraint error of a direct statement fails this work alone, as through Kysely.
        await insertNote(trx, 1);
      }),
      database.transaction(async (trx) => {
        const { rows } = await executeCompiled<{ n: number }>(
          trx,
          CompiledQuery.raw('select count(*) as n from notes where id = ?', [1]),
        );
        await insertNote(trx, 4);
        return rows[0]?.n;
      }),
    ]);
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled']);
    expect((results[2] as PromiseRejectedResult).reason).toMatchObject({
      code: 'SQLITE_CONSTRAINT_PRIMARYKEY',
    });
    expect((results[3] as PromiseFulfilledResult<number>).value).toBe(1);
    expect(await noteIds()).toEqual([1, 4]);
  });

  it('takes the connection back when the work ends: a kept transaction can no longer write through it', async () => {
    let kept: DbTransaction | undefined;
    await database.transaction(async (trx) => {
      kept = trx;
      await insertNote(trx, 1);
    });
    // Through Kysely again, which refuses a committed transaction.
    await expect(async () => insertNote(kept as DbTransaction, 2)).rejects.toThrow(/already committed/);
    expect(await noteIds()).toEqual([1]);
  });
});
