// /ui/changes: what changed between two discovery runs of a domain ("feed removed", "GPTBot newly disallowed"),
// newest first, from the change service (the same events as GET /api/v1/changes), by domain, kind and since a day.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { ValidationError } from '../../../domain/errors.js';
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
  /** How many of the newest events to skip (a link from before the cursor; Older carries a cursor). */
  skip: z.coerce.number().int().min(0).max(10_000_000).catch(0).default(0),
  /** The list's `pagination.next`: Older pages by cursor, as fast deep as on the first page. */
  cursor: z.string().min(1).max(1024).optional().catch(undefined),
});
type ChangesQuery = z.infer<typeof changesQuery>;

export async function changeRoutes(app: FastifyInstance, deps: { changes: ChangeService }) {
  /** A page, newest first; a cursor that is not this list's (edited) is dropped, not an error page. */
  async function listPage(q: ChangesQuery) {
    const filter = {
      ...(q.domain ? { domain: q.domain } : {}),
      ...(q.kind ? { kind: q.kind } : {}),
      ...(q.since ? { since: `${q.since}T00:00:00.000Z` } : {}),
      newestFirst: true,
      limit: PAGE_SIZE,
    };
    // A cursor says where the page starts: beside it a skip is ignored.
    if (q.cursor === undefined) return { q, result: await deps.changes.list({ ...filter, offset: q.skip }) };
    try {
      return {
        q: { ...q, skip: 0 },
        result: await deps.changes.list({ ...filter, offset: 0, cursor: q.cursor }),
      };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return {
        q: { ...q, skip: 0, cursor: undefined },
        result: await deps.changes.list({ ...filter, offset: 0 }),
      };
    }
  }

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const { q, result } = await listPage(changesQuery.parse(request.query ?? {}));
    const rows = result.data;
    const { total, next: after } = result.pagination;
    const keep = { domain: q.domain, kind: q.kind, since: q.since };
    // Older carries the cursor; a page reached so is not counted from the top, so the way back is the newest page.
    // A page by skip (an older link) keeps its Newer and its place.
    const onCursor = q.cursor !== undefined;
    const older = after ? query({ ...keep, cursor: after }) : null;
    const newer = onCursor
      ? query(keep)
      : q.skip > 0
        ? query({ ...keep, skip: Math.max(0, q.skip - PAGE_SIZE) })
        : null;
    const shown = total === 0 || onCursor ? '' : `, ${q.skip + 1}–${q.skip + rows.length} shown`;
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
<nav class="pager" aria-label="Pages">${newer !== null ? (onCursor ? html`<a href="/ui/changes${newer}" rel="first">Newest</a>` : html`<a href="/ui/changes${newer}" rel="prev">Newer</a>`) : ''} ${older !== null ? html`<a href="/ui/changes${older}" rel="next">Older</a>` : ''}</nav>`;
    return sendHtml(reply, { title: 'Changes', current: 'changes', body });
  });
}
