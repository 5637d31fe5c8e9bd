// Editing a seed's contract fields in a form. The form is turned into the API's PATCH body and checked with
// the API's own schema (seedPatchSchema), so the messages beside each field are the ones the API would give.
import { isDeepStrictEqual } from 'node:util';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { ConflictError } from '../../../domain/errors.js';
import type { Seed } from '../../../domain/seed-record.js';
import { FETCH_TYPES, type SeedPatch, seedPatchSchema } from '../../../domain/seeds.js';
import type { SeedService } from '../../../services/seeds.js';
import { type Html, html, seedHref } from './html.js';
import { sendHtml } from './layout.js';
import { authorOf, type Form, formText, mayDecide } from './seed-actions.js';

/**
 * The form's fields, each with the field of the PATCH body (seedPatchSchema) it edits: a field the seed's patch
 * schema loses does not compile here.
 */
const EDITS = {
  name: 'name',
  entry_url: 'entry_url',
  fetch_type: 'fetch',
  fetch_urls: 'fetch',
  schedule: 'schedule',
  robots_url: 'policy',
  robots_allowed: 'policy',
  crawl_delay: 'policy',
  sitemap_urls: 'policy',
} as const satisfies Record<string, keyof SeedPatch>;
const FIELDS = Object.keys(EDITS) as Array<keyof typeof EDITS>;

/** The form's fields, as text. */
export type EditValues = Record<keyof typeof EDITS, string>;

const lines = (text: string) =>
  text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');

export function valuesOf(seed: Seed): EditValues {
  const p = seed.policy;
  return {
    name: seed.name ?? '',
    entry_url: seed.entry_url ?? '',
    fetch_type: seed.fetch.type,
    fetch_urls: seed.fetch.urls.join('\n'),
    schedule: seed.schedule ?? '',
    robots_url: typeof p.robots_url === 'string' ? p.robots_url : '',
    robots_allowed: typeof p.robots_allowed === 'boolean' ? String(p.robots_allowed) : '',
    crawl_delay: typeof p.crawl_delay === 'number' ? String(p.crawl_delay) : '',
    sitemap_urls: Array.isArray(p.sitemap_urls) ? p.sitemap_urls.join('\n') : '',
  };
}

/** The PATCH body the form asks for: only what differs from the seed, so an unchanged form changes nothing. */
export function patchOf(seed: Seed, v: EditValues): Record<string, unknown> {
  const patch: Record<string, unknown> = {};
  const orNull = (text: string) => (text.trim() === '' ? null : text.trim());
  const name = orNull(v.name);
  if (name !== seed.name) patch.name = name;
  const entry = orNull(v.entry_url);
  if (entry !== seed.entry_url) patch.entry_url = entry;
  const fetch = { type: v.fetch_type, urls: lines(v.fetch_urls) };
  if (!isDeepStrictEqual(fetch, seed.fetch)) patch.fetch = fetch;
  const schedule = orNull(v.schedule);
  if (schedule !== seed.schedule) patch.schedule = schedule;
  const policy: Record<string, unknown> = {
    robots_url: orNull(v.robots_url),
    robots_allowed: v.robots_allowed === '' ? undefined : v.robots_allowed === 'true',
    crawl_delay: v.crawl_delay.trim() === '' ? null : Number(v.crawl_delay),
    sitemap_urls: lines(v.sitemap_urls),
  };
  const changed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(policy)) {
    const current =
      seed.policy[key] ?? (key === 'sitemap_urls' ? [] : key === 'robots_allowed' ? undefined : null);
    if (!isDeepStrictEqual(value, current)) changed[key] = value;
  }
  if (Object.keys(changed).length > 0) patch.policy = changed;
  return patch;
}

/** Which form field a schema issue belongs to (`fetch.urls.2` → fetch_urls). */
export function fieldOf(path: ReadonlyArray<PropertyKey>): string {
  const [head, next] = path.map(String);
  if (head === 'fetch') return next === 'type' ? 'fetch_type' : 'fetch_urls';
  if (head === 'policy' && next) return next;
  return head ?? 'form';
}

export function validatePatch(
  patch: Record<string, unknown>,
): { ok: true; patch: SeedPatch } | { ok: false; errors: Record<string, string[]> } {
  const parsed = seedPatchSchema.safeParse(patch);
  if (parsed.success) return { ok: true, patch: parsed.data };
  const errors: Record<string, string[]> = {};
  for (const issue of parsed.error.issues) {
    const field = fieldOf(issue.path);
    const where =
      issue.path.length > 2 && typeof issue.path[2] === 'number' ? `line ${issue.path[2] + 1}: ` : '';
    errors[field] = [...(errors[field] ?? []), where + issue.message];
  }
  return { ok: false, errors };
}

function field(
  name: keyof EditValues,
  label: string,
  v: EditValues,
  errors: Record<string, string[]>,
  control: 'input' | 'textarea' = 'input',
): Html {
  const messages = errors[name] ?? [];
  const id = `f-${name}`;
  const err = messages.length > 0 ? html` aria-invalid="true" aria-describedby="${id}-error"` : '';
  const input =
    control === 'textarea'
      ? html`<textarea id="${id}" name="${name}" rows="3"${err}>${v[name]}</textarea>`
      : html`<input id="${id}" name="${name}" value="${v[name]}"${err}>`;
  return html`<div class="field"><label for="${id}">${label}</label>${input}${
    messages.length > 0 ? html`<p class="field-error" id="${id}-error">${messages.join('; ')}</p>` : ''
  }</div>`;
}

function choice(
  name: keyof EditValues,
  label: string,
  options: Array<[string, string]>,
  v: EditValues,
  errors: Record<string, string[]>,
) {
  const id = `f-${name}`;
  const messages = errors[name] ?? [];
  return html`<div class="field"><label for="${id}">${label}</label><select id="${id}" name="${name}">${options.map(
    ([value, text]) =>
      html`<option value="${value}"${value === v[name] ? html` selected` : ''}>${text}</option>`,
  )}</select>${messages.length > 0 ? html`<p class="field-error" id="${id}-error">${messages.join('; ')}</p>` : ''}</div>`;
}

export function editForm(
  seed: Seed,
  v: EditValues,
  errors: Record<string, string[]>,
  formError?: string,
): Html {
  const general = [...(errors.form ?? []), ...(formError ? [formError] : [])];
  return html`${general.length > 0 ? html`<p class="error" role="alert">${general.join('; ')}</p>` : ''}
${Object.keys(errors).length > 0 ? html`<p class="error" role="alert" data-form-errors>Some fields need fixing.</p>` : ''}
<form method="post" action="${seedHref(seed.seed_id)}/edit" class="edit" novalidate>
<input type="hidden" name="expected_version" value="${seed.version}">
${field('name', 'Name', v, errors)}
${field('entry_url', 'Entry URL', v, errors)}
${choice(
  'fetch_type',
  'Fetch type',
  FETCH_TYPES.map((t) => [t, t]),
  v,
  errors,
)}
${field('fetch_urls', 'Fetch URLs (one per line)', v, errors, 'textarea')}
${field('schedule', 'Schedule (cron, UTC)', v, errors)}
${field('robots_url', 'robots.txt URL', v, errors)}
${choice(
  'robots_allowed',
  'Robots allowed',
  [
    ['', 'unknown'],
    ['true', 'yes'],
    ['false', 'no'],
  ],
  v,
  errors,
)}
${field('crawl_delay', 'Crawl delay (seconds)', v, errors)}
${field('sitemap_urls', 'Sitemap URLs (one per line)', v, errors, 'textarea')}
<p><button type="submit">Save</button> <a href="${seedHref(seed.seed_id)}">Cancel</a></p>
</form>`;
}

export async function seedEditRoutes(app: FastifyInstance, deps: { seeds: SeedService }) {
  const { seeds } = deps;
  const send = (reply: FastifyReply, seed: Seed, body: Html, status = 200) =>
    sendHtml(
      reply,
      { title: `Edit ${seed.name ?? seed.registrable_domain}`, current: 'seeds', body },
      status,
    );

  app.get<{ Params: { seedId: string } }>(
    '/:seedId/edit',
    { schema: { hide: true } },
    async (request, reply) => {
      if (!mayDecide(request, reply)) return reply;
      const seed = await seeds.get(request.params.seedId);
      return send(reply, seed, editForm(seed, valuesOf(seed), {}));
    },
  );

  app.post<{ Params: { seedId: string } }>(
    '/:seedId/edit',
    { schema: { hide: true } },
    async (request, reply) => {
      if (!mayDecide(request, reply)) return reply;
      const seed = await seeds.get(request.params.seedId);
      const form = (request.body ?? {}) as Form;
      const values = Object.fromEntries(FIELDS.map((f) => [f, formText(form[f])])) as EditValues;
      const patch = patchOf(seed, values);
      if (Object.keys(patch).length === 0)
        return reply.redirect(`${seedHref(seed.seed_id)}?done=${encodeURIComponent('nothing changed')}`, 303);
      const expected = Number(formText(form.expected_version));
      if (Number.isInteger(expected) && expected > 0) patch.expected_version = expected;
      const checked = validatePatch(patch);
      if (!checked.ok) return send(reply, seed, editForm(seed, values, checked.errors), 400);
      try {
        const saved = await seeds.patch(seed.seed_id, checked.patch, authorOf(request));
        return reply.redirect(
          `${seedHref(saved.seed_id)}?done=${encodeURIComponent(`saved, version ${saved.version}`)}`,
          303,
        );
      } catch (error) {
        if (!(error instanceof ConflictError)) throw error;
        return send(reply, seed, editForm(seed, values, {}, error.message), 409);
      }
    },
  );
}
