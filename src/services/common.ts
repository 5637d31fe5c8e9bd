// Small things every service shares: the clock, pagination, JSON columns and status tallies.
import type { Db } from '../ports/database.js';

export type Clock = () => Date;
export const systemClock: Clock = () => new Date();

export interface PageRequest {
  limit: number;
  offset: number;
}

export interface Page<T> {
  data: T[];
  /** `next`: the cursor of the page after this one (null on the last page), on the lists that page by cursor. */
  pagination: { limit: number; offset: number; total: number; next?: string | null };
}

/** A page request of a list that also pages by cursor (services/cursor.ts): `cursor` and `offset` exclude each other. */
export interface CursorPageRequest extends PageRequest {
  cursor?: string;
}

export function page<T>(data: T[], request: PageRequest, total: number, next?: string | null): Page<T> {
  const pagination = { limit: request.limit, offset: request.offset, total };
  return { data, pagination: next === undefined ? pagination : { ...pagination, next } };
}

export function parseJson<T>(text: string | null | undefined, fallback: T): T {
  if (text === null || text === undefined || text === '') return fallback;
  return JSON.parse(text) as T;
}

/** Splits items into chunks of `size`, keeping order. */
export function chunked<T>(items: readonly T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string; message?: string };
  return (
    e?.code === '23505' ||
    e?.code === 'SQLITE_CONSTRAINT_UNIQUE' ||
    e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
  );
}

/** The value under key, created with make() the first time. */
export function getOrCreate<K, V>(map: Map<K, V>, key: K, make: () => V): V {
  let value = map.get(key);
  if (value === undefined) {
    value = make();
    map.set(key, value);
  }
  return value;
}

/** Rows per status of the batches table (the batch service's tally; seeds are counted by their repository). */
export async function countByStatus(db: Db, table: 'batches'): Promise<Record<string, number>> {
  const rows = await db
    .selectFrom(table)
    .select(['status', (eb) => eb.fn.countAll().as('n')])
    .groupBy('status')
    .execute();
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}
