// The seed, defined once: the shape the API answers, the export writes, the metadata snapshot publishes and a
// POST takes back. The stored row (ports/database.ts SeedTable) converts to and from it in one place
// (services/seed-repository/rows.ts); the response schema, the export row and the edit form derive from it.
import { z } from 'zod';
import { SOURCE_TYPES } from './domains.js';
import {
  aiPolicySchema,
  countryGuessSchema,
  discoverySchema,
  feedRecordSchema,
  freshnessSchema,
  newsSchema,
  seedHealthSchema,
  seedSitemapSchema,
  sourceLanguageSchema,
} from './seed-facts.js';
import { FETCH_TYPES, SEED_STATUSES } from './seeds.js';

const int = z.number().int();
const timestamp = z.iso.datetime({ offset: true });

/** The contract's policy as stored, with the AI policy fact shown beside it (never part of the contract). */
export const seedPolicySchema = z.looseObject({
  robots_url: z.string().nullable().optional(),
  robots_allowed: z.boolean().optional(),
  crawl_delay: z.number().nullable().optional(),
  sitemap_urls: z.array(z.string()).optional(),
  ai: aiPolicySchema.optional(),
});

export const seedSchema = z
  .object({
    seed_id: z.string(),
    domain_id: z.string(),
    registrable_domain: z.string(),
    country: z.string(),
    category: z.string(),
    content_type: z.string(),
    source_type: z.enum(SOURCE_TYPES),
    status: z.enum(SEED_STATUSES),
    version: int,
    name: z.string().nullable(),
    entry_url: z.string().nullable(),
    fetch: z.object({ type: z.enum(FETCH_TYPES), urls: z.array(z.string()) }),
    schedule: z.string().nullable(),
    policy: seedPolicySchema,
    discovery: discoverySchema,
    provenance: z.record(z.string(), z.unknown()),
    created_at: timestamp,
    updated_at: timestamp,
    promoted_at: timestamp.nullable(),
    feeds: z.array(feedRecordSchema).meta({
      description: 'Every feed discovery found, ranked; fetch.urls holds only main and section feeds',
    }),
    sitemap: seedSitemapSchema.nullable().meta({
      description: 'The latest discovery: distinct page URLs, and whether the reading was cut short',
    }),
    human_fields: z.array(z.string()).meta({
      description: 'The fields a person set: a contract run never overwrites them, it proposes a revision',
    }),
    freshness: freshnessSchema
      .nullable()
      .meta({ description: 'Publication rate from the main feeds and news sitemaps; null before discovery' }),
    languages: z.array(sourceLanguageSchema).meta({
      description: 'Languages with where each was read, strongest first; detected only when none is declared',
    }),
    health: seedHealthSchema.nullable().meta({
      description:
        'From every check of the domain (contract runs and re-checks): failing from the first failed check, with the count in a row; null before the first check',
    }),
    news: newsSchema.nullable().meta({
      description:
        'Is the source a news source: the verdict, its score and the reasons; null before a discovery judged it',
    }),
    country_guess: countryGuessSchema.nullable().meta({
      description:
        "The source's country as its signals tell it (intl when they disagree); null before a discovery",
    }),
  })
  .meta({ id: 'Seed', description: 'A seed; POST it back as it is to copy it (see SeedCreateRequest)' });
export type Seed = z.infer<typeof seedSchema>;

/** The contract: the fields whose change raises the version. */
export type SeedContract = Pick<Seed, 'entry_url' | 'fetch' | 'schedule' | 'policy'>;
