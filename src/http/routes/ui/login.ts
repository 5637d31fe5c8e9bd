// Signing in to the review page: the API key is typed once and kept in an HttpOnly cookie; signing out clears it.
import type { FastifyInstance } from 'fastify';
import type { Authenticator } from '../../auth.js';
import { html } from './html.js';
import { sendHtml } from './layout.js';
import { type Form, formText } from './seed-actions.js';
import { clearKeyCookie, safeNext, setKeyCookie } from './session.js';

function loginForm(next: string, error: string | null, open: boolean) {
  return html`${error ? html`<p class="error" role="alert">${error}</p>` : ''}
${open ? html`<p class="note">This service has no API key yet: it is open, and so is this page. <a href="${next}">Continue</a></p>` : ''}
<form method="post" action="/ui/login" class="login">
<input type="hidden" name="next" value="${next}">
<div class="field"><label for="key">API key</label>
<input id="key" name="key" type="password" autocomplete="current-password" required autofocus></div>
<p><button type="submit">Sign in</button></p>
<p class="note">A key with the read scope can look; the write scope can decide. The key is kept in a cookie only this page can read, for 12 hours.</p>
</form>`;
}

export async function loginRoutes(app: FastifyInstance, deps: { authenticator: Authenticator }) {
  app.get<{ Querystring: { next?: string } }>(
    '/login',
    { schema: { hide: true } },
    async (request, reply) => {
      // With no key at all the service is open: the page says so instead of asking for a key nobody has.
      const open = (await deps.authenticator.principalFor(null)) !== null;
      const body = loginForm(safeNext(request.query.next), null, open);
      return sendHtml(reply, { title: 'Sign in', principal: null, body });
    },
  );

  app.post('/login', { schema: { hide: true } }, async (request, reply) => {
    const form = (request.body ?? {}) as Form;
    const key = formText(form.key).trim();
    const next = safeNext(formText(form.next));
    const principal = key ? await deps.authenticator.principalFor(key) : null;
    if (!principal) {
      const body = loginForm(next, key ? 'That key is not valid.' : 'Type an API key.', false);
      return sendHtml(reply, { title: 'Sign in', principal: null, body }, 401);
    }
    setKeyCookie(reply, request, key);
    return reply.redirect(next, 303);
  });

  app.post('/logout', { schema: { hide: true } }, async (request, reply) => {
    clearKeyCookie(reply, request);
    return reply.redirect('/ui/login', 303);
  });
}
