// Keyset pagination: a page starts after the last row of the page before, named by its sort key, so a deep page
// costs what page 1 costs (an index seek) instead of reading and dropping `offset` rows. The cursor is opaque to
// clients (base64url of a small JSON document) and names the order it was made for, so a cursor from one sort
// cannot silently page another.
import { ValidationError } from '../domain/errors.js';

/** One value of a row's sort key: a column value, in the order the list sorts by. */
export type KeyValue = string | number | null;

/** Where the next page starts: after the row whose sort key is `after`, in the order named `order`. */
export interface CursorPosition {
  order: string;
  after: KeyValue[];
}

const MAX_CURSOR_LENGTH = 1024;

export function encodeCursor(position: CursorPosition): string {
  return Buffer.from(JSON.stringify({ o: position.order, a: position.after }), 'utf8').toString('base64url');
}

/**
 * The position a page request starts after, or undefined for a page by offset. A cursor says where the page
 * starts, so an offset beside it is a 400 naming `cursor` rather than one silently ignored.
 */
export function cursorPosition(
  request: { cursor?: string; offset: number },
  order: string,
  keyLength: number,
): CursorPosition | undefined {
  if (request.cursor === undefined) return undefined;
  if (request.offset !== 0)
    throw ValidationError.field(
      'cursor',
      'is not used with offset: a cursor already says where the page starts',
    );
  return decodeCursor(request.cursor, order, keyLength);
}

/**
 * The position a cursor names, for a list sorted by `order`. A cursor that is not one this service made, or was
 * made for another order, is a 400 naming `cursor` (never a 500, never a silently wrong page).
 */
export function decodeCursor(text: string, order: string, keyLength: number): CursorPosition {
  const refuse = (why: string) => ValidationError.field('cursor', why);
  const foreign = 'is not a cursor this list gave out (use `pagination.next` as it is)';
  if (text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) throw refuse(foreign);
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    throw refuse(foreign);
  }
  const document = parsed as { o?: unknown; a?: unknown };
  const after = document?.a;
  const wellFormed =
    typeof document?.o === 'string' &&
    Array.isArray(after) &&
    after.length === keyLength &&
    after.every((v) => v === null || typeof v === 'string' || (typeof v === 'number' && Number.isFinite(v)));
  if (!wellFormed) throw refuse(foreign);
  if (document.o !== order)
    throw refuse(
      `was made for the order "${document.o}"; ask again with that sort, or start from the first page`,
    );
  return { order, after: after as KeyValue[] };
}

/**
 * Reads one row more than the page needs to know whether another page follows: `rows` is that over-read. Answers
 * the page and the cursor of the row after it (null on the last page).
 */
export function keysetPage<Row>(
  rows: Row[],
  limit: number,
  order: string,
  keyOf: (row: Row) => KeyValue[],
): { rows: Row[]; next: string | null } {
  if (rows.length <= limit) return { rows, next: null };
  const pageRows = rows.slice(0, limit);
  const last = pageRows[pageRows.length - 1] as Row;
  return { rows: pageRows, next: encodeCursor({ order, after: keyOf(last) }) };
}
