// Promote by filter over a directory of SEEDBED_BENCH_ACTION_SEEDS seeds (1,000,000 by default; 90 % of them
// drafts of `fr`, the rest of `de`), on the embedded default: POST-equivalent `seedActions.run` then the batch on
// SEED_ACTION_QUEUE to its end, in seeds per second, against a raw keyset loop over the same drafts (500 ids read
// after the last, one UPDATE per 500 in its own transaction, no batch rows) in the same run. Also: how long the
// request takes to answer 202, and the process's RSS while the batch runs (it must not grow with the matches).
import { resolveSeedIdentity } from '../src/domain/seed-identity.js';
import { seedCreateSchema } from '../src/domain/seeds.js';
import { draftRowOf, storedRowOf } from '../src/services/seed-repository/rows.js';
import { type BenchResult, report, withSeedbed } from './support.js';

const SEEDS = Number(process.env['SEEDBED_BENCH_ACTION_SEEDS'] ?? 1_000_000);
const ROWS_PER_STATEMENT = 100;
const ROWS_PER_TRANSACTION = 10_000;
const RAW_PAGE = 500;
const MB = 1024 * 1024;

export async function benchSeedActions(): Promise<BenchResult[]> {
  return withSeedbed({}, async (seedbed) => {
    const { database } = seedbed;
    const db = database.db;
    const body = seedCreateSchema.parse({ domain: 'template.fr', country: 'fr', category: 'news' });
    const template = storedRowOf(
      draftRowOf(body, resolveSeedIdentity(body), '2026-06-01T00:00:00.000Z', {
        source: 'import',
      }),
    );
    const rowOf = (i: number) => {
      const country = i % 10 === 9 ? 'de' : 'fr';
      const host = `news${String(i).padStart(7, '0')}.${country}`;
      return {
        ...template,
        seed_id: `other:${country}:${host}::news`,
        domain_id: `other:${country}:${host}`,
        registrable_domain: host,
        country,
        source_type: 'other' as const,
      };
    };
    for (let start = 0; start < SEEDS; start += ROWS_PER_TRANSACTION) {
      await database.transaction(async (trx) => {
        const end = Math.min(SEEDS, start + ROWS_PER_TRANSACTION);
        for (let i = start; i < end; i += ROWS_PER_STATEMENT) {
          const rows = [];
          for (let j = i; j < Math.min(end, i + ROWS_PER_STATEMENT); j++) rows.push(rowOf(j));
          await trx.insertInto('seeds').values(rows).execute();
        }
      });
    }
    const drafts = async () =>
      Number(
        (
          await db
            .selectFrom('seeds')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('country', '=', 'fr')
            .where('status', '=', 'draft')
            .executeTakeFirstOrThrow()
        ).n,
      );
    const matching = await drafts();

    // Baseline: the storage's own cost of moving these drafts, a page at a time by seed id.
    let started = process.hrtime.bigint();
    let after = '';
    for (;;) {
      const ids = (
        await db
          .selectFrom('seeds')
          .select('seed_id')
          .where('country', '=', 'fr')
          .where('status', '=', 'draft')
          .where('seed_id', '>', after)
          .orderBy('seed_id')
          .limit(RAW_PAGE)
          .execute()
      ).map((row) => row.seed_id);
      if (ids.length === 0) break;
      const at = new Date().toISOString();
      await database.transaction((trx) =>
        trx
          .updateTable('seeds')
          .set({ status: 'active', promoted_at: at, updated_at: at })
          .where('seed_id', 'in', ids)
          .execute(),
      );
      after = ids.at(-1) as string;
    }
    const rawSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    await db
      .updateTable('seeds')
      .set({ status: 'draft', promoted_at: null })
      .where('country', '=', 'fr')
      .execute();
    if ((await drafts()) !== matching) throw new Error('the drafts were not put back');

    // Subject: promote by filter, through the service the route calls, and the batch to its end.
    const rssBefore = process.memoryUsage().rss;
    let rssPeak = rssBefore;
    const sampler = setInterval(() => {
      rssPeak = Math.max(rssPeak, process.memoryUsage().rss);
    }, 200);
    started = process.hrtime.bigint();
    const outcome = await seedbed.services.seedActions.run(
      'promote',
      { filter: { country: 'fr' } },
      { idempotencyKey: null, author: 'bench' },
    );
    const answeredMs = Number(process.hrtime.bigint() - started) / 1e6;
    if (outcome.kind !== 'batch') throw new Error('a filter this large must become a batch');
    seedbed.startWorkers(['SEED_ACTION_QUEUE']);
    let batch = await seedbed.services.batches.get(outcome.batch.batchId);
    while (batch.status === 'queued' || batch.status === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 2000));
      batch = await seedbed.services.batches.get(outcome.batch.batchId);
    }
    const batchSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    clearInterval(sampler);
    if (batch.status !== 'completed' || batch.items.succeeded !== matching || (await drafts()) !== 0)
      throw new Error(`batch ${batch.status}: ${JSON.stringify(batch.items)} of ${matching}`);
    process.stdout.write(
      `seed-actions: ${SEEDS} seeds, ${matching} matching; 202 after ${answeredMs.toFixed(0)} ms; ` +
        `RSS ${Math.round(rssBefore / MB)} MiB before the batch, peak ${Math.round(rssPeak / MB)} MiB during it\n`,
    );
    return [
      report({
        name: 'seed-actions',
        subject: `promote by filter, ${matching} matches, as a batch`,
        subjectValue: matching / batchSeconds,
        baseline: 'raw keyset UPDATE of the same drafts, 500 a transaction',
        baselineValue: matching / rawSeconds,
        unit: 'seeds/s',
        ratio: rawSeconds / batchSeconds,
      }),
    ];
  });
}
