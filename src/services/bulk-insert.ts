// Multi-row inserts written as one SQL text and its parameters. Kysely's builder turns every value of every row
// into a node and compiles them back, which showed in the research pipeline's profile for its 100-row inserts
// and was a fifth of a seed import's time (docs/profiles.md, docs/performance.md); the text here is the same on
// both backends but for the placeholders.
import { CompiledQuery, type QueryResult } from 'kysely';
import {
  type DbExecutor,
  type Dialect,
  executeCompiled,
  NumberedValues,
  type Tables,
} from '../ports/database.js';

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

/**
 * As insertRows, answering how many rows went in (fewer than given when ON CONFLICT DO NOTHING skipped some).
 * `shareEqual`: each column whose value is the same in every row (a chunk's batch, partition, owner, time) is bound
 * once for the statement rather than once a row, a placeholder numbered `?1`… (`$1`…) that every row's tuple
 * repeats. Binding was a third of a 100-row claim insert's time (docs/performance.md, "Third pass"). For writers
 * whose rows share columns in a few patterns only: each pattern is a statement text of its own.
 */
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
  options: { shareEqual?: boolean } = {},
): Promise<number> {
  if (rows.length === 0) return 0;
  const result = await runInsert(executor, dialect, table, columns, rows, tail, options.shareEqual ?? false);
  return Number(result.numAffectedRows ?? 0n);
}

function runInsert<Column extends string>(
  executor: DbExecutor,
  dialect: Dialect,
  table: string,
  columns: readonly Column[],
  rows: readonly { [C in Column]: unknown }[],
  tail: string,
  shareEqual = false,
): Promise<QueryResult<unknown>> {
  const shared = shareEqual ? sharedColumns(columns, rows) : NONE_SHARED;
  const perRow = columns.length - shared.count;
  const parameters = new Array<unknown>(rows.length * perRow);
  let at = 0;
  for (const row of rows)
    for (let c = 0; c < columns.length; c++) if (!shared.is[c]) parameters[at++] = row[columns[c] as Column];
  const text = insertText(dialect, table, columns, rows.length, tail, shared);
  if (shared.count > 0) {
    const first = rows[0] as { [C in Column]: unknown };
    const values = columns.filter((_, c) => shared.is[c]).map((column) => first[column]);
    // SQLite takes the numbered values apart from the plain ones (NumberedValues); PostgreSQL's are $1… first.
    if (dialect === 'sqlite') parameters.push(new NumberedValues(values));
    else parameters.unshift(...values);
  }
  return executeCompiled(executor, CompiledQuery.raw(text, parameters));
}

/** Which columns (by position) hold one value in every row, and how many. */
interface Shared {
  is: readonly boolean[];
  count: number;
  /** The pattern as text, for the statement's key: `1` for a shared column, `0` for the others. */
  key: string;
}
const NONE_SHARED: Shared = { is: [], count: 0, key: '' };

function sharedColumns<Column extends string>(
  columns: readonly Column[],
  rows: readonly { [C in Column]: unknown }[],
): Shared {
  // A single row would share every column: nothing to gain, and a text of its own.
  if (rows.length < 2) return NONE_SHARED;
  const first = rows[0] as { [C in Column]: unknown };
  const is = columns.map((column) => {
    const value = first[column];
    for (const row of rows) if (row[column] !== value) return false;
    return true;
  });
  return { is, count: is.filter(Boolean).length, key: is.map((s) => (s ? '1' : '0')).join('') };
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
  shared: Shared = NONE_SHARED,
): string {
  const key = `${dialect} ${table} ${count} ${shared.key} ${tail}`;
  let shapes = texts.get(columns);
  const kept = shapes?.get(key);
  if (kept !== undefined) return kept;
  const tuples: string[] = [];
  // Shared columns first, numbered 1…: SQLite numbers a plain `?` one past the highest number it has seen, so
  // the plain ones of the first row must come after every numbered one to take numbers of their own.
  const sharedNames = columns.filter((_, c) => shared.is[c]);
  const otherNames = columns.filter((_, c) => !shared.is[c]);
  const sharedMarks = sharedNames.map((_, i) => `${dialect === 'postgres' ? '$' : '?'}${i + 1}`);
  let mark = shared.count;
  for (let row = 0; row < count; row++) {
    const marks = otherNames.map(() => (dialect === 'postgres' ? `$${++mark}` : '?'));
    tuples.push(`(${[...sharedMarks, ...marks].join(', ')})`);
  }
  const names = [...sharedNames, ...otherNames].map((column) => `"${column}"`).join(', ');
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
