// Candidates (docs/discovery.md): registrable domains Seedbed has seen but that are not seeds. Their states, who
// cites them and how, the shape the API answers, the requests that decide them, and the discovery batch's items.
// A candidate shares a seed's facts (news, country_guess, languages): those schemas are the seed's own.
import { z } from 'zod';
import { CANDIDATE_SORTS, CANDIDATE_STATES } from './discovery-values.js';
import { categorySchema, countrySchema } from './identifiers.js';
import {
  countryGuessSchema,
  NEWS_VERDICTS,
  newsSchema,
  type SeedDiscovery,
  sourceLanguageSchema,
} from './seed-facts.js';

export { CANDIDATE_SORTS, CANDIDATE_STATES } from './discovery-values.js';
export type CandidateState = (typeof CANDIDATE_STATES)[number];

/** Where a citing source links to a candidate; `import` is a list a person brought. */
export const CITATION_SOURCES = ['homepage', 'article', 'feed', 'sitemap', 'import'] as const;
export type CitationSource = (typeof CITATION_SOURCES)[number];

export type CandidateSort = (typeof CANDIDATE_SORTS)[number];

/** A citing source that is a qualified candidate (snowball rounds), or an imported list. */
export const candidateCiter = (domain: string) => `candidate:${domain}`;
export const importCiter = (label: string) => `import:${label}`;

export const citationSchema = z.object({
  /** A seed id, `candidate:<domain>` (a qualified candidate's own links) or `import:<label>`. */
  seed_id: z.string(),
  url: z.string(),
  anchor: z.string(),
  found_in: z.enum(CITATION_SOURCES),
});
export type Citation = z.infer<typeof citationSchema>;

export const candidateSchema = z
  .object({
    domain: z.string(),
    registrable_domain: z.string(),
    state: z.enum(CANDIDATE_STATES),
    country: z.string().meta({
      description:
        'The country it is a candidate for: its guess once qualified (unless intl), else its citers’',
    }),
    news: newsSchema.nullable(),
    country_guess: countryGuessSchema.nullable(),
    languages: z.array(sourceLanguageSchema),
    citations: z.number().int().meta({ description: 'Distinct citing sources' }),
    cited_by: z.array(citationSchema).meta({ description: 'Who links to it, first seen first (at most 50)' }),
    feeds_found: z.number().int().nullable(),
    sitemap: z.object({ exists: z.boolean(), news: z.boolean() }).nullable(),
    robots_allowed: z.boolean().nullable(),
    alive: z.boolean().nullable(),
    sources: z.array(z.string()).meta({ description: 'The imported lists that named it' }),
    first_seen_at: z.string(),
    last_checked_at: z.string().nullable(),
    reject_reason: z.string().nullable(),
    decided_by: z.string().nullable(),
    decided_at: z.string().nullable(),
  })
  .meta({ id: 'Candidate', description: 'A site Seedbed has seen that is not a seed, with its evidence' });
export type Candidate = z.infer<typeof candidateSchema>;

/** What a qualification found that an accepted candidate's draft seed is built from. */
export interface Qualification {
  /** The contract fields it would write (entry_url, fetch, schedule, policy, and name when the page had one). */
  contract: Record<string, unknown>;
  discovery: SeedDiscovery;
  /** The seed facts (feeds, sitemap, freshness, languages, ai, news, country_guess) as the contract found them. */
  facts: Record<string, unknown>;
  checked_at: string;
}

const domainList = z.array(z.string().trim().min(1).max(2048)).min(1).max(1000);

export const discoveryRequestSchema = z
  .object({
    country: countrySchema,
    category: categorySchema.default('news'),
    rounds: z.number().int().min(1).max(3).default(1).meta({
      description:
        'Rounds of qualification; with more than one, qualified news candidates’ own links feed the next',
    }),
    max_candidates: z.number().int().min(1).max(10_000).default(100).meta({
      description: 'Candidates qualified per round at most, most cited first',
    }),
    min_citations: z.number().int().min(1).max(1000).default(1).meta({
      description: 'Only candidates cited by at least this many distinct sources are qualified',
    }),
    force: z.boolean().default(false).meta({
      description:
        'Read every seed’s links again, even those read in the last 7 days; qualify rejected ones too',
    }),
  })
  .strict()
  .meta({ id: 'DiscoveryRequest' });
export type DiscoveryRequest = z.output<typeof discoveryRequestSchema>;

export const acceptRequestSchema = z
  .object({
    domains: domainList,
    country: countrySchema.optional().meta({ description: 'Defaults to the candidate’s country' }),
    category: categorySchema.default('news'),
  })
  .strict()
  .meta({ id: 'CandidateAcceptRequest' });
export type AcceptRequest = z.output<typeof acceptRequestSchema>;

export const rejectRequestSchema = z
  .object({ domains: domainList, reason: z.string().trim().min(1).max(500) })
  .strict()
  .meta({ id: 'CandidateRejectRequest' });
export type RejectRequest = z.output<typeof rejectRequestSchema>;

export const candidateFilterShape = {
  country: countrySchema.optional(),
  state: z.enum(CANDIDATE_STATES).optional(),
  verdict: z.enum(NEWS_VERDICTS).optional(),
  min_score: z.coerce.number().min(0).max(1).optional(),
  sort: z.enum(CANDIDATE_SORTS).optional(),
};

/** A DISCOVERY_QUEUE item: read a citing source's links, or qualify one candidate. */
export const discoveryItemSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('harvest'),
    /** The citing seed. */
    seed_id: z.string(),
    entry_url: z.string(),
    registrable_domain: z.string(),
    country: z.string(),
  }),
  z.object({ kind: z.literal('qualify'), domain: z.string(), country: z.string(), round: z.number().int() }),
]);
export type DiscoveryItem = z.infer<typeof discoveryItemSchema>;
