// Validated identifiers of docs/design.md §2: country, category, date partition, chunk number. Every object key and
// every query filter is built from values that passed these schemas.
import { z } from 'zod';
import { isCountryCode } from './countries.js';

export const CATEGORY_PATTERN = /^[a-z0-9][a-z0-9_-]{0,63}$/;
export const USUAL_CATEGORIES = [
  'news',
  'policy',
  'guide',
  'faq',
  'data',
  'research',
  'announcement',
  'directory',
  'opinion',
  'alert',
] as const;
/** Chunk numbers are written with four digits so keys sort in number order; 9999 chunks per partition. */
export const MAX_CHUNK = 9999;

export const countrySchema = z
  .string()
  .trim()
  .toLowerCase()
  .refine(isCountryCode, { message: 'must be an ISO 3166-1 alpha-2 country code or "intl"' })
  .meta({ description: 'ISO 3166-1 alpha-2 code (any case) or `intl`; stored lowercase', example: 'sg' });

export const categorySchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(CATEGORY_PATTERN, { message: 'must be a slug: a-z, 0-9, "_" or "-", 1 to 64 characters' })
  .meta({ description: `Category slug; usual ones: ${USUAL_CATEGORIES.join(', ')}`, example: 'news' });

export function isCalendarDate(value: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value)) return false;
  const date = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value;
}

export const dateSchema = z
  .string()
  .trim()
  .refine(isCalendarDate, { message: 'must be a real calendar date written YYYY-MM-DD' })
  .meta({ description: 'Date partition, YYYY-MM-DD', example: '2026-11-21' });

/** Accepts `1`, `0001` and `raw_0001.json` (the file name as it appears in listings). */
export function parseChunkRef(value: string | number): number | null {
  const text = String(value).trim();
  const match = /^(?:raw_)?(\d{1,4})(?:\.json)?$/.exec(text);
  if (!match || text.startsWith('raw_') !== text.endsWith('.json')) return null;
  const chunk = Number(match[1]);
  return chunk >= 1 && chunk <= MAX_CHUNK ? chunk : null;
}

export const chunkRefSchema = z
  .union([z.string(), z.number()])
  .transform((value, ctx) => {
    const chunk = parseChunkRef(value);
    if (chunk === null) {
      ctx.addIssue({
        code: 'custom',
        message: `must be a chunk number 1..${MAX_CHUNK} (1, 0001 or raw_0001.json)`,
      });
      return z.NEVER;
    }
    return chunk;
  })
  .meta({ description: 'Chunk number: 1, 0001 or raw_0001.json', example: '0001' });

export interface Partition {
  country: string;
  category: string;
  date: string;
}

export const partitionSchema = z.object({
  country: countrySchema,
  category: categorySchema,
  date: dateSchema,
});

export function todayUtc(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export function padChunk(chunk: number): string {
  return String(chunk).padStart(4, '0');
}
