import { describe, expect, it } from 'vitest';
import { createEmbeddedQueue } from '../../src/adapters/embedded-queue.js';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import type { Database } from '../../src/ports/database.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';
import { until } from '../support/waiting.js';
import { runQueueContract } from './queue.contract.js';

/** The queue contract's subject on a migrated database; `cleanup` runs after the database is closed. */
async function embeddedOn(database: Database, cleanup: () => Promise<void> = async () => {}) {
  await database.migrate();
  const queue = createEmbeddedQueue(database, { pollIntervalMs: 20, backoff: { baseMs: 10, maxMs: 50 } });
  return {
    database,
    queue,
    async expireLeases() {
      await database.db.updateTable('jobs').set({ lease_until: 0 }).where('state', '=', 'active').execute();
    },
    async cleanup() {
      await database.close();
      await cleanup();
    },
  };
}

runQueueContract('embedded on SQLite', () => embeddedOn(createSqliteDatabase(':memory:')));

// The embedded queue runs on PostgreSQL too (its claim locks with FOR UPDATE SKIP LOCKED there).
describe.skipIf(!(await pgAvailable()))('embedded queue on PostgreSQL', () => {
  runQueueContract('embedded on PostgreSQL', () => {
    const schema = uniqueSchemaName('seedbed_eq');
    return embeddedOn(createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 4 }), () =>
      dropSchemas([schema]),
    );
  });
});

describe('embedded queue schedules', () => {
  it('puts one job per tick on the queue, however many processes schedule it, with the tick as slot', async () => {
    const database = createSqliteDatabase(':memory:');
    await database.migrate();
    // Two queues over one database stand for two processes sharing the SQLite file.
    const first = createEmbeddedQueue(database, { pollIntervalMs: 20 });
    const second = createEmbeddedQueue(database, { pollIntervalMs: 20 });
    try {
      await first.schedule('METADATA_QUEUE', '* * * * * *', { scheduled: true });
      await second.schedule('METADATA_QUEUE', '* * * * * *', { scheduled: true });
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      const rows = await database.db
        .selectFrom('jobs')
        .select(['payload'])
        .where('queue', '=', 'METADATA_QUEUE')
        .execute();
      const slots = rows.map((r) => JSON.parse(r.payload).slot as string);
      expect(slots.length).toBeGreaterThanOrEqual(2);
      expect(new Set(slots).size).toBe(slots.length);
      expect(rows.every((r) => JSON.parse(r.payload).scheduled === true)).toBe(true);
    } finally {
      await first.stop();
      await second.stop();
      await database.close();
    }
  });
});

describe('embedded queue acknowledgements', () => {
  it('commits an acknowledgement on its own when the claim it waited for fails', async () => {
    const database = createSqliteDatabase(':memory:');
    await database.migrate();
    // The acknowledgement of a finished job waits for the consumer's next claim, to commit with it; that
    // claim's transaction is made to fail once.
    let failNextTransaction = false;
    const failing: Database = {
      ...database,
      transaction(work) {
        if (failNextTransaction) {
          failNextTransaction = false;
          return Promise.reject(new Error('claim failed'));
        }
        return database.transaction(work);
      },
    };
    const errors: unknown[] = [];
    const queue = createEmbeddedQueue(failing, { pollIntervalMs: 20, onError: (e) => errors.push(e) });
    try {
      await database.transaction((trx) =>
        queue.enqueue(trx, [{ queue: 'RESEARCH_QUEUE', payload: { n: 1 } }]),
      );
      const deliveries: number[] = [];
      const consumer = queue.consume('RESEARCH_QUEUE', { concurrency: 1 }, async (job) => {
        deliveries.push(job.attempt);
        failNextTransaction = true;
      });
      await until('the job is acknowledged', async () => {
        const left = await database.db.selectFrom('jobs').select('id').execute();
        return left.length === 0;
      });
      await consumer.stop();
      expect(deliveries).toEqual([1]);
      expect(errors.map(String)).toEqual(['Error: claim failed']);
    } finally {
      await queue.stop();
      await database.close();
    }
  });
});
