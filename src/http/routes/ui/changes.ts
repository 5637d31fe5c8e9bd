// /ui/changes: what changed between two discovery runs of a domain ("feed removed", "GPTBot newly disallowed"),
// newest first, from the change service (the same events as GET /api/v1/changes), by domain, kind and since a day.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { dateSchema } from '../../../domain/identifiers.js';
import { CHANGE_KINDS } from '../../../engine/discovery-changes.js';
import type { ChangeService } from '../../../services/changes.js';
import { html, query } from './html.js';
import { sendHtml } from './layout.js';

const PAGE_SIZE = 25;
const changesQuery = z.object({
  domain: z
    .string()
    .trim()
    .toLowerCase()
    .regex(/^[a-z0-9.-]{1,253}$/)
    .optional()
    .catch(undefined),
  kind: z.enum(CHANGE_KINDS).optional().catch(undefined),
  /** A day (UTC): changes detected on it or after. */
  since: dateSchema.optional().catch(undefined),
  /** How many of the newest events to skip. */
  skip: z.coerce.number().int().min(0).max(10_000_000).catch(0).default(0),
});

export async function changeRoutes(app: FastifyInstance, deps: { changes: ChangeService }) {
  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const q = changesQuery.parse(request.query ?? {});
    const filter = {
      domain: q.domain,
      kind: q.kind,
      since: q.since ? `${q.since}T00:00:00.000Z` : undefined,
    };
    const keep = { domain: q.domain, kind: q.kind, since: q.since };
    // The service pages oldest first; the page shows the newest first.
    const total = (await deps.changes.list({ ...filter, limit: 1, offset: 0 })).pagination.total;
    const end = Math.max(0, total - q.skip);
    const offset = Math.max(0, end - PAGE_SIZE);
    const rows =
      end === 0 ? [] : (await deps.changes.list({ ...filter, limit: end - offset, offset })).data.reverse();
    const older = offset > 0 ? query({ ...keep, skip: q.skip + PAGE_SIZE }) : null;
    const newer = q.skip > 0 ? query({ ...keep, skip: Math.max(0, q.skip - PAGE_SIZE) }) : null;
    const shown = total === 0 ? '' : `, ${q.skip + 1}–${q.skip + rows.length} shown`;
    const body = html`<form method="get" action="/ui/changes" class="filters" aria-label="Filters">
<label>Domain <input name="domain" value="${q.domain ?? ''}" placeholder="mom.gov.sg"></label>
<label>Kind <select name="kind"><option value="">any</option>${CHANGE_KINDS.map((k) => html`<option value="${k}"${k === q.kind ? html` selected` : ''}>${k}</option>`)}</select></label>
<label>Since <input type="date" name="since" value="${q.since ?? ''}"></label>
<button type="submit">Filter</button> <a href="/ui/changes">Clear</a></form>
<p data-changes-total="${total}">${total} change${total === 1 ? '' : 's'}${q.domain ? ` for ${q.domain}` : ''}${q.kind ? ` of kind ${q.kind}` : ''}${q.since ? ` since ${q.since}` : ''}${shown}.</p>
<div class="scroll"><table><thead><tr><th>Detected</th><th>Domain</th><th>Kind</th><th>What changed</th><th>Batch</th></tr></thead>
<tbody>${rows.map(
      (
        c,
      ) => html`<tr><td><time datetime="${c.detected_at}">${c.detected_at.slice(0, 16).replace('T', ' ')}</time></td>
<td><a href="/ui/changes?domain=${encodeURIComponent(c.registrable_domain)}">${c.registrable_domain}</a></td><td><a href="/ui/changes?kind=${c.kind}">${c.kind}</a></td><td>${c.message}</td>
<td>${c.batch_id ? html`<a href="/ui/batches/${c.batch_id}">${c.batch_id.slice(0, 8)}</a>` : ''}</td></tr>`,
    )}</tbody></table></div>
<nav class="pager" aria-label="Pages">${newer !== null ? html`<a href="/ui/changes${newer}" rel="prev">Newer</a>` : ''} ${older !== null ? html`<a href="/ui/changes${older}" rel="next">Older</a>` : ''}</nav>`;
    return sendHtml(reply, { title: 'Changes', current: 'changes', body });
  });
}
