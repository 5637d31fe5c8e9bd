// The seed list's filters and orders, shared by a page of seeds, an export, a promote by filter and the review
// page: one place says what "the seeds matching" means, so the page and the API select the same seeds.
import { type SelectQueryBuilder, sql } from 'kysely';
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

/** Filters the review page adds to the list (matched on the JSON columns; not query parameters of the API). */
export interface ReviewFilter {
  authority?: string;
  robots_allowed?: boolean;
  fetch_type?: string;
  main_feed?: boolean;
  /** The latest liveness check (contract run or liveness batch) found the source alive, or not. */
  alive?: boolean;
  sort?: SeedSort;
}

type SeedQuery = SelectQueryBuilder<Tables, 'seeds', object>;

/** The seeds matching the filter (any status unless it names one). */
export function whereSeedsMatch(base: SeedQuery, filter: SeedFilter & ReviewFilter): SeedQuery {
  let query = base;
  // `fr` matches fr and fr-ca (the column holds each code and its primary subtag); the callers allow only
  // [a-z0-9-], so nothing in it is a LIKE wildcard.
  if (filter.language) query = query.where('language_codes', 'like', `%,${filter.language.toLowerCase()},%`);
  if (filter.ai) query = query.where('ai_status', '=', filter.ai);
  if (filter.health) query = query.where('health_state', '=', filter.health);
  if (filter.country) query = query.where('country', '=', filter.country);
  if (filter.status) query = query.where('status', '=', filter.status);
  // A plain column beside the news JSON, indexed (status, news_verdict, seed_id) for the drafts list.
  if (filter.verdict) query = query.where('news_verdict', '=', filter.verdict);
  if (filter.source_type) query = query.where('source_type', '=', filter.source_type);
  if (filter.category) query = query.where('category', '=', filter.category);
  // JSON columns are TEXT written by JSON.stringify (no spaces) in both dialects, so a key:value fragment is
  // matched with LIKE; the domain id starts with its authority.
  if (filter.freshness === 'fresh') query = query.where('freshness', 'like', '%"stale":false%');
  if (filter.freshness === 'stale') query = query.where('freshness', 'like', '%"stale":true%');
  if (filter.freshness === 'unknown')
    query = query.where((eb) =>
      eb.or([
        eb('freshness', 'is', null),
        eb.and([
          eb('freshness', 'not like', '%"stale":false%'),
          eb('freshness', 'not like', '%"stale":true%'),
        ]),
      ]),
    );
  if (filter.authority) query = query.where('domain_id', 'like', `${filter.authority}:%`);
  if (filter.robots_allowed !== undefined)
    query = query.where('policy', 'like', `%"robots_allowed":${filter.robots_allowed}%`);
  if (filter.fetch_type) query = query.where('fetch', 'like', `%"type":"${filter.fetch_type}"%`);
  if (filter.main_feed !== undefined)
    query = query.where('feeds', filter.main_feed ? 'like' : 'not like', '%"role":"main"%');
  if (filter.alive !== undefined) query = query.where('discovery', 'like', `%"alive":${filter.alive}%`);
  return query;
}

/** The order of a page of seeds; ties (and no sort) by seed id, so paging is stable. */
export function orderSeeds<Q extends SelectQueryBuilder<Tables, 'seeds', object>>(
  query: Q,
  sort: SeedSort | undefined,
): Q {
  if (sort === 'found') return query.orderBy('created_at', 'asc').orderBy('seed_id') as Q;
  if (sort === '-found') return query.orderBy('created_at', 'desc').orderBy('seed_id') as Q;
  if (sort === '-rate')
    // PostgreSQL puts NULLs first in a descending order, SQLite last: the CASE says "unmeasured last" for both.
    return query
      .orderBy(sql`case when items_per_day is null then 1 else 0 end`)
      .orderBy('items_per_day', 'desc')
      .orderBy('seed_id') as Q;
  return query.orderBy('seed_id') as Q;
}
