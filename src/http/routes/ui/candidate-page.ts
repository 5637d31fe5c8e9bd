// /ui/candidates/:domain: one candidate with everything its qualification found and everyone who cites it, so a
// person can check each reason of the verdict and of the country guess before deciding on the list.
import type { FastifyInstance } from 'fastify';
import type { Candidate } from '../../../domain/candidates.js';
import type { CandidateService } from '../../../services/candidates/index.js';
import { citerLink } from './candidate-list.js';
import { type Html, html } from './html.js';
import { facts, sendHtml } from './layout.js';
import { newsCountrySection } from './seed-sections.js';

const yesNo = (v: boolean | null) => (v === true ? 'yes' : v === false ? 'no' : 'not checked');
const when = (iso: string | null) =>
  iso ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')}</time>` : null;
const section = (id: string, title: string, content: Html) =>
  html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${content}</section>`;

function qualificationSection(c: Candidate): Html {
  const languages = c.languages.map(
    (l) => `${l.code}${l.sources.length > 0 ? ` (${l.sources.join(', ')})` : ''}`,
  );
  return section(
    'qualification',
    'What its qualification found',
    facts([
      ['Checked', when(c.last_checked_at) ?? 'not yet: a discovery batch qualifies it'],
      ['Alive', yesNo(c.alive)],
      ['Robots allowed', yesNo(c.robots_allowed)],
      ['Feeds found', c.feeds_found ?? 'not checked'],
      [
        'Sitemap',
        c.sitemap === null
          ? 'not checked'
          : c.sitemap.exists
            ? c.sitemap.news
              ? 'yes, a news sitemap'
              : 'yes'
            : 'none',
      ],
      ['Languages', languages.join(', ') || 'none found'],
    ]),
  );
}

function citationsSection(c: Candidate): Html {
  const shown = c.cited_by.length;
  return section(
    'citations',
    `Cited by ${c.citations}`,
    shown === 0
      ? html`<p>No citation recorded.</p>`
      : html`<div class="scroll"><table><caption>${shown < c.citations ? `The first ${shown} of ${c.citations}, first seen first` : 'First seen first'}</caption>
<thead><tr><th>Citing source</th><th>Found in</th><th>Link</th><th>Anchor</th></tr></thead>
<tbody>${c.cited_by.map((x) => html`<tr data-citer="${x.seed_id}"><td>${citerLink(x.seed_id)}</td><td>${x.found_in}</td><td><a href="${x.url}" rel="noreferrer noopener">${x.url}</a></td><td>${x.anchor || '—'}</td></tr>`)}</tbody></table></div>`,
  );
}

function decisionSection(c: Candidate): Html {
  return section(
    'decision',
    'Decision',
    c.decided_at === null
      ? html`<p>Not decided: accept or reject it from <a href="/ui/candidates">the list</a>.</p>`
      : facts([
          ['State', c.state],
          ['Reject reason', c.reject_reason],
          ['Decided by', c.decided_by],
          ['Decided', when(c.decided_at)],
        ]),
  );
}

export async function candidatePageRoutes(app: FastifyInstance, deps: { candidates: CandidateService }) {
  app.get<{ Params: { domain: string } }>('/:domain', { schema: { hide: true } }, async (request, reply) => {
    const c = await deps.candidates.get(request.params.domain);
    const body = html`${facts([
      ['Domain', html`<code>${c.domain}</code>`],
      ['State', html`<strong data-state>${c.state}</strong>`],
      ['Country', c.country],
      ['First seen', when(c.first_seen_at)],
      ['Imported from', c.sources.length > 0 ? c.sources.join(', ') : null],
    ])}
${newsCountrySection(c.news, c.country_guess) ?? section('news-country', 'News and country', html`<p>Not qualified yet: no verdict and no country guess.</p>`)}
${qualificationSection(c)}
${citationsSection(c)}
${decisionSection(c)}
<p><a href="/ui/candidates">Back to the candidates</a></p>`;
    return sendHtml(reply, { title: c.domain, current: 'candidates', body });
  });
}
