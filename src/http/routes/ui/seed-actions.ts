// The decisions a person makes on seeds from the page: promote or archive a selection or every seed a filter matches
// (answered per seed, or a batch past AT_ONCE_LIMIT), or move one seed (promote, suspend, re-activate, archive).
// Every POST here needs the write scope.
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ConflictError } from '../../../domain/errors.js';
import { AT_ONCE_LIMIT, type SeedAction } from '../../../domain/seed-actions.js';
import { isTargetStatus, type SeedStatus } from '../../../domain/seeds.js';
import type { SeedActionService } from '../../../services/seed-actions.js';
import type { SeedService } from '../../../services/seeds.js';
import { html, seedHref } from './html.js';
import { sendHtml } from './layout.js';
import { describeFilter, filterFields, matchingFilter, parseSeedFilter } from './seed-filter-form.js';
import { canDecide, safeNext } from './session.js';

export type Form = Record<string, string | string[] | undefined>;

export const formList = (value: string | string[] | undefined): string[] =>
  value === undefined ? [] : Array.isArray(value) ? value : [value];
export const formText = (value: string | string[] | undefined): string =>
  Array.isArray(value) ? (value[0] ?? '') : (value ?? '');

/** Refuses a person whose key cannot decide; true when the request may go on. */
export function mayDecide(request: FastifyRequest, reply: FastifyReply): boolean {
  if (canDecide(request.principal)) return true;
  const body = html`<p class="error" role="alert">This key lacks the write scope: it can look, not decide.</p>`;
  sendHtml(reply, { title: 'Not allowed', body }, 403);
  return false;
}

/** Revisions name who made them: the key's name, as the API does. */
export const authorOf = (request: FastifyRequest): string => request.principal?.name ?? 'anonymous';

interface Answer {
  seed_id: string;
  result: string;
  reason?: string;
}

/** The answer of a bulk action: a sentence, then one row per seed. */
function answerPage(summary: string, answers: Answer[], back: string) {
  return html`<p role="status">${summary}</p>
<div class="scroll"><table><caption>Answer per seed</caption><thead><tr><th>Seed</th><th>Result</th><th>Reason</th></tr></thead>
<tbody>${answers.map((a) => html`<tr><td><a href="${seedHref(a.seed_id)}">${a.seed_id}</a></td><td class="${a.result === 'skipped' ? 'bad' : ''}">${a.result}</td><td>${a.reason ?? ''}</td></tr>`)}</tbody></table></div>
<p><a href="${back}">Back to the list</a></p>`;
}

/**
 * Every seed the list's filter matches, through the same move by filter as POST /api/v1/seeds/promote and /archive:
 * answered per seed at once, or, past AT_ONCE_LIMIT, a batch whose progress page is the answer. Like the API, it
 * needs at least one filter. Promote takes the drafts; archive the seeds of the list's status (not archived ones).
 */
async function moveMatching(
  reply: FastifyReply,
  actions: SeedActionService,
  action: SeedAction,
  form: Form,
  context: { back: string; author: string; seeds: SeedService },
) {
  const parsed = parseSeedFilter(form);
  const base = matchingFilter(parsed);
  const none = Object.keys(base).length === 0 || (action === 'archive' && parsed.status === 'archived');
  if (none) {
    const body = html`<p class="error" role="alert">${action === 'promote' ? 'Promote' : 'Archive'} all matching needs a filter.</p><p><a href="${context.back}">Back to the list</a></p>`;
    return sendHtml(reply, { title: 'Result', current: 'seeds', body }, 400);
  }
  const filter = action === 'archive' ? { ...base, status: parsed.status } : base;
  // Archived is final (nothing leaves it): archiving every match is asked once more, with the count.
  if (action === 'archive' && formText(form.confirm) !== 'yes') {
    const { total } = (await context.seeds.list({ ...filter, limit: 1, offset: 0 })).pagination;
    const body = html`<p role="alert">Archive every one of the ${total} ${parsed.status} seeds matching ${describeFilter(parsed)}? Nothing leaves archived.</p>
<form method="post" action="/ui/seeds/bulk">${filterFields(parsed)}<input type="hidden" name="back" value="${context.back}"><input type="hidden" name="confirm" value="yes">
<button type="submit" name="action" value="archive-matching">Archive ${total} seeds</button> <a href="${context.back}">Cancel</a></form>`;
    return sendHtml(reply, { title: 'Archive all matching?', current: 'seeds', body });
  }
  const outcome = await actions.run(action, { filter }, { idempotencyKey: null, author: context.author });
  if (outcome.kind === 'batch') return reply.redirect(`/ui/batches/${outcome.batch.batchId}`, 303);
  const { answer } = outcome;
  const moved = action === 'promote' ? answer.promoted : answer.archived;
  const what = action === 'promote' ? 'drafts' : `${parsed.status} seeds`;
  const body = answerPage(
    `${action === 'promote' ? 'Promoted' : 'Archived'} ${moved} of ${answer.results.length} ${what} matching ${describeFilter(parsed)}.`,
    answer.results,
    context.back,
  );
  return sendHtml(reply, { title: 'Result', current: 'seeds', body });
}

/** One seed to a new status: a draft becomes active only through promote, as in the API. */
async function moveTo(seeds: SeedService, seedId: string, to: SeedStatus, author: string): Promise<Answer> {
  const seed = await seeds.get(seedId);
  if (seed.status === 'draft' && to === 'active') {
    const result = await seeds.promote({ seedIds: [seed.seed_id] });
    return result.results[0] as Answer;
  }
  await seeds.patch(seed.seed_id, { status: to }, author);
  return { seed_id: seed.seed_id, result: to };
}

export async function seedActionRoutes(
  app: FastifyInstance,
  deps: { seeds: SeedService; seedActions: SeedActionService },
) {
  const { seeds, seedActions } = deps;

  app.post('/bulk', { schema: { hide: true } }, async (request, reply) => {
    if (!mayDecide(request, reply)) return reply;
    const form = (request.body ?? {}) as Form;
    const ids = formList(form.seed).slice(0, AT_ONCE_LIMIT);
    const action = formText(form.action);
    const back = safeNext(formText(form.back));
    const context = { back, author: authorOf(request), seeds };
    if (action === 'promote-matching') return moveMatching(reply, seedActions, 'promote', form, context);
    if (action === 'archive-matching') return moveMatching(reply, seedActions, 'archive', form, context);
    let answers: Answer[] = [];
    if (ids.length > 0 && action === 'promote') answers = (await seeds.promote({ seedIds: ids })).results;
    else if (ids.length > 0 && action === 'archive') {
      // A selection (at most AT_ONCE_LIMIT ids) is answered at once, as POST /api/v1/seeds/archive {seedIds}.
      const outcome = await seedActions.run(
        'archive',
        { seedIds: ids },
        { idempotencyKey: null, author: context.author },
      );
      answers = outcome.kind === 'answer' ? outcome.answer.results : [];
    }
    const done = answers.filter((a) => a.result !== 'skipped').length;
    const body =
      ids.length === 0
        ? html`<p class="error" role="alert">No seed was selected.</p><p><a href="${back}">Back to the list</a></p>`
        : answerPage(
            `${action === 'archive' ? 'Archived' : 'Promoted'} ${done} of ${answers.length}.`,
            answers,
            back,
          );
    const status = ids.length === 0 || !['promote', 'archive'].includes(action) ? 400 : 200;
    return sendHtml(reply, { title: 'Result', current: 'seeds', body }, status);
  });

  app.post<{ Params: { seedId: string } }>(
    '/:seedId/status',
    { schema: { hide: true } },
    async (request, reply) => {
      if (!mayDecide(request, reply)) return reply;
      const to = formText((request.body as Form | undefined)?.to);
      if (!isTargetStatus(to)) {
        const body = html`<p class="error" role="alert">Unknown status ${to}.</p>`;
        return sendHtml(reply, { title: 'Bad request', body }, 400);
      }
      try {
        const answer = await moveTo(seeds, request.params.seedId, to, authorOf(request));
        const flash = answer.result === 'skipped' ? `skipped: ${answer.reason}` : answer.result;
        return reply.redirect(`${seedHref(answer.seed_id)}?done=${encodeURIComponent(flash)}`, 303);
      } catch (error) {
        // A conflict (illegal transition) is told on the seed's page; anything else is an error.
        if (!(error instanceof ConflictError)) throw error;
        return reply.redirect(
          `${seedHref(request.params.seedId)}?done=${encodeURIComponent(`refused: ${(error as Error).message}`)}`,
          303,
        );
      }
    },
  );
}
