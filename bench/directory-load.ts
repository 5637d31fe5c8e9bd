// Filling the directory: seeds through `POST /api/v1/seeds/import` as a person's file would go in (made up line
// by line, streamed, the answers read as they come), the same rows inserted raw into an empty database for the
// baseline, then the facts the workers would have found by now, and the candidates (written straight into their
// table: the API has no way to create candidates in bulk, see directory.ts).
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { sql } from 'kysely';
import { createPostgresDatabase } from '../src/adapters/sql/postgres-database.js';
import { createSqliteDatabase } from '../src/adapters/sql/sqlite-database.js';
import { resolveSeedIdentity } from '../src/domain/seed-identity.js';
import { type SeedStatus, seedCreateSchema } from '../src/domain/seeds.js';
import type { CandidateTable, StoredSeedTable } from '../src/ports/database.js';
import { insertRows } from '../src/services/bulk-insert.js';
import { GROUP_LINES } from '../src/services/seed-import.js';
import {
  draftRowOf,
  factColumns,
  firstRevision,
  listColumnsOf,
  REVISION_COLUMNS,
  revisionRow,
  revisionValuesOf,
  STORED_SEED_COLUMNS,
  storedRowOf,
} from '../src/services/seed-repository/rows.js';
import type { Kind, RawDatabase } from './directory-backend.js';
import { candidateRow, factsOf, seedLine } from './directory-data.js';

/** Lines per import request: a person splits a large file (docs/api.md, "Imports"). */
const LINES_PER_REQUEST = 250_000;
const STATEMENT_ROWS = 100;

function importRange(url: string, from: number, to: number): Promise<Record<string, number>> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}/api/v1/seeds/import`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-ndjson' },
    });
    req.on('error', reject);
    req.on('response', async (res) => {
      if (res.statusCode !== 200) return reject(new Error(`import answered ${res.statusCode}`));
      const results: Record<string, number> = {};
      for await (const line of createInterface({ input: res })) {
        const answer = JSON.parse(line) as { result?: string; error?: unknown; reason?: string };
        if (answer.error) return reject(new Error(`import stopped: ${line}`));
        if (answer.result === 'rejected') return reject(new Error(`line rejected: ${line}`));
        if (answer.result) results[answer.result] = (results[answer.result] ?? 0) + 1;
      }
      resolve(results);
    });
    void (async () => {
      for (let i = from; i < to; i++)
        if (!req.write(seedLine(i))) await new Promise<void>((done) => req.once('drain', () => done()));
      req.end();
    })().catch(reject);
  });
}

/** Imports seeds 0..count-1 through the API; answers the seconds it took. */
export async function importSeeds(url: string, count: number): Promise<number> {
  const started = process.hrtime.bigint();
  let created = 0;
  for (let from = 0; from < count; from += LINES_PER_REQUEST) {
    const results = await importRange(url, from, Math.min(count, from + LINES_PER_REQUEST));
    created += results['created'] ?? 0;
  }
  if (created !== count) throw new Error(`import created ${created} of ${count} seeds`);
  return Number(process.hrtime.bigint() - started) / 1e9;
}

/**
 * The baseline: the rows the import writes (a draft and its first revision per line), built outside the clock and
 * inserted as the service inserts them (multi-row statements written as text, bulk-insert.ts), GROUP_LINES lines
 * a transaction, into an empty database of the same
 * kind. Answers seeds/s over the inserts alone.
 */
export async function rawInsertRate(kind: Kind, location: string, count: number): Promise<number> {
  const database = kind === 'sqlite' ? createSqliteDatabase(location) : createPostgresDatabase(location);
  await database.migrate();
  try {
    let insertNs = 0n;
    for (let from = 0; from < count; from += GROUP_LINES) {
      const at = new Date().toISOString();
      const rows: StoredSeedTable[] = [];
      for (let i = from; i < Math.min(count, from + GROUP_LINES); i++) {
        const body = seedCreateSchema.parse(JSON.parse(seedLine(i)));
        rows.push(storedRowOf(draftRowOf(body, resolveSeedIdentity(body), at, { source: 'import' })));
      }
      const revisions = rows.map((row) =>
        revisionRow(firstRevision(row.seed_id, 'bench', revisionValuesOf(row), at)),
      );
      const started = process.hrtime.bigint();
      await database.transaction(async (trx) => {
        for (let i = 0; i < rows.length; i += STATEMENT_ROWS)
          await insertRows(
            trx,
            database.dialect,
            'seeds',
            STORED_SEED_COLUMNS,
            rows.slice(i, i + STATEMENT_ROWS),
          );
        for (let i = 0; i < revisions.length; i += STATEMENT_ROWS)
          await insertRows(
            trx,
            database.dialect,
            'seed_revisions',
            REVISION_COLUMNS,
            revisions.slice(i, i + STATEMENT_ROWS),
          );
      });
      insertNs += process.hrtime.bigint() - started;
    }
    return count / (Number(insertNs) / 1e9);
  } finally {
    await database.close();
  }
}

const FACTS_BATCH = 2_000;

/**
 * What discovery and the re-checks would have written by now (factsOf): a third of the seeds promoted, verdicts,
 * languages and rates. Written straight into the rows, in seed id order, FACTS_BATCH seeds a transaction.
 */
export async function applyFacts(raw: RawDatabase): Promise<void> {
  const at = new Date().toISOString();
  let after = '';
  for (;;) {
    const rows = await raw.db
      .selectFrom('seeds')
      .select(['seed_id', 'country'])
      .where('seed_id', '>', after)
      .orderBy('seed_id')
      .limit(FACTS_BATCH)
      .execute();
    if (rows.length === 0) return;
    after = (rows[rows.length - 1] as { seed_id: string }).seed_id;
    const updates = rows.map(({ seed_id, country }) => {
      const { active, facts } = factsOf(seed_id, country, at);
      const columns = factColumns(facts);
      // The plain list columns follow their JSON, as the repository writes them (rows.ts, listColumnsOf).
      const list = listColumnsOf({
        freshness: columns.freshness ?? null,
        items_per_day: columns.items_per_day ?? null,
      });
      return {
        seed_id,
        status: (active ? 'active' : 'draft') as SeedStatus,
        promoted_at: active ? at : null,
        news: columns.news ?? null,
        news_verdict: columns.news_verdict ?? null,
        languages: columns.languages ?? '[]',
        language_codes: columns.language_codes ?? null,
        freshness: columns.freshness ?? null,
        items_per_day: columns.items_per_day ?? null,
        freshness_state: list.freshness_state ?? 'unknown',
        rate_rank: list.rate_rank ?? 1,
      };
    });
    if (raw.kind === 'sqlite') {
      await raw.db.transaction().execute(async (trx) => {
        for (const { seed_id, ...set } of updates)
          await trx.updateTable('seeds').set(set).where('seed_id', '=', seed_id).execute();
      });
    } else {
      const column = (name: keyof (typeof updates)[number]) => updates.map((u) => u[name]);
      await sql`update seeds as s set status = v.status, promoted_at = v.promoted_at, news = v.news,
        news_verdict = v.news_verdict, languages = v.languages, language_codes = v.language_codes,
        freshness = v.freshness, items_per_day = v.items_per_day, freshness_state = v.freshness_state,
        rate_rank = v.rate_rank
        from unnest(${column('seed_id')}::text[], ${column('status')}::text[], ${column('promoted_at')}::text[],
          ${column('news')}::text[], ${column('news_verdict')}::text[], ${column('languages')}::text[],
          ${column('language_codes')}::text[], ${column('freshness')}::text[],
          ${column('items_per_day')}::double precision[], ${column('freshness_state')}::text[],
          ${column('rate_rank')}::double precision[])
          as v(seed_id, status, promoted_at, news, news_verdict, languages, language_codes, freshness, items_per_day,
            freshness_state, rate_rank)
        where s.seed_id = v.seed_id`.execute(raw.db);
    }
  }
}

/** Candidates 0..count-1, 1,000 a transaction in statements of 100 rows. */
export async function insertCandidates(raw: RawDatabase, count: number): Promise<void> {
  const at = new Date().toISOString();
  for (let from = 0; from < count; from += 1_000) {
    const rows: CandidateTable[] = [];
    for (let i = from; i < Math.min(count, from + 1_000); i++) rows.push(candidateRow(i, at));
    await raw.db.transaction().execute(async (trx) => {
      for (let i = 0; i < rows.length; i += 100)
        await trx
          .insertInto('candidates')
          .values(rows.slice(i, i + 100))
          .execute();
    });
  }
  // The rows went in beside the repository, so the totals it keeps with every write (candidate_totals) are
  // counted once here, as migration 0014 counts the candidates it finds.
  await sql`delete from candidate_totals`.execute(raw.db);
  await sql`insert into candidate_totals (country, state, verdict, n)
    select country, state, coalesce(news_verdict, ''), count(*) from candidates
    group by country, state, coalesce(news_verdict, '')`.execute(raw.db);
}
