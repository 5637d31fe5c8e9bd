// Sitemap reading at a big publisher's scale: robots.txt → an index of 75 gzipped children → 2.6 million URLs,
// served by a separate process and read through the real fetcher. Reports wall time and peak RSS above idle,
// against fetching the same files and counting their <url> tags after a bare gunzip, in the same run.
import { fork } from 'node:child_process';
import { once } from 'node:events';
import { createGunzip } from 'node:zlib';
import { Agent, request } from 'undici';
import { createHttpFetcher, DEFAULT_FETCHER_SETTINGS } from '../src/adapters/http-fetcher.js';
import { fetchRobots } from '../src/engine/robots.js';
import { discoverSitemaps } from '../src/engine/sitemaps.js';
import { childPath, SCALE_CHILDREN, SCALE_HOST, SCALE_URLS } from './sitemap-scale-site.js';
import { type BenchResult, report } from './support.js';

const MiB = 1024 * 1024;
const TARGET_SECONDS = 60;
const TARGET_MIB_ABOVE_IDLE = 100;

/** Samples the process's resident set every 10 ms; the peak is what a worker would need. */
function rssSampler() {
  let peak = process.memoryUsage().rss;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 10);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(peak, process.memoryUsage().rss);
    },
  };
}

async function startSite(): Promise<{ port: number; bytes: number; stop: () => void }> {
  const child = fork(new URL('./sitemap-scale-site.ts', import.meta.url), ['--serve'], {
    execArgv: ['--import', 'tsx'],
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const [message] = (await once(child, 'message')) as [{ port: number; bytes: number }];
  return { ...message, stop: () => child.disconnect() };
}

/** The baseline: the same files over a bare undici client, gunzipped, `<url>` counted by a byte scan. */
async function bareCount(port: number): Promise<number> {
  const agent = new Agent({ connections: 1 });
  const tag = Buffer.from('<url>');
  let count = 0;
  try {
    for (const path of ['/robots.txt', '/sitemap.xml']) {
      const res = await request(`http://127.0.0.1:${port}${path}`, { dispatcher: agent });
      await res.body.arrayBuffer();
    }
    for (let k = 0; k < SCALE_CHILDREN; k += 1) {
      const res = await request(`http://127.0.0.1:${port}${childPath(k)}.gz`, { dispatcher: agent });
      let tail = Buffer.alloc(0);
      for await (const chunk of res.body.pipe(createGunzip())) {
        const data = Buffer.concat([tail, chunk as Buffer]);
        for (let at = data.indexOf(tag); at !== -1; at = data.indexOf(tag, at + tag.length)) count += 1;
        tail = data.subarray(Math.max(0, data.length - (tag.length - 1)));
      }
    }
  } finally {
    await agent.close();
  }
  return count;
}

export async function benchSitemapScale(): Promise<BenchResult> {
  const site = await startSite();
  try {
    // Politeness delays off, as in the other fetching benchmarks: this measures the reader, not the pauses.
    const fetcher = createHttpFetcher({
      userAgent: 'SeedbedBot/bench (+https://seedbed.test)',
      resolve: `${SCALE_HOST}:80=127.0.0.1:${site.port}`,
      perHostMinDelayMs: 0,
    });
    const origin = `http://${SCALE_HOST}`;
    await fetchRobots(fetcher, origin);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const idle = process.memoryUsage().rss;
    const sampler = rssSampler();
    const started = process.hrtime.bigint();
    const robots = await fetchRobots(fetcher, origin);
    const found = await discoverSitemaps(fetcher, {
      origin,
      listed: robots.policy.sitemap_urls,
      allowed: robots.policy.allowed,
      now: () => new Date(),
    });
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    const peak = sampler.stop();
    await fetcher.close();

    const baselineStarted = process.hrtime.bigint();
    const tags = await bareCount(site.port);
    const baselineSeconds = Number(process.hrtime.bigint() - baselineStarted) / 1e9;

    const aboveIdle = (peak - idle) / MiB;
    const whole = found.url_count === SCALE_URLS && !found.truncated;
    const floor = (found.filesFetched * DEFAULT_FETCHER_SETTINGS.perHostMinDelayMs) / 1000;
    process.stdout.write(
      `sitemap-scale: ${found.filesFetched} files, ${(site.bytes / MiB).toFixed(1)} MiB gzipped, ` +
        `${(found.bytes_read / MiB).toFixed(0)} MiB read; url_count ${found.url_count.toLocaleString('en-US')} ` +
        `(bare tag count ${tags.toLocaleString('en-US')}), truncated ${found.truncated}\n` +
        `sitemap-scale: ${seconds.toFixed(1)} s (bare gunzip + tag count ${baselineSeconds.toFixed(1)} s), ` +
        `peak RSS ${(aboveIdle).toFixed(0)} MiB above idle (idle ${(idle / MiB).toFixed(0)} MiB)\n` +
        `sitemap-scale: target whole tree ${whole ? 'met' : 'MISSED'}, < ${TARGET_SECONDS} s ` +
        `${seconds < TARGET_SECONDS ? 'met' : 'MISSED'}, < ${TARGET_MIB_ABOVE_IDLE} MiB above idle ` +
        `${aboveIdle < TARGET_MIB_ABOVE_IDLE ? 'met' : 'MISSED'}; the default per-host gap of ` +
        `${DEFAULT_FETCHER_SETTINGS.perHostMinDelayMs} ms would add at least ${floor.toFixed(0)} s on a real site\n`,
    );
    const subject = found.url_count / seconds;
    const baseline = tags / baselineSeconds;
    return report({
      name: `sitemap tree (${SCALE_CHILDREN} gzipped children, ${SCALE_URLS.toLocaleString('en-US')} URLs)`,
      subject: 'discoverSitemaps',
      subjectValue: subject,
      baseline: 'bare gunzip + <url> count of the same files',
      baselineValue: baseline,
      unit: 'URLs/s',
      ratio: subject / baseline,
    });
  } finally {
    site.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await benchSitemapScale();
}
