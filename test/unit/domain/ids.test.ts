import { describe, expect, it } from 'vitest';
import { UUID_PATTERN, uuidv7 } from '../../../src/domain/ids.js';

const V7 = /^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function timestampOf(id: string): number {
  return Number.parseInt(id.replace(/-/g, '').slice(0, 12), 16);
}

function expectStrictlyIncreasing(ids: string[]): void {
  for (let i = 1; i < ids.length; i++) {
    if (!((ids[i - 1] as string) < (ids[i] as string))) {
      throw new Error(`id ${i} (${ids[i]}) does not sort after id ${i - 1} (${ids[i - 1]})`);
    }
  }
}

describe('uuidv7', () => {
  it('has the UUIDv7 format: version 7, RFC 9562 variant', () => {
    for (let i = 0; i < 200; i++) {
      const id = uuidv7();
      expect(id).toMatch(V7);
      expect(id).toMatch(UUID_PATTERN);
    }
  });

  it('carries the creation time in its first 48 bits', () => {
    const before = Date.now();
    const id = uuidv7();
    const after = Date.now();
    // It may run ahead of the clock when earlier calls exhausted a millisecond's sequence.
    expect(timestampOf(id)).toBeGreaterThanOrEqual(before);
    expect(timestampOf(id)).toBeLessThanOrEqual(after + 10);
  });

  it('sorts 10,000 ids made in a tight loop in creation order, all distinct', () => {
    const ids = Array.from({ length: 10_000 }, () => uuidv7());
    expectStrictlyIncreasing(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('sorts ids made with one fixed time in creation order', () => {
    const now = Date.now() + 60_000;
    const ids = Array.from({ length: 10_000 }, () => uuidv7(now));
    expectStrictlyIncreasing(ids);
    for (const id of ids) expect(id).toMatch(V7);
  });

  it('sorts an id made with an earlier injected time after the ids before it', () => {
    const first = uuidv7();
    const earlier = uuidv7(Date.now() - 3_600_000);
    const epoch = uuidv7(0);
    const next = uuidv7();
    expectStrictlyIncreasing([first, earlier, epoch, next]);
    for (const id of [earlier, epoch, next]) expect(id).toMatch(V7);
  });

  it('uses an injected later time as its timestamp', () => {
    const later = Date.now() + 3_600_000 * 24 * 365;
    const id = uuidv7(later);
    expect(timestampOf(id)).toBe(later);
  });

  it('writes every byte of a 48-bit time in order (both halves of the millisecond count)', () => {
    // Far in the future so no earlier id in this process is later: 0x0f1e2d3c4b5a ms is the year 16,756.
    const time = 0x0f1e2d3c4b5a;
    const id = uuidv7(time);
    expect(id.slice(0, 13)).toBe('0f1e2d3c-4b5a');
    expect(timestampOf(id)).toBe(time);
  });
});
