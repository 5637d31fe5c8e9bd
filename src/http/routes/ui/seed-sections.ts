// The sections of one seed's page, each from one kind of evidence. Facts other branches add to the seed
// (freshness, languages, policy.ai, health, revisions) are shown when the seed carries them, and left out otherwise.

import type { CountryGuess, NewsVerdict } from '../../../domain/seed-facts.js';
import type { Seed } from '../../../domain/seed-record.js';
import type { LivenessView } from '../../../services/liveness.js';
import { type Html, html } from './html.js';
import { facts } from './layout.js';
import type { RobotsExcerpt, SeedEvidence } from './seed-evidence.js';

const when = (iso: unknown) =>
  typeof iso === 'string' ? html`<time datetime="${iso}">${iso.slice(0, 16).replace('T', ' ')}</time>` : null;
const yesNo = (v: unknown) => (v === true ? 'yes' : v === false ? 'no' : null);
const list = (items: unknown) =>
  Array.isArray(items) && items.length > 0
    ? html`<ul>${items.map((i) => html`<li>${String(i)}</li>`)}</ul>`
    : null;
const link = (url: unknown) =>
  typeof url === 'string' ? html`<a href="${url}" rel="noreferrer noopener">${url}</a>` : null;
const section = (id: string, title: string, content: Html) =>
  html`<section aria-labelledby="${id}"><h2 id="${id}">${title}</h2>${content}</section>`;

export function contractSection(seed: Seed): Html {
  const p = seed.policy;
  return section(
    'contract',
    `Contract (version ${seed.version})`,
    facts([
      ['Name', seed.name],
      ['Entry URL', link(seed.entry_url)],
      ['Fetch', html`${seed.fetch.type}${list(seed.fetch.urls) ?? ''}`],
      ['Schedule', seed.schedule ? html`<code>${seed.schedule}</code>` : 'none'],
      ['robots.txt', link(p.robots_url)],
      ['Robots allowed', yesNo(p.robots_allowed)],
      ['Crawl delay', typeof p.crawl_delay === 'number' ? `${p.crawl_delay} s` : null],
      ['Sitemaps in robots.txt', list(p.sitemap_urls)],
    ]),
  );
}

export function homepageSection(seed: Seed, evidence: SeedEvidence): Html {
  const d = seed.discovery;
  return section(
    'homepage',
    'Homepage',
    facts([
      ['Title', seed.name ?? 'none found'],
      ['Final URL', link(evidence.homepage?.final_url ?? null)],
      ['Status', evidence.homepage?.status_code ?? (d.http_status as number | undefined)],
      ['Alive', yesNo(d.alive)],
      ['Checked', when(d.checked_at)],
    ]),
  );
}

export function robotsSection(excerpt: RobotsExcerpt | null): Html {
  if (!excerpt) return section('robots', 'robots.txt', html`<p>No robots.txt is stored for this seed.</p>`);
  const verdict =
    excerpt.line === null ? 'no rule matched: allowed by default' : `line ${excerpt.line} decided`;
  return section(
    'robots',
    'robots.txt',
    html`<p>The entry URL is <strong class="${excerpt.allowed ? '' : 'bad'}">${excerpt.allowed ? 'allowed' : 'disallowed'}</strong> for SeedbedBot (${verdict}).</p>
<pre class="robots">${excerpt.lines.map((l) =>
      l.number === excerpt.line
        ? html`<mark data-deciding-line><span class="ln">${l.number}</span> ${l.text}</mark>\n`
        : html`<span class="ln">${l.number}</span> ${l.text}\n`,
    )}</pre>`,
  );
}

export function sitemapSection(seed: Seed): Html {
  const s = seed.sitemap;
  if (!s) return section('sitemaps', 'Sitemaps', html`<p>No sitemap was found.</p>`);
  return section(
    'sitemaps',
    'Sitemaps',
    html`<p>${s.url_count} distinct URLs${s.news ? ', with a news sitemap' : ''}${s.truncated ? html` — <span class="bad">reading cut short (${s.truncated_reason ?? 'limit'})</span>` : ''}.</p>
<div class="scroll"><table><thead><tr><th>Sitemap</th><th>From</th><th>Kind</th><th>URLs</th><th>News</th></tr></thead>
<tbody>${s.sitemaps.map((m) => html`<tr><td>${link(m.url)}</td><td>${m.source}</td><td>${m.kind}</td><td>${m.url_count}</td><td>${m.news ? 'yes' : ''}</td></tr>`)}</tbody></table></div>`,
  );
}

export function feedSection(seed: Seed): Html {
  if (seed.feeds.length === 0) return section('feeds', 'Feeds', html`<p>No feed was found.</p>`);
  return section(
    'feeds',
    'Feeds',
    html`<div class="scroll"><table><thead><tr><th>Role</th><th>Feed</th><th>Type</th><th>Items</th><th>Newest item</th></tr></thead>
<tbody>${seed.feeds.map((f) => html`<tr><td>${f.role}</td><td>${f.title ?? ''}<br>${link(f.url)}</td><td>${f.type}</td><td>${f.item_count ?? '—'}</td><td>${when(f.newest_item_at) ?? '—'}</td></tr>`)}</tbody></table></div>`,
  );
}

/** Freshness, languages, AI policy and health: shown when the seed carries them (docs/design.md §3). */
export function sourceFactsSection(seed: Seed): Html | null {
  const view = seed as unknown as Record<string, unknown>;
  const freshness = view.freshness as Record<string, unknown> | null | undefined;
  const languages = view.languages;
  const ai = seed.policy.ai as Record<string, unknown> | undefined;
  const health = view.health as Record<string, unknown> | null | undefined;
  if (!freshness && !languages && !ai && !health) return null;
  return section(
    'source-facts',
    'Freshness, languages, AI policy, health',
    facts([
      ['Newest item', when(freshness?.newest_item_at)],
      ['Items in the last 7 days', freshness?.items_last_7d as number | undefined],
      ['Items per day', freshness?.items_per_day as number | undefined],
      ['Languages', Array.isArray(languages) ? languages.map(languageText).join(', ') || 'none' : null],
      [
        'AI crawlers disallowed',
        Array.isArray(ai?.disallowed_agents) ? (ai.disallowed_agents as string[]).join(', ') || 'none' : null,
      ],
      [
        'AI crawlers allowed',
        Array.isArray(ai?.allowed_agents) ? (ai.allowed_agents as string[]).join(', ') || 'none' : null,
      ],
      ['TDM reservation', yesNo(ai?.tdm_reservation)],
      ['noai', yesNo(ai?.noai)],
      ['Health', health?.state as string | undefined],
      ['Consecutive failures', health?.consecutive_failures as number | undefined],
      ['Last checked', when(health?.last_checked_at)],
      ['Last reached', when(health?.last_ok_at)],
      ['Last error', health?.last_error as string | undefined],
      [
        'Suspended automatically',
        (health?.suspended as { reason?: string } | undefined)?.reason ?? undefined,
      ],
    ]),
  );
}

/** `fr (html_lang, feed)`: a language and where it was read. */
function languageText(language: unknown): string {
  const { code, sources } = (language ?? {}) as { code?: unknown; sources?: unknown };
  const from = Array.isArray(sources) && sources.length > 0 ? ` (${sources.join(', ')})` : '';
  return `${String(code ?? '?')}${from}`;
}

/** A reason's pull on the score, signed: +1.5 / −2. */
const signed = (weight: number) => (weight > 0 ? `+${weight}` : weight < 0 ? `−${-weight}` : '0');

/** Every reason of a verdict or a guess: what was looked at, its weight, and what a person can check. */
export function reasonsTable(
  caption: string,
  reasons: ReadonlyArray<{ signal: string; weight: number; evidence: string; country?: string | null }>,
): Html {
  if (reasons.length === 0) return html`<p>${caption}: no reason recorded.</p>`;
  const withCountry = reasons.some((r) => r.country !== undefined);
  return html`<div class="scroll"><table><caption>${caption}</caption>
<thead><tr><th>Signal</th>${withCountry ? html`<th>Country</th>` : ''}<th>Weight</th><th>Evidence</th></tr></thead>
<tbody>${reasons.map((r) => html`<tr data-signal="${r.signal}"><td><code>${r.signal}</code></td>${withCountry ? html`<td>${r.country ?? '—'}</td>` : ''}<td>${signed(r.weight)}</td><td>${r.evidence}</td></tr>`)}</tbody></table></div>`;
}

/**
 * The news verdict and the country guess (docs/discovery.md), each with its reasons; null when discovery has
 * judged neither (a seed made by hand, or before the judging existed).
 */
export function newsCountrySection(news: NewsVerdict | null, guess: CountryGuess | null): Html | null {
  if (!news && !guess) return null;
  return section(
    'news-country',
    'News and country',
    html`${facts([
      ['News verdict', news ? html`<strong data-verdict>${news.verdict}</strong>` : 'not judged'],
      ['Score', news ? news.score.toFixed(2) : null],
      ['Country guess', guess ? html`<strong data-country-guess>${guess.code}</strong>` : 'none'],
      ['Confidence', guess ? guess.confidence.toFixed(2) : null],
    ])}${news ? reasonsTable('Why this verdict', news.reasons) : ''}${
      guess ? reasonsTable('Why this country', guess.reasons) : ''
    }`,
  );
}

export function livenessSection(history: LivenessView[] | null): Html {
  if (!history || history.length === 0)
    return section('liveness', 'Liveness history', html`<p>Never checked.</p>`);
  return section(
    'liveness',
    'Liveness history',
    html`<div class="scroll"><table><thead><tr><th>Checked</th><th>State</th><th>HTTP</th><th>Final URL</th><th>Error</th><th>Batch</th></tr></thead>
<tbody>${history.map((l) => html`<tr><td>${when(l.checked_at)}</td><td class="${l.alive ? '' : 'bad'}">${l.state}</td><td>${l.http_status ?? ''}</td><td>${l.final_url ?? ''}</td><td>${l.error_code ?? ''}</td><td>${l.batch_id ? html`<a href="/ui/batches/${l.batch_id}">${l.batch_id.slice(0, 8)}</a>` : ''}</td></tr>`)}</tbody></table></div>`,
  );
}

export function provenanceSection(seed: Seed, evidence: SeedEvidence): Html {
  const p = seed.provenance;
  const batchId = (p.batch_id as string | undefined) ?? evidence.source?.batch_id;
  const rawFile = (p.source_file as string | undefined) ?? evidence.source?.raw_file_path;
  return section(
    'provenance',
    'Where it came from',
    html`${facts([
      ['Source', p.source as string | undefined],
      ['Batch', batchId ? html`<a href="/ui/batches/${batchId}">${batchId}</a>` : null],
      ['Raw file', rawFile],
      ['Discovery date', p.date as string | undefined],
      ['Found', when(seed.created_at)],
      ['Updated', when(seed.updated_at)],
      ['Promoted', when(seed.promoted_at)],
    ])}${
      evidence.files.length > 0
        ? html`<p>Evidence files: ${evidence.files.map((f) => html`<a href="/ui/seeds/${encodeURIComponent(seed.seed_id)}/evidence/${f.name}">${f.name}</a> (${f.bytes} bytes) `)}</p>`
        : ''
    }`,
  );
}
