import { describe, expect, it } from 'vitest';
import { ValidationError } from '../../../src/domain/errors.js';
import { cursorPosition, decodeCursor, encodeCursor, keysetPage } from '../../../src/services/cursor.js';

function refusal(run: () => unknown): string {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ValidationError);
    return (error as ValidationError).errors.map((e) => e.path).join(',');
  }
  throw new Error('expected a ValidationError');
}

describe('cursor', () => {
  it('round-trips a sort key of strings, numbers and nulls', () => {
    const text = encodeCursor({ order: '-found', after: ['2026-11-26T09:00:00.000Z', 3.5, null, 'de:x'] });
    expect(text).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(decodeCursor(text, '-found', 4).after).toEqual(['2026-11-26T09:00:00.000Z', 3.5, null, 'de:x']);
  });

  it('refuses a cursor made for another order, of another key length, or not made here, naming cursor', () => {
    const text = encodeCursor({ order: 'found', after: ['a', 'b'] });
    expect(refusal(() => decodeCursor(text, '-found', 2))).toBe('cursor');
    expect(refusal(() => decodeCursor(text, 'found', 3))).toBe('cursor');
    for (const junk of [
      '%%%',
      'bm90IGpzb24',
      Buffer.from('{"o":"found","a":[{}]}').toString('base64url'),
      'x'.repeat(2000),
    ])
      expect(refusal(() => decodeCursor(junk, 'found', 1))).toBe('cursor');
  });

  it('refuses a cursor beside an offset, and reads no position without one', () => {
    const text = encodeCursor({ order: 'id', after: ['a'] });
    expect(refusal(() => cursorPosition({ cursor: text, offset: 10 }, 'id', 1))).toBe('cursor');
    expect(cursorPosition({ offset: 10 }, 'id', 1)).toBeUndefined();
    expect(cursorPosition({ cursor: text, offset: 0 }, 'id', 1)?.after).toEqual(['a']);
  });

  it('gives a next cursor only when the over-read found a row past the page', () => {
    const rows = [{ id: 'a' }, { id: 'b' }, { id: 'c' }];
    expect(keysetPage(rows, 3, 'id', (r) => [r.id]).next).toBeNull();
    const page = keysetPage(rows, 2, 'id', (r) => [r.id]);
    expect(page.rows).toEqual([{ id: 'a' }, { id: 'b' }]);
    expect(decodeCursor(page.next as string, 'id', 1).after).toEqual(['b']);
  });
});
