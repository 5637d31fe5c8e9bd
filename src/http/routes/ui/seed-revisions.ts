// A seed's revisions as readable diffs (number, author, time, each changed field before and after), and the
// accept / reject of a proposed one through the seed revision service (as POST /seeds/:id/revisions/:n/…).
import type { FastifyInstance } from 'fastify';
import { ConflictError } from '../../../domain/errors.js';
import type { RevisionView, SeedRevisionService } from '../../../services/seed-revisions.js';
import { type Html, html, seedHref } from './html.js';
import { authorOf, mayDecide } from './seed-actions.js';

/** The newest revisions shown; the full list is GET /api/v1/seeds/:id/revisions. */
export const REVISIONS_SHOWN = 50;

export type RevisionLike = Pick<RevisionView, 'number' | 'status' | 'author' | 'created_at' | 'changes'>;

const show = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value, null, 1));

export function revisionDiff(revision: Pick<RevisionView, 'changes'>): Html {
  const fields = Object.entries(revision.changes) as Array<[string, { before: unknown; after: unknown }]>;
  return html`<div class="scroll"><table class="diff"><thead><tr><th>Field</th><th>Before</th><th>After</th></tr></thead><tbody>${fields.map(
    ([field, change]) =>
      html`<tr><th scope="row">${field}</th><td><del>${show(change.before)}</del></td><td><ins>${show(change.after)}</ins></td></tr>`,
  )}</tbody></table></div>`;
}

/** The revisions section, proposals first; accept / reject offered when the key can decide. */
export function revisionsSection(seedId: string, revisions: RevisionLike[], decide: boolean): Html | null {
  if (revisions.length === 0) return null;
  const ordered = [...revisions].sort(
    (a, b) => Number(b.status === 'proposed') - Number(a.status === 'proposed') || b.number - a.number,
  );
  const items = ordered.map((r) => {
    const proposed = r.status === 'proposed';
    const base = `${seedHref(seedId)}/revisions/${r.number}`;
    const actions =
      proposed && decide
        ? html`<div class="actions"><form method="post" action="${base}/accept" class="inline"><button type="submit">Accept revision ${r.number}</button></form>
<form method="post" action="${base}/reject" class="inline"><button type="submit">Reject revision ${r.number}</button></form></div>`
        : '';
    return html`<article class="${proposed ? 'proposed' : ''}" data-revision="${r.number}" data-revision-status="${r.status}"><h3>Revision ${r.number} (${r.status})</h3>
<p>${r.author}, <time datetime="${r.created_at}">${r.created_at.slice(0, 16).replace('T', ' ')}</time></p>${revisionDiff(r)}${actions}</article>`;
  });
  return html`<section aria-labelledby="revisions"><h2 id="revisions">Revisions</h2>${items}</section>`;
}

export async function revisionRoutes(app: FastifyInstance, deps: { revisions: SeedRevisionService }) {
  for (const decision of ['accept', 'reject'] as const) {
    app.post<{ Params: { seedId: string; n: string } }>(
      `/:seedId/revisions/:n/${decision}`,
      { schema: { hide: true } },
      async (request, reply) => {
        if (!mayDecide(request, reply)) return reply;
        const { seedId } = request.params;
        const number = /^\d{1,9}$/.test(request.params.n) ? Number(request.params.n) : 0;
        let flash: string;
        try {
          const settled = await deps.revisions[decision](seedId, number, authorOf(request));
          flash = `revision ${number} ${settled.status}`;
        } catch (error) {
          // Settled meanwhile, or the seed moved on: told on the seed's page.
          if (!(error instanceof ConflictError)) throw error;
          flash = `refused: ${error.message}`;
        }
        return reply.redirect(`${seedHref(seedId)}?done=${encodeURIComponent(flash)}#revisions`, 303);
      },
    );
  }
}
