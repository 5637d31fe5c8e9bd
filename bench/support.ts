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
  return (await requestRun(url, options)).perSecond;
}

/**
 * One autocannon run: requests per wall-clock second, and per second of this process's CPU time (user and
 * system). The client runs in this process, so the second counts what the client and the server in it spent
 * together; it moves much less than the first when other processes load the machine.
 */
export async function requestRun(
  url: string,
  options: { connections: number; seconds: number },
): Promise<{ perSecond: number; perCpuSecond: number }> {
  const cpu = process.cpuUsage();
  const result = await autocannon({
    url,
    connections: options.connections,
    duration: options.seconds,
    pipelining: 1,
  });
  const used = process.cpuUsage(cpu);
  if (result.non2xx > 0 || result.errors > 0)
    throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return {
    perSecond: result.requests.average,
    perCpuSecond: result.requests.total / ((used.user + used.system) / 1e6),
  };
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

/**
 * Waits for a batch to end, watching its row's status alone: the batch view counts every item, chunk and domain of
 * the batch, and asking for it 50 times a second cost more of the one main thread and SQLite connection than the
 * pipeline it was watching. Read the full view once, after the clock stops, to check the result.
 */
export async function batchEnded(seedbed: Pick<Seedbed, 'database'>, batchId: string): Promise<void> {
  for (;;) {
    const { status } = await seedbed.database.db
      .selectFrom('batches')
      .select('status')
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    if (status !== 'queued' && status !== 'running') return;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
