// The filters of /ui/seeds: parsed leniently from a query string or a form (a bad value drops that filter only,
// it is not a 400), written back as links that keep them, as the GET form, and as hidden fields that carry them
// into "promote all matching" and "archive all matching".
import { z } from 'zod';
import { AUTHORITIES, SOURCE_TYPES } from '../../../domain/domains.js';
import { categorySchema, countrySchema } from '../../../domain/identifiers.js';
import { NEWS_VERDICTS } from '../../../domain/seed-facts.js';
import { HEALTH_STATES } from '../../../domain/seed-health.js';
import {
  AI_FILTERS,
  FETCH_TYPES,
  FRESHNESS_FILTERS,
  languageFilterSchema,
  SEED_SORTS,
  SEED_STATUSES,
} from '../../../domain/seeds.js';
import { type Html, html, query } from './html.js';
import { filledFields, select } from './layout.js';

const bool = z.enum(['true', 'false']).transform((v) => v === 'true');
/** Each filter on its own: a bad value drops that filter only. */
const filterSchema = z.object({
  status: z.enum(SEED_STATUSES).catch('draft').default('draft'),
  country: countrySchema.optional().catch(undefined),
  category: categorySchema.optional().catch(undefined),
  source_type: z.enum(SOURCE_TYPES).optional().catch(undefined),
  authority: z.enum(AUTHORITIES).optional().catch(undefined),
  robots_allowed: bool.optional().catch(undefined),
  fetch_type: z.enum(FETCH_TYPES).optional().catch(undefined),
  main_feed: bool.optional().catch(undefined),
  language: languageFilterSchema.optional().catch(undefined),
  ai: z.enum(AI_FILTERS).optional().catch(undefined),
  freshness: z.enum(FRESHNESS_FILTERS).optional().catch(undefined),
  alive: bool.optional().catch(undefined),
  health: z.enum(HEALTH_STATES).optional().catch(undefined),
  verdict: z.enum(NEWS_VERDICTS).optional().catch(undefined),
  sort: z.enum(SEED_SORTS).optional().catch(undefined),
  offset: z.coerce.number().int().min(0).max(10_000_000).catch(0).default(0),
  /** The `pagination.next` of the page before: the Next link pages by it (no offset scan at any depth). */
  cursor: z
    .string()
    .regex(/^[A-Za-z0-9_-]{1,1024}$/)
    .optional()
    .catch(undefined),
});
export type UiSeedFilter = z.infer<typeof filterSchema>;

export function parseSeedFilter(raw: unknown): UiSeedFilter {
  return filterSchema.parse(filledFields(raw));
}

/** The filter as query parameters (booleans back to words), for links that keep it. */
export function filterQuery(
  filter: UiSeedFilter,
  overrides: Partial<Record<keyof UiSeedFilter, string | number | undefined>> = {},
): string {
  // Offset 0 is the default: left out, so a link by cursor carries no offset beside it.
  const entries = Object.entries({ ...filter, ...overrides }).map(([k, v]) => [
    k,
    v === undefined || (k === 'offset' && v === 0) ? undefined : String(v),
  ]);
  return query(Object.fromEntries(entries));
}

/** What "all matching" promotes: the filter without its page, order or status (promote takes drafts only). */
export function matchingFilter(filter: UiSeedFilter) {
  const { status: _status, sort: _sort, offset: _offset, cursor: _cursor, ...rest } = filter;
  return Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Omit<
    UiSeedFilter,
    'status' | 'sort' | 'offset' | 'cursor'
  >;
}

/**
 * The filter as hidden fields of the bulk form (the status too: archive all matching keeps it), so a POST can act on
 * every seed it matches.
 */
export function filterFields(filter: UiSeedFilter): Html {
  return html`${Object.entries({ ...matchingFilter(filter), status: filter.status }).map(
    ([name, value]) => html`<input type="hidden" name="${name}" value="${String(value)}">`,
  )}`;
}

/** The filter in words: "country sg, language fr". */
export function describeFilter(filter: UiSeedFilter): string {
  const parts = Object.entries(matchingFilter(filter)).map(([name, value]) => `${name} ${value}`);
  return parts.length > 0 ? parts.join(', ') : 'no filter';
}

export function filterForm(f: UiSeedFilter): Html {
  const b = (v: boolean | undefined) => (v === undefined ? undefined : String(v));
  return html`<form method="get" action="/ui/seeds" class="filters" aria-label="Filters">
${select('status', 'Status', SEED_STATUSES, f.status, 'draft')}
<label>Country <input name="country" value="${f.country ?? ''}" size="4" maxlength="4" placeholder="sg"></label>
<label>Category <input name="category" value="${f.category ?? ''}" size="10" placeholder="news"></label>
${select('source_type', 'Source type', SOURCE_TYPES, f.source_type)}
${select('authority', 'Authority', AUTHORITIES, f.authority)}
${select('robots_allowed', 'Robots allowed', ['true', 'false'], b(f.robots_allowed))}
${select('fetch_type', 'Fetch type', FETCH_TYPES, f.fetch_type)}
${select('main_feed', 'Has a main feed', ['true', 'false'], b(f.main_feed))}
<label>Language <input name="language" value="${f.language ?? ''}" size="5" maxlength="20" placeholder="fr"></label>
${select('ai', 'AI policy', AI_FILTERS, f.ai)}
${select('freshness', 'Freshness', FRESHNESS_FILTERS, f.freshness)}
${select('health', 'Health', HEALTH_STATES, f.health)}
${select('verdict', 'News verdict', NEWS_VERDICTS, f.verdict)}
${select(
  'alive',
  'Latest check',
  [
    ['true', 'alive'],
    ['false', 'failing'],
  ],
  b(f.alive),
)}
${select(
  'sort',
  'Sort',
  [
    ['-found', 'newest found first'],
    ['found', 'oldest found first'],
    ['-rate', 'highest publication rate first'],
  ],
  f.sort,
  'by id',
)}
<button type="submit">Filter</button> <a href="/ui/seeds">Clear</a>
</form>`;
}
