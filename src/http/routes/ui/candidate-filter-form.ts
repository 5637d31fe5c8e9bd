// The filters of /ui/candidates: the API's own filter fields (candidateFilterShape), parsed leniently — a bad value
// drops that filter only, as on the seed list — written back as links that keep them and as the GET form.
import { z } from 'zod';
import {
  CANDIDATE_SORTS,
  CANDIDATE_STATES,
  type CandidateSort,
  candidateFilterShape,
} from '../../../domain/candidates.js';
import { NEWS_VERDICTS } from '../../../domain/seed-facts.js';
import { type Html, html, query } from './html.js';
import { filledFields, select } from './layout.js';

/** What each order means to a person; a Record so a new sort in the domain list must be named here too. */
const SORT_LABELS: Record<CandidateSort, string> = {
  score: 'highest score first',
  citations: 'most cited first',
  first_seen: 'newest seen first',
};

const filterSchema = z.object({
  country: candidateFilterShape.country.catch(undefined),
  state: candidateFilterShape.state.catch(undefined),
  verdict: candidateFilterShape.verdict.catch(undefined),
  min_score: candidateFilterShape.min_score.catch(undefined),
  // The page is a ranking: by score unless another order is asked for (the API's default is by domain).
  sort: z.enum(CANDIDATE_SORTS).catch('score').default('score'),
  offset: z.coerce.number().int().min(0).max(10_000_000).catch(0).default(0),
  // Where the page starts: the list's `pagination.next`, which the Next link carries (docs/review-page.md).
  cursor: z.string().min(1).max(1024).optional().catch(undefined),
});
export type UiCandidateFilter = z.infer<typeof filterSchema>;

export function parseCandidateFilter(raw: unknown): UiCandidateFilter {
  return filterSchema.parse(filledFields(raw));
}

/** The filter of a list URL (the `back` field of the decide form), to show that list again. */
export function filterOfHref(href: string): UiCandidateFilter {
  const at = href.indexOf('?');
  return parseCandidateFilter(at < 0 ? {} : Object.fromEntries(new URLSearchParams(href.slice(at + 1))));
}

export function candidateFilterQuery(
  filter: UiCandidateFilter,
  overrides: { offset?: number; cursor?: string | undefined } = {},
): string {
  const merged = { ...filter, ...overrides };
  return query({
    country: merged.country,
    state: merged.state,
    verdict: merged.verdict,
    min_score: merged.min_score,
    sort: merged.sort,
    offset: merged.cursor === undefined ? merged.offset || undefined : undefined,
    cursor: merged.cursor,
  });
}

export function candidateFilterForm(f: UiCandidateFilter): Html {
  return html`<form method="get" action="/ui/candidates" class="filters" aria-label="Filters">
<label>Country <input name="country" value="${f.country ?? ''}" size="4" maxlength="4" placeholder="sg"></label>
${select('state', 'State', CANDIDATE_STATES, f.state)}
${select('verdict', 'News verdict', NEWS_VERDICTS, f.verdict)}
<label>Min score <input name="min_score" type="number" min="0" max="1" step="0.05" value="${f.min_score ?? ''}" size="5"></label>
<label>Sort <select name="sort">${CANDIDATE_SORTS.map(
    (s) => html`<option value="${s}"${s === f.sort ? html` selected` : ''}>${SORT_LABELS[s]}</option>`,
  )}</select></label>
<button type="submit">Filter</button> <a href="/ui/candidates">Clear</a>
</form>`;
}
