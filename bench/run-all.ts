// `npm run bench`: every benchmark in turn, then a summary table of the ratios (pasted into the README).
// `npm run bench -- health queue` runs only the named ones.
import { benchContractsLatency } from './contracts-latency.js';
import { benchDirectory } from './directory.js';
import { benchDiscovery } from './discovery.js';
import { benchContracts, benchLiveness } from './fetching.js';
import { benchHealth } from './health.js';
import { benchImport } from './import.js';
import { benchIntake } from './intake.js';
import { benchEmbeddedQueue } from './queue.js';
import { benchQueuePeers } from './queue-peers.js';
import { benchResearchPipeline } from './research-pipeline.js';
import { benchScaleOut } from './scale-out.js';
import { benchSeedActions } from './seed-actions.js';
import { benchSitemapScale } from './sitemap-scale.js';
import type { BenchResult } from './support.js';
import { benchUploadMemory } from './upload-memory.js';

const benches: Record<string, () => Promise<BenchResult | BenchResult[]>> = {
  health: benchHealth,
  intake: benchIntake,
  pipeline: () => benchResearchPipeline(),
  queue: benchEmbeddedQueue,
  'queue-peers': benchQueuePeers,
  liveness: benchLiveness,
  contracts: benchContracts,
  'contracts-latency': benchContractsLatency,
  discovery: benchDiscovery,
  'scale-out': benchScaleOut,
  'sitemap-scale': benchSitemapScale,
  'upload-memory': benchUploadMemory,
  import: benchImport,
  'seed-actions': benchSeedActions,
  directory: benchDirectory,
};

const wanted = process.argv.slice(2);
const results: BenchResult[] = [];
for (const [name, bench] of Object.entries(benches)) {
  if (wanted.length > 0 && !wanted.includes(name)) continue;
  results.push(...[await bench()].flat());
}
const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
process.stdout.write('\n| benchmark | subject | baseline (same run) | ratio |\n|---|---|---|---|\n');
for (const r of results) {
  process.stdout.write(
    `| ${r.name} | ${r.subject}: ${fmt(r.subjectValue)} ${r.unit} | ${r.baseline}: ${fmt(r.baselineValue)} ${r.unit} | ${r.ratio.toFixed(3)} |\n`,
  );
}
