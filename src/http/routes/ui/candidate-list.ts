// /ui/candidates: the sites discovery found (or a person imported) that are not seeds, ranked by score, filtered as
// the API's list is; a key with the write scope selects many and accepts or rejects them in one form. The decide
// form is drawn again with the API's validation messages when it was refused (candidate-actions.ts).
import type { FastifyInstance } from 'fastify';
import { type Candidate, candidateCiter, importCiter } from '../../../domain/candidates.js';
import { ValidationError } from '../../../domain/errors.js';
import type { Principal } from '../../../services/api-keys.js';
import type { CandidateService } from '../../../services/candidates/index.js';
import {
  candidateFilterForm,
  candidateFilterQuery,
  parseCandidateFilter,
  type UiCandidateFilter,
} from './candidate-filter-form.js';
import { candidateHref, type Html, html, seedHref } from './html.js';
import { sendHtml } from './layout.js';
import { canDecide } from './session.js';

const PAGE_SIZE = 25;
/** A row shows the strongest few reasons and citers; the candidate's page shows them all. */
const REASONS_SHOWN = 3;
const CITERS_SHOWN = 3;

const CANDIDATE_PREFIX = candidateCiter('');
const IMPORT_PREFIX = importCiter('');

/** What the decide form was sent with and what the API's schemas said of it, so a refusal keeps the typing. */
export interface DecideState {
  selected: ReadonlySet<string>;
  values: { country: string; category: string; reason: string };
  /** Messages by form field: domain (the selection), country, category, reason. */
  errors: Record<string, string[]>;
}

const FRESH_FORM: DecideState = {
  selected: new Set(),
  values: { country: '', category: 'news', reason: '' },
  errors: {},
};

/** Who cites a candidate: a seed (linked to its page), a qualified candidate (its page) or an imported list. */
export function citerLink(id: string): Html {
  if (id.startsWith(IMPORT_PREFIX)) return html`list <q>${id.slice(IMPORT_PREFIX.length)}</q>`;
  if (id.startsWith(CANDIDATE_PREFIX)) {
    const domain = id.slice(CANDIDATE_PREFIX.length);
    return html`candidate <a href="${candidateHref(domain)}">${domain}</a>`;
  }
  return html`<a href="${seedHref(id)}">${id}</a>`;
}

/** The reasons that pulled hardest, either way. A decisive reason (weight −∞) is stored as null by JSON. */
function strongest(candidate: Candidate) {
  const pull = (weight: number | null) => (typeof weight === 'number' ? Math.abs(weight) : Infinity);
  return [...(candidate.news?.reasons ?? [])]
    .sort((a, b) => pull(b.weight) - pull(a.weight))
    .slice(0, REASONS_SHOWN);
}

function row(c: Candidate, state: DecideState | null): Html {
  const box = state
    ? html`<td><input type="checkbox" name="domain" value="${c.domain}" aria-label="Select ${c.domain}"${state.selected.has(c.domain) ? html` checked` : ''}></td>`
    : '';
  const reasons = strongest(c);
  const citers = c.cited_by.slice(0, CITERS_SHOWN);
  const more = c.citations - citers.length;
  return html`<tr data-domain="${c.domain}">${box}
<td><a href="${candidateHref(c.domain)}">${c.domain}</a></td>
<td data-verdict="${c.news?.verdict ?? ''}">${c.news ? html`${c.news.verdict}<br><small>${c.news.score.toFixed(2)}</small>` : html`<small>not checked</small>`}</td>
<td>${reasons.length > 0 ? html`<ul class="tight">${reasons.map((r) => html`<li><code>${r.signal}</code> ${r.evidence}</li>`)}</ul>` : '—'}</td>
<td>${citers.length > 0 ? html`<ul class="tight">${citers.map((x) => html`<li>${citerLink(x.seed_id)} <small>${x.found_in}</small></li>`)}</ul>` : '—'}${more > 0 ? html`<small>and ${more} more</small>` : ''}</td>
<td data-citations>${c.citations}</td>
<td>${c.country}${c.country_guess ? html`<br><small>guess ${c.country_guess.code} ${c.country_guess.confidence.toFixed(2)}</small>` : ''}</td>
<td>${c.languages.map((l) => l.code).join(' ') || '—'}</td>
<td data-state>${c.state}</td>
</tr>`;
}

/** A text field of the decide form, with the API's messages beside it when it was refused. */
function field(name: 'country' | 'category' | 'reason', label: string, state: DecideState, extra: Html) {
  const id = `d-${name}`;
  const messages = state.errors[name] ?? [];
  const invalid = messages.length > 0 ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';
  return html`<label for="${id}">${label}</label> <input id="${id}" name="${name}" value="${state.values[name]}"${extra}${invalid}>${
    messages.length > 0 ? html` <span class="field-error" id="${id}-error">${messages.join('; ')}</span>` : ''
  }`;
}

/** Accept (country override, category) and reject (a reason, which the API requires) for the selection. */
function decideControls(state: DecideState): Html {
  const selection = state.errors.domain ?? [];
  return html`<div class="actions"><span data-selected-count="domain" aria-live="polite"></span>${
    selection.length > 0
      ? html` <span class="field-error" id="d-domain-error" role="alert">Selection: ${selection.join('; ')}</span>`
      : ''
  }</div>
<div class="decide">${
    // Enter in a text field submits with the form's first button: this disabled one makes Enter do nothing, so a
    // reason typed for Reject is never sent as an Accept; each decision takes its own button.
    html`<button type="submit" disabled hidden>No default action</button>`
  }
<fieldset><legend>Accept: a draft seed for each</legend>
${field('country', 'Country (blank: the candidate’s)', state, html` size="5" maxlength="4" placeholder="sg"`)}
${field('category', 'Category', state, html` size="10"`)}
<button type="submit" name="action" value="accept">Accept selected</button></fieldset>
<fieldset><legend>Reject: never proposed again</legend>
${field('reason', 'Reason (required)', state, html` size="30" maxlength="500"`)}
<button type="submit" name="action" value="reject">Reject selected</button></fieldset>
</div>`;
}

/** The list page, for a principal; `state` is the refused decide form when there is one. */
export async function candidateListPage(
  candidates: CandidateService,
  principal: Principal | null,
  filter: UiCandidateFilter,
  state: DecideState = FRESH_FORM,
): Promise<Html> {
  const { offset, cursor, ...select } = filter;
  const result = await pageFrom(candidates, { ...select, offset, limit: PAGE_SIZE }, cursor);
  const decide = canDecide(principal) ? state : null;
  const { total, next: after } = result.pagination;
  // Next carries the list's cursor (an index seek however deep); a page reached so is not counted from the top, so
  // the way back is the first page. A page by offset (an older link) keeps its Previous.
  const onCursor = 'cursor' in result;
  const prev = onCursor
    ? candidateFilterQuery(filter, { offset: 0, cursor: undefined })
    : offset > 0
      ? candidateFilterQuery(filter, { offset: Math.max(0, offset - PAGE_SIZE) })
      : null;
  const next = after ? candidateFilterQuery(filter, { cursor: after }) : null;
  const shown = onCursor
    ? html`, ${result.data.length} shown from here`
    : html`, ${offset + 1}–${offset + result.data.length} shown`;
  const table = html`<div class="scroll"><table data-candidates-total="${total}">
<caption>${total} candidate${total === 1 ? '' : 's'}${result.data.length > 0 ? shown : ''}</caption>
<thead><tr>${decide ? html`<th><input type="checkbox" data-select-all="domain" aria-label="Select all on this page"></th>` : ''}
<th>Domain</th><th>Verdict</th><th>Top reasons</th><th>Cited by</th><th>Citations</th><th>Country</th><th>Languages</th><th>State</th></tr></thead>
<tbody>${result.data.map((c) => row(c, decide))}</tbody></table></div>`;
  const pager = html`<nav class="pager" aria-label="Pages">${prev !== null ? (onCursor ? html`<a href="/ui/candidates${prev}" rel="first">First page</a>` : html`<a href="/ui/candidates${prev}" rel="prev">Previous</a>`) : ''} ${next !== null ? html`<a href="/ui/candidates${next}" rel="next">Next</a>` : ''}</nav>`;
  const body = decide
    ? html`<form method="post" action="/ui/candidates/decide" class="bulk">
<input type="hidden" name="back" value="/ui/candidates${candidateFilterQuery(filter)}">
${decideControls(decide)}${table}</form>`
    : html`<p class="note">Read-only key: you can look, a key with the write scope can decide.</p>${table}`;
  return html`${candidateFilterForm(filter)}${body}${pager}`;
}

/**
 * A page of the list, from the cursor when the link carried one. A cursor the list refuses (edited by hand, or from
 * another order) shows the first page rather than an error: the filters above still say what is listed.
 */
async function pageFrom(
  candidates: CandidateService,
  request: Parameters<CandidateService['list']>[0],
  cursor: string | undefined,
): Promise<Awaited<ReturnType<CandidateService['list']>> & { cursor?: true }> {
  if (cursor === undefined) return candidates.list(request);
  try {
    return { ...(await candidates.list({ ...request, offset: 0, cursor })), cursor: true };
  } catch (error) {
    if (error instanceof ValidationError) return candidates.list({ ...request, offset: 0 });
    throw error;
  }
}

export async function candidateListRoutes(app: FastifyInstance, deps: { candidates: CandidateService }) {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const filter = parseCandidateFilter(request.query);
    const body = await candidateListPage(deps.candidates, request.principal, filter);
    return sendHtml(reply, { title: 'Candidates', current: 'candidates', body });
  });
}
