// Statements of the hot paths as SQL text, one text per dialect, instead of Kysely builders. Kysely turns every
// builder call into nodes and compiles them back on every run; on the research pipeline's chunk (about twenty
// small statements) that was a sixth of the main thread (docs/profiles.md). A text here is written once, with `?`
// placeholders as SQLite takes them; PostgreSQL gets the same text with them numbered ($1, $2, …). The same
// string each run, so SQLite's statement cache (sqlite-database.ts) finds it without hashing a new one.
import { CompiledQuery, type QueryResult } from 'kysely';
import { type DbExecutor, type Dialect, executeCompiled } from '../ports/database.js';

export type SqlText = Readonly<Record<Dialect, string>>;

/** `text` as each dialect takes it. Its `?` are all placeholders: no literal, name or comment may hold one. */
export function sqlText(text: string): SqlText {
  let mark = 0;
  return { sqlite: text, postgres: text.replace(/\?/g, () => `$${++mark}`) };
}

/** Runs `text` in `executor` (a transaction, or the database) with `parameters` in placeholder order. */
export function runText<Row = unknown>(
  executor: DbExecutor,
  dialect: Dialect,
  text: SqlText,
  parameters: unknown[],
): Promise<QueryResult<Row>> {
  return executeCompiled<Row>(executor, CompiledQuery.raw(text[dialect], parameters));
}

/** Rows an INSERT, UPDATE or DELETE without RETURNING changed. */
export function changedRows(result: QueryResult<unknown>): number {
  return Number(result.numAffectedRows ?? 0n);
}
