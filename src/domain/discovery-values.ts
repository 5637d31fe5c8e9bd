// Discovery's value lists, defined here once and with no dependency: the schemas (candidates.ts, seed-facts.ts,
// candidate-import.ts) import them, and so does the CLI, which names them in its help without loading zod and the
// schemas (importing candidates.ts doubles a client command's start, ~0.1 s more).

/** new: seen, not checked; qualified: checked (its verdict says what it is); rejected / accepted: decided. */
export const CANDIDATE_STATES = ['new', 'qualified', 'rejected', 'accepted'] as const;
/** score: highest first; citations: most cited first; first_seen: newest first. Ties by domain. */
export const CANDIDATE_SORTS = ['score', 'citations', 'first_seen'] as const;
/** Is this a news source? news: the evidence says so; maybe: some of it does; not_news: it does not. */
export const NEWS_VERDICTS = ['news', 'maybe', 'not_news'] as const;
/** The formats of a list a person imports (candidate-import.ts reads them). */
export const IMPORT_FORMATS = ['jsonl', 'csv', 'opml', 'text'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The content type each import format is sent as (importFormatOf in candidate-import.ts reads them back). */
export const IMPORT_CONTENT_TYPES: Record<ImportFormat, string> = {
  jsonl: 'application/x-ndjson',
  csv: 'text/csv',
  opml: 'text/x-opml',
  text: 'text/plain',
};
