import { createEmbeddedQueue } from '../../src/adapters/embedded-queue.js';
import { createSqliteDatabase } from '../../src/adapters/sql/sqlite-database.js';
import { runQueueContract } from './queue.contract.js';

runQueueContract('embedded on SQLite', async () => {
  const database = createSqliteDatabase(':memory:');
  await database.migrate();
  const queue = createEmbeddedQueue(database, { pollIntervalMs: 20, backoff: { baseMs: 10, maxMs: 50 } });
  return {
    database,
    queue,
    async expireLeases() {
      await database.db.updateTable('jobs').set({ lease_until: 0 }).where('state', '=', 'active').execute();
    },
    cleanup: () => database.close(),
  };
});
