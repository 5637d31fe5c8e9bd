// The consumer loop claiming ahead (pg-boss's prefetch): jobs for the next slots are claimed while the
// current ones run, started the moment a slot frees, and handed back when the slots stay busy or on stop.

import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { startPollLoop } from '../../../src/adapters/poll-loop.js';
import { BackendUnavailableError } from '../../../src/domain/errors.js';
import type { Job } from '../../../src/ports/queue.js';
import { gate, until } from '../../support/waiting.js';

/** A queue in memory: what was asked for, what was handed back, and the jobs still waiting. */
function memoryDriver(ids: string[]) {
  const waiting = [...ids];
  const asked: number[] = [];
  const released: string[] = [];
  const settled: string[] = [];
  const job = (id: string): Job => ({ id, queue: 'SEED_QUEUE', payload: {}, attempt: 1, maxAttempts: 1 });
  return {
    asked,
    released,
    settled,
    waiting,
    driver: {
      async fetch(_queue: string, max: number) {
        asked.push(max);
        return waiting.splice(0, max);
      },
      job,
      async settle(id: string) {
        settled.push(id);
      },
      async renew() {},
      async release(id: string) {
        released.push(id);
        waiting.unshift(id);
      },
    },
  };
}

const options = (prefetch: number, pollIntervalMs = 20) => ({
  concurrency: 1,
  prefetch,
  pollIntervalMs,
  heartbeatMs: 60_000,
  drainTimeoutMs: 1_000,
  outageBackoff: { baseMs: 1_000, maxMs: 60_000 },
  wake: new EventEmitter(),
  onError: (error: unknown) => {
    throw error;
  },
});

describe('poll loop claiming ahead', () => {
  it('claims the next slot’s job while one runs, and starts it the moment the slot frees', async () => {
    const queue = memoryDriver(['a', 'b', 'c']);
    const started: string[] = [];
    const first = gate();
    const loop = startPollLoop(
      'SEED_QUEUE',
      queue.driver,
      async (job) => {
        started.push(job.id);
        if (job.id === 'a') await first.wait;
      },
      options(1, 10_000),
    );
    await until('a runs and b is claimed ahead', () => started.length === 1 && queue.waiting.length === 1);
    // One claim for the free slot and the one ahead: a round trip saved per job.
    expect(queue.asked[0]).toBe(2);
    first.open();
    await until('every job ran', () => queue.settled.length === 3);
    expect(started).toEqual(['a', 'b', 'c']);
    await loop.stop();
    expect(queue.released).toEqual([]);
  });

  it('hands the jobs claimed ahead back when the slots stay busy for a poll interval, and claims no more', async () => {
    const queue = memoryDriver(['long', 'next']);
    const long = gate();
    const loop = startPollLoop('SEED_QUEUE', queue.driver, async () => long.wait, options(1, 20));
    await until('the job claimed ahead is handed back', () => queue.released.includes('next'));
    // Another consumer could take it now: this one holds nothing it cannot run.
    expect(queue.waiting).toEqual(['next']);
    const claims = queue.asked.length;
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(queue.asked.length).toBe(claims);
    long.open();
    await until('both ran', () => queue.settled.length === 2);
    await loop.stop();
  });

  it('keeps the jobs claimed ahead when jobs take a little longer than the poll interval', async () => {
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const queue = memoryDriver(ids);
    const loop = startPollLoop(
      'SEED_QUEUE',
      queue.driver,
      () => new Promise((resolve) => setTimeout(resolve, 40)),
      options(1, 5),
    );
    await until('every job ran', () => queue.settled.length === ids.length);
    await loop.stop();
    // Held for two of the jobs' own durations, not one poll interval: only the job claimed ahead of the first
    // finish, when no duration was known yet, may go back (a claim and a release per job otherwise).
    expect(queue.released.length).toBeLessThanOrEqual(1);
  });

  it('hands back on stop what it claimed ahead, and claims nothing ahead without prefetch', async () => {
    const queue = memoryDriver(['a', 'b']);
    const running = gate();
    const loop = startPollLoop('SEED_QUEUE', queue.driver, async () => running.wait, options(1, 10_000));
    await until('b is claimed ahead', () => queue.waiting.length === 0);
    const stopping = loop.stop();
    running.open();
    await stopping;
    expect(queue.settled).toEqual(['a']);
    expect(queue.released).toEqual(['b']);

    const plain = memoryDriver(['x', 'y']);
    const hold = gate();
    const other = startPollLoop('SEED_QUEUE', plain.driver, async () => hold.wait, options(0, 10_000));
    await until('x runs', () => plain.waiting.length === 1);
    expect(plain.asked).toEqual([1]);
    hold.open();
    await until('both ran', () => plain.settled.length === 2);
    await other.stop();
  });

  it('hands back what it claimed ahead when a backend outage makes it back off, and runs none of it', async () => {
    const queue = memoryDriver(['a', 'b']);
    const started: string[] = [];
    const down = gate();
    const loop = startPollLoop(
      'SEED_QUEUE',
      queue.driver,
      async (job) => {
        started.push(job.id);
        await down.wait;
        throw new BackendUnavailableError('database', new Error('connect ECONNREFUSED'));
      },
      options(1, 10_000),
    );
    await until('b is claimed ahead', () => queue.waiting.length === 0);
    down.open();
    await until(
      'a and b are handed back',
      () => queue.released.includes('a') && queue.released.includes('b'),
    );
    // The outage backoff (a second here) holds the loop: b never ran on a backend known to be down.
    expect(started).toEqual(['a']);
    await loop.stop();
  });
});
