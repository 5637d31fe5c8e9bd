// The queue contract for the embedded queue on PostgreSQL (a deployment with PostgreSQL and no pg-boss): its
// claim is written per dialect (CLAIM_TEXT), so each text is run against its own database.
import { afterAll } from 'vitest';
import { createEmbeddedQueue } from '../../src/adapters/embedded-queue.js';
import { createPostgresDatabase } from '../../src/adapters/sql/postgres-database.js';
import { dropSchemas, uniqueSchemaName } from '../support/postgres.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';
import { runQueueContract } from './queue.contract.js';

const up = await pgAvailable();
const schemas: string[] = [];
afterAll(() => dropSchemas(schemas));

if (up)
  runQueueContract('embedded on PostgreSQL', async () => {
    const schema = uniqueSchemaName('seedbed_embedded_queue');
    schemas.push(schema);
    const database = createPostgresDatabase(TEST_DATABASE_URL, { schema, poolSize: 3 });
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
