// Re-check ticks (docs/design.md §11): SEEDBED_RECHECK_CRON's ticks of a UTC day share the active seeds out by a hash
// of each domain, so each seed is due on exactly one tick a day and the shares are about even.
import { describe, expect, it } from 'vitest';
import { isDueAt, recheckTickOf } from '../../../src/domain/recheck-slots.js';

const DAY = Date.UTC(2026, 10, 23);
const hour = (h: number, minute = 0) => new Date(DAY + h * 3_600_000 + minute * 60_000);

describe('re-check ticks', () => {
  it('places a time on the latest tick at or before it, among the day’s ticks', () => {
    expect(recheckTickOf('0 * * * *', hour(0))).toEqual({ index: 0, count: 24, at: hour(0) });
    expect(recheckTickOf('0 * * * *', hour(13, 59))).toEqual({ index: 13, count: 24, at: hour(13) });
    expect(recheckTickOf('30 */6 * * *', hour(7))).toEqual({ index: 1, count: 4, at: hour(6, 30) });
    // Before the day's first tick: the first.
    expect(recheckTickOf('30 */6 * * *', hour(0, 10))).toMatchObject({ index: 0, count: 4 });
  });

  it('a cron that fires less than daily takes every seed on each tick', () => {
    const sunday = new Date(Date.UTC(2026, 10, 22, 3));
    const tick = recheckTickOf('0 3 * * 0', sunday);
    expect(tick.count).toBe(1);
    expect(isDueAt('example.org', tick)).toBe(true);
    // A day without a tick still answers (nothing runs on it anyway).
    expect(recheckTickOf('0 3 * * 0', hour(12)).count).toBe(1);
  });

  it('each domain is due on exactly one tick a day, and the ticks share the domains about evenly', () => {
    const domains = Array.from({ length: 2400 }, (_, i) => `site${i}.example.org`);
    const ticks = Array.from({ length: 24 }, (_, h) => recheckTickOf('0 * * * *', hour(h)));
    const perTick = ticks.map((tick) => domains.filter((d) => isDueAt(d, tick)).length);
    expect(perTick.reduce((a, b) => a + b, 0)).toBe(domains.length);
    for (const domain of domains.slice(0, 50))
      expect(ticks.filter((tick) => isDueAt(domain, tick))).toHaveLength(1);
    // 100 a tick on average; a hash spreads them within a loose band.
    expect(Math.min(...perTick)).toBeGreaterThan(50);
    expect(Math.max(...perTick)).toBeLessThan(150);
  });
});
