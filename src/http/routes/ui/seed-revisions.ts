// A seed's revisions as readable diffs (DESIGN §3: number, author, time, the fields before and after).
// Seam: the revisions service lives on another branch; until it is merged this renders whatever revisions
// the seed view carries (none today), and accept / reject appear only when a decider is wired in.
import { isDeepStrictEqual } from 'node:util';
import { type Html, html } from './html.js';

export interface RevisionLike {
  number: number;
  author?: string;
  at?: string;
  /** `proposed` revisions wait for a person; others were applied. */
  status?: string;
  before?: Record<string, unknown>;
  after?: Record<string, unknown>;
}

const show = (value: unknown) => (value === undefined ? '—' : JSON.stringify(value, null, 1));

export function revisionDiff(revision: RevisionLike): Html {
  const before = revision.before ?? {};
  const after = revision.after ?? {};
  const fields = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (field) => !isDeepStrictEqual(before[field], after[field]),
  );
  return html`<table class="diff"><thead><tr><th>Field</th><th>Before</th><th>After</th></tr></thead><tbody>${fields.map(
    (field) =>
      html`<tr><th scope="row">${field}</th><td><del>${show(before[field])}</del></td><td><ins>${show(after[field])}</ins></td></tr>`,
  )}</tbody></table>`;
}

/** The revisions section, or null when the seed carries none. `decide` names the accept/reject action URLs. */
export function revisionsSection(
  revisions: unknown,
  decide: ((revision: RevisionLike) => { accept: string; reject: string }) | null,
): Html | null {
  if (!Array.isArray(revisions) || revisions.length === 0) return null;
  const items = (revisions as RevisionLike[]).map((r) => {
    const proposed = r.status === 'proposed';
    const actions =
      proposed && decide
        ? html`<form method="post" action="${decide(r).accept}" class="inline"><button type="submit">Accept</button></form>
<form method="post" action="${decide(r).reject}" class="inline"><button type="submit">Reject</button></form>`
        : '';
    return html`<article class="${proposed ? 'proposed' : ''}"><h3>Revision ${r.number}${proposed ? ' (proposed)' : ''}</h3>
<p>${r.author ?? 'unknown author'}${r.at ? html`, <time datetime="${r.at}">${r.at}</time>` : ''}</p>${revisionDiff(r)}${actions}</article>`;
  });
  return html`<section aria-labelledby="revisions"><h2 id="revisions">Revisions</h2>${items}</section>`;
}
