import { describe, expect, it } from 'vitest';
import { HostPoliteness, Semaphore } from '../../../src/adapters/fetch-politeness.js';

/** A clock that only moves when the code under test sleeps. */
function fakeTime() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => now,
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

describe('Semaphore', () => {
  it('admits up to its limit and hands slots over in order', async () => {
    const sem = new Semaphore(2);
    const order: string[] = [];
    await sem.acquire();
    await sem.acquire();
    const third = sem.acquire().then(() => order.push('third'));
    const fourth = sem.acquire().then(() => order.push('fourth'));
    await Promise.resolve();
    expect(order).toEqual([]);
    sem.release();
    await third;
    expect(order).toEqual(['third']);
    sem.release();
    await fourth;
    expect(order).toEqual(['third', 'fourth']);
    sem.release();
    sem.release();
    expect(sem.idle).toBe(true);
  });

  it('lets a waiter give up', async () => {
    const sem = new Semaphore(1);
    await sem.acquire();
    const controller = new AbortController();
    const waiting = sem.acquire(controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    sem.release();
    expect(sem.idle).toBe(true);
  });
});

describe('HostPoliteness', () => {
  const options = (time: ReturnType<typeof fakeTime>, extra = {}) => ({
    perHostConcurrency: 1,
    minDelayMs: 250,
    maxCrawlDelayMs: 30_000,
    sleep: time.sleep,
    now: time.now,
    ...extra,
  });

  it('keeps the minimum gap between starts on one host, not across hosts', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time));
    (await polite.acquire('a.example'))();
    (await polite.acquire('b.example'))();
    expect(time.sleeps).toEqual([]);
    (await polite.acquire('A.example'))();
    expect(time.sleeps).toEqual([250]);
  });

  it('raises the gap to the crawl delay, capped', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time));
    polite.setCrawlDelay('a.example', 5);
    expect(polite.delayFor('a.example')).toBe(5_000);
    polite.setCrawlDelay('b.example', 86_400);
    expect(polite.delayFor('b.example')).toBe(30_000);
    polite.setCrawlDelay('c.example', 0.1);
    expect(polite.delayFor('c.example')).toBe(250);
    polite.setCrawlDelay('d.example', Number.NaN);
    expect(polite.delayFor('d.example')).toBe(250);
    (await polite.acquire('a.example'))();
    (await polite.acquire('a.example'))();
    expect(time.sleeps).toEqual([5_000]);
  });

  it('holds at most perHostConcurrency requests in flight on a host', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time, { perHostConcurrency: 2, minDelayMs: 0 }));
    const first = await polite.acquire('a.example');
    await polite.acquire('a.example');
    let thirdIn = false;
    const third = polite.acquire('a.example').then((release) => {
      thirdIn = true;
      return release;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(thirdIn).toBe(false);
    first();
    (await third)();
    expect(thirdIn).toBe(true);
  });

  it('pushes a host back after a 429/503', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time, { minDelayMs: 0 }));
    polite.pushBack('a.example', 7_000);
    (await polite.acquire('a.example'))();
    expect(time.sleeps).toEqual([7_000]);
  });

  it('forgets idle hosts once the table is full, without losing a pending gap', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time, { maxHosts: 2 }));
    (await polite.acquire('a.example'))();
    (await polite.acquire('b.example'))();
    (await polite.acquire('c.example'))();
    // a and b were still inside their gap when c arrived, so a's gap holds.
    (await polite.acquire('a.example'))();
    expect(time.sleeps).toEqual([250]);
  });
});
