// A stored seed row and the seed it holds, converted in one place each way. JSON columns are parsed with their
// defaults; `discovery` is read into its one shape whatever an older writer left in it; the AI policy fact, kept
// in a column of its own, is shown as `policy.ai`.
import { type SourceType, sourceTypeOf } from '../../domain/domains.js';
import { diffFields, type FieldDiff, REVISION_FIELDS, type RevisionValues } from '../../domain/seed-diff.js';
import {
  type AiPolicy,
  type CountryGuess,
  type FeedRecord,
  type Freshness,
  type NewsVerdict,
  NO_DISCOVERY,
  type SeedDiscovery,
  type SeedHealth,
  type SeedSitemap,
  type SourceLanguage,
} from '../../domain/seed-facts.js';
import type { SeedIdentity } from '../../domain/seed-identity.js';
import { contractPolicy } from '../../domain/seed-import.js';
import type { Seed } from '../../domain/seed-record.js';
import type { RevisionStatus, SeedCreateRequest, SeedStatus } from '../../domain/seeds.js';
import { languageIndex } from '../../engine/languages.js';
import type { SitemapMetadata } from '../../engine/sitemaps.js';
import type { SeedListColumns, SeedRevisionTable, SeedTable, StoredSeedTable } from '../../ports/database.js';
import { parseJson } from '../common.js';

/** What discovery knows about the source beside its contract: refreshed by every run, whatever the status. */
export interface SeedFacts {
  feeds: FeedRecord[];
  sitemap: SeedSitemap | null;
  freshness?: Freshness;
  languages?: SourceLanguage[];
  ai?: AiPolicy;
  news?: NewsVerdict;
  country_guess?: CountryGuess;
}

export type FactColumn =
  | 'feeds'
  | 'sitemap'
  | 'freshness'
  | 'items_per_day'
  | 'languages'
  | 'ai'
  | 'language_codes'
  | 'ai_status'
  | 'news'
  | 'news_verdict'
  | 'country_guess';

/** A seed before any discovery measured its source, and before any check reached it. */
export const NO_FACTS: Pick<SeedTable, FactColumn | 'discovery' | 'health' | 'health_state'> = {
  feeds: '[]',
  sitemap: null,
  freshness: null,
  items_per_day: null,
  languages: '[]',
  ai: null,
  language_codes: null,
  ai_status: null,
  news: null,
  news_verdict: null,
  country_guess: null,
  discovery: JSON.stringify(NO_DISCOVERY),
  health: null,
  health_state: null,
};

/** The fact columns a run measured; a fact it did not measure keeps its column. */
export function factColumns(facts: SeedFacts | undefined): Partial<Pick<SeedTable, FactColumn>> {
  if (!facts) return {};
  const columns: Partial<Pick<SeedTable, FactColumn>> = {
    feeds: JSON.stringify(facts.feeds),
    sitemap: facts.sitemap ? JSON.stringify(facts.sitemap) : null,
  };
  if (facts.freshness) {
    columns.freshness = JSON.stringify(facts.freshness);
    // Beside the JSON, as a number the list sorts on (`sort=-rate`).
    columns.items_per_day = facts.freshness.items_per_day;
  }
  if (facts.languages) {
    columns.languages = JSON.stringify(facts.languages);
    columns.language_codes = languageIndex(facts.languages);
  }
  if (facts.ai) {
    columns.ai = JSON.stringify(facts.ai);
    columns.ai_status = facts.ai.status;
  }
  if (facts.news) {
    columns.news = JSON.stringify(facts.news);
    columns.news_verdict = facts.news.verdict;
  }
  if (facts.country_guess) columns.country_guess = JSON.stringify(facts.country_guess);
  return columns;
}

/**
 * The list columns (ports/database.ts, SeedListColumns) of the JSON columns being written: each follows its
 * JSON in the same statement, so a filter on the plain column selects what the JSON says.
 */
export function listColumnsOf(columns: Partial<SeedTable>): Partial<SeedListColumns> {
  const derived: Partial<SeedListColumns> = {};
  if (columns.freshness !== undefined) {
    const stale = parseJson<Partial<Freshness> | null>(columns.freshness, null)?.stale;
    derived.freshness_state = stale === true ? 'stale' : stale === false ? 'fresh' : 'unknown';
  }
  if (columns.policy !== undefined)
    derived.robots_allowed = flag(parseJson<Seed['policy']>(columns.policy, {}).robots_allowed);
  if (columns.fetch !== undefined)
    derived.fetch_type = parseJson<{ type?: string }>(columns.fetch, {}).type ?? 'html';
  if (columns.feeds !== undefined)
    derived.main_feed = parseJson<FeedRecord[]>(columns.feeds, []).some((feed) => feed.role === 'main')
      ? 1
      : 0;
  if (columns.discovery !== undefined) derived.alive = flag(discoveryOfColumn(columns.discovery).alive);
  // 0 - rate rather than -rate: a rate of 0 ranks 0, as the migration's SQL stores it, not -0.
  if (columns.items_per_day !== undefined)
    derived.rate_rank = columns.items_per_day === null ? 1 : 0 - columns.items_per_day;
  return derived;
}

/** A new row with every list column, derived from its JSON. */
export function storedRowOf(row: SeedTable): StoredSeedTable {
  // Not `{ ...row, ...columns }`: V8 makes a copy given keys after its spread a slow dictionary object (35 µs a
  // row measured, against 6 µs here), and an import writes one per line.
  return Object.assign({}, row, listColumnsOf(row) as SeedListColumns);
}

function flag(value: boolean | null | undefined): number | null {
  return value === true ? 1 : value === false ? 0 : null;
}

/** The health columns: the JSON and the state the `?health=` filter reads. */
export function healthColumns(health: SeedHealth): Pick<SeedTable, 'health' | 'health_state'> {
  return { health: JSON.stringify(health), health_state: health.state };
}

/** `discovery` in its one shape: the known fields of whatever was stored, the rest left unknown. */
export function discoveryOfColumn(text: string | null): SeedDiscovery {
  const stored = parseJson<Partial<SeedDiscovery>>(text, {});
  return {
    alive: stored.alive ?? null,
    checked_at: stored.checked_at ?? null,
    http_status: stored.http_status ?? null,
    state: stored.state ?? null,
    error_code: stored.error_code ?? null,
  };
}

/**
 * The columns a seed is made of, in the order its fields show (`ai` is shown inside `policy`): what a reader of
 * seeds selects, and the order of a row read as an array (`SeedValues`, Database.readArrays).
 */
export const SEED_COLUMNS = [
  'seed_id',
  'domain_id',
  'registrable_domain',
  'country',
  'category',
  'content_type',
  'source_type',
  'status',
  'version',
  'name',
  'entry_url',
  'fetch',
  'schedule',
  'policy',
  'ai',
  'discovery',
  'provenance',
  'created_at',
  'updated_at',
  'promoted_at',
  'feeds',
  'sitemap',
  'human_fields',
  'freshness',
  'languages',
  'health',
  'news',
  'country_guess',
] as const satisfies ReadonlyArray<keyof SeedTable>;

export type SeedColumn = (typeof SEED_COLUMNS)[number];

/**
 * Every column of a stored seed (a seed's own, then the kept ones), for a bulk insert that names its columns
 * (bulk-insert.ts). COLUMN_LISTS_COMPLETE below fails to compile when a column is added to the table and not here.
 */
export const STORED_SEED_COLUMNS = [
  ...SEED_COLUMNS,
  'last_revision',
  'language_codes',
  'ai_status',
  'items_per_day',
  'health_state',
  'news_verdict',
  'freshness_state',
  'robots_allowed',
  'fetch_type',
  'main_feed',
  'alive',
  'rate_rank',
] as const satisfies ReadonlyArray<keyof StoredSeedTable>;

/** Every column of a revision, as STORED_SEED_COLUMNS. */
export const REVISION_COLUMNS = [
  'seed_id',
  'number',
  'status',
  'author',
  'created_at',
  'base_version',
  'changes',
  'settled_by',
  'settled_at',
] as const satisfies ReadonlyArray<keyof SeedRevisionTable>;

type Unlisted<Table, Listed> = Exclude<keyof Table, Listed>;
/** Compiles only while both lists name every column of their table. */
export const COLUMN_LISTS_COMPLETE: [
  Unlisted<StoredSeedTable, (typeof STORED_SEED_COLUMNS)[number]>,
  Unlisted<SeedRevisionTable, (typeof REVISION_COLUMNS)[number]>,
] extends [never, never]
  ? true
  : never = true;

/** A seed's row read as an array: its SEED_COLUMNS values, in that order. */
export type SeedValues = readonly unknown[];

/** The row of a seed read as an array, as the object seedOfRow reads. */
export function seedColumnsOf(values: SeedValues): Pick<SeedTable, SeedColumn> {
  const row: Record<string, unknown> = {};
  SEED_COLUMNS.forEach((column, i) => {
    row[column] = values[i];
  });
  return row as Pick<SeedTable, SeedColumn>;
}

export function seedOfRow(row: Pick<SeedTable, SeedColumn>): Seed {
  const ai = parseJson<AiPolicy | null>(row.ai, null);
  const policy = parseJson<Seed['policy']>(row.policy, {});
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
    policy: ai === null ? policy : { ...policy, ai },
    discovery: discoveryOfColumn(row.discovery),
    provenance: parseJson(row.provenance, {}),
    created_at: row.created_at,
    updated_at: row.updated_at,
    promoted_at: row.promoted_at,
    feeds: parseJson<FeedRecord[]>(row.feeds, []),
    sitemap: parseJson<SeedSitemap | null>(row.sitemap, null),
    human_fields: parseJson<string[]>(row.human_fields, []),
    freshness: parseJson<Freshness | null>(row.freshness, null),
    languages: parseJson<SourceLanguage[]>(row.languages, []),
    health: parseJson<SeedHealth | null>(row.health, null),
    news: parseJson<NewsVerdict | null>(row.news, null),
    country_guess: parseJson<CountryGuess | null>(row.country_guess, null),
  };
}

/**
 * The row of a new draft from a create body (POST /seeds, a line of an import): what the person wrote is theirs
 * (`human_fields`), the defaults filled in for them are not. Server-owned fields of the body (status, version,
 * facts) are not taken over: a copy starts as a draft at version 1 and the next run finds its facts.
 */
export function draftRowOf(
  body: SeedCreateRequest,
  identity: SeedIdentity,
  at: string,
  provenance: Record<string, unknown>,
): SeedTable {
  const entryUrl = body.entry_url ?? identity.impliedEntryUrl;
  return {
    seed_id: identity.seedId,
    domain_id: identity.domainId,
    registrable_domain: identity.registrableDomain,
    country: body.country,
    category: body.category,
    content_type: identity.contentType,
    source_type: body.source_type ?? sourceTypeOf(identity.authority),
    status: 'draft',
    version: 1,
    name: body.name ?? null,
    entry_url: entryUrl,
    fetch: JSON.stringify(body.fetch ?? { type: 'html', urls: [entryUrl] }),
    schedule: body.schedule ?? null,
    policy: JSON.stringify(contractPolicy(body.policy)),
    provenance: JSON.stringify(provenance),
    created_at: at,
    updated_at: at,
    promoted_at: null,
    human_fields: JSON.stringify(REVISION_FIELDS.filter((field) => body[field] !== undefined)),
    last_revision: 1,
    // Spread last: a spread followed by twenty keys makes V8 build a slow dictionary object, ~0.1 ms a row (most
    // of an import's own CPU, and the garbage behind its memory peak); spread last it costs ~1 µs.
    ...NO_FACTS,
  };
}

/** The revision fields of a stored seed, as the seed shows them (the contract policy without its AI fact). */
export function revisionValuesOf(row: SeedTable): RevisionValues {
  return {
    name: row.name,
    entry_url: row.entry_url,
    fetch: parseJson(row.fetch, { type: 'html', urls: [] }),
    schedule: row.schedule,
    policy: parseJson(row.policy, {}),
  };
}

/** The stored columns of the fields a diff leads to. */
export function columnsOf(diff: FieldDiff): Partial<SeedTable> {
  const columns: Partial<SeedTable> = {};
  for (const field of REVISION_FIELDS) {
    const change = diff[field];
    if (!change) continue;
    if (field === 'fetch' || field === 'policy') columns[field] = JSON.stringify(change.after ?? {});
    else columns[field] = (change.after ?? null) as string | null;
  }
  return columns;
}

export interface RevisionView {
  seed_id: string;
  number: number;
  status: RevisionStatus;
  author: string;
  created_at: string;
  base_version: number;
  changes: FieldDiff;
  settled_by: string | null;
  settled_at: string | null;
}

export function revisionOfRow(row: SeedRevisionTable): RevisionView {
  return {
    seed_id: row.seed_id,
    number: Number(row.number),
    status: row.status,
    author: row.author,
    created_at: row.created_at,
    base_version: Number(row.base_version),
    changes: parseJson<FieldDiff>(row.changes, {}),
    settled_by: row.settled_by,
    settled_at: row.settled_at,
  };
}

/** A revision to store: its number, status, author and changes. */
export interface NewRevision {
  seedId: string;
  number: number;
  status: RevisionStatus;
  author: string;
  baseVersion: number;
  changes: FieldDiff;
  at: string;
}

export function revisionRow(revision: NewRevision): SeedRevisionTable {
  return {
    seed_id: revision.seedId,
    number: revision.number,
    status: revision.status,
    author: revision.author,
    created_at: revision.at,
    base_version: revision.baseVersion,
    changes: JSON.stringify(revision.changes),
    settled_by: null,
    settled_at: null,
  };
}

/** The first revision of a seed: every field it was created with, from nothing. */
export function firstRevision(
  seedId: string,
  author: string,
  values: RevisionValues,
  at: string,
): NewRevision {
  return {
    seedId,
    number: 1,
    status: 'applied',
    author,
    baseVersion: 1,
    changes: diffFields({}, values),
    at,
  };
}

/** The sitemap summary a seed keeps: no aggregates (they are in domain_metadata.json). */
export function seedSitemapOf(metadata: SitemapMetadata): SeedSitemap | null {
  if (!metadata.exists && metadata.url === null) return null;
  const { url, url_count, news, truncated, truncated_reason, sitemaps } = metadata;
  return { url, url_count, news, truncated, truncated_reason, sitemaps };
}
