import { describe, expect, it } from 'vitest';
import { chainMs, perfectlyParallel } from '../../../bench/parallel-bound.js';

describe('the perfectly parallel bound of the latency bench', () => {
  it('counts a host chain as its requests and a gap after each but the last', () => {
    expect(chainMs([150, 150, 150], 250)).toBe(950);
    expect(chainMs([], 250)).toBe(0);
  });

  it('is the longest host chain when the cap never binds', () => {
    const hosts = [
      // 100 + 250 + 100 + 250 + 100
      { host: 'a', durationsMs: [100, 100, 100], gapMs: 250 },
      { host: 'b', durationsMs: [1000], gapMs: 250 },
    ];
    expect(perfectlyParallel(hosts, 10)).toEqual({ makespanMs: 1000, lowerBoundMs: 1000 });
  });

  it('is all the work over the cap when every host is short', () => {
    const hosts = Array.from({ length: 8 }, (_, i) => ({ host: `h${i}`, durationsMs: [100], gapMs: 250 }));
    expect(perfectlyParallel(hosts, 2)).toEqual({ makespanMs: 400, lowerBoundMs: 400 });
  });

  it('starts the longest chain first, so a long site does not end the run late', () => {
    const hosts = [
      ...Array.from({ length: 4 }, (_, i) => ({ host: `short${i}`, durationsMs: [100], gapMs: 0 })),
      { host: 'long', durationsMs: [100, 100, 100, 100], gapMs: 0 },
    ];
    // Greedy on arrival order would leave the long chain for last: 200 + 400.
    expect(perfectlyParallel(hosts, 2).makespanMs).toBe(400);
  });
});
