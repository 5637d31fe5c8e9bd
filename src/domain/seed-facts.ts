// What discovery knows about a source beside its contract — feeds, sitemap, freshness, languages, the AI policy,
// liveness and health — each defined once as a zod schema. The seed (seed-record.ts), a candidate, the engine's
// fact types and the API's response schemas all derive from these; every list of allowed values lives here.
import { z } from 'zod';
import { NEWS_VERDICTS } from './discovery-values.js';

const int = z.number().int();
const nullableString = z.string().nullable();

// Value lists, each written once.
export const FEED_TYPES = ['rss', 'atom', 'rdf', 'json'] as const;
export type FeedType = (typeof FEED_TYPES)[number];
/** main: the site's own news; section: one topic; comments: replies; item: one article's own feed. */
export const FEED_ROLES = ['main', 'section', 'comments', 'item'] as const;
export type FeedRole = (typeof FEED_ROLES)[number];
export const LIVENESS_STATES = ['alive', 'dead', 'blocked', 'error'] as const;
export type LivenessState = (typeof LIVENESS_STATES)[number];
export const HEALTH_STATES = ['ok', 'failing', 'stale'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];
export const AI_STATUSES = ['disallowed', 'reserved', 'allowed', 'unknown'] as const;
export type AiStatus = (typeof AI_STATUSES)[number];
export const ROBOTS_READINGS = ['read', 'none', 'unreadable'] as const;
export const TDM_SOURCES = ['header', 'meta', 'tdmrep.json'] as const;
export type TdmSource = (typeof TDM_SOURCES)[number];
export const LANGUAGE_SOURCES = [
  'html_lang',
  'content_language',
  'hreflang',
  'feed',
  'news_sitemap',
  'sitemap_hreflang',
  'og_locale',
  'detected',
] as const;
export type LanguageSource = (typeof LANGUAGE_SOURCES)[number];
export const FRESHNESS_BASES = ['feed', 'news_sitemap'] as const;

export const feedRecordSchema = z
  .object({
    url: z.string(),
    type: z.enum(FEED_TYPES),
    title: nullableString,
    role: z.enum(FEED_ROLES),
    /** Null for a feed listed but not read: a comments feed its own link names as one (docs/collection.md). */
    item_count: int.nullable(),
    newest_item_at: nullableString,
    /** Present only when the feed declares a language. */
    language: z.string().optional(),
  })
  .meta({ id: 'Feed' });
export type FeedRecord = z.infer<typeof feedRecordSchema>;

export const freshnessSchema = z
  .object({
    /** The newest dated item of a main (or section) feed or a news sitemap; null when nothing was dated. */
    newest_item_at: nullableString,
    /** Items dated in the 7 days before `measured_at`, from the source that counted most (they overlap). */
    items_last_7d: int,
    /** Items per day over the window the source covers; null when no item was dated. */
    items_per_day: z.number().nullable(),
    measured_at: z.string(),
    /** The newest item is older than the stale age; null when nothing was dated. */
    stale: z.boolean().nullable(),
    /** What the rate was read from. */
    based_on: z.enum(FRESHNESS_BASES).nullable(),
  })
  .meta({ id: 'Freshness' });
export type Freshness = z.infer<typeof freshnessSchema>;

export const sourceLanguageSchema = z
  .object({
    /** BCP 47, lower-cased (`fr`, `pt-br`); `?language=fr` matches `fr` and `fr-*`. */
    code: z.string(),
    sources: z.array(z.enum(LANGUAGE_SOURCES)),
    /** Detected only: the share of titles that agreed (0..1). */
    confidence: z.number().optional(),
  })
  .meta({ id: 'SourceLanguage' });
export type SourceLanguage = z.infer<typeof sourceLanguageSchema>;

export const aiPolicySchema = z
  .object({
    /** AI_CRAWLER_LIST_DATE of the list the agents were checked against. */
    crawler_list: z.string(),
    /** `read`: a robots.txt was parsed; `none`: there is none (no rules); `unreadable`: 5xx or unreachable. */
    robots: z.enum(ROBOTS_READINGS),
    /** Known AI crawlers robots.txt keeps out of the entry URL. */
    disallowed_agents: z.array(z.string()),
    /** Known AI crawlers it lets in. */
    allowed_agents: z.array(z.string()),
    /** The crawlers robots.txt names in a group of their own: the verdict and the deciding line. */
    named: z.array(z.object({ agent: z.string(), allowed: z.boolean(), line: int.nullable() })),
    /** TDMRep: true when text-and-data-mining rights are reserved, false when expressly not; null when unsaid. */
    tdm_reservation: z.boolean().nullable(),
    tdm_policy_url: nullableString,
    /** Which TDMRep technique answered (the header first, then the meta tag, then tdmrep.json). */
    tdm_source: z.enum(TDM_SOURCES).nullable(),
    /** `noai` in a robots meta tag or an X-Robots-Tag header. */
    noai: z.boolean(),
    noimageai: z.boolean(),
    /** disallowed: an AI crawler is kept out; reserved: none is, but TDM rights are reserved or noai is set. */
    status: z.enum(AI_STATUSES),
  })
  .meta({
    id: 'AiPolicy',
    description:
      'Server-owned, from discovery: what robots.txt (known AI crawlers, a dated list), TDMRep and noai say; not part of the contract',
  });
export type AiPolicy = z.infer<typeof aiPolicySchema>;

/**
 * The latest liveness of the source's domain, in one shape whoever writes it (a contract run or a liveness
 * batch): the fields of the check that decided it.
 */
export const discoverySchema = z
  .object({
    alive: z.boolean().nullable(),
    checked_at: nullableString,
    http_status: int.nullable(),
    state: z.enum(LIVENESS_STATES).nullable(),
    error_code: nullableString,
  })
  .meta({
    id: 'SeedDiscovery',
    description: 'The latest liveness check of the domain (a contract run or a liveness batch)',
  });
export type SeedDiscovery = z.infer<typeof discoverySchema>;

/** A seed before any check reached its domain. */
export const NO_DISCOVERY: SeedDiscovery = {
  alive: null,
  checked_at: null,
  http_status: null,
  state: null,
  error_code: null,
};

/** What a liveness check says of the domain, as every seed and candidate of it keeps it. */
export function discoveryOf(check: {
  alive: boolean;
  checked_at: string;
  http_status: number | null;
  state: LivenessState;
  error_code: string | null;
}): SeedDiscovery {
  return {
    alive: check.alive,
    checked_at: check.checked_at,
    http_status: check.http_status,
    state: check.state,
    error_code: check.error_code,
  };
}

export const seedHealthSchema = z
  .object({
    /** ok: the last check reached the source; failing: it did not; stale: reached, but nothing new for too long. */
    state: z.enum(HEALTH_STATES),
    /** Checks in a row that did not reach the source (0 after a good one). */
    consecutive_failures: int,
    last_checked_at: z.string(),
    /** The last check that reached the source; null when none has. */
    last_ok_at: nullableString,
    /** Why the last failed check failed (dead, blocked, an error code); null after a good one. */
    last_error: nullableString,
    /** The batch of the last check. */
    last_batch_id: nullableString,
    /** Set when SEEDBED_AUTO_SUSPEND suspended the seed: when, and why. */
    suspended: z.object({ at: z.string(), reason: z.string() }).optional(),
  })
  .meta({ id: 'SeedHealth' });
export type SeedHealth = z.infer<typeof seedHealthSchema>;

/** The sitemap summary a seed keeps: counts and truncation, no aggregates (those are in domain_metadata.json). */
export const seedSitemapSchema = z
  .object({
    url: nullableString,
    url_count: int,
    news: z.boolean(),
    truncated: z.boolean(),
    truncated_reason: nullableString,
    /** Each top-level sitemap tried: what it was and the distinct page URLs first reached through its tree. */
    sitemaps: z.array(
      z.object({
        url: z.string(),
        source: z.enum(['robots', 'well-known']),
        kind: z.string(),
        status_code: int.nullable(),
        url_count: int,
        news: z.boolean(),
      }),
    ),
  })
  .meta({ id: 'SeedSitemap' });
export type SeedSitemap = z.infer<typeof seedSitemapSchema>;

export { NEWS_VERDICTS } from './discovery-values.js';
export type NewsVerdictValue = (typeof NEWS_VERDICTS)[number];

const reasonSchema = z.object({
  /** What was looked at (news_sitemap, jsonld_type, section_navigation, platform_host, …). */
  signal: z.string(),
  /** Its pull on the score: positive for news, negative against. */
  weight: z.number(),
  /** What a person can check: the URL, the markup type, the words found, the count. */
  evidence: z.string(),
});

export const newsSchema = z
  .object({
    verdict: z.enum(NEWS_VERDICTS),
    /** 0..1: how strongly the reasons together say news. */
    score: z.number().min(0).max(1),
    reasons: z.array(reasonSchema),
  })
  .meta({ id: 'NewsVerdict', description: 'Whether the source is a news source, with the reasons' });
export type NewsVerdict = z.infer<typeof newsSchema>;

export const countryGuessSchema = z
  .object({
    /** ISO 3166-1 alpha-2, lower-case, or `intl` when the signals disagree or none decides. */
    code: z.string(),
    confidence: z.number().min(0).max(1),
    reasons: z.array(reasonSchema.extend({ country: z.string().nullable() })),
  })
  .meta({ id: 'CountryGuess', description: "The source's country as its signals tell it, with the reasons" });
export type CountryGuess = z.infer<typeof countryGuessSchema>;
