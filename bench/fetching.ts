// Liveness checks/s and contract discovery domains/s against the local fake internet, each against a bare
// undici loop sending the same requests at the same concurrency in the same run.
import { Agent, request } from 'undici';
import { createHttpFetcher } from '../src/adapters/http-fetcher.js';
import { discoverContract } from '../src/engine/contract-discovery.js';
import { checkLiveness } from '../src/engine/liveness.js';
import { mapLimit } from '../src/workers/map-limit.js';
import { type FakeInternet, SITES, startFakeInternet } from '../test/fixtures/fake-internet/index.js';
import { type BenchResult, rate, report } from './support.js';

const HOSTS = [SITES.news, SITES.bare, SITES.atom, SITES.jsonFeed, SITES.commonFeed, SITES.sitemapOnly];
const CONCURRENCY = 8;

function engineFetcher(net: FakeInternet) {
  // Politeness delays off: this measures the client's cost, not the pauses it adds on purpose.
  return createHttpFetcher({
    userAgent: 'SeedbedBot/bench (+https://seedbed.test)',
    resolve: net.resolveSpec,
    extraCa: [net.caCert],
    perHostMinDelayMs: 0,
    perHostConcurrency: 2,
    globalConcurrency: CONCURRENCY,
  });
}

/** The baseline client: undici with the same address mapping and CA, no guard, no politeness, no decoding. */
function bareGet(net: FakeInternet) {
  const agent = new Agent({
    connections: 2,
    connect: {
      ca: [net.caCert],
      lookup: (_host, _opts, cb) => cb(null, [{ address: '127.0.0.1', family: 4 }]),
    },
  });
  return {
    async get(url: string) {
      const target = new URL(url);
      const port = target.protocol === 'https:' ? net.httpsPort : net.httpPort;
      const response = await request(
        `${target.protocol}//${target.hostname}:${port}${target.pathname}${target.search}`,
        {
          dispatcher: agent,
          headers: { host: target.host, 'user-agent': 'bare' },
        },
      );
      await response.body.arrayBuffer();
    },
    close: () => agent.close(),
  };
}

async function timed(count: number, work: () => Promise<unknown>): Promise<number> {
  const started = process.hrtime.bigint();
  await work();
  return rate(count, started);
}

/**
 * Runs the engine over `inputs`, then replays exactly the requests it sent (every redirect hop included)
 * with the bare client at the same concurrency: the ratio is the engine's overhead over raw HTTP.
 */
async function againstReplay(
  net: FakeInternet,
  inputs: string[],
  concurrency: number,
  engine: (fetcher: ReturnType<typeof engineFetcher>, host: string) => Promise<unknown>,
): Promise<{ subject: number; baseline: number; requests: number }> {
  const fetcher = engineFetcher(net);
  await mapLimit(HOSTS, concurrency, (host) => engine(fetcher, host));
  const seen = net.requests.length;
  const subject = await timed(inputs.length, () =>
    mapLimit(inputs, concurrency, (host) => engine(fetcher, host)),
  );
  await fetcher.close();
  const replay = net.requests.slice(seen).map((r) => `${r.scheme}://${r.host}${r.path}`);
  const bare = bareGet(net);
  await mapLimit(HOSTS, concurrency, (host) => bare.get(`https://${host}/`));
  const replayRate = await timed(replay.length, () => mapLimit(replay, concurrency, (url) => bare.get(url)));
  await bare.close();
  return { subject, baseline: replayRate * (inputs.length / replay.length), requests: replay.length };
}

export async function benchLiveness(): Promise<BenchResult> {
  const net = await startFakeInternet();
  try {
    const checks = Array.from({ length: 600 }, (_, i) => HOSTS[i % HOSTS.length] as string);
    const { subject, baseline, requests } = await againstReplay(net, checks, CONCURRENCY, (f, host) =>
      checkLiveness(f, host),
    );
    return report({
      name: `liveness checks (concurrency ${CONCURRENCY})`,
      subject: 'checkLiveness',
      subjectValue: subject,
      baseline: `bare undici replay of its ${requests} requests`,
      baselineValue: baseline,
      unit: 'checks/s',
      ratio: subject / baseline,
    });
  } finally {
    await net.close();
  }
}

export async function benchContracts(): Promise<BenchResult> {
  const net = await startFakeInternet();
  try {
    const domains = Array.from({ length: 120 }, (_, i) => HOSTS[i % HOSTS.length] as string);
    const { subject, baseline, requests } = await againstReplay(net, domains, 4, (f, host) =>
      discoverContract(f, {
        domainId: `other:sg:${host}`,
        registrableDomain: host,
        country: 'sg',
        category: 'news',
      }),
    );
    return report({
      name: 'contract discovery (concurrency 4)',
      subject: 'discoverContract',
      subjectValue: subject,
      baseline: `bare undici replay of its ${requests} requests`,
      baselineValue: baseline,
      unit: 'domains/s',
      ratio: subject / baseline,
    });
  } finally {
    await net.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchLiveness();
  await benchContracts();
}
