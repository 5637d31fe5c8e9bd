// The seed: its schemas, its state machine and its version rule (docs/design.md §3).

import { z } from 'zod';
import { SOURCE_TYPES } from './domains.js';
import { CATEGORY_PATTERN, categorySchema, countrySchema } from './identifiers.js';
import { NEWS_VERDICTS } from './seed-facts.js';
import { HEALTH_STATES } from './seed-health.js';

export const SEED_STATUSES = ['draft', 'active', 'suspended', 'archived'] as const;
export type SeedStatus = (typeof SEED_STATUSES)[number];

/** Every allowed move. draft → active happens only through POST /seeds/promote. */
const TRANSITIONS: Record<SeedStatus, readonly SeedStatus[]> = {
  draft: ['active', 'archived'],
  active: ['suspended', 'archived'],
  suspended: ['active', 'archived'],
  archived: [],
};

export function canTransition(from: SeedStatus, to: SeedStatus): boolean {
  return TRANSITIONS[from].includes(to);
}

/** The statuses a seed may move to from `from` (the review page offers exactly these). */
export function movesFrom(from: SeedStatus): readonly SeedStatus[] {
  return TRANSITIONS[from];
}

/** A status a seed can be moved to by a person (every status but draft, which only creation gives). */
export function isTargetStatus(value: string): value is SeedStatus {
  return (SEED_STATUSES as readonly string[]).includes(value) && value !== 'draft';
}

/** A revision of a seed: applied at once, or proposed and then accepted, rejected or superseded. */
export const REVISION_STATUSES = ['applied', 'proposed', 'accepted', 'rejected', 'superseded'] as const;
export type RevisionStatus = (typeof REVISION_STATUSES)[number];

export const FETCH_TYPES = ['rss', 'sitemap', 'html', 'api'] as const;

const httpUrl = z
  .url({ protocol: /^https?$/ })
  .max(2048)
  .meta({ description: 'An absolute http(s) URL' });

/** Lists of URLs are capped at 1,000: a sitemap index or a robots.txt can name hundreds. */
const MAX_URLS = 1000;

export const fetchSchema = z.object({
  type: z.enum(FETCH_TYPES),
  urls: z.array(httpUrl).max(MAX_URLS),
});

export const policySchema = z.object({
  robots_url: httpUrl.nullable().optional(),
  robots_allowed: z.boolean().optional(),
  crawl_delay: z.number().min(0).max(86_400).nullable().optional(),
  sitemap_urls: z.array(httpUrl).max(MAX_URLS).optional(),
});

export const discoverySchema = z.object({
  alive: z.boolean().nullable().optional(),
  checked_at: z.iso.datetime({ offset: true }).nullable().optional(),
  http_status: z.number().int().min(100).max(599).nullable().optional(),
});

/** Cron: five fields, or a @-macro. */
export const scheduleSchema = z
  .string()
  .trim()
  .max(100)
  .regex(/^(@(hourly|daily|weekly|monthly|yearly)|(\S+\s+){4}\S+)$/, {
    message: 'must be a 5-field cron expression',
  });

const contentTypeSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(CATEGORY_PATTERN, { message: 'must be a slug: a-z, 0-9, "_" or "-", 1 to 64 characters' });

const timestamp = z.iso.datetime({ offset: true });
const serverOwned = (what: string) => ({ description: `Server-owned: ${what}` });

/**
 * A person's new seed, or a seed read with GET sent back as it is (to this or another instance): the resource's
 * own fields are accepted. Identity fields (`seed_id`, `domain_id`, `registrable_domain`) must agree with the
 * source; the other server-owned ones are checked for type and ignored: a new seed is a draft at version 1.
 */
export const seedCreateSchema = z
  .object({
    domain: z.string().trim().min(1).max(2048).optional().meta({
      description:
        'A domain, host or URL of the source; its registrable domain is kept. Required unless registrable_domain, domain_id or seed_id names the source',
    }),
    country: countrySchema,
    category: categorySchema,
    content_type: contentTypeSchema.optional().meta({ description: 'Defaults to the category' }),
    source_type: z
      .enum(SOURCE_TYPES)
      .optional()
      .meta({ description: 'Derived from the domain when left out' }),
    name: z.string().trim().min(1).max(300).nullable().optional(),
    entry_url: httpUrl.nullable().optional(),
    fetch: fetchSchema.optional(),
    schedule: scheduleSchema.nullable().optional(),
    // Loose: a policy written by a contract run comes back with every key it had.
    policy: policySchema.loose().optional(),
    registrable_domain: z
      .string()
      .trim()
      .min(1)
      .max(253)
      .optional()
      .meta({ description: 'Must be the registrable domain of the source' }),
    domain_id: z
      .string()
      .max(400)
      .optional()
      .meta({ description: 'Must name the same registrable domain and country; its authority is kept' }),
    seed_id: z
      .string()
      .max(400)
      .optional()
      .meta({ description: 'Must be {domain_id}::{content_type} of this seed' }),
    status: z.enum(SEED_STATUSES).optional().meta(serverOwned('ignored, a new seed is a draft')),
    version: z.number().int().positive().optional().meta(serverOwned('ignored, a new seed is at version 1')),
    discovery: z.record(z.string(), z.unknown()).nullable().optional().meta(serverOwned('ignored')),
    provenance: z.record(z.string(), z.unknown()).nullable().optional().meta(serverOwned('ignored')),
    created_at: timestamp.nullable().optional().meta(serverOwned('ignored')),
    updated_at: timestamp.nullable().optional().meta(serverOwned('ignored')),
    promoted_at: timestamp.nullable().optional().meta(serverOwned('ignored')),
    feeds: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .meta(serverOwned('ignored, found by discovery')),
    sitemap: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta(serverOwned('ignored, found by discovery')),
    human_fields: z
      .array(z.string().max(64))
      .max(20)
      .optional()
      .meta(serverOwned('ignored, the fields given here are the ones a person set')),
    freshness: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta(serverOwned('ignored, measured by discovery')),
    languages: z
      .array(z.record(z.string(), z.unknown()))
      .optional()
      .meta(serverOwned('ignored, found by discovery')),
    health: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta(serverOwned('ignored, measured by the checks of this instance')),
    news: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta(serverOwned('ignored, judged by discovery')),
    country_guess: z
      .record(z.string(), z.unknown())
      .nullable()
      .optional()
      .meta(serverOwned('ignored, guessed by discovery')),
  })
  .strict()
  .meta({ id: 'SeedCreateRequest' });
export type SeedCreateRequest = z.infer<typeof seedCreateSchema>;

export const seedPatchSchema = z
  .object({
    name: z.string().trim().min(1).max(300).nullable().optional(),
    source_type: z.enum(SOURCE_TYPES).optional(),
    entry_url: httpUrl.nullable().optional(),
    fetch: fetchSchema.optional(),
    schedule: scheduleSchema.nullable().optional(),
    policy: policySchema.optional(),
    status: z.enum(SEED_STATUSES).optional(),
    /** Optimistic concurrency: the patch applies only if the seed is still at this version. */
    expected_version: z.number().int().positive().optional(),
  })
  .strict()
  .refine((patch) => Object.keys(patch).some((key) => key !== 'expected_version'), {
    message: 'must change at least one field',
  })
  .meta({ id: 'SeedPatchRequest' });
export type SeedPatch = z.infer<typeof seedPatchSchema>;

/** A language tag as the seed list filters on it: `fr` also matches fr-ca. */
export const languageFilterSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z]{2,3}(-[a-z0-9]{1,8})*$/, { message: 'must be a language tag such as fr or pt-br' })
  .meta({ description: 'Seeds whose source publishes in this language (fr also matches fr-ca)' });
export const AI_FILTERS = ['disallowed', 'allowed', 'reserved'] as const;
export const aiFilterSchema = z.enum(AI_FILTERS).meta({
  description:
    'disallowed: robots.txt keeps a known AI crawler out; reserved: none is, but TDM rights are reserved or noai is set; allowed: neither',
});
export const FRESHNESS_FILTERS = ['fresh', 'stale', 'unknown'] as const;
export const freshnessFilterSchema = z.enum(FRESHNESS_FILTERS).meta({
  description:
    'fresh: the newest item is recent; stale: it is older than the stale age (SEEDBED_STALE_AFTER_DAYS); unknown: never measured, or no dated item',
});
export const healthFilterSchema = z.enum(HEALTH_STATES).meta({
  description:
    'ok: the last check reached the source; failing: it did not; stale: reached, but its newest item is older than SEEDBED_STALE_AFTER_DAYS (docs/rechecks.md)',
});
export const verdictFilterSchema = z.enum(NEWS_VERDICTS).meta({
  description:
    'The news verdict of the source’s latest discovery (docs/discovery.md): news, maybe or not_news; a seed never judged matches none',
});

/** `found` = oldest first, `-found` = newest first, `-rate` = highest publication rate first (unmeasured last). */
export const SEED_SORTS = ['found', '-found', '-rate'] as const;
export type SeedSort = (typeof SEED_SORTS)[number];

/** Fields whose change is a change of contract: they raise the seed's version. */
export const CONTRACT_FIELDS = ['entry_url', 'fetch', 'schedule', 'policy'] as const;
