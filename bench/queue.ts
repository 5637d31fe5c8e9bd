// Embedded queue throughput with no-op jobs (enqueue in transactions, consume, acknowledge) vs a raw
// SQLite loop doing the same row work (insert, claim by update, delete) without the queue engine.
import BetterSqlite3 from 'better-sqlite3';
import { createEmbeddedQueue } from '../src/adapters/embedded-queue.js';
import { createSqliteDatabase } from '../src/adapters/sql/sqlite-database.js';
import { type BenchResult, rate, report } from './support.js';

const JOBS = 5_000;

export async function benchEmbeddedQueue(): Promise<BenchResult> {
  const raw = new BetterSqlite3(':memory:');
  raw.exec(
    'create table jobs (id integer primary key, queue text, payload text, state text, lease_until integer)',
  );
  const insert = raw.prepare("insert into jobs (queue, payload, state) values ('q', ?, 'queued')");
  const claim = raw.prepare(
    "update jobs set state = 'active', lease_until = ? where id = (select id from jobs where state = 'queued' order by id limit 1) returning id",
  );
  const remove = raw.prepare('delete from jobs where id = ?');
  let started = process.hrtime.bigint();
  raw.transaction(() => {
    for (let i = 0; i < JOBS; i++) insert.run(JSON.stringify({ n: i }));
  })();
  for (;;) {
    const row = claim.get(Date.now() + 60_000) as { id: number } | undefined;
    if (!row) break;
    remove.run(row.id);
  }
  const baseline = rate(JOBS, started);
  raw.close();

  const database = createSqliteDatabase(':memory:');
  await database.migrate();
  const queue = createEmbeddedQueue(database, { pollIntervalMs: 5 });
  started = process.hrtime.bigint();
  await database.transaction((trx) =>
    queue.enqueue(
      trx,
      Array.from({ length: JOBS }, (_, n) => ({ queue: 'RESEARCH_QUEUE' as const, payload: { n } })),
    ),
  );
  let done = 0;
  const finished = new Promise<void>((resolve) => {
    queue.consume('RESEARCH_QUEUE', { concurrency: 4 }, async () => {
      if (++done === JOBS) resolve();
    });
  });
  await finished;
  const subject = rate(JOBS, started);
  await queue.stop();
  await database.close();
  return report({
    name: 'embedded queue, no-op jobs',
    subject: 'embedded queue',
    subjectValue: subject,
    baseline: 'raw SQLite insert/claim/delete loop',
    baselineValue: baseline,
    unit: 'jobs/s',
    ratio: subject / baseline,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchEmbeddedQueue();
