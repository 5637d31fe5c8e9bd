// Bulk import (POST /api/v1/seeds/import over real HTTP, the body streamed from a file of 200,000 export lines) in
// seeds per second, against the raw insert of the same rows and their first revisions in the service's statements
// and groups (bulk-insert.ts, GROUP_LINES a transaction) on the same SQLite, in the same run. Also: the file sent
// again (every line unchanged), the process's CPU per seed (service and client: steadier than the rate on a loaded
// machine), and its RSS while importing, sampled per 10,000 answers, to show it does not grow with the file.
//
//   [SEEDBED_BENCH_IMPORT_LINES=N] [BENCH_CPU_PROFILE=file.cpuprofile] npx tsx bench/import.ts
// BENCH_CPU_PROFILE writes a V8 CPU profile of the main thread over the first import alone (the service and the
// client reading its answers; not the file's making or the raw insert), for bench/cpu-profile-summary.ts.
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { resolveSeedIdentity } from '../src/domain/seed-identity.js';
import { seedCreateSchema } from '../src/domain/seeds.js';
import { insertRows } from '../src/services/bulk-insert.js';
import { GROUP_LINES } from '../src/services/seed-import.js';
import {
  draftRowOf,
  firstRevision,
  REVISION_COLUMNS,
  revisionRow,
  revisionValuesOf,
  STORED_SEED_COLUMNS,
  storedRowOf,
} from '../src/services/seed-repository/rows.js';
import { type BenchResult, report, withSeedbed } from './support.js';
import { startCpuProfile } from './thread-cpu.js';

const LINES = Number(process.env['SEEDBED_BENCH_IMPORT_LINES'] ?? 200_000);
const STATEMENT_ROWS = 100;
const MB = 1024 * 1024;

/** An export line (a Seed as GET shows it) of the news site `news<i>.fr`. */
function exportLine(i: number): string {
  const host = `news${i}.fr`;
  const at = '2026-06-01T00:00:00.000Z';
  return `${JSON.stringify({
    seed_id: `other:fr:${host}::news`,
    domain_id: `other:fr:${host}`,
    registrable_domain: host,
    country: 'fr',
    category: 'news',
    content_type: 'news',
    source_type: 'other',
    status: 'active',
    version: 1,
    name: `News ${i}`,
    entry_url: `https://${host}/`,
    fetch: { type: 'rss', urls: [`https://${host}/feed`, `https://${host}/politique/feed`] },
    schedule: '5 * * * *',
    policy: {
      robots_url: `https://${host}/robots.txt`,
      robots_allowed: true,
      crawl_delay: null,
      sitemap_urls: [`https://${host}/sitemap.xml`],
    },
    discovery: { alive: true, checked_at: at, http_status: 200, state: 'alive', error_code: null },
    provenance: { batch_id: 'bench' },
    created_at: at,
    updated_at: at,
    promoted_at: at,
    feeds: [],
    sitemap: null,
    human_fields: [],
    freshness: null,
    languages: [],
    health: null,
    news: null,
    country_guess: null,
  })}\n`;
}

async function writeFile(path: string): Promise<number> {
  const out = createWriteStream(path);
  for (let i = 0; i < LINES; i++)
    if (!out.write(exportLine(i))) await new Promise<void>((resolve) => out.once('drain', () => resolve()));
  out.end();
  await new Promise<void>((resolve) => out.once('close', () => resolve()));
  return (await stat(path)).size;
}

interface ImportRun {
  seconds: number;
  results: Record<string, number>;
  /** RSS (MiB) after each 10,000 answers. */
  rss: number[];
}

function importFile(url: string, path: string): Promise<ImportRun> {
  return new Promise((resolve, reject) => {
    const started = process.hrtime.bigint();
    const req = request(`${url}/api/v1/seeds/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    req.on('error', reject);
    req.on('response', async (res) => {
      if (res.statusCode !== 200) return reject(new Error(`import answered ${res.statusCode}`));
      const results: Record<string, number> = {};
      const rss: number[] = [];
      let answered = 0;
      for await (const line of createInterface({ input: res })) {
        const answer = JSON.parse(line) as { result?: string; error?: unknown };
        if (answer.error) return reject(new Error(`import stopped: ${line}`));
        if (!answer.result) continue;
        results[answer.result] = (results[answer.result] ?? 0) + 1;
        if (++answered % 10_000 === 0) rss.push(process.memoryUsage.rss() / MB);
      }
      resolve({ seconds: Number(process.hrtime.bigint() - started) / 1e9, results, rss });
    });
    createReadStream(path).pipe(req);
  });
}

/** The same rows inserted raw: a seed row and its first revision per line, multi-row, GROUP_LINES lines a transaction. */
async function rawInsert(path: string): Promise<number> {
  return withSeedbed({}, async (seedbed) => {
    let insertNs = 0n;
    let group: string[] = [];
    const flush = async () => {
      const at = new Date().toISOString();
      const rows = group.map((line) => {
        const body = seedCreateSchema.parse(JSON.parse(line));
        return draftRowOf(body, resolveSeedIdentity(body), at, { source: 'import' });
      });
      const revisions = rows.map((row) =>
        revisionRow(firstRevision(row.seed_id, 'bench', revisionValuesOf(row), at)),
      );
      group = [];
      // Only the inserts are timed: the baseline is the storage's own cost of these rows.
      const started = process.hrtime.bigint();
      await seedbed.database.transaction(async (trx) => {
        for (let i = 0; i < rows.length; i += STATEMENT_ROWS)
          await insertRows(
            trx,
            seedbed.database.dialect,
            'seeds',
            STORED_SEED_COLUMNS,
            rows.slice(i, i + STATEMENT_ROWS).map(storedRowOf),
          );
        for (let i = 0; i < revisions.length; i += STATEMENT_ROWS)
          await insertRows(
            trx,
            seedbed.database.dialect,
            'seed_revisions',
            REVISION_COLUMNS,
            revisions.slice(i, i + STATEMENT_ROWS),
          );
      });
      insertNs += process.hrtime.bigint() - started;
    };
    for await (const line of createInterface({ input: createReadStream(path) })) {
      group.push(line);
      if (group.length === GROUP_LINES) await flush();
    }
    if (group.length > 0) await flush();
    return LINES / (Number(insertNs) / 1e9);
  });
}

export async function benchImport(): Promise<BenchResult[]> {
  const dir = await mkdtemp(join(tmpdir(), 'seedbed-import-bench-'));
  try {
    const path = join(dir, 'seeds.jsonl');
    const size = await writeFile(path);
    const baseline = await rawInsert(path);
    const [first, again, startRss] = await withSeedbed({}, async (seedbed) => {
      const app = await seedbed.buildHttp(true);
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const before = process.memoryUsage.rss() / MB;
        const profileFile = process.env['BENCH_CPU_PROFILE'];
        const stopProfile = profileFile ? await startCpuProfile() : null;
        const cpu = process.cpuUsage();
        const created = await importFile(url, path);
        const used = process.cpuUsage(cpu);
        await stopProfile?.(profileFile as string);
        process.stdout.write(
          `  first import: ${((used.user + used.system) / LINES).toFixed(0)} µs of CPU a seed (service and client, user ${(used.user / LINES).toFixed(0)}, system ${(used.system / LINES).toFixed(0)})\n`,
        );
        return [created, await importFile(url, path), before] as const;
      } finally {
        await app.close();
      }
    });
    if (first.results['created'] !== LINES || again.results['unchanged'] !== LINES)
      throw new Error(`unexpected answers: ${JSON.stringify([first.results, again.results])}`);
    const subject = LINES / first.seconds;
    process.stdout.write(
      `  ${LINES.toLocaleString('en-US')} lines, ${(size / MB).toFixed(1)} MiB: created in ${first.seconds.toFixed(1)} s, sent again (unchanged) in ${again.seconds.toFixed(1)} s (${Math.round(LINES / again.seconds).toLocaleString('en-US')} seeds/s)\n` +
        `  RSS before ${startRss.toFixed(0)} MiB; per 10,000 answers (first import): ${first.rss.map((r) => r.toFixed(0)).join(' ')} MiB\n`,
    );
    const firstTenth = Math.max(...first.rss.slice(0, Math.ceil(first.rss.length / 10)));
    const whole = Math.max(...first.rss);
    return [
      report({
        name: `seed import (${LINES.toLocaleString('en-US')} export lines, SQLite)`,
        subject: 'POST /seeds/import over HTTP',
        subjectValue: subject,
        baseline: `raw insert of the same rows, ${GROUP_LINES} a transaction`,
        baselineValue: baseline,
        unit: 'seeds/s',
        ratio: subject / baseline,
      }),
      report({
        name: 'seed import memory',
        subject: 'peak RSS over the whole import',
        subjectValue: whole,
        baseline: 'peak RSS over its first tenth',
        baselineValue: firstTenth,
        unit: 'MiB',
        // Near 1: the RSS does not grow with the file.
        ratio: whole / firstTenth,
      }),
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchImport();
