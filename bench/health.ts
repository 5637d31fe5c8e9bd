// GET /health requests/s through the whole Seedbed app vs a bare node:http server answering the same JSON,
// with the same autocannon settings, in the same run.
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type BenchResult, report, requestsPerSecond, withSeedbed } from './support.js';

const SETTINGS = { connections: 50, seconds: 5 };

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
  const barePort = (bare.address() as AddressInfo).port;
  // Warm both up, then measure each once.
  await requestsPerSecond(`http://127.0.0.1:${barePort}/health`, { connections: 10, seconds: 1 });
  const baseline = await requestsPerSecond(`http://127.0.0.1:${barePort}/health`, SETTINGS);
  await new Promise<void>((resolve) => bare.close(() => resolve()));

  const subject = await withSeedbed({}, async (seedbed) => {
    const app = await seedbed.buildHttp(true);
    const url = await app.listen({ host: '127.0.0.1', port: 0 });
    try {
      await requestsPerSecond(`${url}/health`, { connections: 10, seconds: 1 });
      return await requestsPerSecond(`${url}/health`, SETTINGS);
    } finally {
      await app.close();
    }
  });
  return report({
    name: 'GET /health',
    subject: 'seedbed',
    subjectValue: subject,
    baseline: 'bare node:http',
    baselineValue: baseline,
    unit: 'req/s',
    ratio: subject / baseline,
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHealth();
