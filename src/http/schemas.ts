// Request schemas shared by several routes (pagination, partitions, headers). Each route's own body schema
// lives with its domain, so the same zod schema validates, types and documents the request.
import { z } from 'zod';
import { categorySchema, chunkRefSchema, countrySchema, dateSchema } from '../domain/identifiers.js';

export const DEFAULT_LIMIT = 50;
export const MAX_LIMIT = 100;

export const paginationSchema = z.object({
  limit: z.coerce
    .number()
    .int()
    .min(1)
    .max(MAX_LIMIT)
    .default(DEFAULT_LIMIT)
    .meta({ description: `1..${MAX_LIMIT}, default ${DEFAULT_LIMIT}` }),
  offset: z.coerce.number().int().min(0).max(10_000_000).default(0),
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
