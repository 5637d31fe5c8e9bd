// The value lists of candidates alone, with no dependency: the CLI names them in its help and checks its options
// without loading zod and the schemas (importing candidates.ts doubles a client command's start, ~0.1 s more).
// The schemas keep their own lists (candidates.ts, seed-facts.ts, candidate-import.ts); a unit test
// (test/unit/domain/candidate-values.test.ts) fails when these and those differ.

/** CANDIDATE_STATES of candidates.ts. */
export const CANDIDATE_STATES = ['new', 'qualified', 'rejected', 'accepted'] as const;
/** CANDIDATE_SORTS of candidates.ts. */
export const CANDIDATE_SORTS = ['score', 'citations', 'first_seen'] as const;
/** NEWS_VERDICTS of seed-facts.ts: a candidate's verdict once qualified. */
export const NEWS_VERDICTS = ['news', 'maybe', 'not_news'] as const;
/** IMPORT_FORMATS of candidate-import.ts. */
export const IMPORT_FORMATS = ['jsonl', 'csv', 'opml', 'text'] as const;
export type ImportFormat = (typeof IMPORT_FORMATS)[number];

/** The content type each import format is sent as (importFormatOf in candidate-import.ts reads them back). */
export const IMPORT_CONTENT_TYPES: Record<ImportFormat, string> = {
  jsonl: 'application/x-ndjson',
  csv: 'text/csv',
  opml: 'text/x-opml',
  text: 'text/plain',
};
