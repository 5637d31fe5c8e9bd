import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/domain/errors.js';
import { checkJsonValue, MAX_JSON_DEPTH } from '../../../src/http/json-body.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i++) value = { a: value };
  return value;
}

function errorPath(value: unknown): string | undefined {
  try {
    checkJsonValue(value);
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors[0]?.path;
  }
}

describe('checkJsonValue', () => {
  it('returns ordinary documents unchanged', () => {
    const doc = {
      meta: { country: 'sg' },
      records: [{ raw_url: 'https://a.sg/', bell: 'a\u0007b', emoji: '🌱' }],
    };
    expect(checkJsonValue(doc)).toBe(doc);
    expect(checkJsonValue(nested(MAX_JSON_DEPTH - 1))).toBeDefined();
  });

  it('refuses nesting deeper than the limit, naming where', () => {
    expect(errorPath(nested(MAX_JSON_DEPTH + 5))).toBe(`body.${Array(MAX_JSON_DEPTH).fill('a').join('.')}`);
  });

  it('refuses a lone surrogate in a value or a key, naming where', () => {
    expect(errorPath({ records: [{ ok: 'x' }, { bad: 'a\uD800' }] })).toBe('body.records.1.bad');
    expect(errorPath({ meta: { ['k\uDC00']: 1 } })).toBe('body.meta');
  });

  it('refuses a NUL in a value or a key (PostgreSQL cannot store it), naming where', () => {
    expect(errorPath({ records: [{ ok: 'x' }, { bad: 'a\u0000b' }] })).toBe('body.records.1.bad');
    expect(errorPath({ meta: { ['k\u0000']: 1 } })).toBe('body.meta');
  });

  it('refuses prototype-poisoning keys', () => {
    expect(errorPath(JSON.parse('{"meta":{"__proto__":{"admin":true}}}'))).toBe('body.meta.__proto__');
    expect(errorPath(JSON.parse('{"constructor":{"prototype":{"x":1}}}'))).toBe('body.constructor');
    expect(errorPath({ constructor: 'a string is only data' })).toBeUndefined();
  });
});
