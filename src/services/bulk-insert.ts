// Multi-row inserts written as one SQL text and its parameters. Kysely's builder turns every value of every row
// into a node and compiles them back, which showed in the research pipeline's profile for its 100-row inserts
// (docs/profiles.md); the text here is the same on both backends but for the placeholders.
import { CompiledQuery } from 'kysely';
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
  const parameters: unknown[] = [];
  const tuples: string[] = [];
  for (const row of rows) {
    const marks: string[] = [];
    for (const column of columns) {
      parameters.push(row[column]);
      marks.push(dialect === 'postgres' ? `$${parameters.length}` : '?');
    }
    tuples.push(`(${marks.join(', ')})`);
  }
  const names = columns.map((column) => `"${column}"`).join(', ');
  const text = `insert into "${table}" (${names}) values ${tuples.join(', ')}${tail ? ` ${tail}` : ''}`;
  const result = await executor.executeQuery(CompiledQuery.raw(text, parameters));
  return [...result.rows];
}
