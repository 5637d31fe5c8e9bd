// Steps that come together share one transaction and one commit, and each still succeeds or fails on its own.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Database } from '../../src/ports/database.js';
import { createCommitGroup } from '../../src/services/commit-group.js';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';

describe('commit group', () => {
  let t: TestSeedbed;
  let transactions: number;
  let counted: Pick<Database, 'transaction'>;
  beforeEach(async () => {
    t = await createTestSeedbed();
    await sql`create table grouped_rows (n integer not null)`.execute(t.seedbed.database.db);
    transactions = 0;
    counted = {
      transaction: (work) => {
        transactions += 1;
        return t.seedbed.database.transaction(work);
      },
    };
  });
  afterEach(() => t.close());

  const insert = (n: number) => async (trx: Parameters<Parameters<Database['transaction']>[0]>[0]) => {
    await sql`insert into grouped_rows (n) values (${n})`.execute(trx);
    return n * 10;
  };
  const rows = async () =>
    (await sql<{ n: number }>`select n from grouped_rows order by n`.execute(t.seedbed.database.db)).rows.map(
      (r) => Number(r.n),
    );

  it('commits the steps of a few milliseconds in one transaction, each answered with its own value', async () => {
    const group = createCommitGroup(counted, 20);
    const values = await Promise.all([1, 2, 3].map((n) => group.run(insert(n))));
    expect(values).toEqual([10, 20, 30]);
    expect(transactions).toBe(1);
    expect(await rows()).toEqual([1, 2, 3]);
  });

  it('rolls back only the step that fails, and rejects only its caller', async () => {
    const group = createCommitGroup(counted, 20);
    const failing = async (trx: Parameters<Parameters<Database['transaction']>[0]>[0]) => {
      await insert(99)(trx);
      throw new Error('this item cannot be recorded');
    };
    const [one, two, three] = await Promise.allSettled([
      group.run(insert(1)),
      group.run(failing),
      group.run(insert(3)),
    ]);
    expect(one).toEqual({ status: 'fulfilled', value: 10 });
    expect(two.status === 'rejected' && (two.reason as Error).message).toBe('this item cannot be recorded');
    expect(three).toEqual({ status: 'fulfilled', value: 30 });
    expect(transactions).toBe(1);
    expect(await rows()).toEqual([1, 3]);
  });

  it('splits a long line of steps into groups of at most the given size', async () => {
    const group = createCommitGroup(counted, 20, 2);
    const values = await Promise.all([1, 2, 3, 4, 5].map((n) => group.run(insert(n))));
    expect(values).toEqual([10, 20, 30, 40, 50]);
    expect(transactions).toBe(3);
    expect(await rows()).toEqual([1, 2, 3, 4, 5]);
  });

  it('answers a step alone in a transaction of its own, its failure rolled back whole', async () => {
    const group = createCommitGroup(counted, 1);
    await expect(
      group.run(async (trx) => {
        await insert(7)(trx);
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(await group.run(insert(8))).toBe(80);
    expect(await rows()).toEqual([8]);
  });
});
