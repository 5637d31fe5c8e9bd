// `npm run bench`: every benchmark in turn, then a summary table of the ratios.
import { benchHealth } from './health.js';
import { benchIntake } from './intake.js';
import { benchEmbeddedQueue } from './queue.js';
import { benchResearchPipeline } from './research-pipeline.js';
import type { BenchResult } from './support.js';

const results: BenchResult[] = [];
for (const bench of [benchHealth, benchIntake, benchResearchPipeline, benchEmbeddedQueue]) {
  results.push(await bench());
}
process.stdout.write('\n| benchmark | subject | baseline | ratio |\n|---|---|---|---|\n');
for (const r of results) {
  const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
  process.stdout.write(
    `| ${r.name} | ${r.subject}: ${fmt(r.subjectValue)} ${r.unit} | ${r.baseline}: ${fmt(r.baselineValue)} ${r.unit} | ${r.ratio.toFixed(3)} |\n`,
  );
}
