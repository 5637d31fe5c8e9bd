// /ui: a small dashboard of counts, each a link to the list it counts: seeds and batches by status, the drafts
// waiting for a person, the sources failing their latest check (health), candidates by state, the changes of the
// last 7 days, and what runs now.
import type { FastifyInstance } from 'fastify';
import { CANDIDATE_STATES } from '../../../domain/candidates.js';
import type { BatchService } from '../../../services/batches.js';
import type { CandidateService } from '../../../services/candidates/index.js';
import type { ChangeService } from '../../../services/changes.js';
import type { SeedService } from '../../../services/seeds.js';
import { type Html, html } from './html.js';
import { sendHtml } from './layout.js';

const DAY_MS = 24 * 3600 * 1000;

function counts(
  title: string,
  byStatus: Record<string, number>,
  link: (status: string) => string,
  none = 'None yet.',
  key = title.toLowerCase(),
): Html {
  const entries = Object.entries(byStatus);
  return html`<section class="card" data-dashboard="${key}"><h2>${title}</h2>${
    entries.length === 0
      ? html`<p>${none}</p>`
      : html`<ul class="counts">${entries.map(([status, n]) => html`<li><a href="${link(status)}"><strong>${n}</strong> ${status}</a></li>`)}</ul>`
  }</section>`;
}

export async function dashboardRoutes(
  app: FastifyInstance,
  deps: {
    batches: BatchService;
    seeds: SeedService;
    changes: ChangeService;
    candidates: CandidateService;
    clock: () => Date;
  },
) {
  const { batches, seeds, changes, candidates } = deps;

  app.get('/', { schema: { hide: true } }, async (_request, reply) => {
    // A week back from the start of today (UTC), so the link's `since` day and the count agree.
    const today = deps.clock().toISOString().slice(0, 10);
    const since = new Date(Date.parse(`${today}T00:00:00.000Z`) - 7 * DAY_MS).toISOString();
    const sinceDay = since.slice(0, 10);
    const [seedCounts, batchCounts, running, failing, recent, candidateCounts] = await Promise.all([
      seeds.countByStatus(),
      batches.countByStatus(),
      batches.list({ status: 'running', limit: 10, offset: 0 }),
      seeds.countFailing(),
      changes.list({ since, limit: 1, offset: 0 }),
      candidates.countByState(),
    ]);
    // In the states' own order (new, qualified, rejected, accepted), not the database's.
    const byState = Object.fromEntries(
      CANDIDATE_STATES.filter((s) => candidateCounts[s] !== undefined).map((s) => [
        s,
        candidateCounts[s] as number,
      ]),
    );
    const drafts = seedCounts.draft ?? 0;
    const changed = recent.pagination.total;
    const body = html`<div class="cards">
<section class="card" data-dashboard="drafts"><h2>Drafts waiting</h2><p><a href="/ui/seeds?status=draft"><strong>${drafts}</strong> to review</a></p></section>
${counts('Seeds', seedCounts, (status) => `/ui/seeds?status=${status}`)}
${counts(
  'Failing sources',
  failing,
  (status) => `/ui/seeds?status=${status}&health=failing`,
  'None: every checked source answered its latest check.',
  'failing',
)}
${counts(
  'Candidates',
  byState,
  (state) => `/ui/candidates?state=${state}`,
  'None yet: a discovery batch or an imported list finds them.',
)}
<section class="card" data-dashboard="changes"><h2>Changes, last 7 days</h2><p><a href="/ui/changes?since=${sinceDay}"><strong>${changed}</strong> since ${sinceDay}</a></p></section>
${counts('Batches', batchCounts, (status) => `/ui/batches?status=${status}`)}
</div>
<p class="note">A failing source is a seed whose latest check (a contract run or a re-check) did not reach it (health <code>failing</code>), counted by the seed's status.</p>
<section><h2>Running now</h2>${
      running.data.length === 0
        ? html`<p>No batch is running.</p>`
        : html`<ul>${running.data.map((b) => html`<li><a href="/ui/batches/${b.batchId}">${b.type} ${b.country}${b.category ? ` / ${b.category}` : ''}</a> — ${b.chunks.succeeded + b.chunks.failed} of ${b.chunks.total} chunks</li>`)}</ul>`
    }</section>
<p><a href="/ui/seeds">Review drafts</a></p>`;
    return sendHtml(reply, { title: 'Dashboard', current: 'dashboard', body });
  });
}
