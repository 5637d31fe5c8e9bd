// GET /health requests/s through the whole Seedbed app vs a bare node:http server answering the same JSON,
// with the same autocannon settings, in the same run. Both servers are up at once and measured in alternating
// rounds (bare, Seedbed, Seedbed, bare, …), and the ratio is the median of the rounds' ratios: on a shared,
// noisy machine one long measurement of each, one after the other, mostly measured how the load moved between
// them.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BenchResult, report, requestRun, requestsPerSecond, withSeedbed } from './support.js';

const SETTINGS = { connections: 50, seconds: 2 };
const ROUNDS = 6;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2
    ? (sorted[middle] as number)
    : ((sorted[middle - 1] as number) + (sorted[middle] as number)) / 2;
};

export async function benchHealth(): Promise<BenchResult> {
  const bare = createServer((_request, response) => {
    const body = JSON.stringify({ status: 'ok', timestamp: new Date().toISOString(), version: '0.1.0' });
    response.writeHead(200, {
      'content-type': 'application/json; charset=utf-8',
      'content-length': Buffer.byteLength(body),
    });
    response.end(body);
  });
  await new Promise<void>((resolve) => bare.listen(0, '127.0.0.1', resolve));
  const bareUrl = `http://127.0.0.1:${(bare.address() as AddressInfo).port}/health`;

  try {
    return await withSeedbed({}, async (seedbed) => {
      const app = await seedbed.buildHttp(true);
      const seedbedUrl = `${await app.listen({ host: '127.0.0.1', port: 0 })}/health`;
      try {
        // Warm both up, then alternate, each going first in every other round.
        await requestsPerSecond(bareUrl, { connections: 10, seconds: 1 });
        await requestsPerSecond(seedbedUrl, { connections: 10, seconds: 1 });
        const bareRates: number[] = [];
        const seedbedRates: number[] = [];
        const bareCpu: number[] = [];
        const seedbedCpu: number[] = [];
        for (let round = 0; round < ROUNDS; round++) {
          const order = round % 2 === 0 ? [bareUrl, seedbedUrl] : [seedbedUrl, bareUrl];
          for (const url of order) {
            // Switching servers costs the next measurement a slow start (shared http code paths re-warm);
            // a short run on the same server first keeps that out of the figure.
            await requestsPerSecond(url, { connections: SETTINGS.connections, seconds: 0.5 });
            const run = await requestRun(url, SETTINGS);
            (url === bareUrl ? bareRates : seedbedRates).push(run.perSecond);
            (url === bareUrl ? bareCpu : seedbedCpu).push(run.perCpuSecond);
          }
        }
        const ratios = seedbedRates.map((rate, round) => rate / (bareRates[round] as number));
        const cpuRatios = seedbedCpu.map((rate, round) => rate / (bareCpu[round] as number));
        const list = (values: number[]) => values.map((r) => r.toFixed(3)).join(' ');
        process.stdout.write(
          `GET /health rounds: ${list(ratios)}; per CPU second: ${list(cpuRatios)} (median ${median(cpuRatios).toFixed(3)})\n`,
        );
        return report({
          name: 'GET /health',
          subject: 'seedbed',
          subjectValue: median(seedbedRates),
          baseline: 'bare node:http',
          baselineValue: median(bareRates),
          unit: 'req/s',
          ratio: median(ratios),
        });
      } finally {
        await app.close();
      }
    });
  } finally {
    await new Promise<void>((resolve) => bare.close(() => resolve()));
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHealth();
