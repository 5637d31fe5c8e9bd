// HTML for the review page without a template engine: a tagged template that escapes every interpolated
// value unless it is already Html (built by this tag), so forgetting to escape is not possible by accident.

/** Markup that has been escaped (or built from escaped parts). */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c] as string);
}

type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function render(part: Part): string {
  if (part === null || part === undefined || part === false) return '';
  if (part instanceof Html) return part.text;
  if (Array.isArray(part)) return part.map(render).join('');
  return escapeHtml(String(part));
}

/** `html\`<p>${name}</p>\``: strings are escaped, Html is kept, arrays are joined, null/false vanish. */
export function html(strings: TemplateStringsArray, ...values: Part[]): Html {
  let out = strings[0] ?? '';
  for (let i = 0; i < values.length; i++) out += render(values[i]) + (strings[i + 1] ?? '');
  return new Html(out);
}

/** A query string from the non-empty entries (for links that keep the current filters). */
export function query(params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(params))
    if (value !== undefined && value !== '') search.set(key, String(value));
  const text = search.toString();
  return text ? `?${text}` : '';
}

export function seedHref(seedId: string): string {
  return `/ui/seeds/${encodeURIComponent(seedId)}`;
}

export function candidateHref(domain: string): string {
  return `/ui/candidates/${encodeURIComponent(domain)}`;
}
