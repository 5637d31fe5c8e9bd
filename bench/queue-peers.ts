// No-op jobs/s on the embedded queue and on pg-boss, side by side with BullMQ on the machine's Redis as a
// peer, in the same run: enqueue N jobs (in transactions for ours), consume them with the same concurrency.
import { Queue as BullQueue, Worker as BullWorker } from 'bullmq';
import { sql } from 'kysely';
import { createEmbeddedQueue } from '../src/adapters/embedded-queue.js';
import { createPgBossQueue } from '../src/adapters/pg-boss-queue.js';
import { createPostgresDatabase } from '../src/adapters/sql/postgres-database.js';
import { createSqliteDatabase } from '../src/adapters/sql/sqlite-database.js';
import type { Database } from '../src/ports/database.js';
import type { JobQueue } from '../src/ports/queue.js';
import { type BenchResult, rate, report } from './support.js';

const JOBS = 5_000;
const CONCURRENCY = 8;
const PG_URL = process.env['SEEDBED_TEST_DATABASE_URL'] ?? 'postgres://postgres@127.0.0.1:5432/test';
const REDIS = { host: '127.0.0.1', port: 6379 };

async function ours(database: Database, queue: JobQueue): Promise<number> {
  await queue.start();
  const started = process.hrtime.bigint();
  for (let i = 0; i < JOBS; i += 1000) {
    await database.transaction((trx) =>
      queue.enqueue(
        trx,
        Array.from({ length: 1000 }, (_, n) => ({ queue: 'RESEARCH_QUEUE' as const, payload: { n: i + n } })),
      ),
    );
  }
  let done = 0;
  await new Promise<void>((resolve) => {
    queue.consume('RESEARCH_QUEUE', { concurrency: CONCURRENCY }, async () => {
      if (++done === JOBS) resolve();
    });
  });
  const jobsPerSecond = rate(JOBS, started);
  await queue.stop();
  return jobsPerSecond;
}

async function bullmq(): Promise<number> {
  const name = `seedbed-bench-${process.pid}`;
  const queue = new BullQueue(name, { connection: REDIS });
  await queue.obliterate({ force: true }).catch(() => undefined);
  const started = process.hrtime.bigint();
  for (let i = 0; i < JOBS; i += 1000) {
    await queue.addBulk(
      Array.from({ length: 1000 }, (_, n) => ({
        name: 'noop',
        data: { n: i + n },
        opts: { removeOnComplete: true },
      })),
    );
  }
  let done = 0;
  let worker: BullWorker | undefined;
  await new Promise<void>((resolve) => {
    worker = new BullWorker(
      name,
      async () => {
        if (++done === JOBS) resolve();
      },
      { connection: REDIS, concurrency: CONCURRENCY },
    );
  });
  const jobsPerSecond = rate(JOBS, started);
  await worker?.close();
  await queue.obliterate({ force: true });
  await queue.close();
  return jobsPerSecond;
}

export async function benchQueuePeers(): Promise<BenchResult[]> {
  const peer = await bullmq();

  const sqlite = createSqliteDatabase(':memory:');
  await sqlite.migrate();
  const embedded = await ours(sqlite, createEmbeddedQueue(sqlite, { pollIntervalMs: 5 }));
  await sqlite.close();

  const schema = `bench_${process.pid}`;
  const postgres = createPostgresDatabase(PG_URL, { schema });
  await postgres.migrate();
  const boss = await ours(
    postgres,
    createPgBossQueue(postgres, { connectionString: PG_URL, schema: `${schema}_boss`, pollIntervalMs: 50 }),
  );
  await sql
    .raw(`drop schema if exists ${schema} cascade; drop schema if exists ${schema}_boss cascade`)
    .execute(postgres.db);
  await postgres.close();

  const result = (subject: string, value: number) =>
    report({
      name: `queue, ${JOBS} no-op jobs, concurrency ${CONCURRENCY}`,
      subject,
      subjectValue: value,
      baseline: 'BullMQ on Redis',
      baselineValue: peer,
      unit: 'jobs/s',
      ratio: value / peer,
    });
  return [result('embedded queue (SQLite)', embedded), result('pg-boss queue (PostgreSQL)', boss)];
}

if (import.meta.url === `file://${process.argv[1]}`) await benchQueuePeers();
