// Contract batches at internet speed: the whole pipeline (API → CONTRACT_QUEUE → workers → SQLite and the
// object folder) on the default configuration, against a fake internet whose every answer takes a delay.
// The baseline is the time a perfectly parallel client needs for the requests that were actually served,
// under the same politeness rules (per host one at a time, 250 ms from the end of one request to the start of
// the next, robots Crawl-delay) and the same
// global cap. Also reports politeness as the sites saw it, connections per site and how steadily progress moved.
//
//   npm run bench -- contracts-latency
//   BENCH_SITES=1000 BENCH_DELAYS=150,1000 BENCH_SHAPE=uniform|mixed|huge [BENCH_WARMUP=sites] [BENCH_TRACE=1] [BENCH_TIMELINE=1] [BENCH_DUMP=file]
//     [BENCH_CPU_PROFILE=prefix] [BENCH_HEAP_PROFILE=prefix] npx tsx bench/contracts-latency.ts
// The clock starts once `seedbed.ready()` resolves (the fetch thread and the feed workers loaded): start-up is
// printed apart. BENCH_TIMELINE=1 prints, per half second, requests in flight at the sites, items ended and each
// thread's CPU (bench/cpu-timeline.ts). BENCH_CPU_PROFILE writes a V8 CPU profile of the main thread from the batches' submission to their end,
// `<prefix>-<delay>ms.cpuprofile`, for bench/cpu-profile-summary.ts. BENCH_HEAP_PROFILE writes V8's sampling heap
// profile of the main thread over the same window, garbage included, `<prefix>-<delay>ms.heapprofile`, for
// bench/heap-profile-summary.ts.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pino } from 'pino';
import { DEFAULT_FETCHER_SETTINGS } from '../src/adapters/http-fetcher.js';
import { createFetcher, createSeedbed } from '../src/composition.js';
import { loadConfig } from '../src/config.js';
import { readVersion } from '../src/version.js';
import { CpuTimeline } from './cpu-timeline.js';
import { describeGaps, hostGaps, median } from './host-gaps.js';
import { inFlight, type ServedRequest, type SiteShape, startLatencyInternet } from './latency-internet.js';
import { chainMs, type HostRequests, perfectlyParallel } from './parallel-bound.js';
import { type BenchResult, report } from './support.js';
import { mainThreadCpuMs, startCpuProfile, startHeapSampling, threadsCpuMs } from './thread-cpu.js';

const MAX_IDS_PER_BATCH = 1000;

interface RunOptions {
  sites: number;
  delayMs: number;
  /**
   * uniform: every site alike. mixed: every 10th site slow (5× delay), every 25th with Crawl-delay 2, site 0 a
   * 40-sitemap tree. huge: site 0 the sitemap-scale tree (75 gzipped children, 2.6 million URLs), the rest alike.
   */
  shape: 'uniform' | 'mixed' | 'huge';
  /**
   * Sites of their own collected before the clock starts (BENCH_WARMUP), as a service that has run batches before
   * meets the next one with its code compiled: a fresh process spends much of a 1,000-site run's CPU compiling.
   */
  warmup: number;
}

function shapeFor(options: RunOptions): (n: number) => SiteShape {
  const plain = { delayMs: options.delayMs, crawlDelay: 0, sitemaps: 2 };
  if (options.shape === 'uniform') return () => plain;
  if (options.shape === 'huge') return (n) => (n === 0 ? { ...plain, huge: true } : plain);
  return (n) => {
    if (n === 0) return { ...plain, sitemaps: 40 };
    if (n % 25 === 7) return { ...plain, crawlDelay: 2 };
    if (n % 10 === 3) return { ...plain, delayMs: options.delayMs * 5 };
    return plain;
  };
}

export async function runContractsLatency(options: RunOptions): Promise<BenchResult> {
  const shape = shapeFor(options);
  const net = await startLatencyInternet({ sites: options.sites + options.warmup, shape });
  // The measured sites are the first ones (site 0 is the mixed and huge shapes' big tree); the warm-up's follow.
  const siteHosts = net.hosts.slice(0, options.sites);
  const warmupHosts = net.hosts.slice(options.sites);
  const dir = await mkdtemp(join(tmpdir(), 'seedbed-bench-latency-'));
  // The default configuration; SEEDBED_* variables of the bench's own environment (e.g. another
  // SEEDBED_FETCH_CONCURRENCY) are passed on, to compare settings.
  const overrides = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => name.startsWith('SEEDBED_')),
  );
  const config = loadConfig({
    ...overrides,
    SEEDBED_DATA_DIR: dir,
    SEEDBED_LOG_LEVEL: 'silent',
    SEEDBED_FETCH_RESOLVE: net.resolveSpec,
  });
  // The fetcher the composition root would build, trusting the run's own CA on top.
  const fetcher = createFetcher(config, readVersion(), { extraCa: [net.caCert] });
  const seedbed = await createSeedbed({ config, logger: pino({ level: 'silent' }), fetcher });
  await seedbed.start();
  const app = await seedbed.buildHttp(true);
  try {
    // The clock starts when the service says it is ready (its worker threads loaded and answering), as a running
    // service is when a user sends a batch; the start-up before it is printed on its own.
    const startingAt = performance.now();
    seedbed.startWorkers();
    await seedbed.ready();
    const startupMs = performance.now() - startingAt;
    const warmupStarted = performance.now();
    let warmupConnections = 0;
    if (warmupHosts.length > 0) {
      await collectUnclocked(app, warmupHosts);
      warmupConnections = (await net.takeLog()).connections;
    }
    const warmupMs = performance.now() - warmupStarted;
    const profilePrefix = process.env['BENCH_CPU_PROFILE'];
    const stopProfile = profilePrefix ? await startCpuProfile() : null;
    const heapPrefix = process.env['BENCH_HEAP_PROFILE'];
    const stopHeap = heapPrefix ? await startHeapSampling() : null;
    const started = performance.now();
    const startedAt = performance.timeOrigin + started;
    const busyBefore = performance.eventLoopUtilization();
    const cpuBefore = process.cpuUsage();
    const mainCpuBefore = mainThreadCpuMs();
    const threadsBefore = threadsCpuMs();
    const netCpuBefore = net.cpuMs();
    const batchIds = await postContractBatches(app, siteHosts, 'contract');
    const postedMs = performance.now() - started;
    // Progress as a client sees it: items answered, sampled every 250 ms (a watching client costs CPU too).
    const samples: Array<{ at: number; done: number }> = [];
    const timeline = process.env['BENCH_TIMELINE'] === '1' ? new CpuTimeline(net.cpuMs) : null;
    let peakRss = process.memoryUsage.rss();
    let failed = 0;
    const firstErrors: string[] = [];
    for (;;) {
      let done = 0;
      let finished = 0;
      failed = 0;
      for (const id of batchIds) {
        const view = (await app.inject({ url: `/api/v1/queues/batch/${id}` })).json();
        done += view.items.succeeded + view.items.failed + view.items.skipped;
        failed += view.items.failed;
        if (view.status !== 'queued' && view.status !== 'running') {
          finished += 1;
          if (firstErrors.length === 0)
            firstErrors.push(
              ...view.errors.slice(0, 3).map((e: any) => `${e.input ?? e.index}: ${e.reason}`),
            );
        }
      }
      samples.push({ at: performance.now() - started, done });
      timeline?.sample(performance.now() - started, done);
      // Once a second: the resident size is read from /proc, a system call on the thread being measured.
      if (samples.length % 4 === 1) peakRss = Math.max(peakRss, process.memoryUsage.rss());
      if (finished === batchIds.length) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    const elapsedMs = performance.now() - started;
    const busy = performance.eventLoopUtilization(busyBefore).utilization;
    const cpu = process.cpuUsage(cpuBefore);
    const mainCpu = mainThreadCpuMs();
    const netCpu = net.cpuMs();
    const threads = [...threadsCpuMs()]
      .map(([name, ms]) => [name, (ms - (threadsBefore.get(name) ?? 0)) / options.sites] as const)
      .filter(([, ms]) => ms >= 0.05)
      .sort((a, b) => b[1] - a[1]);
    await stopProfile?.(`${profilePrefix}-${options.delayMs}ms.cpuprofile`);
    await stopHeap?.(`${heapPrefix}-${options.delayMs}ms.heapprofile`);
    // What each item says it cost its site (result.requests), to set beside what the sites served.
    const counted: number[] = [];
    for (const id of batchIds) {
      for (let offset = 0; ; offset += 100) {
        const page = (
          await app.inject({ url: `/api/v1/queues/batch/${id}/items?limit=100&offset=${offset}` })
        ).json();
        for (const item of page.data)
          if (typeof item.result?.requests === 'number') counted.push(item.result.requests);
        if (page.data.length < 100) break;
      }
    }
    // The huge tree (site 0, the batch's first item): counted whole, or its truncation reported.
    if (options.shape === 'huge') {
      const first = (await app.inject({ url: `/api/v1/queues/batch/${batchIds[0]}/items?limit=1` })).json();
      const item = first.data[0];
      process.stdout.write(
        `  huge tree (${siteHosts[0]}): ${item?.status}, sitemap_urls ${item?.result?.sitemap_urls}, ` +
          `truncated ${item?.result?.sitemap_truncated}` +
          `${item?.result?.sitemap_truncated_reason ? ` (${item.result.sitemap_truncated_reason})` : ''}` +
          `${item?.reason ? `, ${item.reason}` : ''}\n`,
      );
    }
    const cpuMsPerSite = (cpu.user + cpu.system) / 1000 / options.sites;
    const mainCpuMsPerSite =
      mainCpu !== null && mainCpuBefore !== null ? (mainCpu - mainCpuBefore) / options.sites : null;
    const netCpuMsPerSite =
      netCpu !== null && netCpuBefore !== null ? (netCpu - netCpuBefore) / options.sites : null;
    const taken = await net.takeLog();
    const log = taken.log;
    const connections = taken.connections - warmupConnections;

    // BENCH_DUMP=file: the requests the sites served, for a closer look (when each arrived and ended, per host).
    const dump = process.env['BENCH_DUMP'];
    if (dump) await writeFile(dump, JSON.stringify({ startedAt, log }));
    const byHost = new Map<string, ServedRequest[]>();
    for (const r of log) byHost.set(r.host, [...(byHost.get(r.host) ?? []), r]);
    const gapOf = (host: string) => {
      const n = siteHosts.indexOf(host);
      return Math.max(DEFAULT_FETCHER_SETTINGS.perHostMinDelayMs, (n >= 0 ? shape(n).crawlDelay : 0) * 1000);
    };
    const hosts: HostRequests[] = [...byHost].map(([host, requests]) => ({
      host,
      durationsMs: requests.sort((a, b) => a.arrivedAt - b.arrivedAt).map((r) => r.delayMs),
      gapMs: gapOf(host),
    }));
    const cap = config.fetch.concurrency;
    const bound = perfectlyParallel(hosts, cap);
    // Politeness as the sites saw it: arrivals closer than the host's gap. A Crawl-delay counts from the request
    // after robots.txt (nobody can honour it before reading it); before that, Seedbed's own gap.
    let tooClose = 0;
    let closest = Number.POSITIVE_INFINITY;
    for (const [host, requests] of byHost) {
      let robotsRead = false;
      for (let i = 1; i < requests.length; i += 1) {
        const previous = requests[i - 1] as ServedRequest;
        if (previous.path === '/robots.txt') robotsRead = true;
        const required = robotsRead ? gapOf(host) : DEFAULT_FETCHER_SETTINGS.perHostMinDelayMs;
        const gap = (requests[i] as ServedRequest).arrivedAt - previous.arrivedAt;
        closest = Math.min(closest, gap - required);
        if (gap < required) tooClose += 1;
      }
    }
    const perSite = [...byHost.values()].map((rs) => new Set(rs.map((r) => r.connection)).size);
    const load = inFlight(log);
    if (timeline) process.stdout.write(timeline.describe(log, startedAt));
    // Progress: the longest stretch without a newly answered item, between the first answer and the last.
    let stall = 0;
    let lastMove = samples.find((s) => s.done > 0)?.at ?? 0;
    for (let i = 1; i < samples.length; i += 1) {
      const s = samples[i] as { at: number; done: number };
      if (s.done > (samples[i - 1] as { done: number }).done) {
        stall = Math.max(stall, s.at - lastMove);
        lastMove = s.at;
      }
    }
    const longestChain = Math.max(...hosts.map((h) => chainMs(h.durationsMs, h.gapMs)));
    // The site that finished last: when it started and how long its own chain is.
    const lastSite = [...byHost].reduce((a, b) =>
      (a[1].at(-1)?.endedAt ?? 0) >= (b[1].at(-1)?.endedAt ?? 0) ? a : b,
    );
    const lastSiteStart = ((lastSite[1][0]?.arrivedAt ?? startedAt) - startedAt) / 1000;
    const lastSiteChain =
      chainMs(
        lastSite[1].map((r) => r.delayMs),
        gapOf(lastSite[0]),
      ) / 1000;
    // BENCH_TRACE=1: the last site's requests, each with its arrival (s) and its wait after the previous answer
    // (ms): waits well over the host's gap are time spent in line (the global budget) or on a busy main thread.
    if (process.env['BENCH_TRACE'] === '1') {
      const rs = lastSite[1];
      const steps = rs.map((r, i) => {
        const waited = i === 0 ? '' : `(+${(r.arrivedAt - (rs[i - 1] as ServedRequest).endedAt).toFixed(0)})`;
        return `${r.path}@${((r.arrivedAt - startedAt) / 1000).toFixed(1)}${waited}`;
      });
      process.stdout.write(`  trace ${lastSite[0]}: ${steps.join(' ')}\n`);
    }
    // The per-host gap as the sites measured it: every host, and the crawl-delayed ones alone (mixed shape).
    const plainGaps = hostGaps(byHost, (host) => gapOf(host) === DEFAULT_FETCHER_SETTINGS.perHostMinDelayMs);
    const delayedGaps = hostGaps(byHost, (host) => gapOf(host) > DEFAULT_FETCHER_SETTINGS.perHostMinDelayMs);
    const countedTotal = counted.reduce((a, b) => a + b, 0);
    const firstArrival = Math.min(...log.map((r) => r.arrivedAt)) - startedAt;
    const lastEnd = Math.max(...log.map((r) => r.endedAt)) - startedAt;
    const changed = Object.keys(overrides).length > 0 ? ` with ${JSON.stringify(overrides)}` : '';
    process.stdout.write(
      `  ${options.sites} sites (${options.shape})${changed}, ${options.delayMs} ms answers: ${log.length} requests ` +
        `(${(log.length / options.sites).toFixed(2)}/site) in ${(elapsedMs / 1000).toFixed(1)} s, ${failed} items failed` +
        `${firstErrors.length > 0 ? ` (${firstErrors.join('; ')})` : ''}\n` +
        `  in flight at the sites: max ${load.max}, mean ${load.mean.toFixed(1)} (cap ${cap}); ` +
        `bound ${(bound.makespanMs / 1000).toFixed(1)} s (lower bound ${(bound.lowerBoundMs / 1000).toFixed(1)} s, ` +
        `longest host chain ${(longestChain / 1000).toFixed(1)} s); start-up (worker threads loaded, before the ` +
        `clock) ${(startupMs / 1000).toFixed(2)} s; ` +
        `${options.warmup > 0 ? `warm-up ${options.warmup} other sites (before the clock) ${(warmupMs / 1000).toFixed(1)} s; ` : ''}` +
        `batches accepted after ${(postedMs / 1000).toFixed(2)} s; ` +
        `first request after ` +
        `${(firstArrival / 1000).toFixed(2)} s, last answer at ${(lastEnd / 1000).toFixed(2)} s (${lastSite[0]}, ` +
        `started at ${lastSiteStart.toFixed(1)} s, chain ${lastSiteChain.toFixed(1)} s)\n` +
        `  politeness: ${tooClose} arrivals closer than their host's gap (closest ${closest.toFixed(1)} ms over it); ` +
        `connections per site: mean ${(perSite.reduce((a, b) => a + b, 0) / perSite.length).toFixed(2)}, ` +
        `max ${Math.max(...perSite)} (${connections} in all); longest progress stall ${(stall / 1000).toFixed(2)} s; ` +
        `main thread busy ${(busy * 100).toFixed(0)} %, CPU per site: main thread ` +
        `${mainCpuMsPerSite === null ? 'n/a' : mainCpuMsPerSite.toFixed(1)} ms, process ${cpuMsPerSite.toFixed(1)} ms ` +
        `(by thread: ${threads.map(([n, ms]) => `${n} ${ms.toFixed(1)}`).join(', ')}); the fake internet's own ` +
        `process (the publishers' side, not Seedbed's, but on the same cores) ` +
        `${netCpuMsPerSite === null ? 'n/a' : netCpuMsPerSite.toFixed(1)} ms, ` +
        `peak RSS ${Math.round(peakRss / 2 ** 20)} MiB\n` +
        `  requests per site: served ${(log.length / options.sites).toFixed(2)}, items' result.requests mean ` +
        `${(countedTotal / Math.max(1, counted.length)).toFixed(2)} (median ${median(counted)}, max ` +
        `${Math.max(0, ...counted)}, ${countedTotal} in all over ${counted.length} items)\n` +
        `  per-host gap at the sites (${DEFAULT_FETCHER_SETTINGS.perHostMinDelayMs} ms hosts): ${describeGaps(plainGaps)}` +
        `${delayedGaps.startToStart.length > 0 ? `; crawl-delayed hosts: ${describeGaps(delayedGaps)}` : ''}\n`,
    );
    const rate = options.sites / (elapsedMs / 1000);
    const boundRate = options.sites / (bound.makespanMs / 1000);
    return report({
      name: `contracts at ${options.delayMs} ms latency, ${options.sites} sites (${options.shape})${options.warmup > 0 ? `, after ${options.warmup} warm-up sites` : ''}`,
      subject: 'contract batches, default config',
      subjectValue: rate,
      baseline: 'perfectly parallel client, same politeness and cap',
      baselineValue: boundRate,
      unit: 'domains/s',
      ratio: rate / boundRate,
    });
  } finally {
    await app.close();
    await seedbed.close();
    await net.close();
    await rm(dir, { recursive: true, force: true });
  }
}

type BenchApp = Awaited<ReturnType<Awaited<ReturnType<typeof createSeedbed>>['buildHttp']>>;

/** POSTs contract batches of at most MAX_IDS_PER_BATCH for `hosts` (country sg), answering their ids. */
async function postContractBatches(app: BenchApp, hosts: readonly string[], what: string): Promise<string[]> {
  const batchIds: string[] = [];
  for (let i = 0; i < hosts.length; i += MAX_IDS_PER_BATCH) {
    const response = await app.inject({
      method: 'POST',
      url: '/api/v1/queues/contract',
      payload: {
        country: 'sg',
        category: 'news',
        domainIds: hosts.slice(i, i + MAX_IDS_PER_BATCH).map((h) => `other:sg:${h}`),
      },
    });
    if (response.statusCode !== 202) throw new Error(`${what} batch refused: ${response.body}`);
    batchIds.push(response.json().batchId);
  }
  return batchIds;
}

/** Submits contract batches for `hosts` and waits until every batch has ended (the warm-up: nothing measured). */
async function collectUnclocked(app: BenchApp, hosts: readonly string[]): Promise<void> {
  const batchIds = await postContractBatches(app, hosts, 'warm-up');
  for (;;) {
    let ended = 0;
    for (const id of batchIds) {
      const status = (await app.inject({ url: `/api/v1/queues/batch/${id}` })).json().status;
      if (status !== 'queued' && status !== 'running') ended += 1;
    }
    if (ended === batchIds.length) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

export async function benchContractsLatency(): Promise<BenchResult[]> {
  const sites = Number(process.env['BENCH_SITES'] ?? 1000);
  const delays = (process.env['BENCH_DELAYS'] ?? '150,1000').split(',').map(Number);
  const asked = process.env['BENCH_SHAPE'];
  const shape = asked === 'mixed' || asked === 'huge' ? asked : 'uniform';
  const warmup = Number(process.env['BENCH_WARMUP'] ?? 0);
  const results: BenchResult[] = [];
  for (const delayMs of delays) results.push(await runContractsLatency({ sites, delayMs, shape, warmup }));
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchContractsLatency();
