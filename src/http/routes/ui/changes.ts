// /ui/changes: what changed between two discovery runs of a domain ("feed removed", "GPTBot newly disallowed"),
// newest first, from the change service (the same events as GET /api/v1/changes).
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ChangeService } from '../../../services/changes.js';
import { html, query } from './html.js';
import { page } from './layout.js';

const PAGE_SIZE = 25;
const changesQuery = z.object({
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]{1,253}$/)
    .optional()
    .catch(undefined),
  /** How many of the newest events to skip. */
  skip: z.coerce.number().int().min(0).max(10_000_000).catch(0).default(0),
});

export function changeRoutes(app: FastifyInstance, deps: { changes: ChangeService }) {
  app.get('/ui/changes', { schema: { hide: true } }, async (request, reply) => {
    const q = changesQuery.parse(request.query ?? {});
    // The service pages oldest first; the page shows the newest first.
    const total = (await deps.changes.list({ domain: q.domain, limit: 1, offset: 0 })).pagination.total;
    const end = Math.max(0, total - q.skip);
    const offset = Math.max(0, end - PAGE_SIZE);
    const rows =
      end === 0
        ? []
        : (await deps.changes.list({ domain: q.domain, limit: end - offset, offset })).data.reverse();
    const older = offset > 0 ? query({ domain: q.domain, skip: q.skip + PAGE_SIZE }) : null;
    const newer = q.skip > 0 ? query({ domain: q.domain, skip: Math.max(0, q.skip - PAGE_SIZE) }) : null;
    const body = html`<form method="get" action="/ui/changes" class="filters" aria-label="Filters">
<label>Domain <input name="domain" value="${q.domain ?? ''}" placeholder="mom.gov.sg"></label>
<button type="submit">Filter</button> <a href="/ui/changes">Clear</a></form>
<p>${total} change${total === 1 ? '' : 's'}${q.domain ? ` for ${q.domain}` : ''}.</p>
<div class="scroll"><table><thead><tr><th>Detected</th><th>Domain</th><th>Kind</th><th>What changed</th><th>Batch</th></tr></thead>
<tbody>${rows.map(
      (
        c,
      ) => html`<tr><td><time datetime="${c.detected_at}">${c.detected_at.slice(0, 16).replace('T', ' ')}</time></td>
<td><a href="/ui/changes?domain=${encodeURIComponent(c.registrable_domain)}">${c.registrable_domain}</a></td><td>${c.kind}</td><td>${c.message}</td>
<td>${c.batch_id ? html`<a href="/ui/batches/${c.batch_id}">${c.batch_id.slice(0, 8)}</a>` : ''}</td></tr>`,
    )}</tbody></table></div>
<nav class="pager" aria-label="Pages">${newer !== null ? html`<a href="/ui/changes${newer}" rel="prev">Newer</a>` : ''} ${older !== null ? html`<a href="/ui/changes${older}" rel="next">Older</a>` : ''}</nav>`;
    return reply
      .type('text/html; charset=utf-8')
      .send(page({ title: 'Changes', principal: request.principal, current: 'changes', body }));
  });
}
