// A text column's prefix match, in the form each database answers from a plain index on the column.
//
// SQLite's LIKE is case-insensitive by default, so it never uses an index of the default (BINARY) collation: a
// `like 'batch:<id>:%'` reads the whole table. The batch summary's count of a research batch's domains did so on
// every read of a batch (its creation among them), 17.5 ms at 100,000 sources and growing with the table, all of it
// on the main thread (docs/performance.md, "Tenth pass"). SQLite compares BINARY text byte by byte, so the strings
// that start with a prefix are exactly those from the prefix up to (not including) the prefix with its last byte
// raised by one: a range the index answers. PostgreSQL keeps LIKE: under a linguistic collation, one that ignores
// punctuation at its first level, such a range is not the prefix's strings.
import type { Expression, ExpressionBuilder, ReferenceExpression, SqlBool } from 'kysely';
import type { Dialect, Tables } from '../ports/database.js';

export function startsWith<TB extends keyof Tables>(
  eb: ExpressionBuilder<Tables, TB>,
  column: ReferenceExpression<Tables, TB>,
  prefix: string,
  dialect: Dialect,
): Expression<SqlBool> {
  if (dialect === 'postgres') return eb(column, 'like', `${escapeLike(prefix)}%`);
  return eb.and([eb(column, '>=', prefix), eb(column, '<', prefixEnd(prefix))]);
}

/** The least string above every string that starts with `prefix` (ASCII-ended prefixes only). */
export function prefixEnd(prefix: string): string {
  const last = prefix.charCodeAt(prefix.length - 1);
  // Raising an ASCII character raises its one UTF-8 byte; beyond ASCII the bytes and the code units differ.
  if (!(last >= 0x20 && last <= 0x7e))
    throw new Error(`prefix must end in printable ASCII: ${JSON.stringify(prefix)}`);
  return prefix.slice(0, -1) + String.fromCharCode(last + 1);
}

/** `text` as a LIKE pattern matching itself (with the default escape character `\` on PostgreSQL). */
function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}
