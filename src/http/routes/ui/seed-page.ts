// /ui/seeds/:seedId: one seed with all its evidence, and the decisions a person can take on it.
import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../../domain/errors.js';
import { EVIDENCE_FILES, type EvidenceFile } from '../../../domain/keys.js';
import type { Seed } from '../../../domain/seed-record.js';
import { movesFrom, type SeedStatus } from '../../../domain/seeds.js';
import type { EvidenceService } from '../../../services/evidence.js';
import type { LivenessService, LivenessView } from '../../../services/liveness.js';
import type { SeedService } from '../../../services/seeds.js';
import { html, seedHref } from './html.js';
import { facts, sendHtml } from './layout.js';
import { loadEvidence } from './seed-evidence.js';
import { REVISIONS_SHOWN, revisionsSection } from './seed-revisions.js';
import {
  contractSection,
  feedSection,
  homepageSection,
  livenessSection,
  newsCountrySection,
  provenanceSection,
  robotsSection,
  sitemapSection,
  sourceFactsSection,
} from './seed-sections.js';
import { canDecide } from './session.js';

const HISTORY = 20;

/** What a move is called on its button: the state machine (domain/seeds.ts) says which moves there are. */
function moveLabel(from: SeedStatus, to: SeedStatus): string {
  if (to === 'active') return from === 'draft' ? 'Promote' : 'Re-activate';
  return to === 'archived' ? 'Archive' : to === 'suspended' ? 'Suspend' : to;
}

function actions(seed: Seed) {
  const moves = movesFrom(seed.status).map(
    (to) => html`<form method="post" action="${seedHref(seed.seed_id)}/status" class="inline">
<input type="hidden" name="to" value="${to}"><button type="submit">${moveLabel(seed.status, to)}</button></form>`,
  );
  return html`<div class="actions">${moves} <a class="button" href="${seedHref(seed.seed_id)}/edit">Edit contract</a></div>`;
}

async function livenessOf(liveness: LivenessService, seed: Seed): Promise<LivenessView[] | null> {
  try {
    return (await liveness.history(seed.registrable_domain, { limit: HISTORY, offset: 0 })).data;
  } catch (error) {
    if (error instanceof NotFoundError) return null;
    throw error;
  }
}

/** The newest revisions (the service pages oldest first). */
async function newestRevisions(seeds: SeedService, seedId: string) {
  const first = await seeds.revisions.list(seedId, { limit: 1, offset: 0 });
  const total = first.pagination.total;
  if (total <= 1) return first.data;
  const offset = Math.max(0, total - REVISIONS_SHOWN);
  return (await seeds.revisions.list(seedId, { limit: REVISIONS_SHOWN, offset })).data;
}

export async function seedPageRoutes(
  app: FastifyInstance,
  deps: { seeds: SeedService; evidence: EvidenceService; liveness: LivenessService },
) {
  const { seeds, evidence, liveness } = deps;

  app.get<{ Params: { seedId: string }; Querystring: { done?: string } }>(
    '/:seedId',
    { schema: { hide: true } },
    async (request, reply) => {
      const seed = await seeds.get(request.params.seedId);
      const [found, history, revisions] = await Promise.all([
        loadEvidence(evidence, seed),
        livenessOf(liveness, seed),
        newestRevisions(seeds, seed.seed_id),
      ]);
      const done = typeof request.query.done === 'string' ? request.query.done.slice(0, 500) : null;
      const body = html`${done ? html`<p class="flash" role="status">${done}</p>` : ''}
${facts([
  ['Seed', html`<code>${seed.seed_id}</code>`],
  ['Status', html`<strong data-status>${seed.status}</strong>`],
  ['Domain', seed.registrable_domain],
  ['Country', seed.country],
  ['Category', seed.category],
  ['Source type', seed.source_type],
  ['Authority', seed.domain_id.split(':')[0]],
])}
${canDecide(request.principal) ? actions(seed) : html`<p class="note">Read-only key: you can look, not decide.</p>`}
${revisionsSection(seed.seed_id, revisions, canDecide(request.principal)) ?? ''}
${contractSection(seed)}
${homepageSection(seed, found)}
${robotsSection(found.robots)}
${sitemapSection(seed)}
${feedSection(seed)}
${sourceFactsSection(seed) ?? ''}
${newsCountrySection(seed.news, seed.country_guess) ?? ''}
${livenessSection(history)}
${provenanceSection(seed, found)}`;
      return sendHtml(reply, { title: seed.name ?? seed.registrable_domain, current: 'seeds', body });
    },
  );

  app.get<{ Params: { seedId: string; name: string } }>(
    '/:seedId/evidence/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const name = request.params.name as EvidenceFile;
      if (!EVIDENCE_FILES.includes(name)) throw new NotFoundError(`no evidence file ${name}`);
      const file = await evidence.open(request.params.seedId, name);
      // Third-party content from our origin: never sniffed, never run (as on the API's evidence route).
      return reply
        .type(file.contentType)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(file.stream);
    },
  );
}
