// The seed list's filters, shared by a page of seeds, an export, a promote by filter and the review
// page: one place says what "the seeds matching" means, so the page and the API select the same seeds.
import type { SelectQueryBuilder } from 'kysely';
import type { SourceType } from '../../domain/domains.js';
import type { AiStatus, NewsVerdictValue } from '../../domain/seed-facts.js';
import type { HealthState } from '../../domain/seed-health.js';
import type { FRESHNESS_FILTERS, SeedSort, SeedStatus } from '../../domain/seeds.js';
import type { Tables } from '../../ports/database.js';

/** The list filters, shared by a page of seeds and an export. */
export interface SeedFilter {
  country?: string;
  status?: SeedStatus;
  source_type?: SourceType;
  category?: string;
  /** A language tag: `fr` matches fr and fr-*. */
  language?: string;
  ai?: Exclude<AiStatus, 'unknown'>;
  /** fresh: the newest item is recent; stale: it is older than the stale age; unknown: never measured or undated. */
  freshness?: SeedFreshness;
  /** ok | failing | stale from the domain's checks (docs/rechecks.md). */
  health?: HealthState;
  /** news | maybe | not_news: the news verdict of the seed's latest discovery (never judged: matches none). */
  verdict?: NewsVerdictValue;
}

export type SeedFreshness = (typeof FRESHNESS_FILTERS)[number];

/** Filters the review page adds to the list (not query parameters of the API). */
export interface ReviewFilter {
  authority?: string;
  robots_allowed?: boolean;
  fetch_type?: string;
  main_feed?: boolean;
  /** The latest liveness check (contract run or liveness batch) found the source alive, or not. */
  alive?: boolean;
  sort?: SeedSort;
}

/** Every filter of the list and the review page: the key of `filter` objects that select seeds. */
export const FILTER_KEYS = [
  'country',
  'status',
  'source_type',
  'category',
  'language',
  'ai',
  'freshness',
  'health',
  'verdict',
  'authority',
  'robots_allowed',
  'fetch_type',
  'main_feed',
  'alive',
] as const satisfies ReadonlyArray<keyof (SeedFilter & ReviewFilter)>;

type SeedQuery = SelectQueryBuilder<Tables, 'seeds', object>;

/**
 * The seeds matching the filter (any status unless it names one). Columns are named `seeds.<column>`: the list may
 * walk another table joined to `seeds` (list.ts).
 */
export function whereSeedsMatch(base: SeedQuery, filter: SeedFilter & ReviewFilter): SeedQuery {
  let query = base;
  // `fr` matches fr and fr-ca (the column holds each code and its primary subtag); the callers allow only
  // [a-z0-9-], so nothing in it is a LIKE wildcard.
  if (filter.language)
    query = query.where('seeds.language_codes', 'like', `%,${filter.language.toLowerCase()},%`);
  if (filter.ai) query = query.where('seeds.ai_status', '=', filter.ai);
  if (filter.health) query = query.where('seeds.health_state', '=', filter.health);
  if (filter.country) query = query.where('seeds.country', '=', filter.country);
  if (filter.status) query = query.where('seeds.status', '=', filter.status);
  // Each a plain column beside its JSON (migration 0013, written with the JSON by rows.ts listColumnsOf); the
  // list walks an index in its order and checks these on the rows it reads (list.ts).
  if (filter.verdict) query = query.where('seeds.news_verdict', '=', filter.verdict);
  if (filter.source_type) query = query.where('seeds.source_type', '=', filter.source_type);
  if (filter.category) query = query.where('seeds.category', '=', filter.category);
  if (filter.freshness) query = query.where('seeds.freshness_state', '=', filter.freshness);
  // The domain id starts with its authority.
  if (filter.authority) query = query.where('seeds.domain_id', 'like', `${filter.authority}:%`);
  if (filter.robots_allowed !== undefined)
    query = query.where('seeds.robots_allowed', '=', filter.robots_allowed ? 1 : 0);
  if (filter.fetch_type) query = query.where('seeds.fetch_type', '=', filter.fetch_type);
  if (filter.main_feed !== undefined) query = query.where('seeds.main_feed', '=', filter.main_feed ? 1 : 0);
  if (filter.alive !== undefined) query = query.where('seeds.alive', '=', filter.alive ? 1 : 0);
  return query;
}
