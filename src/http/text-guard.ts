// Text the service cannot store as sent. PostgreSQL's text and jsonb cannot hold U+0000 (a NUL makes the query
// fail: a 500 on PostgreSQL where SQLite answered 200), and a lone surrogate has no UTF-8 form (it would be
// stored as U+FFFD, not as sent). Both are refused at the edge as a 400 naming the parameter or field, the same
// on every backend: here for query strings and path parameters, in json-body.ts for every JSON body string.
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify';
import { ValidationError } from '../domain/errors.js';

/** Why this text cannot be taken, or null when it can. */
export function textFault(text: string): string | null {
  if (text.includes('\u0000')) return 'must not contain a NUL character (U+0000)';
  if (!text.isWellFormed()) return 'is not well-formed Unicode (lone surrogate)';
  return null;
}

function checkParameters(where: 'querystring' | 'params' | 'body', values: unknown): void {
  if (typeof values !== 'object' || values === null) return;
  for (const name in values) {
    if (!Object.hasOwn(values, name)) continue;
    const value = (values as Record<string, unknown>)[name];
    const nameFault = textFault(name);
    if (nameFault) throw ValidationError.field(where, `has a parameter name that ${nameFault}`);
    // A repeated query parameter arrives as an array of strings.
    for (const text of Array.isArray(value) ? value : [value]) {
      const fault = typeof text === 'string' ? textFault(text) : null;
      if (fault) throw ValidationError.field(`${where}.${name}`, fault);
    }
  }
}

/**
 * A preValidation hook: the query string, path parameters and a form body (the review page's forms: a flat map
 * of strings), before any route's schema sees them. JSON bodies were checked as they were parsed. A callback
 * hook, not an async one: every request runs it (Fastify turns what it throws into the request's error).
 */
export function refuseUnstorableParameters(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: HookHandlerDoneFunction,
): void {
  checkParameters('querystring', request.query);
  checkParameters('params', request.params);
  if (String(request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded'))
    checkParameters('body', request.body);
  done();
}
