// Shared bench plumbing: a Seedbed on a temporary directory, autocannon runs, and result printing.
// Every benchmark reports a ratio against a baseline measured in the same run, never a bare number alone.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { pino } from 'pino';
import { createSeedbed, type Seedbed } from '../src/composition.js';
import { loadConfig } from '../src/config.js';

export interface BenchResult {
  name: string;
  subject: string;
  subjectValue: number;
  baseline: string;
  baselineValue: number;
  unit: string;
  /** subject / baseline for rates (higher is better). */
  ratio: number;
}

export async function withSeedbed<T>(
  env: Record<string, string>,
  work: (seedbed: Seedbed) => Promise<T>,
): Promise<T> {
  const dir = await mkdtemp(join(tmpdir(), 'seedbed-bench-'));
  const seedbed = await createSeedbed({
    config: loadConfig({
      SEEDBED_DATA_DIR: dir,
      SEEDBED_LOG_LEVEL: 'silent',
      SEEDBED_RATE_LIMIT: '1000000',
      ...env,
    }),
    logger: pino({ level: 'silent' }),
    queueOptions: { pollIntervalMs: 10 },
  });
  await seedbed.start();
  try {
    return await work(seedbed);
  } finally {
    await seedbed.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function requestsPerSecond(
  url: string,
  options: { connections: number; seconds: number },
): Promise<number> {
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    pipelining: 1,
  });
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return result.requests.average;
}

export function report(result: BenchResult): BenchResult {
  const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(2));
  process.stdout.write(
    `${result.name}: ${result.subject} ${fmt(result.subjectValue)} ${result.unit} vs ${result.baseline} ` +
      `${fmt(result.baselineValue)} ${result.unit} → ratio ${result.ratio.toFixed(3)}\n`,
  );
  return result;
}

export function rate(count: number, startedNs: bigint): number {
  return count / (Number(process.hrtime.bigint() - startedNs) / 1e9);
}
