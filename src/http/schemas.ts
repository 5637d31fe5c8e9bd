// Request schemas shared by several routes (strict query strings, pagination, partitions, headers). Each route's
// own body schema lives with its domain, so the same zod schema validates, types and documents the request.
import { z } from 'zod';
import { categorySchema, chunkRefSchema, countrySchema, dateSchema } from '../domain/identifiers.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;
export const MAX_OFFSET = 10_000_000;

const DECIMAL = /^\d{1,15}$/;

/**
 * The one integer schema of every query parameter: plain decimal digits only. `Number()` would take `0x10`, `1e1`,
 * `+5`, ` 5` and the empty string (as 0); each of those is a 400 naming the parameter instead. Documented as an
 * OpenAPI integer, which is how a query parameter's integer is written on the wire.
 */
export function queryInteger(min: number, max: number) {
  const message = `must be a decimal integer ${min}..${max}`;
  return z
    .string({ message })
    .refine((text) => DECIMAL.test(text), { message })
    .transform(Number)
    .pipe(z.number().int().min(min, { message }).max(max, { message }))
    .meta({ type: 'integer', minimum: min, maximum: max } as Record<string, unknown>);
}

/** A query string that refuses any parameter it does not name: `?domain=` on a list is a 400, not ignored. */
export function strictQuery<Shape extends z.ZodRawShape>(shape: Shape) {
  return z.object(shape).strict();
}

/** The query string of a route that takes no parameter at all. */
export const noQuery = strictQuery({});

export const paginationSchema = strictQuery({
  limit: queryInteger(1, MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .meta({ description: `1..${MAX_LIMIT}, default ${DEFAULT_LIMIT}`, default: DEFAULT_LIMIT }),
  offset: queryInteger(0, MAX_OFFSET)
    .default(0)
    .meta({ description: `0..${MAX_OFFSET}, default 0`, default: 0 }),
});

export const partitionParams = z.object({
  country: countrySchema,
  category: categorySchema,
  date: dateSchema,
});
export const chunkParams = partitionParams.extend({ chunk: chunkRefSchema });

export const idempotencyHeaders = z.looseObject({
  'idempotency-key': z
    .string()
    .min(1)
    .max(200)
    .regex(/^[\x21-\x7e]+$/, { message: 'must be 1 to 200 visible ASCII characters' })
    .optional()
    .meta({ description: 'Repeat a request safely: the same key returns the same batch' }),
});
