// CPU per contract domain of its object writes on the folder store (src/adapters/fs-object-store.ts), as
// src/services/contracts.ts does them: the checkpoint looked up, robots.txt, sitemap.xml and
// domain_metadata.json put, then the checkpoint (empty) put. Beside it, in the same run, the same four bodies
// written with a bare writeFile each (no temporary file, no fsync, no rename): the floor any durable write sits
// on. Domains run `concurrency` at a time, as the domain pool overlaps them. Prints the main thread's CPU
// (/proc) and the whole process's per domain.
// Run: npx tsx bench/object-writes.ts [domains] [rounds]
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFsObjectStore } from '../src/adapters/fs-object-store.js';
import { mainThreadCpuMs } from './thread-cpu.js';

const domains = Number(process.argv[2] ?? 1000);
const rounds = Number(process.argv[3] ?? 3);
const concurrency = 64;

const robots =
  'User-agent: *\nDisallow: /search\nAllow: /\n\nSitemap: https://example.test/sitemap.xml\n'.repeat(4);
const sitemap = `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex>${'<sitemap><loc>https://example.test/s.xml</loc></sitemap>'.repeat(40)}</sitemapindex>\n`;
const metadata = `${JSON.stringify({ feeds: Array.from({ length: 12 }, (_, i) => ({ url: `https://example.test/feed/${i}`, role: 'section' })) }, null, 2)}\n`;

type Write = (folder: string) => Promise<void>;

async function runRound(write: Write, tag: string): Promise<{ main: number; process: number; wall: number }> {
  const main0 = mainThreadCpuMs() ?? 0;
  const cpu0 = process.cpuUsage();
  const started = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < domains) {
        const i = next++;
        await write(`prod/de/news/2026-11-27/${tag}-d${i}.example/`);
      }
    }),
  );
  const cpu = process.cpuUsage(cpu0);
  return {
    main: ((mainThreadCpuMs() ?? 0) - main0) / domains,
    process: (cpu.user + cpu.system) / 1000 / domains,
    wall: (performance.now() - started) / domains,
  };
}

const root = await mkdtemp(join(tmpdir(), 'seedbed-object-writes-'));
try {
  const store = createFsObjectStore(join(root, 'store'));
  const contract: Write = async (folder) => {
    await store.head(`${folder}domain_metadata.json.success`);
    await store.put(`${folder}robots.txt`, robots, { contentType: 'text/plain' });
    await store.put(`${folder}sitemap.xml`, sitemap, { contentType: 'application/xml' });
    await store.put(`${folder}domain_metadata.json`, metadata, { contentType: 'application/json' });
    await store.put(`${folder}domain_metadata.json.success`, '', { contentType: 'application/octet-stream' });
  };
  const bare: Write = async (folder) => {
    const dir = join(root, 'bare', ...folder.split('/'));
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'robots.txt'), robots);
    await writeFile(join(dir, 'sitemap.xml'), sitemap);
    await writeFile(join(dir, 'domain_metadata.json'), metadata);
    await writeFile(join(dir, 'domain_metadata.json.success'), '');
  };
  console.log(`${domains} domains a round, ${concurrency} at a time, ${rounds} rounds (the first warms up)`);
  for (let round = 0; round < rounds; round++) {
    for (const [name, write] of [
      ['folder store', contract],
      ['bare writeFile', bare],
    ] as const) {
      const r = await runRound(write, `r${round}`);
      console.log(
        `  round ${round + 1} ${name.padEnd(14)} per domain: main thread ${r.main.toFixed(2)} ms, process ${r.process.toFixed(2)} ms, wall ${r.wall.toFixed(2)} ms`,
      );
    }
  }
} finally {
  await rm(root, { recursive: true, force: true });
}
