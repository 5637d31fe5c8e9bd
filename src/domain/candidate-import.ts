// A list of sources a person brings (a gap report: which of these is the directory missing?), as JSON lines,
// CSV, OPML or plain lines, read into entries: what each line said and the site it names. Pure; a line that names
// no site is kept with the reason, never dropped.
import { Parser } from 'htmlparser2';

import type { ImportFormat } from './discovery-values.js';

export { IMPORT_FORMATS, type ImportFormat } from './discovery-values.js';

/** Lines read at most from one list. */
export const MAX_IMPORT_ENTRIES = 10_000;

export interface ImportEntry {
  /** 1-based line (JSON lines, CSV, text) or outline number (OPML). */
  line: number;
  /** What the line said: a domain, a URL, or the raw text when nothing could be read from it. */
  input: string;
  /** A label the line itself gives (`source` field or column); the request's label otherwise. */
  source: string | null;
}

/** Fields that name a site, in the order they are tried (a seed export's rows have the first two). */
const SITE_FIELDS = [
  'registrable_domain',
  'domain',
  'entry_url',
  'url',
  'website',
  'homepage',
  'htmlUrl',
  'xmlUrl',
];

/** The format a content type announces; null when it is none of these. */
export function importFormatOf(contentType: string | undefined): ImportFormat | null {
  const type = (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
  if (type === 'application/x-ndjson' || type === 'application/jsonl' || type === 'application/x-jsonlines')
    return 'jsonl';
  if (type === 'text/csv') return 'csv';
  if (type === 'text/x-opml' || type === 'application/xml' || type === 'text/xml') return 'opml';
  if (type === 'text/plain') return 'text';
  return null;
}

export function readImport(format: ImportFormat, text: string): ImportEntry[] {
  const entries =
    format === 'jsonl'
      ? jsonLines(text)
      : format === 'csv'
        ? csvRows(text)
        : format === 'opml'
          ? opml(text)
          : lines(text);
  return entries.slice(0, MAX_IMPORT_ENTRIES);
}

function nonEmptyLines(text: string): Array<{ line: number; text: string }> {
  return text
    .split(/\r?\n/)
    .map((value, i) => ({ line: i + 1, text: value.trim() }))
    .filter((l) => l.text !== '' && !l.text.startsWith('#'));
}

function lines(text: string): ImportEntry[] {
  return nonEmptyLines(text).map(({ line, text: input }) => ({ line, input, source: null }));
}

function siteOf(record: Record<string, unknown>): string | null {
  for (const field of SITE_FIELDS) {
    const value = record[field];
    if (typeof value === 'string' && value.trim() !== '') return value.trim();
  }
  return null;
}

function jsonLines(text: string): ImportEntry[] {
  return nonEmptyLines(text).map(({ line, text: raw }) => {
    let value: unknown;
    try {
      value = JSON.parse(raw);
    } catch {
      return { line, input: raw, source: null };
    }
    if (typeof value === 'string') return { line, input: value, source: null };
    if (value === null || typeof value !== 'object' || Array.isArray(value))
      return { line, input: raw, source: null };
    const record = value as Record<string, unknown>;
    const source = typeof record['source'] === 'string' ? (record['source'] as string) : null;
    return { line, input: siteOf(record) ?? raw, source };
  });
}

/** RFC 4180 fields: quoted fields may hold commas, doubled quotes and line breaks. */
function csvRecords(text: string): Array<{ line: number; fields: string[] }> {
  const records: Array<{ line: number; fields: string[] }> = [];
  let fields: string[] = [];
  let field = '';
  let quoted = false;
  let line = 1;
  let start = 1;
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i] as string;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (c === '"') quoted = false;
      else {
        if (c === '\n') line += 1;
        field += c;
      }
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      fields.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i += 1;
      fields.push(field);
      records.push({ line: start, fields });
      fields = [];
      field = '';
      line += 1;
      start = line;
    } else field += c;
  }
  if (field !== '' || fields.length > 0) records.push({ line: start, fields: [...fields, field] });
  return records.filter((r) => r.fields.some((f) => f.trim() !== ''));
}

function csvRows(text: string): ImportEntry[] {
  const records = csvRecords(text);
  const header =
    records[0]?.fields.map((f) =>
      f
        .trim()
        .replace(/^\uFEFF/, '')
        .toLowerCase(),
    ) ?? [];
  const siteColumn = SITE_FIELDS.map((f) => header.indexOf(f.toLowerCase())).find((i) => i >= 0);
  const sourceColumn = header.indexOf('source');
  // No header naming a site: every row's first field is the site.
  const rows = siteColumn === undefined ? records : records.slice(1);
  const column = siteColumn ?? 0;
  return rows.map(({ line, fields }) => ({
    line,
    input: (fields[column] ?? '').trim(),
    source: sourceColumn >= 0 ? fields[sourceColumn]?.trim() || null : null,
  }));
}

/** Every <outline> that names a site (htmlUrl, else xmlUrl), numbered in document order. */
function opml(text: string): ImportEntry[] {
  const entries: ImportEntry[] = [];
  let outline = 0;
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name.toLowerCase() !== 'outline') return;
        outline += 1;
        const lower = Object.fromEntries(Object.entries(attribs).map(([k, v]) => [k.toLowerCase(), v]));
        const site = lower['htmlurl'] || lower['xmlurl'] || lower['url'];
        if (site) entries.push({ line: outline, input: site.trim(), source: null });
      },
    },
    { xmlMode: true, decodeEntities: true },
  );
  parser.write(text);
  parser.end();
  return entries;
}
