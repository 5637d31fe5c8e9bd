// The JSON body parser: strict UTF-8 decoding (body-encoding.ts), JSON.parse, then one iterative walk that
// refuses what would hurt later — nesting deeper than any real dataset (a stack overflow when re-serialised),
// prototype-poisoning keys, and strings or keys no backend can store as sent (a NUL, a lone surrogate:
// text-guard.ts).
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ValidationError } from '../domain/errors.js';
import { assertUtf8Charset, decodeUtf8 } from './body-encoding.js';
import { textFault } from './text-guard.js';

export const MAX_JSON_DEPTH = 64;

interface Visit {
  value: unknown;
  depth: number;
  key: string | number | null;
  parent: Visit | null;
}

/** The dotted path of a visit, built only when there is an error to report. */
function pathOf(visit: Visit, prefix: ReadonlyArray<string | number>, extra?: string): string {
  const parts: Array<string | number> = extra === undefined ? [] : [extra];
  for (let v: Visit | null = visit; v && v.key !== null; v = v.parent) parts.unshift(v.key);
  return ['body', ...prefix, ...parts].join('.');
}

/**
 * Throws a ValidationError naming the first offending place; returns the value unchanged otherwise. `at`
 * places a value found inside a larger body (a streamed dataset's record: `['records', 7]`, depth 2).
 */
export function checkJsonValue(
  root: unknown,
  at: { path?: ReadonlyArray<string | number>; depth?: number } = {},
): unknown {
  const prefix = at.path ?? [];
  const stack: Visit[] = [{ value: root, depth: at.depth ?? 0, key: null, parent: null }];
  while (stack.length > 0) {
    const visit = stack.pop() as Visit;
    const { value, depth } = visit;
    if (typeof value === 'string') {
      const fault = textFault(value);
      if (fault) throw ValidationError.field(pathOf(visit, prefix), fault);
      continue;
    }
    if (typeof value !== 'object' || value === null) continue;
    if (depth >= MAX_JSON_DEPTH)
      throw ValidationError.field(pathOf(visit, prefix), `nests deeper than ${MAX_JSON_DEPTH} levels`);
    if (Array.isArray(value)) {
      for (let i = 0; i < value.length; i++)
        stack.push({ value: value[i], depth: depth + 1, key: i, parent: visit });
      continue;
    }
    for (const key of Object.keys(value)) {
      const child = (value as Record<string, unknown>)[key];
      if (key === '__proto__' || (key === 'constructor' && typeof child === 'object')) {
        throw ValidationError.field(pathOf(visit, prefix, key), 'is a reserved key');
      }
      const keyFault = textFault(key);
      if (keyFault) throw ValidationError.field(pathOf(visit, prefix), `has a key that ${keyFault}`);
      stack.push({ value: child, depth: depth + 1, key, parent: visit });
    }
  }
  return root;
}

export function registerJsonBodyParser(app: FastifyInstance): void {
  // Only JSON bodies: Fastify's text/plain parser would hand a string to the JSON schemas (a 400 where a
  // 415 is right).
  app.removeContentTypeParser(['application/json', 'text/plain']);
  app.addContentTypeParser(
    'application/json',
    { parseAs: 'buffer' },
    (request: FastifyRequest, body: string | Buffer, done) => {
      let text: string;
      try {
        assertUtf8Charset(request.headers['content-type']);
        // Strict: Buffer#toString would turn every bad byte into U+FFFD and store it as if it had been sent.
        text = typeof body === 'string' ? body : decodeUtf8(body);
      } catch (error) {
        done(error as Error, undefined);
        return;
      }
      if (text.trim() === '') {
        done(
          Object.assign(new Error('the body is empty; send a JSON document'), {
            statusCode: 400,
            code: 'FST_ERR_CTP_EMPTY_JSON_BODY',
          }),
          undefined,
        );
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
      } catch (error) {
        done(
          Object.assign(new Error(`the body is not valid JSON: ${(error as Error).message}`), {
            statusCode: 400,
            code: 'FST_ERR_CTP_INVALID_JSON_BODY',
          }),
          undefined,
        );
        return;
      }
      try {
        done(null, checkJsonValue(parsed));
      } catch (error) {
        done(error as Error, undefined);
      }
    },
  );
}
