// End-to-end research throughput: URLs/s through the queue, the research worker and storage (SQLite +
// local folder) vs the same normalisation and classification in a tight loop, in the same run.
//
//   [BENCH_CPU_PROFILE=file.cpuprofile] npx tsx bench/research-pipeline.ts
// BENCH_CPU_PROFILE writes a V8 CPU profile of the main thread from the batch's creation to its end (startup and
// the tight loop left out), for bench/cpu-profile-summary.ts.
//
// A second line gives CPU time per URL: the tight loop's, and the pipeline's main thread's and every thread's
// (/proc, 10 ms ticks) over the same window as its URLs/s. On the shared two-core machine the rates swing with
// other processes' load; CPU time counts only while the thread runs, so it moves much less, and the loop's CPU
// over the main thread's (`CPU ratio`) says what the ratio would be with the cores to itself.
import { classifyUrl } from '../src/domain/urls.js';
import { type BenchResult, rate, report, withSeedbed } from './support.js';
import { mainThreadCpuMs, startCpuProfile } from './thread-cpu.js';

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
  const loopCpu = process.cpuUsage();
  let ok = 0;
  for (const url of loopInput) if (classifyUrl(url, 'sg').ok) ok++;
  const baseline = rate(ok, started);
  const loopCpuUs = cpuUs(process.cpuUsage(loopCpu)) / ok;
  let pipelineCpu = { mainUs: Number.NaN, allUs: Number.NaN };

  const profileFile = process.env['BENCH_CPU_PROFILE'];
  const subject = await withSeedbed({ SEEDBED_WORKER_CONCURRENCY: '2', ...env }, async (seedbed) => {
    const stopProfile = profileFile ? await startCpuProfile() : null;
    started = process.hrtime.bigint();
    const mainBefore = mainThreadCpuMs();
    const allBefore = process.cpuUsage();
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
    const mainAfter = mainThreadCpuMs();
    pipelineCpu = {
      mainUs:
        mainBefore === null || mainAfter === null ? Number.NaN : ((mainAfter - mainBefore) * 1000) / URLS,
      allUs: cpuUs(process.cpuUsage(allBefore)) / URLS,
    };
    await stopProfile?.(profileFile as string);
    const view = await seedbed.services.batches.get(batch.batchId);
    if (view.items.succeeded !== URLS) throw new Error(`pipeline lost URLs: ${JSON.stringify(view.items)}`);
    return urlsPerSecond;
  });
  const result = report({
    name: `research pipeline (${label})`,
    subject: 'queue + worker + storage',
    subjectValue: subject,
    baseline: 'normalisation in a tight loop',
    baselineValue: baseline,
    unit: 'URLs/s',
    ratio: subject / baseline,
  });
  process.stdout.write(
    `  CPU per URL: tight loop ${loopCpuUs.toFixed(1)} µs; pipeline main thread ${pipelineCpu.mainUs.toFixed(1)} µs, ` +
      `all threads ${pipelineCpu.allUs.toFixed(1)} µs → CPU ratio ${(loopCpuUs / pipelineCpu.mainUs).toFixed(3)}\n`,
  );
  return result;
}

function cpuUs(usage: NodeJS.CpuUsage): number {
  return usage.user + usage.system;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchResearchPipeline();
