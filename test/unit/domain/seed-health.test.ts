// Seed health rules (docs/design.md §11): what one more check does to a seed's health, and when SEEDBED_AUTO_SUSPEND
// suspends it.
import { describe, expect, it } from 'vitest';
import { type CheckOutcome, nextHealth, shouldSuspend } from '../../../src/domain/seed-health.js';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 23, 10, minute)).toISOString();
const ok = (minute: number, stale: boolean | null = false): CheckOutcome => ({
  reached: true,
  stale,
  at: at(minute),
  batchId: `b${minute}`,
});
const failed = (minute: number, reason = 'dead: ENOTFOUND'): CheckOutcome => ({
  reached: false,
  reason,
  at: at(minute),
  batchId: `b${minute}`,
});

describe('seed health', () => {
  it('a first good check is ok; one whose newest item is past the stale age is stale', () => {
    expect(nextHealth(null, ok(1))).toEqual({
      state: 'ok',
      consecutive_failures: 0,
      last_checked_at: at(1),
      last_ok_at: at(1),
      last_error: null,
      last_batch_id: 'b1',
    });
    expect(nextHealth(null, ok(1, true)).state).toBe('stale');
    // Nothing dated says nothing about staleness.
    expect(nextHealth(null, ok(1, null)).state).toBe('ok');
  });

  it('failures count in a row, keep the last good check, and a good check resets them', () => {
    let health = nextHealth(null, ok(1));
    health = nextHealth(health, failed(2));
    expect(health).toMatchObject({
      state: 'failing',
      consecutive_failures: 1,
      last_ok_at: at(1),
      last_error: 'dead: ENOTFOUND',
    });
    health = nextHealth(health, failed(3, 'blocked: 403'));
    expect(health).toMatchObject({
      consecutive_failures: 2,
      last_error: 'blocked: 403',
      last_batch_id: 'b3',
    });
    health = nextHealth(health, ok(4));
    expect(health).toMatchObject({
      state: 'ok',
      consecutive_failures: 0,
      last_error: null,
      last_ok_at: at(4),
    });
  });

  it('a seed never reached has no last good check', () => {
    expect(nextHealth(null, failed(1))).toMatchObject({ consecutive_failures: 1, last_ok_at: null });
  });

  it('suspends only an active seed, only when asked, at the count asked for', () => {
    const twice = nextHealth(nextHealth(null, failed(1)), failed(2));
    expect(shouldSuspend(twice, 'active', null)).toBe(false);
    expect(shouldSuspend(twice, 'active', 3)).toBe(false);
    expect(shouldSuspend(twice, 'active', 2)).toBe(true);
    expect(shouldSuspend(twice, 'draft', 2)).toBe(false);
    expect(shouldSuspend(twice, 'suspended', 1)).toBe(false);
    expect(shouldSuspend(nextHealth(twice, ok(3)), 'active', 1)).toBe(false);
  });
});
