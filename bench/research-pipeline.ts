// End-to-end research throughput: URLs/s through the queue, the research worker and storage (SQLite +
// local folder) vs the same normalisation and classification in a tight loop, in the same run.
//
//   [BENCH_CPU_PROFILE=file.cpuprofile] npx tsx bench/research-pipeline.ts
// BENCH_CPU_PROFILE writes a V8 CPU profile of the main thread from the batch's creation to its end (startup and
// the tight loop left out), for bench/cpu-profile-summary.ts.
import { classifyUrl } from '../src/domain/urls.js';
import { type BenchResult, rate, report, withSeedbed } from './support.js';
import { startCpuProfile } from './thread-cpu.js';

const URLS = 20_000;

function urls(tag: string): string[] {
  return Array.from({ length: URLS }, (_, i) => `https://www.site${i % 700}.gov.sg/${tag}/news/${i}#top`);
}

export async function benchResearchPipeline(
  env: Record<string, string> = {},
  label = 'SQLite + folder',
): Promise<BenchResult> {
  const loopInput = urls('loop');
  let started = process.hrtime.bigint();
  let ok = 0;
  for (const url of loopInput) if (classifyUrl(url, 'sg').ok) ok++;
  const baseline = rate(ok, started);

  const profileFile = process.env['BENCH_CPU_PROFILE'];
  const subject = await withSeedbed({ SEEDBED_WORKER_CONCURRENCY: '2', ...env }, async (seedbed) => {
    const stopProfile = profileFile ? await startCpuProfile() : null;
    started = process.hrtime.bigint();
    const { batch } = await seedbed.services.batches.create({
      type: 'research',
      queue: 'RESEARCH_QUEUE',
      country: 'sg',
      category: 'news',
      date: '2026-11-21',
      items: urls('pipeline'),
      chunkSize: 100,
    });
    seedbed.startWorkers(['RESEARCH_QUEUE']);
    // Watch the batch row's status alone: the batch view counts every item, chunk and domain of the batch,
    // and asking for it 50 times a second cost more of the one main thread and SQLite connection than the
    // pipeline it was watching. The full view is read once, after the clock stops, to check the result.
    for (;;) {
      const { status } = await seedbed.database.db
        .selectFrom('batches')
        .select('status')
        .where('id', '=', batch.batchId)
        .executeTakeFirstOrThrow();
      if (status !== 'queued' && status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const urlsPerSecond = rate(URLS, started);
    await stopProfile?.(profileFile as string);
    const view = await seedbed.services.batches.get(batch.batchId);
    if (view.items.succeeded !== URLS) throw new Error(`pipeline lost URLs: ${JSON.stringify(view.items)}`);
    return urlsPerSecond;
  });
  return report({
    name: `research pipeline (${label})`,
    subject: 'queue + worker + storage',
    subjectValue: subject,
    baseline: 'normalisation in a tight loop',
    baselineValue: baseline,
    unit: 'URLs/s',
    ratio: subject / baseline,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchResearchPipeline();
