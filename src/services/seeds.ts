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
import { resolveSeedIdentity } from '../domain/seed-identity.js';
import {
  CONTRACT_FIELDS,
  canTransition,
  type PromoteRequest,
  type SeedCreateRequest,
  type SeedPatch,
  type SeedStatus,
} from '../domain/seeds.js';
import type { FeedRecord } from '../engine/feeds.js';
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
}

export type SeedSitemap = Pick<
  SitemapMetadata,
  'url' | 'url_count' | 'news' | 'truncated' | 'truncated_reason' | 'sitemaps'
>;

/** What discovery knows about the source beside its contract: refreshed by every run, whatever the status. */
export interface SeedFacts {
  feeds: FeedRecord[];
  sitemap: SeedSitemap | null;
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
}

export type SeedService = ReturnType<typeof createSeedService>;

export function createSeedService(deps: {
  database: Database;
  clock: Clock;
  authorityOverrides?: AuthorityOverrides;
}) {
  const { database, clock, authorityOverrides } = deps;
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
  async function create(body: SeedCreateRequest): Promise<SeedView> {
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
      policy: JSON.stringify(body.policy ?? {}),
      discovery: JSON.stringify({}),
      provenance: JSON.stringify({ source: 'api' }),
      created_at: at,
      updated_at: at,
      promoted_at: null,
      // Facts come from discovery only; a copied seed's are not taken over (the next run finds them).
      feeds: '[]',
      sitemap: null,
    };
    try {
      await database.db.insertInto('seeds').values(row).execute();
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictError(`seed ${seedId} already exists`, 'seed_exists', { seed_id: seedId });
      }
      throw error;
    }
    return toView(row);
  }

  async function list(
    filter: {
      country?: string;
      status?: SeedStatus;
      source_type?: SourceType;
      category?: string;
    } & PageRequest,
  ): Promise<Page<SeedView>> {
    let query = database.db.selectFrom('seeds');
    if (filter.country) query = query.where('country', '=', filter.country);
    if (filter.status) query = query.where('status', '=', filter.status);
    if (filter.source_type) query = query.where('source_type', '=', filter.source_type);
    if (filter.category) query = query.where('category', '=', filter.category);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('seed_id').limit(filter.limit).offset(filter.offset).execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return page(rows.map(toView), filter, Number(total.n));
  }

  async function patch(id: string, changes: SeedPatch): Promise<SeedView> {
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
      const updated = {
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
      return toView({ ...row, ...updated });
    });
  }

  async function promote(body: PromoteRequest) {
    const at = now();
    return database.transaction(async (trx) => {
      let ids: string[];
      if (body.seedIds) {
        ids = [...new Set(body.seedIds.map(canonical))];
      } else {
        let query = trx.selectFrom('seeds').select(['seed_id', 'policy']).where('status', '=', 'draft');
        const f = body.filter ?? {};
        if (f.country) query = query.where('country', '=', f.country);
        if (f.category) query = query.where('category', '=', f.category);
        if (f.source_type) query = query.where('source_type', '=', f.source_type);
        const drafts = await query
          .orderBy('seed_id')
          .limit(body.limit ?? 1000)
          .execute();
        ids = drafts
          .filter(
            (d) =>
              f.robots_allowed === undefined ||
              parseJson<{ robots_allowed?: boolean }>(d.policy, {}).robots_allowed === f.robots_allowed,
          )
          .map((d) => d.seed_id);
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
   * The contract worker's write: create the draft, or update an existing draft (version rises only when the
   * contract changed). An active, suspended or archived seed is a person's decision and is never overwritten.
   */
  async function upsertDraft(
    executor: DbExecutor,
    draft: ContractDraft,
  ): Promise<
    | { seed_id: string; outcome: 'created' | 'updated' | 'unchanged' }
    | { seed_id: string; outcome: 'kept'; reason: string }
  > {
    const parsed = parseDomainId(draft.domainId);
    if (!parsed) throw ValidationError.field('domain_id', `not a domain id: ${draft.domainId}`);
    const seedId = seedIdOf(draft.domainId, draft.category);
    const at = now();
    const contract = {
      entry_url: draft.entry_url,
      fetch: draft.fetch,
      schedule: draft.schedule,
      policy: draft.policy,
    };
    // The columns a contract writes, as stored: the same for a new draft and an updated one.
    const draftColumns = {
      entry_url: contract.entry_url,
      fetch: JSON.stringify(contract.fetch),
      schedule: contract.schedule,
      policy: JSON.stringify(contract.policy),
      discovery: JSON.stringify(draft.discovery),
      provenance: JSON.stringify(draft.provenance),
      ...factColumns(draft.facts),
    };
    let existing = await find(executor, seedId);
    if (!existing) {
      // Insert-if-absent: a contract for the same seed committing meanwhile (PostgreSQL runs them side by
      // side) turns this into an update of that seed rather than a unique violation.
      const inserted = await executor
        .insertInto('seeds')
        .values({
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
          ...draftColumns,
          created_at: at,
          updated_at: at,
          promoted_at: null,
          feeds: draftColumns.feeds ?? '[]',
          sitemap: draftColumns.sitemap ?? null,
        })
        .onConflict((oc) => oc.column('seed_id').doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0) return { seed_id: seedId, outcome: 'created' };
      existing = await find(executor, seedId);
      if (!existing) throw new Error(`seed ${seedId} vanished while being written`);
    }
    if (existing.status !== 'draft') {
      // Facts are not the contract: a run refreshes them on any seed, and never touches an active contract.
      if (draft.facts)
        await executor
          .updateTable('seeds')
          .set({ ...factColumns(draft.facts), updated_at: at })
          .where('seed_id', '=', seedId)
          .execute();
      return {
        seed_id: seedId,
        outcome: 'kept',
        reason: `seed is ${existing.status}; only drafts are updated by contracts`,
      };
    }
    const current = toView(existing);
    const changed = CONTRACT_FIELDS.some((field) => !isDeepStrictEqual(contract[field], current[field]));
    await executor
      .updateTable('seeds')
      .set({
        name: draft.name ?? existing.name,
        ...draftColumns,
        version: Number(existing.version) + (changed ? 1 : 0),
        updated_at: at,
      })
      .where('seed_id', '=', seedId)
      .execute();
    return { seed_id: seedId, outcome: changed ? 'updated' : 'unchanged' };
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

  return { get, create, list, patch, promote, upsertDraft, updateDiscovery, countByStatus };
}

function illegalTransition(from: SeedStatus, to: SeedStatus): ConflictError {
  return new ConflictError(`illegal transition from ${from} to ${to}`, 'illegal_transition', { from, to });
}

function factColumns(facts: SeedFacts | undefined): Partial<Pick<SeedTable, 'feeds' | 'sitemap'>> {
  if (!facts) return {};
  return {
    feeds: JSON.stringify(facts.feeds),
    sitemap: facts.sitemap ? JSON.stringify(facts.sitemap) : null,
  };
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
  };
}
