// Two code trees' research pipelines in one process, their batches alternated A B B A A B …, each batch's main-thread
// CPU a URL from /proc and its wall clock a URL: paired samples seconds apart, for telling apart two versions of the code on a shared
// machine where runs of bench/research-pipeline.ts in turn swung by ±10 µs a URL (docs/performance.md, "Eighth
// pass"). Each tree keeps its own modules (its own path), database and folder; node_modules is shared.
//
//   npx tsx bench/pipeline-alternate.ts <treeA> <treeB> [pairs, default 16]
//
// A tree is a checkout of the repository, e.g. `git archive <commit> | tar -x -C /tmp/base` with node_modules
// linked in. Prints every batch, then each side's median and the median of the pairs' differences (B − A).
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Seedbed } from '../src/composition.js';
import { batchEnded } from './support.js';
import { mainThreadCpuMs } from './thread-cpu.js';

const URLS = 20_000;

/** The main thread's CPU ms (/proc: this bench is Linux-only, like the figures it compares). */
function mainThreadMs(): number {
  const ms = mainThreadCpuMs();
  if (ms === null) throw new Error('no /proc: pipeline-alternate reads CPU time per thread from it');
  return ms;
}

async function openTree(tree: string): Promise<{ seedbed: Seedbed; data: string }> {
  const { createSeedbed } = (await import(
    join(tree, 'src/composition.ts')
  )) as typeof import('../src/composition.js');
  const { loadConfig } = (await import(join(tree, 'src/config.ts'))) as typeof import('../src/config.js');
  const { pino } = await import('pino');
  const data = await mkdtemp(join(tmpdir(), 'seedbed-alternate-'));
  const seedbed = await createSeedbed({
    config: loadConfig({
      SEEDBED_DATA_DIR: data,
      SEEDBED_LOG_LEVEL: 'silent',
      SEEDBED_RATE_LIMIT: '1000000',
      SEEDBED_WORKER_CONCURRENCY: '2',
    }),
    logger: pino({ level: 'silent' }),
    // The idle side polls rarely: it wakes at once for its own batches anyway.
    queueOptions: { pollIntervalMs: 1000 },
  });
  await seedbed.start();
  seedbed.startWorkers(['RESEARCH_QUEUE']);
  return { seedbed, data };
}

let batches = 0;
/** One research batch watched to its end, as bench/research-pipeline.ts runs it: main-thread and wall µs a URL. */
async function batch(seedbed: Seedbed, count = URLS): Promise<{ main: number; wall: number }> {
  batches += 1;
  const items = Array.from(
    { length: count },
    (_, i) => `https://www.site${i % 700}.gov.sg/b${batches}/news/${i}#top`,
  );
  const before = mainThreadMs();
  const started = process.hrtime.bigint();
  const { batch: created } = await seedbed.services.batches.create({
    type: 'research',
    queue: 'RESEARCH_QUEUE',
    country: 'sg',
    category: `news-${batches}`,
    date: '2026-11-21',
    items,
    chunkSize: 100,
  });
  await batchEnded(seedbed, created.batchId);
  const wall = Number(process.hrtime.bigint() - started) / 1000 / count;
  const main = ((mainThreadMs() - before) * 1000) / count;
  const view = await seedbed.services.batches.get(created.batchId);
  if (view.items.succeeded !== count) throw new Error(`pipeline lost URLs: ${JSON.stringify(view.items)}`);
  return { main, wall };
}

const median = (values: number[]) => {
  const sorted = [...values].sort((p, q) => p - q);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
};

const [treeA, treeB, pairsArg] = process.argv.slice(2);
if (!treeA || !treeB) throw new Error('usage: npx tsx bench/pipeline-alternate.ts <treeA> <treeB> [pairs]');
const pairs = Number(pairsArg ?? 16);
const sides = { A: await openTree(resolve(treeA)), B: await openTree(resolve(treeB)) };
// Warm-up: both sides compiled before anything counts.
for (const side of [sides.A, sides.B, sides.A, sides.B]) await batch(side.seedbed, 4_000);
const results: Record<'A' | 'B', { main: number[]; wall: number[] }> = {
  A: { main: [], wall: [] },
  B: { main: [], wall: [] },
};
for (let pair = 0; pair < pairs; pair++) {
  // A B, then B A: neither side always goes first.
  for (const name of pair % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
    const { main, wall } = await batch(sides[name].seedbed);
    results[name].main.push(main);
    results[name].wall.push(wall);
    process.stdout.write(
      `${new Date().toISOString().slice(11, 19)} ${name} main ${main.toFixed(1)} µs, wall ${wall.toFixed(1)} µs a URL\n`,
    );
  }
}
// Main-thread CPU moves least with the machine's other load; wall clock is what the ratio counts.
for (const measure of ['main', 'wall'] as const) {
  const a = results.A[measure];
  const b = results.B[measure];
  const differences = a.map((value, i) => (b[i] as number) - value);
  process.stdout.write(
    `${measure}: A ${treeA} median ${median(a).toFixed(1)} µs; B ${treeB} median ${median(b).toFixed(1)} µs; ` +
      `B lower in ${differences.filter((d) => d < 0).length} of ${pairs} pairs, median B − A ${median(differences).toFixed(1)} µs\n`,
  );
}
for (const side of [sides.A, sides.B]) {
  await side.seedbed.close();
  await rm(side.data, { recursive: true, force: true });
}
