// Seeds: how to fetch a source (its contract). Created as drafts by people or by the contract worker,
// promoted to active by a person; the version rises only when the contract itself changes.
import { isDeepStrictEqual } from 'node:util';
import {
  type AuthorityOverrides,
  parseDomainId,
  parseSeedId,
  type SourceType,
  seedIdOf,
  sourceTypeOf,
} from '../domain/domains.js';
import { ConflictError, NotFoundError, ValidationError } from '../domain/errors.js';
import {
  afterValues,
  diffFields,
  isEmptyDiff,
  planContractRun,
  REVISION_FIELDS,
  type RevisionValues,
} from '../domain/seed-diff.js';
import type { HealthState, SeedHealth } from '../domain/seed-health.js';
import { resolveSeedIdentity } from '../domain/seed-identity.js';
import {
  CONTRACT_FIELDS,
  canTransition,
  type PromoteRequest,
  type SeedCreateRequest,
  type SeedPatch,
  type SeedStatus,
} from '../domain/seeds.js';
import type { AiPolicy, AiStatus } from '../engine/ai-policy.js';
import type { FeedRecord } from '../engine/feeds.js';
import type { Freshness } from '../engine/freshness.js';
import { languageIndex, type SourceLanguage } from '../engine/languages.js';
import type { SitemapMetadata } from '../engine/sitemaps.js';
import type { Database, DbExecutor, SeedTable } from '../ports/database.js';
import {
  type Clock,
  countByStatus as countStatuses,
  isUniqueViolation,
  type Page,
  type PageRequest,
  page,
  parseJson,
} from './common.js';
import { orderSeeds, type ReviewFilter, type SeedFilter, whereSeedsMatch } from './seed-filters.js';
import {
  columnsOf,
  createSeedRevisionService,
  firstRevision,
  revisionValuesOf,
  type SeedRevisionService,
} from './seed-revisions.js';

export interface SeedView {
  seed_id: string;
  domain_id: string;
  registrable_domain: string;
  country: string;
  category: string;
  content_type: string;
  source_type: SourceType;
  status: SeedStatus;
  version: number;
  name: string | null;
  entry_url: string | null;
  fetch: { type: string; urls: string[] };
  schedule: string | null;
  policy: Record<string, unknown>;
  discovery: Record<string, unknown>;
  provenance: Record<string, unknown>;
  created_at: string;
  updated_at: string;
  promoted_at: string | null;
  /** Every feed discovery found, ranked, with its role; `fetch.urls` holds only the main and section ones. */
  feeds: FeedRecord[];
  /** The latest discovery's sitemaps: distinct URLs counted, and whether the reading was cut short. */
  sitemap: SeedSitemap | null;
  /** The fields a person set: a contract run only proposes changes to them (see /revisions). */
  human_fields: string[];
  /** Publication rate and newest item of the latest discovery; null before one. */
  freshness: Freshness | null;
  /** Languages with their sources, strongest first. */
  languages: SourceLanguage[];
  /** What the source says to AI crawlers; answered as `policy.ai` (seedAnswer), never stored in the contract. */
  ai: AiPolicy | null;
  /** ok | failing | stale from the domain's checks (contract runs and re-checks); null before the first. */
  health: SeedHealth | null;
}

export type SeedSitemap = Pick<
  SitemapMetadata,
  'url' | 'url_count' | 'news' | 'truncated' | 'truncated_reason' | 'sitemaps'
>;

/** What discovery knows about the source beside its contract: refreshed by every run, whatever the status. */
export interface SeedFacts {
  feeds: FeedRecord[];
  sitemap: SeedSitemap | null;
  freshness?: Freshness;
  languages?: SourceLanguage[];
  ai?: AiPolicy;
}

/** What the contract worker found for one domain. */
export interface ContractDraft {
  domainId: string;
  category: string;
  name: string | null;
  entry_url: string;
  fetch: { type: string; urls: string[] };
  schedule: string | null;
  policy: Record<string, unknown>;
  discovery: Record<string, unknown>;
  provenance: Record<string, unknown>;
  facts?: SeedFacts;
  /** Who the revisions of this run are by: `batch:<id>`. */
  author?: string;
}

export type { ReviewFilter, SeedFilter } from './seed-filters.js';

export type SeedService = ReturnType<typeof createSeedService>;

/** Promote by filter: the drafts the list would show for it (the status is always draft). */
export type PromoteBody = Omit<PromoteRequest, 'filter'> & {
  filter?: Omit<SeedFilter, 'status'> & Omit<ReviewFilter, 'sort'>;
};

export function createSeedService(deps: {
  database: Database;
  clock: Clock;
  authorityOverrides?: AuthorityOverrides;
  revisions?: SeedRevisionService;
}) {
  const { database, clock, authorityOverrides } = deps;
  const revisions = deps.revisions ?? createSeedRevisionService({ database, clock });
  const now = () => clock().toISOString();

  async function find(executor: DbExecutor, seedId: string): Promise<SeedTable | undefined> {
    return executor.selectFrom('seeds').selectAll().where('seed_id', '=', seedId).executeTakeFirst();
  }

  /** Seed ids are matched in their canonical spelling: any case, surrounding space ignored. */
  function canonical(seedId: string): string {
    const parsed = parseSeedId(seedId);
    return parsed ? seedIdOf(parsed.domainId, parsed.contentType) : seedId;
  }

  async function get(seedId: string): Promise<SeedView> {
    const row = await find(database.db, canonical(seedId));
    if (!row) throw new NotFoundError(`no seed ${seedId}`);
    return toView(row);
  }

  /** A person's seed, or a seed copied from a GET: the server-owned fields it carries are not taken over. */
  async function create(body: SeedCreateRequest, author = 'anonymous'): Promise<SeedView> {
    const identity = resolveSeedIdentity(body, authorityOverrides);
    const { seedId, domainId, contentType } = identity;
    const entryUrl = body.entry_url ?? identity.impliedEntryUrl;
    const at = now();
    const row: SeedTable = {
      seed_id: seedId,
      domain_id: domainId,
      registrable_domain: identity.registrableDomain,
      country: body.country,
      category: body.category,
      content_type: contentType,
      source_type: body.source_type ?? sourceTypeOf(identity.authority),
      status: 'draft',
      version: 1,
      name: body.name ?? null,
      entry_url: entryUrl,
      fetch: JSON.stringify(body.fetch ?? { type: 'html', urls: [entryUrl] }),
      schedule: body.schedule ?? null,
      policy: JSON.stringify(contractPolicy(body.policy)),
      discovery: JSON.stringify({}),
      provenance: JSON.stringify({ source: 'api' }),
      created_at: at,
      updated_at: at,
      promoted_at: null,
      // Facts come from discovery only; a copied seed's are not taken over (the next run finds them).
      feeds: '[]',
      sitemap: null,
      // What the person wrote is theirs; the defaults filled in for them are not.
      human_fields: JSON.stringify(REVISION_FIELDS.filter((field) => body[field] !== undefined)),
      last_revision: 1,
      ...NO_SOURCE_FACTS,
      ...NO_HEALTH,
    };
    try {
      await database.transaction(async (trx) => {
        await trx.insertInto('seeds').values(row).execute();
        await trx
          .insertInto('seed_revisions')
          .values(firstRevision(seedId, author, revisionValuesOf(row), at))
          .execute();
      });
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictError(`seed ${seedId} already exists`, 'seed_exists', { seed_id: seedId });
      }
      throw error;
    }
    return toView(row);
  }

  const filtered = (filter: SeedFilter & ReviewFilter) =>
    whereSeedsMatch(database.db.selectFrom('seeds'), filter);

  async function list(filter: SeedFilter & ReviewFilter & PageRequest): Promise<Page<SeedView>> {
    const query = filtered(filter);
    const sorted = orderSeeds(query.selectAll(), filter.sort);
    const [rows, total] = await Promise.all([
      sorted.limit(filter.limit).offset(filter.offset).execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return page(rows.map(toView), filter, Number(total.n));
  }

  /**
   * Every seed matching the filter in seed id order, read a page at a time after the last id seen (no offset
   * scan, no snapshot: a seed written meanwhile may or may not appear, none appears twice).
   */
  async function* stream(filter: SeedFilter, pageSize = 500): AsyncGenerator<SeedView> {
    let after: string | null = null;
    for (;;) {
      let query = filtered(filter).selectAll().orderBy('seed_id').limit(pageSize);
      if (after !== null) query = query.where('seed_id', '>', after);
      const rows = await query.execute();
      for (const row of rows) yield toView(row);
      const last = rows.at(-1);
      if (!last || rows.length < pageSize) return;
      after = last.seed_id;
    }
  }

  /** The countries that have a seed in any status, sorted. */
  async function countries(): Promise<string[]> {
    const rows = await database.db
      .selectFrom('seeds')
      .select('country')
      .distinct()
      .orderBy('country')
      .execute();
    return rows.map((row) => row.country);
  }

  async function patch(id: string, changes: SeedPatch, author = 'anonymous'): Promise<SeedView> {
    const seedId = canonical(id);
    return database.transaction(async (trx) => {
      const row = await find(trx, seedId);
      if (!row) throw new NotFoundError(`no seed ${seedId}`);
      if (changes.expected_version !== undefined && changes.expected_version !== Number(row.version)) {
        throw new ConflictError(
          `seed ${seedId} is at version ${row.version}, not ${changes.expected_version}`,
          'version_conflict',
          { version: Number(row.version) },
        );
      }
      const current = toView(row);
      const from = current.status;
      let promotedAt = row.promoted_at;
      if (changes.status !== undefined && changes.status !== from) {
        if (from === 'draft' && changes.status === 'active') {
          throw new ConflictError(
            'a draft becomes active only through POST /api/v1/seeds/promote',
            'use_promote',
            {
              from,
              to: changes.status,
            },
          );
        }
        if (!canTransition(from, changes.status)) throw illegalTransition(from, changes.status);
        if (changes.status === 'active') promotedAt = promotedAt ?? now();
      }
      const next = {
        name: changes.name !== undefined ? changes.name : current.name,
        source_type: changes.source_type ?? current.source_type,
        entry_url: changes.entry_url !== undefined ? changes.entry_url : current.entry_url,
        fetch: changes.fetch ?? current.fetch,
        schedule: changes.schedule !== undefined ? changes.schedule : current.schedule,
        policy: changes.policy ? { ...current.policy, ...changes.policy } : current.policy,
        status: changes.status ?? current.status,
      };
      const contractChanged = CONTRACT_FIELDS.some(
        (field) => !isDeepStrictEqual(next[field], current[field]),
      );
      const humanFields = [
        ...new Set([
          ...parseJson<string[]>(row.human_fields, []),
          ...REVISION_FIELDS.filter((field) => changes[field] !== undefined),
        ]),
      ];
      const updated = {
        human_fields: JSON.stringify(humanFields),
        name: next.name,
        source_type: next.source_type,
        entry_url: next.entry_url,
        fetch: JSON.stringify(next.fetch),
        schedule: next.schedule,
        policy: JSON.stringify(next.policy),
        status: next.status,
        version: Number(row.version) + (contractChanged ? 1 : 0),
        updated_at: now(),
        promoted_at: promotedAt,
      };
      await trx.updateTable('seeds').set(updated).where('seed_id', '=', seedId).execute();
      const edit = diffFields(current, next);
      if (!isEmptyDiff(edit)) {
        await revisions.record(trx, {
          seedId,
          status: 'applied',
          author,
          baseVersion: Number(row.version),
          changes: edit,
        });
        await revisions.supersedeStale(trx, seedId, next);
      }
      return toView({ ...row, ...updated });
    });
  }

  async function promote(body: PromoteBody) {
    const at = now();
    return database.transaction(async (trx) => {
      let ids: string[];
      if (body.seedIds) {
        ids = [...new Set(body.seedIds.map(canonical))];
      } else {
        // The drafts the list shows for the same filter, the first `limit` of them by seed id.
        const drafts = await whereSeedsMatch(trx.selectFrom('seeds'), { ...body.filter, status: 'draft' })
          .select('seed_id')
          .orderBy('seed_id')
          .limit(body.limit ?? 1000)
          .execute();
        ids = drafts.map((d) => d.seed_id);
      }
      const results: Array<{
        seed_id: string;
        result: 'promoted' | 'skipped';
        reason?: string;
        status?: SeedStatus;
      }> = [];
      for (const seedId of ids) {
        const row = await find(trx, seedId);
        if (!row) {
          results.push({ seed_id: seedId, result: 'skipped', reason: 'not found' });
          continue;
        }
        if (row.status !== 'draft') {
          results.push({
            seed_id: seedId,
            result: 'skipped',
            reason: `status is ${row.status}; only drafts are promoted`,
            status: row.status as SeedStatus,
          });
          continue;
        }
        await trx
          .updateTable('seeds')
          .set({ status: 'active', promoted_at: at, updated_at: at })
          .where('seed_id', '=', seedId)
          .execute();
        results.push({ seed_id: seedId, result: 'promoted', status: 'active' });
      }
      return {
        promoted: results.filter((r) => r.result === 'promoted').length,
        skipped: results.filter((r) => r.result === 'skipped').length,
        results,
      };
    });
  }

  /**
   * The contract worker's write. A new domain becomes a draft; on an existing draft the run applies what it found
   * to the fields no person set, and proposes the rest (human edits win, docs/design.md §3). An active, suspended or
   * archived seed is a person's decision: the run changes nothing of its contract and proposes every
   * difference. Facts (feeds, sitemap) are refreshed whatever the status.
   */
  async function upsertDraft(
    executor: DbExecutor,
    draft: ContractDraft,
  ): Promise<
    | { seed_id: string; outcome: 'created' | 'updated' | 'unchanged'; proposed_revision?: number }
    | { seed_id: string; outcome: 'kept'; reason: string; proposed_revision?: number }
  > {
    const parsed = parseDomainId(draft.domainId);
    if (!parsed) throw ValidationError.field('domain_id', `not a domain id: ${draft.domainId}`);
    const seedId = seedIdOf(draft.domainId, draft.category);
    const author = draft.author ?? 'contract';
    const at = now();
    const found: RevisionValues = {
      entry_url: draft.entry_url,
      fetch: draft.fetch,
      schedule: draft.schedule,
      policy: draft.policy,
      // A page without a <title> says nothing about the name.
      ...(draft.name !== null ? { name: draft.name } : {}),
    };
    let existing = await find(executor, seedId);
    if (!existing) {
      const row: SeedTable = {
        seed_id: seedId,
        domain_id: draft.domainId,
        registrable_domain: parsed.registrableDomain,
        country: parsed.country,
        category: draft.category,
        content_type: draft.category,
        source_type: sourceTypeOf(parsed.authority),
        status: 'draft',
        version: 1,
        name: draft.name,
        entry_url: draft.entry_url,
        fetch: JSON.stringify(draft.fetch),
        schedule: draft.schedule,
        policy: JSON.stringify(draft.policy),
        discovery: JSON.stringify(draft.discovery),
        provenance: JSON.stringify(draft.provenance),
        created_at: at,
        updated_at: at,
        promoted_at: null,
        feeds: '[]',
        sitemap: null,
        ...NO_SOURCE_FACTS,
        ...NO_HEALTH,
        ...factColumns(draft.facts),
        human_fields: '[]',
        last_revision: 1,
      };
      // Insert-if-absent: a contract for the same seed committing meanwhile (PostgreSQL runs them side by
      // side) turns this into an update of that seed rather than a unique violation.
      const inserted = await executor
        .insertInto('seeds')
        .values(row)
        .onConflict((oc) => oc.column('seed_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) {
        await executor
          .insertInto('seed_revisions')
          .values(firstRevision(seedId, author, revisionValuesOf(row), at))
          .execute();
        return { seed_id: seedId, outcome: 'created' };
      }
      existing = await find(executor, seedId);
      if (!existing) throw new Error(`seed ${seedId} vanished while being written`);
    }
    const status = existing.status as SeedStatus;
    const current = revisionValuesOf(existing);
    const { apply, propose } = planContractRun(
      status,
      parseJson<string[]>(existing.human_fields, []),
      diffFields(current, found),
    );
    const version = Number(existing.version);
    const contractChanged = CONTRACT_FIELDS.some((field) => apply[field]);
    await executor
      .updateTable('seeds')
      .set({
        ...factColumns(draft.facts),
        ...columnsOf(apply),
        // What the run saw belongs to the draft it shapes; an active seed keeps the provenance of its contract.
        ...(status === 'draft'
          ? { discovery: JSON.stringify(draft.discovery), provenance: JSON.stringify(draft.provenance) }
          : {}),
        version: version + (contractChanged ? 1 : 0),
        updated_at: at,
      })
      .where('seed_id', '=', seedId)
      .execute();
    if (!isEmptyDiff(apply)) {
      await revisions.record(executor, {
        seedId,
        status: 'applied',
        author,
        baseVersion: version,
        changes: apply,
      });
      await revisions.supersedeStale(executor, seedId, { ...current, ...afterValues(apply) });
    }
    const proposal = isEmptyDiff(propose)
      ? undefined
      : (
          await revisions.propose(executor, {
            seedId,
            author,
            baseVersion: version + (contractChanged ? 1 : 0),
            changes: propose,
          })
        ).number;
    const proposed = proposal === undefined ? {} : { proposed_revision: proposal };
    if (status !== 'draft') {
      return {
        seed_id: seedId,
        outcome: 'kept',
        reason: `seed is ${status}; a contract run only proposes changes to it`,
        ...proposed,
      };
    }
    return { seed_id: seedId, outcome: isEmptyDiff(apply) ? 'unchanged' : 'updated', ...proposed };
  }

  /** Liveness results reach every seed of the domain. */
  async function updateDiscovery(
    executor: DbExecutor,
    registrableDomain: string,
    discovery: Record<string, unknown>,
  ) {
    await executor
      .updateTable('seeds')
      .set({ discovery: JSON.stringify(discovery), updated_at: now() })
      .where('registrable_domain', '=', registrableDomain)
      .execute();
  }

  const countByStatus = () => countStatuses(database.db, 'seeds');

  /** Seeds whose latest check (a contract run or a re-check) did not reach the source, by status. */
  async function countFailing(): Promise<Record<string, number>> {
    const rows = await filtered({ health: 'failing' })
      .select(['status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('status')
      .orderBy('status')
      .execute();
    return Object.fromEntries(rows.map((row) => [row.status, Number(row.n)]));
  }

  /** Active seeds by health (`unchecked`: no check yet), for the metadata snapshot. */
  async function countActiveByHealth(): Promise<Record<HealthState | 'unchecked', number>> {
    const rows = await database.db
      .selectFrom('seeds')
      .select(['health_state', (eb) => eb.fn.countAll().as('n')])
      .where('status', '=', 'active')
      .groupBy('health_state')
      .execute();
    const counts: Record<HealthState | 'unchecked', number> = { ok: 0, failing: 0, stale: 0, unchecked: 0 };
    for (const row of rows) {
      const key = (row.health_state ?? 'unchecked') as HealthState | 'unchecked';
      counts[key in counts ? key : 'unchecked'] += Number(row.n);
    }
    return counts;
  }

  /** Seeds by what their source says to AI crawlers (`unknown` also counts seeds never measured). */
  async function countByAi(): Promise<Record<AiStatus, number>> {
    const rows = await database.db
      .selectFrom('seeds')
      .select(['ai_status', (eb) => eb.fn.countAll().as('n')])
      .groupBy('ai_status')
      .execute();
    const counts: Record<AiStatus, number> = { disallowed: 0, reserved: 0, allowed: 0, unknown: 0 };
    for (const row of rows) {
      const key = (row.ai_status ?? 'unknown') as AiStatus;
      counts[key in counts ? key : 'unknown'] += Number(row.n);
    }
    return counts;
  }

  return {
    get,
    create,
    list,
    stream,
    countries,
    patch,
    promote,
    upsertDraft,
    updateDiscovery,
    countByStatus,
    countFailing,
    countByAi,
    countActiveByHealth,
    revisions,
  };
}

function illegalTransition(from: SeedStatus, to: SeedStatus): ConflictError {
  return new ConflictError(`illegal transition from ${from} to ${to}`, 'illegal_transition', { from, to });
}

function factColumns(
  facts: SeedFacts | undefined,
): Partial<Pick<SeedTable, 'feeds' | 'sitemap' | SourceFactColumn>> {
  if (!facts) return {};
  return {
    feeds: JSON.stringify(facts.feeds),
    sitemap: facts.sitemap ? JSON.stringify(facts.sitemap) : null,
    ...sourceFactColumns(facts),
  };
}

type SourceFactColumn = 'freshness' | 'items_per_day' | 'languages' | 'ai' | 'language_codes' | 'ai_status';

/** A seed before any discovery measured its source. */
const NO_SOURCE_FACTS: Pick<SeedTable, SourceFactColumn> = {
  freshness: null,
  items_per_day: null,
  languages: '[]',
  ai: null,
  language_codes: null,
  ai_status: null,
};

/** A seed no check has reached yet (seed-health.ts writes these). */
const NO_HEALTH: Pick<SeedTable, 'health' | 'health_state'> = { health: null, health_state: null };

/** Freshness, languages and the AI policy, each only when the run measured it. */
function sourceFactColumns(facts: SeedFacts | undefined): Partial<Pick<SeedTable, SourceFactColumn>> {
  const columns: Partial<Pick<SeedTable, SourceFactColumn>> = {};
  if (facts?.freshness) {
    columns.freshness = JSON.stringify(facts.freshness);
    // Beside the JSON, as a number the list sorts on (`sort=-rate`).
    columns.items_per_day = facts.freshness.items_per_day;
  }
  if (facts?.languages) {
    columns.languages = JSON.stringify(facts.languages);
    columns.language_codes = languageIndex(facts.languages);
  }
  if (facts?.ai) {
    columns.ai = JSON.stringify(facts.ai);
    columns.ai_status = facts.ai.status;
  }
  return columns;
}

/**
 * `policy.ai` is a discovery fact shown inside the policy, not part of the contract: a policy sent in (a GET
 * posted back) leaves it out, so it never raises the version and a person cannot set it.
 */
function contractPolicy(policy: Record<string, unknown> | undefined): Record<string, unknown> {
  const { ai: _ai, ...contract } = policy ?? {};
  return contract;
}

/** The seed as the API answers it: the AI policy fact shown as `policy.ai` (docs/design.md §3). */
export function seedAnswer(view: SeedView): Omit<SeedView, 'ai'> {
  const { ai, ...rest } = view;
  return ai === null ? rest : { ...rest, policy: { ...rest.policy, ai } };
}

/** The sitemap summary a seed keeps: no aggregates (they are in domain_metadata.json). */
export function seedSitemapOf(metadata: SitemapMetadata): SeedSitemap | null {
  if (!metadata.exists && metadata.url === null) return null;
  const { url, url_count, news, truncated, truncated_reason, sitemaps } = metadata;
  return { url, url_count, news, truncated, truncated_reason, sitemaps };
}

function toView(row: SeedTable): SeedView {
  return {
    seed_id: row.seed_id,
    domain_id: row.domain_id,
    registrable_domain: row.registrable_domain,
    country: row.country,
    category: row.category,
    content_type: row.content_type,
    source_type: row.source_type as SourceType,
    status: row.status as SeedStatus,
    version: Number(row.version),
    name: row.name,
    entry_url: row.entry_url,
    fetch: parseJson(row.fetch, { type: 'html', urls: [] }),
    schedule: row.schedule,
    policy: parseJson(row.policy, {}),
    discovery: parseJson(row.discovery, {}),
    provenance: parseJson(row.provenance, {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    promoted_at: row.promoted_at,
    feeds: parseJson<FeedRecord[]>(row.feeds, []),
    sitemap: parseJson<SeedSitemap | null>(row.sitemap, null),
    human_fields: parseJson<string[]>(row.human_fields, []),
    freshness: parseJson<Freshness | null>(row.freshness, null),
    languages: parseJson<SourceLanguage[]>(row.languages, []),
    ai: parseJson<AiPolicy | null>(row.ai, null),
    health: parseJson<SeedHealth | null>(row.health, null),
  };
}
