// Accepting or rejecting a selection of candidates from /ui/candidates. The form becomes the API's request body and
// is checked with the API's own schemas (acceptRequestSchema, rejectRequestSchema), so a refusal shows the message
// the API would give beside the field; then the candidate service decides, one answer per domain.
import type { FastifyInstance } from 'fastify';
import type { z } from 'zod';
import { acceptRequestSchema, rejectRequestSchema } from '../../../domain/candidates.js';
import type { AcceptAnswer, CandidateService, RejectAnswer } from '../../../services/candidates/index.js';
import { filterOfHref } from './candidate-filter-form.js';
import { candidateListPage, type DecideState } from './candidate-list.js';
import { candidateHref, html, seedHref } from './html.js';
import { sendHtml } from './layout.js';
import { authorOf, type Form, formList, formText, mayDecide } from './seed-actions.js';
import { safeNext } from './session.js';

/** The API takes at most this many domains at once (domainList in domain/candidates.ts); more is its message. */
const FORM_DOMAINS = 1001;

/** The schema's messages by form field: `domains` is the selection's checkboxes, named `domain`. */
function messagesOf(error: z.ZodError): Record<string, string[]> {
  const errors: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const head = String(issue.path[0] ?? 'form');
    const field = head === 'domains' ? 'domain' : head;
    errors[field] = [...(errors[field] ?? []), issue.message];
  }
  return errors;
}

type Answer = AcceptAnswer | RejectAnswer;

/** One row per domain, as the API answers: the result, the draft seed made, and why one was skipped. */
function answerPage(summary: string, answers: Answer[], back: string) {
  return html`<p role="status">${summary}</p>
<div class="scroll"><table><caption>Answer per candidate</caption><thead><tr><th>Candidate</th><th>Result</th><th>Draft seed</th><th>Reason</th></tr></thead>
<tbody>${answers.map((a) => {
    const seedId = 'seed_id' in a ? a.seed_id : undefined;
    const reason = 'reason' in a ? a.reason : undefined;
    return html`<tr data-answer="${a.domain}"><td><a href="${candidateHref(a.domain)}">${a.domain}</a></td><td class="${a.result === 'skipped' ? 'bad' : ''}">${a.result}</td><td>${seedId ? html`<a href="${seedHref(seedId)}">${seedId}</a>` : ''}</td><td>${reason ?? ''}</td></tr>`;
  })}</tbody></table></div>
<p><a href="${back}">Back to the candidates</a></p>`;
}

export async function candidateActionRoutes(app: FastifyInstance, deps: { candidates: CandidateService }) {
  const { candidates } = deps;

  app.post('/decide', { schema: { hide: true } }, async (request, reply) => {
    if (!mayDecide(request, reply)) return reply;
    const form = (request.body ?? {}) as Form;
    const back = safeNext(formText(form.back));
    const action = formText(form.action);
    const domains = formList(form.domain).slice(0, FORM_DOMAINS);
    const values = {
      country: formText(form.country).trim(),
      category: formText(form.category).trim(),
      reason: formText(form.reason),
    };
    if (action !== 'accept' && action !== 'reject') {
      const body = html`<p class="error" role="alert">Choose Accept or Reject.</p><p><a href="${back}">Back to the candidates</a></p>`;
      return sendHtml(reply, { title: 'Bad request', current: 'candidates', body }, 400);
    }
    const by = authorOf(request);
    let summary: string;
    let answers: Answer[];
    let error: z.ZodError;
    if (action === 'accept') {
      // A blank field is "not given": the API then takes the candidate's country and the news category.
      const parsed = acceptRequestSchema.safeParse({
        domains,
        ...(values.country !== '' ? { country: values.country } : {}),
        ...(values.category !== '' ? { category: values.category } : {}),
      });
      if (parsed.success) {
        answers = (await candidates.accept(parsed.data, by)).results;
        summary = `Accepted ${answers.filter((a) => a.result === 'accepted').length} of ${answers.length}.`;
        return sendHtml(reply, {
          title: 'Result',
          current: 'candidates',
          body: answerPage(summary, answers, back),
        });
      }
      error = parsed.error;
    } else {
      const parsed = rejectRequestSchema.safeParse({ domains, reason: values.reason });
      if (parsed.success) {
        answers = (await candidates.reject(parsed.data, by)).results;
        summary = `Rejected ${answers.filter((a) => a.result === 'rejected').length} of ${answers.length}.`;
        return sendHtml(reply, {
          title: 'Result',
          current: 'candidates',
          body: answerPage(summary, answers, back),
        });
      }
      error = parsed.error;
    }
    // Refused: the same list again, the selection and the typing kept, the API's messages beside the fields.
    const state: DecideState = { selected: new Set(domains), values, errors: messagesOf(error) };
    const list = await candidateListPage(candidates, request.principal, filterOfHref(back), state);
    const body = html`<p class="error" role="alert">Nothing was ${action === 'accept' ? 'accepted' : 'rejected'}: see the messages below.</p>${list}`;
    return sendHtml(reply, { title: 'Candidates', current: 'candidates', body }, 400);
  });
}
