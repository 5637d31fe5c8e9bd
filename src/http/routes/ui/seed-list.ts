// /ui/seeds: the seeds to review, filtered and paginated, and one action (promote or archive) on a selection, or on
// every seed the filter matches (a batch past AT_ONCE_LIMIT), answered per seed. Filters are the seed service's (seed-filter-form.ts).
import type { FastifyInstance } from 'fastify';
import { ValidationError } from '../../../domain/errors.js';
import { AT_ONCE_LIMIT } from '../../../domain/seed-actions.js';
import type { Seed } from '../../../domain/seed-record.js';
import type { SeedService } from '../../../services/seeds.js';
import { type Html, html, seedHref } from './html.js';
import { sendHtml } from './layout.js';
import {
  describeFilter,
  filterFields,
  filterForm,
  filterQuery,
  matchingFilter,
  parseSeedFilter,
  type UiSeedFilter,
} from './seed-filter-form.js';
import { canDecide } from './session.js';

const PAGE_SIZE = 25;

function row(seed: Seed, decide: boolean) {
  const robots = seed.policy.robots_allowed;
  const mainFeed = seed.feeds.some((feed) => feed.role === 'main');
  return html`<tr>
${decide ? html`<td><input type="checkbox" name="seed" value="${seed.seed_id}" aria-label="Select ${seed.registrable_domain}"></td>` : ''}
<td><a href="${seedHref(seed.seed_id)}">${seed.name ?? seed.registrable_domain}</a><br><small>${seed.seed_id}</small></td>
<td>${seed.country}</td><td>${seed.category}</td><td>${seed.source_type}</td><td>${seed.fetch.type}</td>
<td>${robots === undefined ? '—' : robots ? 'allowed' : html`<span class="bad">disallowed</span>`}</td>
<td>${mainFeed ? 'yes' : 'no'}</td>
<td>${seed.languages.map((l) => l.code).join(' ') || '—'}</td><td>${seed.policy.ai?.status ?? '—'}</td>
<td data-rate="${seed.freshness?.items_per_day ?? ''}">${freshnessCell(seed)}</td>
<td data-verdict="${seed.news?.verdict ?? ''}">${seed.news ? `${seed.news.verdict} ${seed.news.score.toFixed(2)}` : '—'}</td>
<td><time datetime="${seed.created_at}">${seed.created_at.slice(0, 16).replace('T', ' ')}</time></td>
<td>${seed.status}</td>
</tr>`;
}

/** Items a day, and "stale" when the newest item is old; a dash when never measured. */
function freshnessCell(seed: Seed): Html | string {
  const f = seed.freshness;
  if (!f) return '—';
  const rate = f.items_per_day === null ? 'no dated item' : `${f.items_per_day}/day`;
  return f.stale ? html`${rate} <span class="bad">stale</span>` : rate;
}

/**
 * Select-on-this-page actions, and promote or archive every seed the filter matches: counted here, done at once up
 * to AT_ONCE_LIMIT, a batch past it (the answer is then the batch's progress).
 */
function actions(filter: UiSeedFilter, total: number): Html {
  const filtered = Object.keys(matchingFilter(filter)).length > 0;
  const promotable = filter.status === 'draft';
  const archivable = filter.status !== 'archived';
  const promoteAll = promotable
    ? html`<button type="submit" name="action" value="promote-matching">Promote all ${total} matching drafts</button> `
    : '';
  const batchNote =
    total > AT_ONCE_LIMIT
      ? `; more than ${AT_ONCE_LIMIT}: it runs as a batch, whose progress is shown next`
      : '';
  const matching =
    total === 0 || !(promotable || archivable)
      ? ''
      : !filtered
        ? html`<p class="note">To promote or archive every seed a filter matches, filter first (as the API, promote and archive by filter need one).</p>`
        : html`<p class="matching">${filterFields(filter)}${promoteAll}<button type="submit" name="action" value="archive-matching">Archive all ${total} matching ${filter.status} seeds</button>
<span class="note">(${describeFilter(filter)}${batchNote}).</span></p>`;
  return html`<div class="actions"><span data-selected-count aria-live="polite"></span>
<button type="submit" name="action" value="promote">Promote selected</button>
<button type="submit" name="action" value="archive">Archive selected</button></div>${matching}`;
}

/** A cursor and an offset exclude each other: the cursor, which says where the page starts, wins. */
function pageable(filter: UiSeedFilter): UiSeedFilter {
  return filter.cursor !== undefined ? { ...filter, offset: 0 } : filter;
}

/** The page; a cursor that is not this list's (edited, or from another sort) is dropped, not an error page. */
async function listPage(seeds: SeedService, asked: UiSeedFilter) {
  try {
    return { filter: asked, result: await seeds.list({ ...asked, limit: PAGE_SIZE }) };
  } catch (error) {
    if (!(error instanceof ValidationError) || asked.cursor === undefined) throw error;
    const filter = { ...asked, cursor: undefined };
    return { filter, result: await seeds.list({ ...filter, limit: PAGE_SIZE }) };
  }
}

export async function seedListRoutes(app: FastifyInstance, deps: { seeds: SeedService }) {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const { filter, result } = await listPage(deps.seeds, pageable(parseSeedFilter(request.query)));
    const decide = canDecide(request.principal);
    const { total } = result.pagination;
    // Next pages by cursor, so a person paging deep costs what page 1 costs; an offset link still works, and
    // Previous steps back by offset on such a page (a page reached by cursor offers the first page instead).
    const prev =
      filter.cursor !== undefined
        ? filterQuery(filter, { cursor: undefined, offset: 0 })
        : filter.offset > 0
          ? filterQuery(filter, { offset: Math.max(0, filter.offset - PAGE_SIZE) })
          : null;
    const next =
      result.pagination.next != null
        ? filterQuery(filter, { offset: 0, cursor: result.pagination.next })
        : null;
    const shown =
      filter.cursor !== undefined
        ? html`, ${result.data.length} shown`
        : html`, ${filter.offset + 1}–${filter.offset + result.data.length} shown`;
    const table = html`<div class="scroll"><table>
<caption>${total} ${filter.status} seed${total === 1 ? '' : 's'}${total > 0 && result.data.length > 0 ? shown : ''}</caption>
<thead><tr>${decide ? html`<th><input type="checkbox" data-select-all aria-label="Select all on this page"></th>` : ''}
<th>Seed</th><th>Country</th><th>Category</th><th>Source type</th><th>Fetch</th><th>Robots</th><th>Main feed</th><th>Languages</th><th>AI policy</th><th>Publication</th><th>Verdict</th><th>Found</th><th>Status</th></tr></thead>
<tbody>${result.data.map((seed) => row(seed, decide))}</tbody></table></div>`;
    const decisions = decide
      ? actions(filter, total)
      : html`<p class="note">Read-only key: you can look, a key with the write scope can decide.</p>`;
    const pager = html`<nav class="pager" aria-label="Pages">${prev !== null ? (filter.cursor !== undefined ? html`<a href="/ui/seeds${prev}">First page</a>` : html`<a href="/ui/seeds${prev}" rel="prev">Previous</a>`) : ''} ${next !== null ? html`<a href="/ui/seeds${next}" rel="next">Next</a>` : ''}</nav>`;
    const body = html`${filterForm(filter)}
<form method="post" action="/ui/seeds/bulk" class="bulk">
<input type="hidden" name="back" value="/ui/seeds${filterQuery(filter)}">
${decisions}${table}</form>${pager}`;
    return sendHtml(reply, { title: 'Seeds', current: 'seeds', body });
  });
}
