// Discovery at internet speed: a whole discovery batch (API → DISCOVERY_QUEUE → harvest of the seeds' links →
// qualification of every candidate through the contract engine → SQLite and the object folder) on the default
// configuration, against the latency fake internet (latency-internet.ts: a process of its own, every answer after a
// delay). S seeds (news homepages, default 50) link to C candidate sites (default 1,000, each cited by 3–4
// seeds): WordPress-like news sites (section menu, dated stories with bylines, a feed and its comments feed, a
// Yoast sitemap index of three children, robots.txt naming it), among them every 50th a planted recipe blog or
// WooCommerce shop (discovery-sites.ts). The seeds are made through POST /api/v1/seeds, the discovery through
// POST /api/v1/queues/discovery {country, max_candidates: C}.
//
// Measured, in the same run: candidates qualified per second during the qualification phase (from the last
// harvest item's commit to the last qualification's commit), against the politeness bound computed as the
// contracts-latency bench does (parallel-bound.ts): the time a perfectly parallel client needs for the
// candidates' requests as they were actually served, per host one at a time with Seedbed's gap from the end of
// one to the start of the next, under the same global cap (SEEDBED_FETCH_CONCURRENCY). Also printed: requests
// per candidate, the harvest phase's time (and its own bound), peak RSS, the candidates found against those
// planted, and their verdicts. A wrong count or a wrong verdict fails the bench (exit code 1).
//
//   npm run bench -- discovery
//   BENCH_SEEDS=50 BENCH_CANDIDATES=1000 BENCH_DELAYS=150[,1000] [BENCH_TIMELINE=1] [BENCH_CPU_PROFILE=prefix] \
//     [BENCH_HEAP_PROFILE=prefix] \
//     npx tsx bench/discovery.ts
//   (BENCH_TIMELINE=1: per second of the qualification, requests in flight, candidates started and done, and how
//   busy the main thread was; BENCH_CPU_PROFILE: a V8 CPU profile of the main thread from the discovery's POST to
//   the batch's end, written to `<prefix>-<delay>ms.cpuprofile`; BENCH_HEAP_PROFILE: V8's sampling heap profile of
//   the main thread over the same window, garbage included, `<prefix>-<delay>ms.heapprofile`, for
//   bench/heap-profile-summary.ts)
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { DEFAULT_FETCHER_SETTINGS } from '../src/adapters/http-fetcher.js';
import { createFetcher, createSeedbed } from '../src/composition.js';
import { loadConfig } from '../src/config.js';
import { readVersion } from '../src/version.js';
import type { NamedSite } from './discovery-sites.js';
import { inFlight, inFlightBetween, type ServedRequest, startLatencyInternet } from './latency-internet.js';
import { type HostRequests, perfectlyParallel } from './parallel-bound.js';
import { type BenchResult, report } from './support.js';
import { mainThreadCpuMs, startCpuProfile, startHeapSampling } from './thread-cpu.js';

const COUNTRY = 'sg';
/** Every this-many-th candidate is a planted non-news site, a recipe blog and a shop in turn. */
const PLANTED_EVERY = 50;
const PAGE = 100;

type Kind = 'news' | 'recipe' | 'shop';

interface World {
  seeds: string[];
  candidates: Map<string, Kind>;
  sites: Record<string, NamedSite>;
}

/** S seeds and C candidates; candidate i is cited by 3 seeds spread over the list, every 4th by a 4th. */
export function buildWorld(seedCount: number, candidateCount: number): World {
  const seeds = Array.from({ length: seedCount }, (_, i) => `seed-${String(i + 1).padStart(3, '0')}.test`);
  const candidates = new Map<string, Kind>();
  const cites: string[][] = seeds.map(() => []);
  for (let i = 0; i < candidateCount; i += 1) {
    const host = `site-${String(i + 1).padStart(5, '0')}.test`;
    const planted = i % PLANTED_EVERY === PLANTED_EVERY / 2;
    candidates.set(host, planted ? (Math.floor(i / PLANTED_EVERY) % 2 === 0 ? 'recipe' : 'shop') : 'news');
    const citers = new Set([
      i % seedCount,
      (i + Math.floor(seedCount / 3)) % seedCount,
      (i + Math.floor((2 * seedCount) / 3)) % seedCount,
    ]);
    if (i % 4 === 0) citers.add((i + 1) % seedCount);
    for (const s of citers) cites[s]?.push(host);
  }
  const sites: Record<string, NamedSite> = {};
  seeds.forEach((host, s) => {
    sites[host] = { kind: 'seed', cites: cites[s] ?? [] };
  });
  for (const [host, kind] of candidates) sites[host] = { kind };
  return { seeds, candidates, sites };
}

function byHost(log: readonly ServedRequest[], hosts: ReadonlySet<string>): Map<string, ServedRequest[]> {
  const grouped = new Map<string, ServedRequest[]>();
  for (const r of log) {
    if (!hosts.has(r.host)) continue;
    const list = grouped.get(r.host) ?? [];
    list.push(r);
    grouped.set(r.host, list);
  }
  for (const list of grouped.values()) list.sort((a, b) => a.arrivedAt - b.arrivedAt);
  return grouped;
}

function boundOf(grouped: Map<string, ServedRequest[]>, cap: number) {
  const hosts: HostRequests[] = [...grouped].map(([host, requests]) => ({
    host,
    durationsMs: requests.map((r) => r.delayMs),
    gapMs: DEFAULT_FETCHER_SETTINGS.perHostMinDelayMs,
  }));
  return perfectlyParallel(hosts, cap);
}

export async function runDiscovery(options: {
  seeds: number;
  candidates: number;
  delayMs: number;
}): Promise<{ result: BenchResult; ok: boolean }> {
  const world = buildWorld(options.seeds, options.candidates);
  const net = await startLatencyInternet({
    sites: 0,
    shape: () => ({ delayMs: options.delayMs, crawlDelay: 0, sitemaps: 0 }),
    named: { sites: world.sites, delayMs: options.delayMs },
  });
  const dir = await mkdtemp(join(tmpdir(), 'seedbed-bench-discovery-'));
  // The default configuration; SEEDBED_* variables of the bench's own environment are passed on.
  const overrides = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name.startsWith('SEEDBED_')),
  );
  const config = loadConfig({
    ...overrides,
    SEEDBED_DATA_DIR: dir,
    SEEDBED_LOG_LEVEL: 'silent',
    SEEDBED_FETCH_RESOLVE: net.resolveSpec,
  });
  const fetcher = createFetcher(config, readVersion(), { extraCa: [net.caCert] });
  const seedbed = await createSeedbed({ config, logger: pino({ level: 'silent' }), fetcher });
  await seedbed.start();
  const app = await seedbed.buildHttp(true);
  const getJson = async (url: string) => {
    const answer = await app.inject({ url });
    if (answer.statusCode !== 200) throw new Error(`GET ${url}: ${answer.statusCode} ${answer.body}`);
    return answer.json();
  };
  try {
    for (const host of world.seeds) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/v1/seeds',
        payload: { domain: host, country: COUNTRY, category: 'news', entry_url: `https://${host}/` },
      });
      if (response.statusCode !== 201) throw new Error(`seed ${host} refused: ${response.body}`);
    }
    // The clock starts when the service says it is ready (its worker threads loaded and answering), as a running
    // service is when a user asks for a discovery (the contracts-latency bench does the same); start-up is printed
    // on its own.
    const startingAt = performance.now();
    seedbed.startWorkers();
    await seedbed.ready();
    const startupMs = performance.now() - startingAt;
    const profilePrefix = process.env['BENCH_CPU_PROFILE'];
    const stopProfile = profilePrefix ? await startCpuProfile() : null;
    const heapPrefix = process.env['BENCH_HEAP_PROFILE'];
    const stopHeap = heapPrefix ? await startHeapSampling() : null;
    const startedAt = Date.now();
    const cpuBefore = process.cpuUsage();
    const mainCpuBefore = mainThreadCpuMs();
    const netCpuBefore = net.cpuMs();
    const busyBefore = performance.eventLoopUtilization();
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/queues/discovery',
      payload: { country: COUNTRY, max_candidates: options.candidates },
    });
    if (response.statusCode !== 202) throw new Error(`discovery refused: ${response.body}`);
    const batchId: string = response.json().batchId;
    let peakRss = process.memoryUsage.rss();
    let view: any;
    // How busy the main thread was between two looks at the batch (for the timeline).
    const busySamples: Array<{ at: number; busy: number }> = [];
    let busyMark = performance.eventLoopUtilization();
    for (;;) {
      view = (await app.inject({ url: `/api/v1/queues/batch/${batchId}` })).json();
      peakRss = Math.max(peakRss, process.memoryUsage.rss());
      const mark = performance.eventLoopUtilization();
      busySamples.push({
        at: Date.now(),
        busy: performance.eventLoopUtilization(mark, busyMark).utilization,
      });
      busyMark = mark;
      if (view.status !== 'queued' && view.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const cpu = process.cpuUsage(cpuBefore);
    const mainCpuAfter = mainThreadCpuMs();
    const netCpuAfter = net.cpuMs();
    const wallMs = Date.now() - startedAt;
    const busy = performance.eventLoopUtilization(busyBefore).utilization;
    await stopProfile?.(`${profilePrefix}-${options.delayMs}ms.cpuprofile`);
    await stopHeap?.(`${heapPrefix}-${options.delayMs}ms.heapprofile`);
    // Every item's commit time: the harvest's last is the end of the harvest phase, the qualifications' last
    // the end of the batch.
    const items: Array<{
      input: any;
      status: string;
      outcome: string | null;
      updated_at: string;
      result: any;
    }> = [];
    for (let offset = 0; offset < view.total_items; offset += PAGE) {
      const page = await getJson(`/api/v1/queues/batch/${batchId}/items?limit=${PAGE}&offset=${offset}`);
      items.push(...page.data);
    }
    const harvests = items.filter((i) => i.input?.kind === 'harvest');
    const qualifications = items.filter((i) => i.input?.kind === 'qualify');
    const lastCommit = (list: typeof items) => Math.max(...list.map((i) => Date.parse(i.updated_at)));
    const harvestEnd = lastCommit(harvests);
    const qualifyEnd = lastCommit(qualifications);
    const qualified = qualifications.filter((i) => i.status === 'succeeded').length;
    const failed = items.filter((i) => i.status === 'failed');

    // The candidates as the API lists them, with their verdicts.
    const listed: Array<{ domain: string; state: string; news: { verdict: string } | null }> = [];
    for (let offset = 0; ; offset += PAGE) {
      const page = await getJson(`/api/v1/candidates?limit=${PAGE}&offset=${offset}`);
      listed.push(...page.data);
      if (offset + PAGE >= page.pagination.total) break;
    }
    const expectedNews = [...world.candidates].filter(([, kind]) => kind === 'news').length;
    const planted = world.candidates.size - expectedNews;
    const verdicts: Record<string, number> = {};
    const wrong: string[] = [];
    let newsRight = 0;
    let plantedRight = 0;
    for (const c of listed) {
      const verdict = c.news?.verdict ?? 'unjudged';
      verdicts[verdict] = (verdicts[verdict] ?? 0) + 1;
      const kind = world.candidates.get(c.domain);
      if (kind === undefined) wrong.push(`${c.domain}: not planted`);
      else if (kind === 'news' ? verdict === 'news' : verdict !== 'news') {
        if (kind === 'news') newsRight += 1;
        else plantedRight += 1;
      } else wrong.push(`${c.domain} (${kind}): ${verdict}`);
    }
    const missing = [...world.candidates.keys()].filter((d) => !listed.some((c) => c.domain === d));

    const { log } = await net.takeLog();
    const cap = config.fetch.concurrency;
    const candidateLog = byHost(log, new Set(world.candidates.keys()));
    const seedLog = byHost(log, new Set(world.seeds));
    const bound = boundOf(candidateLog, cap);
    const harvestBound = boundOf(seedLog, cap);
    const candidateRequests = [...candidateLog.values()].reduce((sum, rs) => sum + rs.length, 0);
    // What the qualification items say they cost (result.requests), beside what the candidates served.
    const counted = qualifications
      .map((i) => i.result?.requests)
      .filter((n): n is number => typeof n === 'number');
    const countedMean = counted.reduce((a, b) => a + b, 0) / Math.max(1, counted.length);
    const paths = new Map<string, number>();
    for (const rs of candidateLog.values())
      for (const r of rs) paths.set(r.path, (paths.get(r.path) ?? 0) + 1);
    const commonPaths = [...paths]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 10)
      .map(([path, n]) => `${path} ${(n / candidateLog.size).toFixed(2)}`)
      .join(', ');
    // Politeness as the candidates saw it: arrivals closer than Seedbed's gap.
    let tooClose = 0;
    for (const rs of [...candidateLog.values(), ...seedLog.values()])
      for (let i = 1; i < rs.length; i += 1)
        if (
          (rs[i] as ServedRequest).arrivedAt - (rs[i - 1] as ServedRequest).arrivedAt <
          DEFAULT_FETCHER_SETTINGS.perHostMinDelayMs
        )
          tooClose += 1;
    const firstCandidateRequest = Math.min(
      ...[...candidateLog.values()].map((rs) => rs[0]?.arrivedAt ?? Infinity),
    );

    const served = [...candidateLog.values()].flat();
    const load = inFlight(served);
    if (process.env['BENCH_TIMELINE'] === '1') {
      // Per second of the qualification: requests in flight (mean), candidates started and finished, and the
      // main thread's busy share over the looks at the batch that ended in that second.
      const seconds = Math.ceil(qualifyEnd - harvestEnd) / 1000;
      const lines: string[] = [];
      for (let t = 0; t < seconds; t += 1) {
        const from = harvestEnd + t * 1000;
        const to = from + 1000;
        const requests = inFlightBetween(served, from, to);
        let started = 0;
        let ended = 0;
        for (const rs of candidateLog.values()) {
          const first = rs[0] as ServedRequest;
          const last = rs.at(-1) as ServedRequest;
          if (first.arrivedAt >= from && first.arrivedAt < to) started += 1;
          if (last.endedAt >= from && last.endedAt < to) ended += 1;
        }
        const shares = busySamples.filter((b) => b.at >= from && b.at < to).map((b) => b.busy);
        const thread =
          shares.length === 0
            ? ''
            : `, main ${Math.round((100 * shares.reduce((a, b) => a + b, 0)) / shares.length)} %`;
        lines.push(`${t}s: ${requests.toFixed(0)} in flight, +${started} started, ${ended} done${thread}`);
      }
      process.stdout.write(`  timeline:\n    ${lines.join('\n    ')}\n`);
    }
    const harvestMs = harvestEnd - startedAt;
    const qualifyMs = qualifyEnd - harvestEnd;
    const rate = qualified / (qualifyMs / 1000);
    const boundRate = qualified / (bound.makespanMs / 1000);
    const ok =
      listed.length === world.candidates.size &&
      wrong.length === 0 &&
      missing.length === 0 &&
      failed.length === 0;
    const changed = Object.keys(overrides).length > 0 ? ` with ${JSON.stringify(overrides)}` : '';
    process.stdout.write(
      `  ${options.seeds} seeds, ${options.candidates} candidates${changed}, ${options.delayMs} ms answers: ` +
        `start-up (worker threads loaded, before the clock) ${(startupMs / 1000).toFixed(2)} s; ` +
        `batch ${view.status}, ${items.length} items (${harvests.length} harvests, ${qualifications.length} ` +
        `qualifications, ${qualified} qualified, ${failed.length} failed` +
        `${
          failed.length > 0
            ? `: ${failed
                .slice(0, 3)
                .map((f) => JSON.stringify(f.input))
                .join('; ')}`
            : ''
        })\n` +
        `  harvest: ${(harvestMs / 1000).toFixed(2)} s from the POST (its bound ${(harvestBound.makespanMs / 1000).toFixed(2)} s), ` +
        `first candidate request ${((firstCandidateRequest - harvestEnd) / 1000).toFixed(2)} s after the last harvest commit\n` +
        `  qualification: ${(qualifyMs / 1000).toFixed(2)} s, ${candidateRequests} requests ` +
        `(${(candidateRequests / candidateLog.size).toFixed(2)} per candidate: ${commonPaths}; items' ` +
        `result.requests mean ${countedMean.toFixed(2)} over ${counted.length}); bound ` +
        `${(bound.makespanMs / 1000).toFixed(2)} s (lower bound ${(bound.lowerBoundMs / 1000).toFixed(2)} s, cap ${cap}); ` +
        `in flight at the candidates: max ${load.max}, mean ${load.mean.toFixed(1)}\n` +
        `  candidates found ${listed.length} of ${world.candidates.size} expected; verdicts ${JSON.stringify(verdicts)}; ` +
        `news right ${newsRight}/${expectedNews}, planted recipe/shop not news ${plantedRight}/${planted}` +
        `${wrong.length > 0 ? `; wrong: ${wrong.slice(0, 5).join(', ')}` : ''}` +
        `${missing.length > 0 ? `; missing: ${missing.slice(0, 5).join(', ')}` : ''}\n` +
        `  politeness: ${tooClose} arrivals closer than the gap; main thread busy ${(busy * 100).toFixed(0)} % ` +
        `(${((busy * wallMs) / options.candidates).toFixed(1)} ms per candidate, its CPU ${
          mainCpuBefore === null || mainCpuAfter === null
            ? '?'
            : ((mainCpuAfter - mainCpuBefore) / options.candidates).toFixed(1)
        } ms), CPU ${((cpu.user + cpu.system) / 1000 / options.candidates).toFixed(1)} ms ` +
        `per candidate (every thread of this process); the fake internet's own process (the publishers' side, not ` +
        `Seedbed's, but on the same cores) ${
          netCpuBefore === null || netCpuAfter === null
            ? '?'
            : ((netCpuAfter - netCpuBefore) / options.candidates).toFixed(1)
        } ms per candidate; peak RSS ${Math.round(peakRss / 2 ** 20)} MiB\n`,
    );
    const result = report({
      name: `discovery at ${options.delayMs} ms latency, ${options.seeds} seeds → ${options.candidates} candidates`,
      subject: 'discovery batch qualification, default config',
      subjectValue: rate,
      baseline: 'perfectly parallel client, same politeness and cap',
      baselineValue: boundRate,
      unit: 'candidates/s',
      ratio: rate / boundRate,
    });
    if (!ok)
      process.stdout.write('  FAILED: the candidates found or their verdicts are not the ones planted\n');
    return { result, ok };
  } finally {
    await app.close();
    await seedbed.close();
    await net.close();
    await rm(dir, { recursive: true, force: true });
  }
}

export async function benchDiscovery(): Promise<BenchResult[]> {
  const seeds = Number(process.env['BENCH_SEEDS'] ?? 50);
  const candidates = Number(process.env['BENCH_CANDIDATES'] ?? 1000);
  const delays = (process.env['BENCH_DELAYS'] ?? '150').split(',').map(Number);
  const results: BenchResult[] = [];
  let ok = true;
  for (const delayMs of delays) {
    const run = await runDiscovery({ seeds, candidates, delayMs });
    results.push(run.result);
    ok &&= run.ok;
  }
  if (!ok) process.exitCode = 1;
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDiscovery();
