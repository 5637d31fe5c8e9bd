// End-to-end research throughput: URLs/s through the queue, the research worker and storage (SQLite +
// local folder) vs the same normalisation and classification in a tight loop, in the same run.
//
//   [BENCH_ROUNDS=3] [BENCH_CPU_PROFILE=file.cpuprofile] npx tsx bench/research-pipeline.ts
//
// Warm, alternated rounds (since 2026-11-27 evening): one unmeasured batch of 2,000 URLs and one pass of the loop
// first, as a running service meets its next batch with its code compiled; then BENCH_ROUNDS rounds (default 3),
// each the loop over 20,000 URLs and right after it a batch of 20,000 URLs into a partition of its own. Each round
// gives a ratio (the batch's URLs/s over the loop's in the same minute), and the figure is the median round: on
// the shared two-core machine one cold pass of each swung by half between runs (the loop alone from 68,000 to
// 151,000 URLs/s), so a single pair said more about the minute than about the code.
// BENCH_CPU_PROFILE writes a V8 CPU profile of the main thread over the last round's batch (startup and the loop
// left out), for bench/cpu-profile-summary.ts.
//
// A second line gives CPU time per URL, of the median round: the tight loop's, and the pipeline's main thread's
// and every thread's (/proc, 10 ms ticks) over the same window as its URLs/s. CPU time counts only while the
// thread runs, so it moves much less than the rates, and the loop's CPU over the main thread's (`CPU ratio`) says
// what the ratio would be with the cores to itself.
import type { Seedbed } from '../src/composition.js';
import { classifyUrl } from '../src/domain/urls.js';
import { type BenchResult, batchEnded, rate, report, withSeedbed } from './support.js';
import { mainThreadCpuMs, startCpuProfile } from './thread-cpu.js';

const URLS = 20_000;
const WARMUP_URLS = 2_000;

function urls(tag: string, count = URLS): string[] {
  return Array.from({ length: count }, (_, i) => `https://www.site${i % 700}.gov.sg/${tag}/news/${i}#top`);
}

interface Round {
  loop: number;
  pipeline: number;
  ratio: number;
  loopCpuUs: number;
  mainUs: number;
  allUs: number;
}

/** The tight loop over fresh strings: URLs/s and CPU µs a URL. */
function tightLoop(tag: string): { rate: number; cpuUs: number } {
  const input = urls(tag);
  const started = process.hrtime.bigint();
  const cpu = process.cpuUsage();
  let ok = 0;
  for (const url of input) if (classifyUrl(url, 'sg').ok) ok++;
  return { rate: rate(ok, started), cpuUs: cpuUs(process.cpuUsage(cpu)) / ok };
}

/** One research batch of `items` into the partition of `date`, watched to its end: URLs/s and CPU µs a URL. */
async function pipelineBatch(
  seedbed: Seedbed,
  date: string,
  items: string[],
): Promise<{ rate: number; mainUs: number; allUs: number }> {
  const started = process.hrtime.bigint();
  const mainBefore = mainThreadCpuMs();
  const allBefore = process.cpuUsage();
  const { batch } = await seedbed.services.batches.create({
    type: 'research',
    queue: 'RESEARCH_QUEUE',
    country: 'sg',
    category: 'news',
    date,
    items,
    chunkSize: 100,
  });
  await batchEnded(seedbed, batch.batchId);
  const urlsPerSecond = rate(items.length, started);
  const mainAfter = mainThreadCpuMs();
  const allUs = cpuUs(process.cpuUsage(allBefore)) / items.length;
  const view = await seedbed.services.batches.get(batch.batchId);
  if (view.items.succeeded !== items.length)
    throw new Error(`pipeline lost URLs: ${JSON.stringify(view.items)}`);
  return {
    rate: urlsPerSecond,
    mainUs:
      mainBefore === null || mainAfter === null
        ? Number.NaN
        : ((mainAfter - mainBefore) * 1000) / items.length,
    allUs,
  };
}

export async function benchResearchPipeline(
  env: Record<string, string> = {},
  label = 'SQLite + folder',
): Promise<BenchResult> {
  const roundCount = Math.max(1, Number(process.env['BENCH_ROUNDS'] ?? 3));
  const profileFile = process.env['BENCH_CPU_PROFILE'];
  const rounds = await withSeedbed({ SEEDBED_WORKER_CONCURRENCY: '2', ...env }, async (seedbed) => {
    seedbed.startWorkers(['RESEARCH_QUEUE']);
    tightLoop('warm-up');
    await pipelineBatch(seedbed, '2026-11-20', urls('warm-up', WARMUP_URLS));
    const done: Round[] = [];
    for (let n = 0; n < roundCount; n += 1) {
      const loop = tightLoop(`loop-${n}`);
      const stopProfile = profileFile && n === roundCount - 1 ? await startCpuProfile() : null;
      const batch = await pipelineBatch(
        seedbed,
        `2026-11-${String(21 + n).padStart(2, '0')}`,
        urls(`pipeline-${n}`),
      );
      await stopProfile?.(profileFile as string);
      done.push({
        loop: loop.rate,
        pipeline: batch.rate,
        ratio: batch.rate / loop.rate,
        loopCpuUs: loop.cpuUs,
        mainUs: batch.mainUs,
        allUs: batch.allUs,
      });
    }
    return done;
  });
  const byRatio = [...rounds].sort((a, b) => a.ratio - b.ratio);
  const median = byRatio[Math.floor((byRatio.length - 1) / 2)] as Round;
  process.stdout.write(
    `  rounds (loop URLs/s → pipeline URLs/s = ratio (main thread µs a URL)): ${rounds
      .map(
        (r) =>
          `${Math.round(r.loop)} → ${Math.round(r.pipeline)} = ${r.ratio.toFixed(3)} (main ${r.mainUs.toFixed(1)} µs)`,
      )
      .join('; ')}\n`,
  );
  const result = report({
    name: `research pipeline (${label}), median of ${rounds.length} warm rounds`,
    subject: 'queue + worker + storage',
    subjectValue: median.pipeline,
    baseline: 'normalisation in a tight loop',
    baselineValue: median.loop,
    unit: 'URLs/s',
    ratio: median.ratio,
  });
  process.stdout.write(
    `  CPU per URL (median round): tight loop ${median.loopCpuUs.toFixed(1)} µs; pipeline main thread ` +
      `${median.mainUs.toFixed(1)} µs, all threads ${median.allUs.toFixed(1)} µs → CPU ratio ` +
      `${(median.loopCpuUs / median.mainUs).toFixed(3)}\n`,
  );
  return result;
}

function cpuUs(usage: NodeJS.CpuUsage): number {
  return usage.user + usage.system;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchResearchPipeline();
