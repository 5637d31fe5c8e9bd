// The one place errors become HTTP: application/problem+json (RFC 9457) with a stable `code`, the field
// paths of validation failures, and never a stack trace or an internal message.
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { DomainError, type FieldError, isBackendUnavailable, ValidationError } from '../domain/errors.js';

export const PROBLEM_TYPE_BASE = 'https://seedbed.dev/problems/';

export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  instance?: string;
  errors?: FieldError[];
  [extension: string]: unknown;
}

const TITLES: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  406: 'Not Acceptable',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};

export function problem(
  status: number,
  code: string,
  detail: string,
  extra: Record<string, unknown> = {},
): Problem {
  return {
    type: `${PROBLEM_TYPE_BASE}${code}`,
    title: TITLES[status] ?? 'Error',
    status,
    detail,
    code,
    ...extra,
  };
}

/** Fastify's own error codes for malformed requests, mapped to what they mean for a client. */
const FASTIFY_CODES: Record<string, { status: number; code: string }> = {
  FST_ERR_CTP_BODY_TOO_LARGE: { status: 413, code: 'body_too_large' },
  FST_ERR_CTP_INVALID_MEDIA_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: { status: 400, code: 'invalid_content_length' },
  FST_ERR_CTP_EMPTY_JSON_BODY: { status: 400, code: 'empty_body' },
  FST_ERR_CTP_INVALID_JSON_BODY: { status: 400, code: 'invalid_json' },
  FST_ERR_CTP_EMPTY_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_CTP_INVALID_TYPE: { status: 415, code: 'unsupported_media_type' },
  FST_ERR_BAD_URL: { status: 400, code: 'bad_url' },
  FST_ERR_MAX_PARAM_LENGTH: { status: 414, code: 'uri_too_long' },
  FST_ERR_ASYNC_CONSTRAINT: { status: 400, code: 'bad_request' },
  FST_ERR_VALIDATION: { status: 400, code: 'validation_failed' },
  // Raised by the body readers (body-encoding.ts, dataset-upload.ts).
  SEEDBED_INVALID_UTF8: { status: 400, code: 'invalid_utf8' },
  SEEDBED_UNSUPPORTED_CHARSET: { status: 415, code: 'unsupported_charset' },
};

export function toProblem(error: FastifyError | Error, request: FastifyRequest): Problem {
  if (hasZodFastifySchemaValidationErrors(error)) {
    const where = (error as FastifyError).validationContext ?? 'body';
    const errors = error.validation.flatMap((issue) => {
      const path = [where, ...issue.instancePath.split('/').filter(Boolean)];
      // An unknown key is named in its own path, one error per key, so a client sees which one to drop.
      const unknown =
        issue.keyword === 'unrecognized_keys' ? (issue.params as { keys?: unknown }).keys : null;
      if (Array.isArray(unknown) && unknown.length > 0) {
        const what =
          where === 'querystring' ? 'is not a parameter of this operation' : 'is not a known field';
        return unknown.map((key) => ({ path: [...path, String(key)].join('.'), message: what }));
      }
      return [{ path: path.join('.'), message: issue.message ?? 'invalid' }];
    });
    return problem(400, 'validation_failed', errors.map((e) => `${e.path}: ${e.message}`).join('; '), {
      errors,
    });
  }
  if (error instanceof ValidationError) {
    return problem(400, error.code, error.message, { errors: error.errors });
  }
  if (error instanceof DomainError) {
    return problem(error.status, error.code, error.message, error.details ?? {});
  }
  if (isBackendUnavailable(error)) {
    // Not a bug of ours to log as one: /health/ready already says which backend is down.
    request.log.warn({ err: error }, 'backend unavailable');
    return problem(503, 'backend_unavailable', 'a backend of the service is unavailable; retry shortly');
  }
  const fastifyError = error as FastifyError;
  const known = fastifyError.code ? FASTIFY_CODES[fastifyError.code] : undefined;
  if (known) return problem(known.status, known.code, fastifyError.message);
  if (fastifyError.statusCode === 429) {
    return problem(429, 'rate_limited', 'too many requests: slow down and retry after the Retry-After delay');
  }
  if (fastifyError.statusCode && fastifyError.statusCode >= 400 && fastifyError.statusCode < 500) {
    // Fastify's messages for client errors describe the request, not our internals.
    return problem(fastifyError.statusCode, 'bad_request', fastifyError.message);
  }
  request.log.error({ err: error }, 'unhandled error');
  return problem(500, 'internal_error', 'an unexpected error occurred; it has been logged');
}

export function sendProblem(reply: FastifyReply, body: Problem): FastifyReply {
  return reply.code(body.status).type('application/problem+json').send(body);
}
