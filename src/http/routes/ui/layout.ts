// The page frame every review page shares: navigation, who is signed in, and the page's own files (no inline code);
// and sendHtml, through which every HTML answer of the page goes out.
import type { FastifyReply } from 'fastify';
import type { Principal } from '../../../services/api-keys.js';
import { Html, html } from './html.js';
import { canDecide } from './session.js';

export interface PageOptions {
  title: string;
  principal: Principal | null;
  /** The navigation entry to mark as current. */
  current?: 'seeds' | 'candidates' | 'batches' | 'changes' | 'dashboard';
  body: Html;
}

function page(options: PageOptions): string {
  const { principal } = options;
  const nav = (key: PageOptions['current'], href: string, label: string) =>
    html`<a href="${href}"${options.current === key ? new Html(' aria-current="page"') : ''}>${label}</a>`;
  const who = principal
    ? html`<span class="who">${principal.name} · ${canDecide(principal) ? 'can decide' : 'read only'}</span>
        <form method="post" action="/ui/logout" class="inline"><button type="submit">Sign out</button></form>`
    : '';
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${options.title} · Seedbed review</title>
<link rel="stylesheet" href="/ui/assets/app.css">
<script src="/ui/assets/app.js" defer></script>
</head>
<body>
<a class="skip" href="#main">Skip to content</a>
<header>
<strong class="brand">Seedbed review</strong>
<nav aria-label="Main">${nav('dashboard', '/ui', 'Dashboard')} ${nav('seeds', '/ui/seeds', 'Seeds')} ${nav('candidates', '/ui/candidates', 'Candidates')} ${nav('batches', '/ui/batches', 'Batches')} ${nav('changes', '/ui/changes', 'Changes')}</nav>
${who}
</header>
<main id="main" tabindex="-1">
<h1>${options.title}</h1>
${options.body}
</main>
</body>
</html>`.text;
}

/** What an HTML answer holds: a page, framed (for the request's principal unless one is named), or a fragment. */
export type HtmlContent = (Omit<PageOptions, 'principal'> & { principal?: Principal | null }) | Html;

/**
 * Every HTML answer of the review page: its status, its media type, and the frame around a page; a fragment
 * (the progress block app.js swaps in) goes out as it is. The security headers (Content-Security-Policy,
 * nosniff, no framing, no-store) are added by the plugin's onSend hook (index.ts) to every answer under /ui.
 */
export function sendHtml(reply: FastifyReply, content: HtmlContent, status = 200): FastifyReply {
  const text =
    content instanceof Html
      ? content.text
      : page({
          ...content,
          principal: content.principal === undefined ? reply.request.principal : content.principal,
        });
  return reply.code(status).type('text/html; charset=utf-8').send(text);
}

/** A small description list of label → value, leaving out empty values. */
export function facts(rows: Array<[string, Html | string | number | null | undefined]>): Html {
  const shown = rows.filter(([, value]) => value !== null && value !== undefined && value !== '');
  return html`<dl class="facts">${shown.map(([label, value]) => html`<dt>${label}</dt><dd>${value}</dd>`)}</dl>`;
}

/** A labelled <select> of a GET filter form; the empty first option means "any". */
export function select(
  name: string,
  label: string,
  options: ReadonlyArray<string | readonly [string, string]>,
  value: string | undefined,
  any = 'any',
) {
  return html`<label>${label}
<select name="${name}"><option value="">${any}</option>${options.map((o) => {
    const [v, text] = typeof o === 'string' ? [o, o] : o;
    return html`<option value="${v}"${v === value ? html` selected` : ''}>${text}</option>`;
  })}</select></label>`;
}

/** A GET form's fields without the empty ones: an empty field means "any". */
export function filledFields(raw: unknown): Record<string, unknown> {
  const entries = Object.entries(raw && typeof raw === 'object' ? raw : {});
  return Object.fromEntries(entries.filter(([, value]) => value !== ''));
}
