// The consumer loop's handling of a backend outage, on fake timers: what it does is decided by its clock.
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { type QueueDriver, startPollLoop } from '../../../src/adapters/poll-loop.js';
import { BackendUnavailableError } from '../../../src/domain/errors.js';
import type { Job } from '../../../src/ports/queue.js';

const job = (id: string): Job => ({ id, queue: 'RESEARCH_QUEUE', payload: {}, attempt: 1, maxAttempts: 2 });

function fakeDriver(deliveries: Job[][]) {
  const calls = { fetch: 0, settled: [] as string[], released: [] as Array<{ id: string; delayMs: number }> };
  const driver: QueueDriver<Job> = {
    async fetch() {
      calls.fetch += 1;
      return deliveries.shift() ?? [];
    },
    job: (d) => d,
    async settle(d) {
      calls.settled.push(d.id);
    },
    async renew() {},
    async release(d, delayMs = 0) {
      calls.released.push({ id: d.id, delayMs });
    },
  };
  return { driver, calls };
}

const options = {
  concurrency: 1,
  pollIntervalMs: 100,
  heartbeatMs: 60_000,
  drainTimeoutMs: 1_000,
  outageBackoff: { baseMs: 1_000, maxMs: 60_000 },
  onError: () => {},
};

describe('poll loop during a backend outage', () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('hands the job back unspent, after a backoff step, and claims nothing until the step is over', async () => {
    const { driver, calls } = fakeDriver([[job('a')], [job('b')]]);
    const handled: string[] = [];
    const loop = startPollLoop(
      'RESEARCH_QUEUE',
      driver,
      async (j) => {
        handled.push(j.id);
        if (j.id === 'a')
          throw new BackendUnavailableError('object store', new Error('connect ECONNREFUSED'));
      },
      { ...options, wake: new EventEmitter() },
    );

    await vi.advanceTimersByTimeAsync(0);
    expect(handled).toEqual(['a']);
    expect(calls.settled).toEqual([]);
    expect(calls.released).toHaveLength(1);
    const { delayMs } = calls.released[0]!;
    // The first step: 50–100 % of baseMs.
    expect(delayMs).toBeGreaterThanOrEqual(500);
    expect(delayMs).toBeLessThanOrEqual(1_000);

    // Many poll intervals pass inside the step: no claim.
    await vi.advanceTimersByTimeAsync(delayMs - 1);
    expect(calls.fetch).toBe(1);

    await vi.advanceTimersByTimeAsync(1);
    expect(calls.fetch).toBeGreaterThanOrEqual(2);
    expect(handled).toEqual(['a', 'b']);
    expect(calls.settled).toEqual(['b']);

    const stopped = loop.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
  });

  it('settles an ordinary failure as before: it is the job that failed', async () => {
    const { driver, calls } = fakeDriver([[job('a')]]);
    const loop = startPollLoop(
      'RESEARCH_QUEUE',
      driver,
      async () => {
        throw new Error('bad input');
      },
      { ...options, wake: new EventEmitter() },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(calls.settled).toEqual(['a']);
    expect(calls.released).toEqual([]);
    const stopped = loop.stop();
    await vi.advanceTimersByTimeAsync(0);
    await stopped;
  });
});
