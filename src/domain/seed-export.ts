// Seeds written out for other tools: one JSON object a line (as GET shows a seed), CSV for a spreadsheet, and
// OPML 2.0 of each seed's main feeds for a feed reader. Pure text builders; the caller streams the pieces.
import type { Seed } from './seed-record.js';

export const EXPORT_FORMATS = ['jsonl', 'csv', 'opml'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const EXPORT_MEDIA_TYPES: Record<ExportFormat, string> = {
  jsonl: 'application/x-ndjson',
  csv: 'text/csv',
  opml: 'text/x-opml',
};

/** The fields of a seed an export reads: the seed's own (seed-record.ts). */
export type ExportableSeed = Pick<
  Seed,
  | 'seed_id'
  | 'domain_id'
  | 'registrable_domain'
  | 'country'
  | 'category'
  | 'content_type'
  | 'source_type'
  | 'status'
  | 'version'
  | 'name'
  | 'entry_url'
  | 'fetch'
  | 'schedule'
  | 'policy'
  | 'created_at'
  | 'updated_at'
  | 'promoted_at'
  | 'feeds'
>;

/** What a feed reader should subscribe to: the main feeds; a seed found before roles existed, its rss fetch URLs. */
export function mainFeedsOf(
  seed: ExportableSeed,
): Array<{ url: string; title: string | null; type: string }> {
  const main = seed.feeds.filter((feed) => feed.role === 'main');
  const feeds =
    main.length > 0
      ? main.map((feed) => ({ url: feed.url, title: feed.title, type: feed.type }))
      : seed.fetch.type === 'rss'
        ? seed.fetch.urls.map((url) => ({ url, title: null, type: 'rss' }))
        : [];
  const seen = new Set<string>();
  return feeds.filter((feed) => !seen.has(feed.url) && seen.add(feed.url));
}

// ---- JSON lines ----

export function jsonLine(seed: unknown): string {
  return `${JSON.stringify(seed)}\n`;
}

// ---- CSV (RFC 4180: CRLF, quoted when needed) ----

export const CSV_COLUMNS = [
  'seed_id',
  'domain_id',
  'registrable_domain',
  'country',
  'category',
  'content_type',
  'source_type',
  'status',
  'version',
  'name',
  'entry_url',
  'fetch_type',
  'fetch_urls',
  'main_feeds',
  'schedule',
  'robots_allowed',
  'created_at',
  'updated_at',
  'promoted_at',
] as const;

export function csvHeader(): string {
  return csvRecord([...CSV_COLUMNS]);
}

/** Lists (fetch URLs, feeds) are one cell, space-separated: URLs hold no spaces. */
export function csvRow(seed: ExportableSeed): string {
  const robots = seed.policy['robots_allowed'];
  return csvRecord([
    seed.seed_id,
    seed.domain_id,
    seed.registrable_domain,
    seed.country,
    seed.category,
    seed.content_type,
    seed.source_type,
    seed.status,
    String(seed.version),
    seed.name ?? '',
    seed.entry_url ?? '',
    seed.fetch.type,
    seed.fetch.urls.join(' '),
    mainFeedsOf(seed)
      .map((feed) => feed.url)
      .join(' '),
    seed.schedule ?? '',
    typeof robots === 'boolean' ? String(robots) : '',
    seed.created_at,
    seed.updated_at,
    seed.promoted_at ?? '',
  ]);
}

function csvRecord(cells: string[]): string {
  return `${cells.map(csvCell).join(',')}\r\n`;
}

/**
 * Names come from third-party pages: a cell a spreadsheet would run as a formula (`=`, `+`, `-`, `@`, tab, CR
 * first) gets a leading apostrophe (OWASP's CSV-injection advice); ids, URLs and dates never start that way.
 */
function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

// ---- OPML 2.0 ----

export function opmlHead(title: string, createdAt: Date): string {
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<opml version="2.0">',
    '  <head>',
    `    <title>${xmlText(title)}</title>`,
    `    <dateCreated>${createdAt.toUTCString()}</dateCreated>`,
    '  </head>',
    '  <body>',
    '',
  ].join('\n');
}

/** One outline per main feed of the seed; none when it has no feed. */
export function opmlOutlines(seed: ExportableSeed): string {
  return mainFeedsOf(seed)
    .map((feed) => {
      const text = feed.title ?? seed.name ?? seed.registrable_domain;
      const attributes: Array<[string, string]> = [
        ['type', 'rss'],
        ['text', text],
        ['title', text],
        ['xmlUrl', feed.url],
        ...(seed.entry_url ? [['htmlUrl', seed.entry_url] as [string, string]] : []),
        ['category', `/${seed.country}/${seed.category}`],
      ];
      return `    <outline ${attributes.map(([k, v]) => `${k}="${xmlAttribute(v)}"`).join(' ')}/>\n`;
    })
    .join('');
}

export function opmlTail(): string {
  return '  </body>\n</opml>\n';
}

// Characters XML 1.0 cannot carry at all (a feed title may hold them); dropped rather than escaped.
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\uFFFE\uFFFF]/g;

function xmlText(value: string): string {
  return value.replace(NOT_XML, '').replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
}

function xmlAttribute(value: string): string {
  return xmlText(value)
    .replaceAll('"', '&quot;')
    .replaceAll('\t', '&#9;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\r', '&#13;');
}
