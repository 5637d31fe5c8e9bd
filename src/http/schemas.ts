// Request schemas shared by several routes (strict query strings, pagination, partitions, headers). Each route's
// own body schema lives with its domain, so the same zod schema validates, types and documents the request.
import { domainToASCII } from 'node:url';
import type { FastifySchemaCompiler } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  categorySchema,
  chunkRefSchema,
  countrySchema,
  dateSchema,
  isCalendarDate,
} from '../domain/identifiers.js';

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

/**
 * The query of a list that pages by cursor as well as by offset: `cursor` is the `pagination.next` of the page
 * before, and starts after its last row whatever was inserted since (docs/api.md, "Paging by cursor").
 */
export const cursorPaginationSchema = paginationSchema.extend({
  cursor: z
    .string()
    .min(1)
    .max(1024)
    .optional()
    .meta({ description: 'The `pagination.next` of the page before; not with `offset`' }),
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

const URL_PUNCTUATION = /[/\\?#@:%\s[\]]/;
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)*[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$/;

/** A host name in a path: any case, a trailing dot, IDN; kept lowercase ASCII (punycode), as checks store it. */
export const hostParam = z
  .string()
  .trim()
  .max(253)
  .transform((text, ctx) => {
    // domainToASCII parses like a URL's host ('a.sg/..' gives 'a.sg'): refuse URL punctuation before it.
    const host = URL_PUNCTUATION.test(text) ? '' : domainToASCII(text.replace(/\.$/, '').toLowerCase());
    if (!host || host.length > 253 || !HOST.test(host)) {
      ctx.addIssue({ code: 'custom', message: 'must be a host name, such as mom.gov.sg' });
      return z.NEVER;
    }
    return host;
  })
  .meta({ description: 'A host or registrable domain (IDN accepted)', example: 'mom.gov.sg' });

/**
 * One edge of a creation-time range, inclusive: a calendar date (the whole UTC day) or a timestamp with an offset,
 * given back as the first (`from`) or last (`to`) millisecond it covers, an ISO timestamp for text comparison.
 */
export function timeBound(edge: 'from' | 'to') {
  const message = 'must be a date (2026-11-21) or a timestamp with an offset (2026-11-21T09:30:00Z)';
  const timestamp = z.iso.datetime({ offset: true });
  return z
    .string()
    .trim()
    .transform((text, ctx) => {
      if (isCalendarDate(text)) return `${text}T${edge === 'from' ? '00:00:00.000' : '23:59:59.999'}Z`;
      if (timestamp.safeParse(text).success) return new Date(text).toISOString();
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    })
    .meta({
      description: `Created ${edge === 'from' ? 'at or after' : 'at or before'}: a date (the whole UTC day) or a timestamp`,
      example: '2026-11-21',
    });
}

/**
 * For a route whose body is read as a stream by its handler (a dataset upload, a seed import): its body schema
 * documents the body and is not run on it; the other parts are validated as on every route.
 */
export function streamedBodyValidator(route: {
  httpPart?: string;
}): ReturnType<FastifySchemaCompiler<unknown>> {
  return route.httpPart === 'body'
    ? (data: unknown) => ({ value: data })
    : validatorCompiler(route as unknown as Parameters<typeof validatorCompiler>[0]);
}
