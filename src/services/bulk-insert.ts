// Multi-row inserts written as one SQL text and its parameters. Kysely's builder turns every value of every row
// into a node and compiles them back, which showed in the research pipeline's profile for its 100-row inserts
// and was a fifth of a seed import's time (docs/profiles.md, docs/performance.md); the text here is the same on
// both backends but for the placeholders.
import { CompiledQuery, type QueryResult } from 'kysely';
import type { DbExecutor, Dialect, Tables } from '../ports/database.js';

/**
 * Inserts `rows` (each with every one of `columns`) into `table`; `tail` follows the VALUES list as written (an
 * ON CONFLICT clause, a RETURNING list). Resolves with the rows RETURNING gave, if any.
 */
export async function insertRows<
  T extends keyof Tables,
  Row extends { [C in Column]: unknown },
  Column extends string,
>(
  executor: DbExecutor,
  dialect: Dialect,
  table: T,
  columns: readonly (Column & keyof Tables[T])[],
  rows: readonly Row[],
  tail = '',
): Promise<unknown[]> {
  if (rows.length === 0) return [];
  return [...(await runInsert(executor, dialect, table, columns, rows, tail)).rows];
}

/** As insertRows, answering how many rows went in (fewer than given when ON CONFLICT DO NOTHING skipped some). */
export async function insertRowsCounted<
  T extends keyof Tables,
  Row extends { [C in Column]: unknown },
  Column extends string,
>(
  executor: DbExecutor,
  dialect: Dialect,
  table: T,
  columns: readonly (Column & keyof Tables[T])[],
  rows: readonly Row[],
  tail = '',
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await runInsert(executor, dialect, table, columns, rows, tail);
  return Number(result.numAffectedRows ?? 0n);
}

function runInsert<Column extends string>(
  executor: DbExecutor,
  dialect: Dialect,
  table: string,
  columns: readonly Column[],
  rows: readonly { [C in Column]: unknown }[],
  tail: string,
): Promise<QueryResult<unknown>> {
  const parameters = new Array<unknown>(rows.length * columns.length);
  let at = 0;
  for (const row of rows) for (const column of columns) parameters[at++] = row[column];
  const text = insertText(dialect, table, columns, rows.length, tail);
  return executor.executeQuery(CompiledQuery.raw(text, parameters));
}

/** Texts made, by their column list: a bulk writer sends the same few shapes over and over. */
const texts = new WeakMap<readonly string[], Map<string, string>>();
/** Shapes kept per column list (a row count and a tail each): the full chunks and their last, partial ones. */
const TEXTS_PER_COLUMNS = 64;

/**
 * The statement's text, the same string each time for the same shape: SQLite's statement cache looks a text up
 * by its value, and V8 hashes a string once, so a text made again (12 KB for 100 seeds) is hashed again on every
 * statement, a kept one never.
 */
function insertText(
  dialect: Dialect,
  table: string,
  columns: readonly string[],
  count: number,
  tail: string,
): string {
  const key = `${dialect} ${table} ${count} ${tail}`;
  let shapes = texts.get(columns);
  const kept = shapes?.get(key);
  if (kept !== undefined) return kept;
  const tuples: string[] = [];
  let mark = 0;
  for (let row = 0; row < count; row++) {
    const marks = columns.map(() => (dialect === 'postgres' ? `$${++mark}` : '?'));
    tuples.push(`(${marks.join(', ')})`);
  }
  const names = columns.map((column) => `"${column}"`).join(', ');
  const text = `insert into "${table}" (${names}) values ${tuples.join(', ')}${tail ? ` ${tail}` : ''}`;
  if (!shapes) {
    shapes = new Map();
    texts.set(columns, shapes);
  }
  if (shapes.size < TEXTS_PER_COLUMNS) shapes.set(key, text);
  return text;
}

/**
 * The `tail` of an upsert whose newer row replaces `columns` of the one already under `keys`:
 * `on conflict ("k") do update set "c" = excluded."c", …`, the same text on both backends.
 */
export function onConflictReplace(keys: readonly string[], columns: readonly string[]): string {
  const conflict = keys.map((key) => `"${key}"`).join(', ');
  const set = columns.map((column) => `"${column}" = excluded."${column}"`).join(', ');
  return `on conflict (${conflict}) do update set ${set}`;
}
