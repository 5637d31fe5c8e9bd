// Changes between two discoveries of a domain (docs/design.md §3 events): each contract run's summary is compared with
// the last one stored for the domain, and every difference is stored with its evidence. Owns
// `domain_discoveries` and `domain_changes`.
import { uuidv7 } from '../domain/ids.js';
import {
  type ChangeKind,
  carryForward,
  type DiscoverySummary,
  diffDiscoveries,
} from '../engine/discovery-changes.js';
import type { Database, DbExecutor, DomainChangeTable, DomainDiscoveryTable } from '../ports/database.js';
import { insertRows, onConflictReplace } from './bulk-insert.js';
import { type Clock, type Page, type PageRequest, page, parseJson } from './common.js';
import { cursorPosition, keysetPage } from './cursor.js';
import { runText, sqlText } from './sql-text.js';

const LAST_METADATA_KEY = sqlText(
  'select "metadata_key" from "domain_discoveries" where "registrable_domain" = ?',
);

/** The change list's orders, as its cursors name them: oldest first (the API's), and newest first (the page's). */
/** Every column of domain_discoveries; a domain's newer discovery replaces its row whole. */
const DISCOVERY_COLUMNS = [
  'registrable_domain',
  'summary',
  'collected_at',
  'batch_id',
  'metadata_key',
] as const satisfies ReadonlyArray<keyof DomainDiscoveryTable>;
const LATEST_DISCOVERY = onConflictReplace(['registrable_domain'], DISCOVERY_COLUMNS.slice(1));
/** Compiles only while DISCOVERY_COLUMNS names every column of the table. */
export const DISCOVERY_COLUMNS_COMPLETE: [
  Exclude<keyof DomainDiscoveryTable, (typeof DISCOVERY_COLUMNS)[number]>,
] extends [never]
  ? true
  : never = true;

const CHANGE_ORDERS = { oldest: 'detected', newest: '-detected' } as const;

export interface ChangeView {
  id: string;
  registrable_domain: string;
  domain_id: string;
  kind: string;
  message: string;
  before: unknown;
  after: unknown;
  evidence: Record<string, unknown>;
  batch_id: string | null;
  detected_at: string;
}

export interface DiscoveryRecord {
  registrableDomain: string;
  domainId: string;
  summary: DiscoverySummary;
  collectedAt: string;
  batchId: string | null;
  /** What the events rest on: the stored evidence objects, the liveness verdict. */
  evidence: Record<string, unknown>;
  /** Where this discovery stored its domain_metadata.json; null when it reached nothing (the last one stands). */
  metadataKey: string | null;
}

/** One event to store: what changed for which domain, with what it rests on. */
export interface NewChange {
  registrableDomain: string;
  domainId: string;
  kind: ChangeKind;
  message: string;
  before: unknown;
  after: unknown;
  evidence: Record<string, unknown>;
  batchId: string | null;
}

export type ChangeService = ReturnType<typeof createChangeService>;

export function createChangeService(deps: { database: Database; clock: Clock }) {
  const { database, clock } = deps;

  /**
   * Compares the discovery with the domain's last one, stores the events and keeps the new summary as the last.
   * The first discovery of a domain is the baseline: no event. A discovery older than the stored one (a slow
   * chunk committing late) is not compared, so events always read forward in time.
   */
  async function record(executor: DbExecutor, discovery: DiscoveryRecord): Promise<ChangeView[]> {
    const previous = await executor
      .selectFrom('domain_discoveries')
      .selectAll()
      .where('registrable_domain', '=', discovery.registrableDomain)
      .executeTakeFirst();
    if (previous && previous.collected_at > discovery.collectedAt) return [];
    const before = previous ? parseJson<DiscoverySummary | null>(previous.summary, null) : null;
    const summary = before ? carryForward(before, discovery.summary) : discovery.summary;
    const events = before ? diffDiscoveries(before, summary) : [];
    const evidence = {
      ...discovery.evidence,
      collected_at: discovery.collectedAt,
      previous_collected_at: previous?.collected_at ?? null,
      previous_batch_id: previous?.batch_id ?? null,
    };
    const rows = events.map((event) => rowOf({ ...discovery, ...event, evidence }));
    if (rows.length > 0) await executor.insertInto('domain_changes').values(rows).execute();
    const stored = {
      summary: JSON.stringify(summary),
      collected_at: discovery.collectedAt,
      batch_id: discovery.batchId,
      metadata_key: discovery.metadataKey ?? previous?.metadata_key ?? null,
    };
    // As text (bulk-insert.ts), like the lookup above: one per contract run.
    const row = { registrable_domain: discovery.registrableDomain, ...stored };
    await insertRows(
      executor,
      database.dialect,
      'domain_discoveries',
      DISCOVERY_COLUMNS,
      [row],
      LATEST_DISCOVERY,
    );
    return rows.map(toView);
  }

  /** The domain_metadata.json of the domain's last discovery that reached the site, to revalidate against. */
  async function lastMetadataKey(registrableDomain: string): Promise<string | null> {
    // As text: asked before every contract run, and Kysely's builder cost more than the lookup.
    const { rows } = await runText<{ metadata_key: string | null }>(
      database.db,
      database.dialect,
      LAST_METADATA_KEY,
      [registrableDomain],
    );
    return rows[0]?.metadata_key ?? null;
  }

  /** An event that is not a difference between two discoveries (a seed suspended after failed checks). */
  async function recordEvent(executor: DbExecutor, event: NewChange): Promise<ChangeView> {
    const row = rowOf(event);
    await executor.insertInto('domain_changes').values(row).execute();
    return toView(row);
  }

  function rowOf(event: NewChange): DomainChangeTable {
    const at = clock();
    return {
      id: uuidv7(at.getTime()),
      registrable_domain: event.registrableDomain,
      domain_id: event.domainId,
      kind: event.kind,
      message: event.message,
      before: JSON.stringify(event.before ?? null),
      after: JSON.stringify(event.after ?? null),
      evidence: JSON.stringify(event.evidence),
      batch_id: event.batchId,
      detected_at: at.toISOString(),
    };
  }

  /**
   * Changes oldest first (`newestFirst`: newest first, the same walk backwards): by detection time, then id (unique,
   * so the order is total and the cursor exact). Every filter is an exact prefix of an index in that order
   * (docs/revisions.md, "Listing changes"): since is a range of it, domain and kind lead their own; domain with kind
   * walks the domain's few changes.
   */
  async function list(
    filter: { since?: string; domain?: string; kind?: ChangeKind; newestFirst?: boolean } & PageRequest & {
        cursor?: string;
      },
  ): Promise<Page<ChangeView>> {
    const newest = filter.newestFirst === true;
    const order = newest ? CHANGE_ORDERS.newest : CHANGE_ORDERS.oldest;
    const direction = newest ? 'desc' : 'asc';
    const after = cursorPosition(filter, order, 2)?.after;
    let query = database.db.selectFrom('domain_changes');
    if (filter.since) query = query.where('detected_at', '>=', filter.since);
    if (filter.domain) query = query.where('registrable_domain', '=', filter.domain);
    if (filter.kind) query = query.where('kind', '=', filter.kind);
    const [rows, total] = await Promise.all([
      query
        .selectAll()
        .$if(after !== undefined, (q) =>
          q.where((eb) =>
            eb(
              eb.refTuple('detected_at', 'id'),
              newest ? '<' : '>',
              eb.tuple(...(after as [string, string])),
            ),
          ),
        )
        .orderBy('detected_at', direction)
        .orderBy('id', direction)
        .limit(filter.limit + 1)
        .offset(filter.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    const { rows: shown, next } = keysetPage(rows, filter.limit, order, (row) => [row.detected_at, row.id]);
    return page(shown.map(toView), filter, Number(total.n), next);
  }

  /** Changes by kind, for the metadata snapshot. */
  async function countByKind(): Promise<Record<string, number>> {
    const rows = await database.db
      .selectFrom('domain_changes')
      .select(['kind', (eb) => eb.fn.countAll().as('n')])
      .groupBy('kind')
      .orderBy('kind')
      .execute();
    return Object.fromEntries(rows.map((r) => [r.kind, Number(r.n)]));
  }

  return { record, recordEvent, lastMetadataKey, list, countByKind };
}

function toView(row: DomainChangeTable): ChangeView {
  return {
    id: row.id,
    registrable_domain: row.registrable_domain,
    domain_id: row.domain_id,
    kind: row.kind,
    message: row.message,
    before: parseJson<unknown>(row.before, null),
    after: parseJson<unknown>(row.after, null),
    evidence: parseJson<Record<string, unknown>>(row.evidence, {}),
    batch_id: row.batch_id,
    detected_at: row.detected_at,
  };
}
