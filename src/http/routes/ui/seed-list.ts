// /ui/seeds: the seeds to review, filtered and paginated, and one action (promote or archive) on a selection,
// answered per seed. Filters are the seed service's; unknown or malformed filter values are ignored, not a 400.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { AUTHORITIES, SOURCE_TYPES } from '../../../domain/domains.js';
import { categorySchema, countrySchema } from '../../../domain/identifiers.js';
import { FETCH_TYPES, SEED_STATUSES } from '../../../domain/seeds.js';
import type { SeedService, SeedView } from '../../../services/seeds.js';
import { html, query, seedHref } from './html.js';
import { page } from './layout.js';
import { canDecide } from './session.js';

const PAGE_SIZE = 25;
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
  sort: z.enum(['found', '-found']).optional().catch(undefined),
  offset: z.coerce.number().int().min(0).max(10_000_000).catch(0).default(0),
});
export type SeedFilter = z.infer<typeof filterSchema>;

export function parseSeedFilter(raw: unknown): SeedFilter {
  return filterSchema.parse(raw && typeof raw === 'object' ? raw : {});
}

/** The filter as query parameters (booleans back to words), for links that keep it. */
function filterQuery(filter: SeedFilter, overrides: Partial<Record<keyof SeedFilter, string | number>> = {}) {
  const entries = Object.entries({ ...filter, ...overrides }).map(([k, v]) => [
    k,
    v === undefined ? undefined : String(v),
  ]);
  return query(Object.fromEntries(entries));
}

function select(
  name: string,
  label: string,
  options: ReadonlyArray<string | readonly [string, string]>,
  value: string | undefined,
  any = 'any',
) {
  return html`<label>${label}
<select name="${name}"><option value="">${any}</option>${options.map((o) => {
    const [v, text] = typeof o === 'string' ? [o, o] : o;
    return html`<option value="${v}"${v === value ? html` selected` : ''}>${text}</option>`;
  })}</select></label>`;
}

function filterForm(f: SeedFilter) {
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
${select(
  'sort',
  'Sort',
  [
    ['-found', 'newest found first'],
    ['found', 'oldest found first'],
  ],
  f.sort,
  'by id',
)}
<button type="submit">Filter</button> <a href="/ui/seeds">Clear</a>
</form>`;
}

function row(seed: SeedView, decide: boolean) {
  const robots = seed.policy.robots_allowed;
  const mainFeed = seed.feeds.some((feed) => feed.role === 'main');
  return html`<tr>
${decide ? html`<td><input type="checkbox" name="seed" value="${seed.seed_id}" aria-label="Select ${seed.registrable_domain}"></td>` : ''}
<td><a href="${seedHref(seed.seed_id)}">${seed.name ?? seed.registrable_domain}</a><br><small>${seed.seed_id}</small></td>
<td>${seed.country}</td><td>${seed.category}</td><td>${seed.source_type}</td><td>${seed.fetch.type}</td>
<td>${robots === undefined ? '—' : robots ? 'allowed' : html`<span class="bad">disallowed</span>`}</td>
<td>${mainFeed ? 'yes' : 'no'}</td>
<td><time datetime="${seed.created_at}">${seed.created_at.slice(0, 16).replace('T', ' ')}</time></td>
<td>${seed.status}</td>
</tr>`;
}

export function seedListRoutes(app: FastifyInstance, deps: { seeds: SeedService }) {
  app.get('/ui/seeds', { schema: { hide: true } }, async (request, reply) => {
    const filter = parseSeedFilter(request.query);
    const result = await deps.seeds.list({ ...filter, limit: PAGE_SIZE });
    const decide = canDecide(request.principal);
    const { total } = result.pagination;
    const prev =
      filter.offset > 0 ? filterQuery(filter, { offset: Math.max(0, filter.offset - PAGE_SIZE) }) : null;
    const next =
      filter.offset + PAGE_SIZE < total ? filterQuery(filter, { offset: filter.offset + PAGE_SIZE }) : null;
    const table = html`<div class="scroll"><table>
<caption>${total} ${filter.status} seed${total === 1 ? '' : 's'}${total > 0 ? html`, ${filter.offset + 1}–${filter.offset + result.data.length} shown` : ''}</caption>
<thead><tr>${decide ? html`<th><input type="checkbox" data-select-all aria-label="Select all on this page"></th>` : ''}
<th>Seed</th><th>Country</th><th>Category</th><th>Source type</th><th>Fetch</th><th>Robots</th><th>Main feed</th><th>Found</th><th>Status</th></tr></thead>
<tbody>${result.data.map((seed) => row(seed, decide))}</tbody></table></div>`;
    const actions = decide
      ? html`<div class="actions"><span data-selected-count aria-live="polite"></span>
<button type="submit" name="action" value="promote">Promote selected</button>
<button type="submit" name="action" value="archive">Archive selected</button></div>`
      : html`<p class="note">Read-only key: you can look, a key with the write scope can decide.</p>`;
    const pager = html`<nav class="pager" aria-label="Pages">${prev !== null ? html`<a href="/ui/seeds${prev}" rel="prev">Previous</a>` : ''} ${next !== null ? html`<a href="/ui/seeds${next}" rel="next">Next</a>` : ''}</nav>`;
    const body = html`${filterForm(filter)}
<form method="post" action="/ui/seeds/bulk" class="bulk">
<input type="hidden" name="back" value="/ui/seeds${filterQuery(filter)}">
${actions}${table}</form>${pager}`;
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Seeds', principal: request.principal, current: 'seeds', body }));
  });
}
