// Liveness results: the latest per host and every check in its history (and, through the batch items, per
// batch). A liveness batch's check also reaches every seed of the domain, as its `discovery`.
import { NotFoundError } from '../domain/errors.js';
import { uuidv7 } from '../domain/ids.js';
import { discoveryOf } from '../domain/seed-facts.js';
import type { LivenessEvidence, LivenessResult } from '../engine/liveness.js';
import type { Database, DbExecutor, LivenessResultTable } from '../ports/database.js';
import { insertRows, onConflictReplace } from './bulk-insert.js';
import { type Page, type PageRequest, page, parseJson } from './common.js';
import type { SeedRepository } from './seed-repository/index.js';

export interface LivenessView {
  domain: string;
  alive: boolean;
  state: LivenessResultTable['state'];
  http_status: number | null;
  final_url: string | null;
  https: boolean;
  latency_ms: number | null;
  error_code: string | null;
  error_message: string | null;
  checked_at: string;
  batch_id: string | null;
  /** What the verdict rests on: the challenge recognised, the status that blocked us, the network canary. */
  evidence: LivenessEvidence | null;
}

/** A domain's liveness: its latest check and its history, newest first (paginated). */
export interface DomainLiveness extends Page<LivenessView> {
  domain: string;
  latest: LivenessView;
}

export type LivenessService = ReturnType<typeof createLivenessService>;

/** Every column of liveness_results, in the order the statement names them. */
const RESULT_COLUMNS = [
  'domain',
  'alive',
  'state',
  'http_status',
  'final_url',
  'https',
  'latency_ms',
  'error_code',
  'error_message',
  'checked_at',
  'batch_id',
  'evidence',
] as const satisfies ReadonlyArray<keyof LivenessResultTable>;
const HISTORY_COLUMNS = [...RESULT_COLUMNS, 'id', 'registrable_domain'] as const;
/** The host's latest check replaces its row whole (the same on SQLite and PostgreSQL). */
const LATEST_WINS = onConflictReplace(
  ['domain'],
  RESULT_COLUMNS.filter((c) => c !== 'domain'),
);
/** Compiles only while RESULT_COLUMNS names every column of the table. */
export const RESULT_COLUMNS_COMPLETE: [
  Exclude<keyof LivenessResultTable, (typeof RESULT_COLUMNS)[number]>,
] extends [never]
  ? true
  : never = true;

export function createLivenessService(deps: {
  database: Database;
  repository: Pick<SeedRepository, 'setDiscovery'>;
}) {
  /** In the caller's transaction: the latest row of the host and one history row. */
  async function recordRows(
    executor: DbExecutor,
    registrableDomain: string,
    result: LivenessResult,
    batchId: string | null,
  ) {
    const row = {
      domain: result.domain,
      alive: result.alive ? 1 : 0,
      state: result.state,
      http_status: result.http_status,
      final_url: result.final_url,
      https: result.https ? 1 : 0,
      latency_ms: result.latency_ms,
      error_code: result.error_code,
      error_message: result.error_message,
      checked_at: result.checked_at,
      batch_id: batchId,
      evidence: result.evidence ? JSON.stringify(result.evidence) : null,
    };
    // Two statements as text (bulk-insert.ts): every contract and liveness item writes them, and Kysely's
    // builder cost more of the main thread than running them.
    await insertRows(executor, deps.database.dialect, 'liveness_results', RESULT_COLUMNS, [row], LATEST_WINS);
    // Exactly once per check: record() runs in the transaction that answers the item, and an answered item is
    // never recorded again on a redelivery.
    const history = { ...row, id: uuidv7(), registrable_domain: registrableDomain };
    await insertRows(executor, deps.database.dialect, 'liveness_history', HISTORY_COLUMNS, [history]);
  }

  /** A liveness batch's check: its rows, and the discovery of every seed of the domain, in one shape. */
  async function record(
    executor: DbExecutor,
    registrableDomain: string,
    result: LivenessResult,
    batchId: string | null,
  ) {
    await recordRows(executor, registrableDomain, result, batchId);
    await deps.repository.setDiscovery(executor, registrableDomain, {
      discovery: discoveryOf(result),
      at: result.checked_at,
    });
  }

  /** The latest check of exactly this host, or null. */
  async function latest(domain: string): Promise<LivenessView | null> {
    const row = await deps.database.db
      .selectFrom('liveness_results')
      .selectAll()
      .where('domain', '=', domain)
      .executeTakeFirst();
    return row ? toView(row) : null;
  }

  /**
   * The checks of a host, or of every host of a registrable domain (`mom.gov.sg` finds `www.mom.gov.sg` too),
   * newest first. A 404 when the domain was never checked.
   */
  async function history(domain: string, request: PageRequest): Promise<DomainLiveness> {
    const query = deps.database.db
      .selectFrom('liveness_history')
      .where((eb) => eb.or([eb('domain', '=', domain), eb('registrable_domain', '=', domain)]));
    const newestFirst = query.selectAll().orderBy('checked_at', 'desc').orderBy('id', 'desc');
    const [first, rows, total] = await Promise.all([
      newestFirst.limit(1).executeTakeFirst(),
      newestFirst.limit(request.limit).offset(request.offset).execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    if (!first) throw new NotFoundError(`no liveness check of ${domain}`);
    return { domain, latest: toView(first), ...page(rows.map(toView), request, Number(total.n)) };
  }

  return { record, recordRows, latest, history };
}

function toView(row: LivenessResultTable): LivenessView {
  return {
    domain: row.domain,
    alive: Number(row.alive) === 1,
    state: row.state,
    http_status: row.http_status === null ? null : Number(row.http_status),
    final_url: row.final_url,
    https: Number(row.https) === 1,
    latency_ms: row.latency_ms === null ? null : Number(row.latency_ms),
    error_code: row.error_code,
    error_message: row.error_message,
    checked_at: row.checked_at,
    batch_id: row.batch_id,
    evidence: parseJson<LivenessEvidence | null>(row.evidence, null),
  };
}
