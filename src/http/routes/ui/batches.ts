// /ui/batches: batches with the live progress of running ones and
// their failed items. A running batch's progress block names its own URL; app.js re-reads it every few seconds.
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { BATCH_STATUSES, BATCH_TYPES, type BatchView } from '../../../domain/batches.js';
import { ValidationError } from '../../../domain/errors.js';
import type { BatchService } from '../../../services/batches.js';
import { type Html, html, query } from './html.js';
import { facts, filledFields, select, sendHtml } from './layout.js';

const PAGE_SIZE = 25;
const FAILED_SHOWN = 50;
const finished = (status: string) => status !== 'queued' && status !== 'running';
/** A day (UTC) of the date inputs; anything else drops that bound only. */
const day = z.iso.date().optional().catch(undefined);
const listQuery = z.object({
  type: z.enum(BATCH_TYPES).optional().catch(undefined),
  status: z.enum(BATCH_STATUSES).optional().catch(undefined),
  from: day,
  to: day,
  offset: z.coerce.number().int().min(0).max(10_000_000).catch(0).default(0),
  /** The list's `pagination.next`: Next pages by cursor, as fast deep as on the first page. */
  cursor: z.string().min(1).max(1024).optional().catch(undefined),
});
type ListQuery = z.infer<typeof listQuery>;

/** The GET form of the batch list: type, status and the days created (both included). */
function listForm(q: ListQuery): Html {
  return html`<form method="get" action="/ui/batches" class="filters" aria-label="Filters">
${select('type', 'Type', BATCH_TYPES, q.type)}
${select('status', 'Status', BATCH_STATUSES, q.status)}
<label>Created from <input type="date" name="from" value="${q.from ?? ''}"></label>
<label>to <input type="date" name="to" value="${q.to ?? ''}"></label>
<button type="submit">Filter</button> <a href="/ui/batches">Clear</a>
</form>`;
}

/** The progress block of one batch; while it runs it carries data-refresh, which app.js follows. */
export function progress(batch: BatchView): Html {
  const done = batch.items.succeeded + batch.items.failed + batch.items.skipped;
  const running = !finished(batch.status);
  return html`<section id="progress" aria-live="polite"${running ? html` data-refresh="/ui/batches/${batch.batchId}/progress"` : ''} data-batch-status="${batch.status}">
<p><strong>${batch.status}</strong> — ${done} of ${batch.total_items} items answered</p>
<progress max="${Math.max(1, batch.total_items)}" value="${done}">${done} / ${batch.total_items}</progress>
${facts([
  ['Succeeded', batch.items.succeeded],
  ['Failed', batch.items.failed],
  ['Skipped', batch.items.skipped],
  [
    'Chunks',
    `${batch.chunks.succeeded + batch.chunks.failed} of ${batch.chunks.total} done (${batch.chunks.running} running, ${batch.chunks.failed} failed)`,
  ],
])}
${running ? html`<p class="note">Updates by itself while the batch runs (<a href="/ui/batches/${batch.batchId}">reload</a>).</p>` : ''}
</section>`;
}

export async function batchRoutes(app: FastifyInstance, deps: { batches: BatchService }) {
  const { batches } = deps;

  /** A page of the list; a cursor that is not this list's (edited) is dropped, not an error page. */
  async function listPage(q: ListQuery) {
    const filter = {
      ...(q.type ? { type: q.type } : {}),
      ...(q.status ? { status: q.status } : {}),
      // Days are whole UTC days, both included, as the API's from/to.
      ...(q.from ? { createdFrom: `${q.from}T00:00:00.000Z` } : {}),
      ...(q.to ? { createdTo: `${q.to}T23:59:59.999Z` } : {}),
      limit: PAGE_SIZE,
    };
    // A cursor says where the page starts: beside it an offset is ignored.
    if (q.cursor === undefined) return { q, result: await batches.list({ ...filter, offset: q.offset }) };
    try {
      return {
        q: { ...q, offset: 0 },
        result: await batches.list({ ...filter, offset: 0, cursor: q.cursor }),
      };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      const first = { ...q, offset: 0, cursor: undefined };
      return { q: first, result: await batches.list({ ...filter, offset: 0 }) };
    }
  }

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const { q, result } = await listPage(listQuery.parse(filledFields(request.query)));
    const { total, next: after } = result.pagination;
    // Next carries the cursor; a page reached so is not counted from the top, so the way back is the first page.
    // A page by offset (an older link) keeps its Previous.
    const onCursor = q.cursor !== undefined;
    const next = after ? query({ ...q, offset: undefined, cursor: after }) : null;
    const prev = onCursor
      ? query({ ...q, offset: undefined, cursor: undefined })
      : q.offset > 0
        ? query({ ...q, offset: Math.max(0, q.offset - PAGE_SIZE) })
        : null;
    const body = html`${listForm(q)}<p data-batches-total="${total}">${total} batch${total === 1 ? '' : 'es'}${q.status ? ` ${q.status}` : ''}${q.type ? ` of type ${q.type}` : ''}${q.from ? ` from ${q.from}` : ''}${q.to ? ` to ${q.to}` : ''}. <a href="/ui/batches">All</a></p>
<div class="scroll"><table><thead><tr><th>Batch</th><th>Type</th><th>Status</th><th>Country / category</th><th>Items</th><th>Chunks done</th><th>Created</th></tr></thead>
<tbody>${result.data.map(
      (
        b,
      ) => html`<tr><td><a href="/ui/batches/${b.batchId}">${b.batchId.slice(0, 8)}</a></td><td>${b.type}</td><td class="${b.status === 'failed' || b.status === 'completed_with_errors' ? 'bad' : ''}">${b.status}</td>
<td>${b.country}${b.category ? ` / ${b.category}` : ''}</td><td>${b.total_items}</td><td>${b.chunks.succeeded + b.chunks.failed} / ${b.chunks.total}</td><td>${b.created_at.slice(0, 16).replace('T', ' ')}</td></tr>`,
    )}</tbody></table></div>
<nav class="pager" aria-label="Pages">${prev !== null ? (onCursor ? html`<a href="/ui/batches${prev}" rel="first">First page</a>` : html`<a href="/ui/batches${prev}" rel="prev">Previous</a>`) : ''} ${next !== null ? html`<a href="/ui/batches${next}" rel="next">Next</a>` : ''}</nav>`;
    return sendHtml(reply, { title: 'Batches', current: 'batches', body });
  });

  app.get<{ Params: { batchId: string } }>(
    '/:batchId/progress',
    { schema: { hide: true } },
    async (request, reply) => sendHtml(reply, progress(await batches.get(request.params.batchId))),
  );

  app.get<{ Params: { batchId: string } }>(
    '/:batchId',
    { schema: { hide: true } },
    async (request, reply) => {
      const batch = await batches.get(request.params.batchId);
      const failed = await batches.items(batch.batchId, { status: 'failed', limit: FAILED_SHOWN, offset: 0 });
      const body = html`${facts([
        ['Batch', html`<code>${batch.batchId}</code>`],
        ['Type', batch.type],
        ['Country / category', `${batch.country}${batch.category ? ` / ${batch.category}` : ''}`],
        ['Created', batch.created_at],
        ['Started', batch.started_at],
        ['Finished', batch.finished_at],
      ])}
${progress(batch)}
<section aria-labelledby="failed"><h2 id="failed">Failed items (${failed.pagination.total})</h2>${
        failed.data.length === 0
          ? html`<p>None.</p>`
          : html`<div class="scroll"><table><thead><tr><th>#</th><th>Input</th><th>Reason</th></tr></thead><tbody>${failed.data.map(
              (i) =>
                html`<tr><td>${i.item_index}</td><td><code>${typeof i.input === 'string' ? i.input : JSON.stringify(i.input)}</code></td><td>${i.reason ?? ''}</td></tr>`,
            )}</tbody></table></div>${failed.pagination.total > FAILED_SHOWN ? html`<p>The first ${FAILED_SHOWN} are shown; all are at <code>GET /api/v1/queues/batch/${batch.batchId}/items?status=failed</code>.</p>` : ''}`
      }</section>
${Object.keys(batch.summary).length > 0 ? html`<section><h2>Summary</h2><pre>${JSON.stringify(batch.summary, null, 2)}</pre></section>` : ''}`;
      return sendHtml(reply, { title: `Batch ${batch.batchId.slice(0, 8)}`, current: 'batches', body });
    },
  );
}
