// How operations declare what they answer: a success status with its body schema and media type, and the
// problem responses (one shared RFC 9457 Problem schema). The same zod schemas serialise the answers and
// document them in the OpenAPI document, so a typed client can be generated from it.
import { z } from 'zod';

export const fieldErrorSchema = z.object({ path: z.string(), message: z.string() });

/** RFC 9457 problem details; extension members (from, to, required_scope, seed_id, …) are kept. */
export const problemSchema = z
  .looseObject({
    type: z.string(),
    title: z.string(),
    status: z.number().int(),
    detail: z.string(),
    code: z.string().meta({ description: 'Stable machine-readable code, e.g. validation_failed, not_found' }),
    instance: z.string().optional(),
    errors: z.array(fieldErrorSchema).optional().meta({ description: 'For validation: each field and why' }),
  })
  .meta({ id: 'Problem', description: 'An error, as application/problem+json (RFC 9457)' });

export const PROBLEM_MEDIA_TYPE = 'application/problem+json';

const PROBLEM_DESCRIPTIONS: Record<number, string> = {
  400: 'Bad input: `errors[]` names each field or parameter',
  401: 'No API key, or a key that is not valid',
  403: 'The API key lacks the scope this operation needs',
  404: 'Not found',
  409: 'Conflict (an existing resource, an illegal transition, …)',
  413: "The body is larger than this operation's limit",
  414: 'A path parameter is too long',
  415: 'The body is not application/json',
  422: 'Well-formed, but cannot be processed',
  429: 'Over the rate limit: come back after Retry-After',
  500: 'Unexpected error; it was logged, and no detail is given',
  503: 'Not ready: a dependency does not answer',
};

export interface ResponseDeclaration {
  description: string;
  content: Record<string, { schema: z.ZodType }>;
}

/** A JSON success answer. */
export function json(schema: z.ZodType, description: string): ResponseDeclaration {
  return { description, content: { 'application/json': { schema } } };
}

/** The problem answers of these statuses, each with its usual meaning. */
export function problems(...statuses: number[]): Record<number, ResponseDeclaration> {
  return Object.fromEntries(
    statuses.map((status) => [
      status,
      {
        description: PROBLEM_DESCRIPTIONS[status] ?? 'Error',
        content: { [PROBLEM_MEDIA_TYPE]: { schema: problemSchema } },
      },
    ]),
  );
}

/** An answer with no body (204). */
export function empty(description: string) {
  return z.null().meta({ description });
}

const timestamp = z.string().meta({ format: 'date-time' });
export const timestampSchema = timestamp;
export const nullableTimestamp = timestamp.nullable();

export const paginationInfoSchema = z
  .object({
    limit: z.number().int(),
    offset: z.number().int(),
    total: z.number().int().meta({ description: 'Items matching, on every page' }),
  })
  .meta({ id: 'Pagination' });

/** `{ data: [...], pagination }`, the shape of every list. */
export function pageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: paginationInfoSchema });
}

export const cursorPaginationInfoSchema = paginationInfoSchema
  .extend({
    next: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `cursor` for the page after this one; null on the last page' }),
  })
  .meta({ id: 'CursorPagination' });

/** The shape of a list that pages by cursor too: its pagination carries `next`. */
export function cursorPageOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: cursorPaginationInfoSchema });
}
