// `npm run bench -- directory`: a million-seed directory (docs/design.md §13), used as a person would use it, on
// SQLite and on PostgreSQL + S3 (s3rver), each figure against the same work on the raw database in the same run.
//
// The service runs as a child process (`seedbed serve`), its RSS read from /proc every 200 ms throughout. Seeds go
// in through `POST /api/v1/seeds/import` (made up line by line and streamed, directory-data.ts); the raw insert
// baseline writes the same rows into an empty database of the same kind. Then the facts the discovery and re-check
// workers would have found (verdicts, languages, rates, a third of the seeds promoted) are written straight into
// the rows, and — the API having no bulk way to create candidates (`POST /candidates/import` reports gaps, it
// inserts nothing) — the candidates are inserted straight into their table. On PostgreSQL the bench then runs
// ANALYZE, as autovacuum would soon after a bulk load. Then, timed: the lists (page 1 and deep: the API's
// `pagination.next`, the review page's Next link, by offset only where a list gives no cursor; directory-reads.ts),
// a seed's detail, promote by filter, the export, the
// snapshot and `by-country`, and the review page's lists; the raw side replays the statements the service's
// repositories send for each (directory-backend.ts).
//
// SEEDBED_BENCH_DIRECTORY_SEEDS (1,000,000), SEEDBED_BENCH_DIRECTORY_CANDIDATES (as many as seeds, SQLite only
// unless SEEDBED_BENCH_DIRECTORY_PG_CANDIDATES=1), SEEDBED_BENCH_DIRECTORY_SAMPLES (25 per read),
// SEEDBED_BENCH_DIRECTORY_BACKENDS (sqlite,postgres).
import { sql } from 'kysely';
import type { NewsVerdictValue } from '../src/domain/seed-facts.js';
import { GROUP_LINES } from '../src/services/seed-import.js';
import { foldAllTotals } from '../src/services/seed-repository/totals.js';
import { STREAM_PAGE } from '../src/services/seeds.js';
import { type Backend, type Kind, startBackend } from './directory-backend.js';
import { countryOfRank, languageOf } from './directory-data.js';
import { applyFacts, importSeeds, insertCandidates, rawInsertRate } from './directory-load.js';
import {
  percentile,
  type ReadCase,
  type Timing,
  timedGet,
  timedReplay,
  timeList,
} from './directory-reads.js';
import { type BenchResult, report } from './support.js';

const env = (name: string, fallback: string) => process.env[`SEEDBED_BENCH_DIRECTORY_${name}`] ?? fallback;
const SEEDS = Number(env('SEEDS', '1000000'));
const CANDIDATES = Number(env('CANDIDATES', String(SEEDS)));
const SAMPLES = Number(env('SAMPLES', '25'));
const BACKENDS = env('BACKENDS', 'sqlite,postgres').split(',') as Kind[];
const SLOW_SAMPLES = 5;
const TARGET_MS = 50;
const TARGET_EXPORT = 50_000;
const TARGET_RSS = 512;

const fmt = (n: number) => (n >= 100 ? Math.round(n).toLocaleString('en-US') : n.toFixed(1));
const log = (line: string) => process.stdout.write(`${line}\n`);
const seconds = (started: bigint) => Number(process.hrtime.bigint() - started) / 1e9;

/** The reads, by the largest countries (de is the second) and the filters the review page offers. */
function readCases(withCandidates: boolean): ReadCase[] {
  const de = countryOfRank(1);
  const fr = countryOfRank(3);
  const seeds: ReadCase[] = [
    { kind: 'seeds', query: {}, target: true },
    { kind: 'seeds', query: { country: de, status: 'draft' }, target: true },
    { kind: 'seeds', query: { status: 'draft', verdict: 'news' }, target: true },
    { kind: 'seeds', query: { language: languageOf(fr) }, target: true },
    { kind: 'seeds', query: { status: 'active', country: countryOfRank(0) }, target: true },
    { kind: 'seeds', query: { status: 'draft', freshness: 'stale' }, target: true },
    { kind: 'ui-seeds', query: {}, target: false },
    { kind: 'ui-seeds', query: { verdict: 'news' }, target: false },
    { kind: 'ui-seeds', query: { country: de, fetch_type: 'rss' }, target: false },
  ];
  if (!withCandidates) return seeds;
  return [
    ...seeds,
    { kind: 'candidates', query: {}, target: true },
    { kind: 'candidates', query: { state: 'qualified', verdict: 'news' }, target: true },
    { kind: 'candidates', query: { country: de, state: 'new' }, target: true },
    { kind: 'ui-candidates', query: {}, target: false },
    { kind: 'ui-candidates', query: { state: 'qualified', verdict: 'news' }, target: false },
  ];
}

interface Row {
  name: string;
  service: string;
  raw: string;
  ratio: number;
  target: string;
  met: boolean | null;
}

function latencyRow(t: Timing): Row {
  const p99 = percentile(t.service, 99);
  const rawP99 = percentile(t.raw, 99);
  return {
    name: `${t.name} [${t.paging}; ${t.service.length} samples]`,
    service: `p50 ${fmt(percentile(t.service, 50))} / p99 ${fmt(p99)} ms`,
    raw: `p50 ${fmt(percentile(t.raw, 50))} / p99 ${fmt(rawP99)} ms`,
    ratio: rawP99 / p99,
    target: t.target ? `p99 ≤ ${TARGET_MS} ms` : '',
    met: t.target ? p99 <= TARGET_MS : null,
  };
}

/** The plans of the statements behind a missed target: where the time goes. */
async function explain(backend: Backend, t: Timing): Promise<void> {
  for (const statement of t.statements.slice(0, 2)) {
    const prefix = backend.kind === 'sqlite' ? 'explain query plan ' : 'explain ';
    const rows = (await backend.raw.replay([
      { sql: prefix + statement.sql, parameters: statement.parameters },
    ])) as Array<Record<string, unknown>>;
    const plan = rows.map((r) => String(r['detail'] ?? r['QUERY PLAN'] ?? JSON.stringify(r))).join(' | ');
    log(`    ${statement.sql.slice(0, 160)}\n      plan: ${plan.slice(0, 600)}`);
  }
}

async function exportRates(backend: Backend): Promise<[number, number]> {
  const started = process.hrtime.bigint();
  const response = await fetch(new URL('/api/v1/seeds/export', backend.service.url));
  if (!response.ok || !response.body) throw new Error(`export answered ${response.status}`);
  let lines = 0;
  // Counted with indexOf: a loop over every byte cost the client more CPU than a fast export costs the service.
  for await (const chunk of response.body as AsyncIterable<Uint8Array>)
    for (let at = chunk.indexOf(10); at >= 0; at = chunk.indexOf(10, at + 1)) lines++;
  const service = lines / seconds(started);
  if (lines !== SEEDS) throw new Error(`export sent ${lines} of ${SEEDS} seeds`);

  // Raw: the export's own keyset statement (the seed's columns, STREAM_PAGE a page), page after page, each row
  // written as a JSON line.
  const [statement] = await backend.raw.record(() => backend.raw.seeds.seedValuesAfter({}, '', STREAM_PAGE));
  if (!statement) throw new Error('no export statement recorded');
  const at = statement.parameters.indexOf('');
  const rawStarted = process.hrtime.bigint();
  let after = '';
  let rawLines = 0;
  let bytes = 0;
  for (;;) {
    const parameters = [...statement.parameters];
    parameters[at] = after;
    const rows = (await backend.raw.replay([{ sql: statement.sql, parameters }])) as Array<{
      seed_id: string;
    }>;
    for (const row of rows) bytes += `${JSON.stringify(row)}\n`.length;
    rawLines += rows.length;
    if (rows.length < STREAM_PAGE) break;
    after = (rows[rows.length - 1] as { seed_id: string }).seed_id;
  }
  if (rawLines !== SEEDS || bytes === 0) throw new Error(`raw export read ${rawLines} rows`);
  return [service, rawLines / seconds(rawStarted)];
}

async function timedPaths(
  backend: Backend,
  name: string,
  path: string,
  statements: Parameters<Backend['raw']['replay']>[0],
) {
  const t: Timing = {
    name,
    service: [],
    raw: [],
    paging: 'its counts',
    target: false,
    statements: [...statements],
  };
  await timedGet(backend.service.url, path);
  for (let i = 0; i < SLOW_SAMPLES; i++) {
    t.service.push((await timedGet(backend.service.url, path)).ms);
    t.raw.push(await timedReplay(backend.raw, statements));
  }
  return t;
}

async function promoteByFilter(backend: Backend, rows: Row[]): Promise<void> {
  const filter = { country: countryOfRank(3), verdict: 'news' as NewsVerdictValue };
  let serviceSeconds = 0;
  let rawSeconds = 0;
  let promoted = 0;
  let rawPromoted = 0;
  for (let call = 0; call < 3; call++) {
    // Raw first, rolled back: the same drafts, selected and promoted in one transaction.
    const rawStarted = process.hrtime.bigint();
    await backend.raw.db
      .transaction()
      .execute(async (trx) => {
        const ids = await backend.raw.seeds.movableIdsAfter(
          trx,
          { filter: { ...filter, status: 'draft' } },
          null,
          1000,
        );
        if (ids.length > 0)
          await trx
            .updateTable('seeds')
            .set({ status: 'active', promoted_at: new Date().toISOString() })
            .where('seed_id', 'in', ids)
            .execute();
        rawPromoted += ids.length;
        throw new RollBack();
      })
      .catch((error) => {
        if (!(error instanceof RollBack)) throw error;
      });
    rawSeconds += seconds(rawStarted);
    const started = process.hrtime.bigint();
    const response = await fetch(new URL('/api/v1/seeds/promote', backend.service.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ filter, limit: 1000 }),
    });
    const answer = (await response.json()) as { promoted?: number };
    serviceSeconds += seconds(started);
    if (!response.ok)
      throw new Error(`promote answered ${response.status}: ${JSON.stringify(answer).slice(0, 300)}`);
    promoted += answer.promoted ?? 0;
  }
  rows.push({
    name: `POST /api/v1/seeds/promote by filter (${new URLSearchParams(filter)}), 3 × limit 1,000: ${promoted} promoted`,
    service: `${fmt(promoted / serviceSeconds)} seeds/s`,
    raw: `${fmt(rawPromoted / rawSeconds)} seeds/s (select + update, rolled back)`,
    ratio: promoted / serviceSeconds / (rawPromoted / rawSeconds),
    target: '',
    met: null,
  });
}

class RollBack extends Error {}

async function runBackend(kind: Kind): Promise<{ rows: Row[]; results: BenchResult[] }> {
  const candidates = kind === 'sqlite' || env('PG_CANDIDATES', '') === '1' ? CANDIDATES : 0;
  log(
    `\n== directory on ${kind}: ${SEEDS.toLocaleString('en-US')} seeds, ${candidates.toLocaleString('en-US')} candidates, ${SAMPLES} samples a read ==`,
  );
  const backend = await startBackend(kind);
  const rows: Row[] = [];
  const results: BenchResult[] = [];
  const { rss } = backend;
  const idle = rss.peak;
  try {
    rss.enter('import');
    const importSeconds = await importSeeds(backend.service.url, SEEDS);
    const importRate = SEEDS / importSeconds;
    log(
      `  imported in ${importSeconds.toFixed(1)} s (${fmt(importRate)} seeds/s), peak RSS ${fmt(rss.peak)} MiB`,
    );
    rss.enter('load');
    const scratch = await backend.scratchDatabase();
    const rawRate = await rawInsertRate(kind, scratch.location, SEEDS).finally(() => scratch.drop());
    rows.push({
      name: `POST /api/v1/seeds/import, ${SEEDS.toLocaleString('en-US')} lines in requests of 250,000`,
      service: `${fmt(importRate)} seeds/s`,
      raw: `${fmt(rawRate)} seeds/s (the service's multi-row insert, ${fmt(GROUP_LINES)} a transaction, empty database)`,
      ratio: importRate / rawRate,
      target: '',
      met: null,
    });
    let started = process.hrtime.bigint();
    await applyFacts(backend.raw);
    log(`  facts written in ${seconds(started).toFixed(1)} s`);
    started = process.hrtime.bigint();
    if (candidates > 0) await insertCandidates(backend.raw, candidates);
    // The import folded PostgreSQL's kept totals as it ended; the facts written since (a row per change) would be
    // folded by the first count that reads past FOLD_AT of them. Folded here, before any read is timed, for the
    // service and the raw side alike.
    if (kind === 'postgres') await foldAllTotals(backend.raw.database);
    // What autovacuum does after a bulk load (its insert threshold, PostgreSQL 13+), done now rather than whenever
    // it comes: the visibility map set (so a count is an index-only scan), the folded totals' dead rows gone, and
    // fresh statistics. The timed reads then meet the database a running service has, not one mid-load.
    if (kind === 'postgres') await sql`vacuum (analyze)`.execute(backend.raw.db);
    log(`  candidates inserted in ${seconds(started).toFixed(1)} s`);
    // by-country answers for a country with stored research: one small research record for it.
    const research = await fetch(new URL('/api/v1/research', backend.service.url), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        country: countryOfRank(1),
        category: 'news',
        urls: ['https://www.source1.de/a', 'https://www.source2.de/b'],
      }),
    });
    if (!research.ok) throw new Error(`research answered ${research.status}`);

    rss.enter('reads');
    const timings: Timing[] = [];
    for (const c of readCases(candidates > 0)) {
      const got = await timeList(backend.service.url, backend.raw, c, SAMPLES);
      for (const t of got)
        log(`  ${latencyRow(t).name}: ${latencyRow(t).service} vs raw ${latencyRow(t).raw}`);
      timings.push(...got);
    }
    const ids = (
      await backend.raw.db
        .selectFrom('seeds')
        .select('seed_id')
        .orderBy(sql`random()`)
        .limit(SAMPLES)
        .execute()
    ).map((r) => r.seed_id);
    const detail: Timing = {
      name: 'GET /api/v1/seeds/:id',
      service: [],
      raw: [],
      paging: 'random seeds',
      target: true,
      statements: [],
    };
    for (const id of ids) {
      detail.statements = await backend.raw.record(() => backend.raw.seeds.find(backend.raw.db, id));
      detail.service.push(
        (await timedGet(backend.service.url, `/api/v1/seeds/${encodeURIComponent(id)}`)).ms,
      );
      detail.raw.push(await timedReplay(backend.raw, detail.statements));
    }
    timings.push(detail);

    rss.enter('snapshot');
    const counts = await backend.raw.record(async () => {
      await backend.raw.seeds.countByStatus();
      await backend.raw.seeds.countByAi();
      await backend.raw.seeds.countByNews();
      await backend.raw.seeds.countActiveByHealth();
      await backend.raw.candidates.countByState();
    });
    timings.push(
      await timedPaths(backend, 'GET /api/v1/metadata/snapshot', '/api/v1/metadata/snapshot', counts),
    );
    timings.push(
      await timedPaths(
        backend,
        `GET /api/v1/metadata/by-country/${countryOfRank(1)}`,
        `/api/v1/metadata/by-country/${countryOfRank(1)}`,
        counts,
      ),
    );

    rss.enter('promote');
    await promoteByFilter(backend, rows);

    rss.enter('export');
    const [exportRate, rawExport] = await exportRates(backend);
    rss.enter('end');

    for (const t of timings) rows.push(latencyRow(t));
    rows.push({
      name: `GET /api/v1/seeds/export (jsonl, every seed)`,
      service: `${fmt(exportRate)} seeds/s`,
      raw: `${fmt(rawExport)} seeds/s (its keyset statement, ${fmt(STREAM_PAGE)} a page, rows as JSON lines)`,
      ratio: exportRate / rawExport,
      target: `≥ ${fmt(TARGET_EXPORT)} seeds/s`,
      met: exportRate >= TARGET_EXPORT,
    });
    const phases = [...rss.peaks].map(([phase, mib]) => `${phase} ${fmt(mib)}`).join(', ');
    rows.push({
      name: `service peak RSS (${rss.samples} samples; by phase, MiB: ${phases})`,
      service: `${fmt(rss.peak)} MiB`,
      raw: `${fmt(idle)} MiB idle after start`,
      ratio: idle / rss.peak,
      target: `≤ ${TARGET_RSS} MiB`,
      met: rss.peak <= TARGET_RSS,
    });

    log(
      `\n| ${kind}: ${SEEDS.toLocaleString('en-US')} seeds | service | raw database (same run) | ratio | target | met |\n|---|---|---|---|---|---|`,
    );
    for (const r of rows)
      log(
        `| ${r.name} | ${r.service} | ${r.raw} | ${r.ratio.toFixed(3)} | ${r.target} | ${r.met === null ? '' : r.met ? 'yes' : '**no**'} |`,
      );
    const missed = timings.filter((t) => t.target && percentile(t.service, 99) > TARGET_MS);
    if (missed.length > 0) log(`\n  plans behind the missed targets (${kind}):`);
    for (const t of missed) {
      log(`  ${t.name}`);
      await explain(backend, t);
    }
    for (const t of timings)
      results.push(
        report({
          name: `directory ${kind} ${SEEDS.toLocaleString('en-US')}: ${t.name}`,
          subject: 'service p99',
          subjectValue: percentile(t.service, 99),
          baseline: 'raw database p99',
          baselineValue: percentile(t.raw, 99),
          unit: 'ms',
          // Latency: lower is better, so the ratio is baseline / subject (1.0 = as fast as the raw database).
          ratio: percentile(t.raw, 99) / percentile(t.service, 99),
        }),
      );
    results.push(
      report({
        name: `directory ${kind}: import`,
        subject: 'POST /seeds/import',
        subjectValue: importRate,
        baseline: 'raw insert',
        baselineValue: rawRate,
        unit: 'seeds/s',
        ratio: importRate / rawRate,
      }),
      report({
        name: `directory ${kind}: export`,
        subject: 'GET /seeds/export',
        subjectValue: exportRate,
        baseline: 'raw keyset read',
        baselineValue: rawExport,
        unit: 'seeds/s',
        ratio: exportRate / rawExport,
      }),
    );
    return { rows, results };
  } finally {
    await backend.close();
  }
}

export async function benchDirectory(): Promise<BenchResult[]> {
  const started = process.hrtime.bigint();
  const results: BenchResult[] = [];
  for (const kind of BACKENDS) results.push(...(await runBackend(kind)).results);
  log(`\ndirectory bench: ${(seconds(started) / 60).toFixed(1)} min`);
  return results;
}

if (import.meta.url === `file://${process.argv[1]}`) await benchDirectory();
