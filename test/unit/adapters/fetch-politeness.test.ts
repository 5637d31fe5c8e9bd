import { describe, expect, it } from 'vitest';
import { HostPoliteness, Semaphore } from '../../../src/adapters/fetch-politeness.js';

/** A clock that only moves when the code under test sleeps, or when the test says so. */
function fakeTime() {
  let now = 1_000_000;
  const sleeps: number[] = [];
  return {
    now: () => now,
    advance: (ms: number) => {
      now += ms;
    },
    sleeps,
    sleep: async (ms: number) => {
      sleeps.push(ms);
      now += ms;
    },
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

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

  it('serves waiters by priority, in arrival order within one', async () => {
    const sem = new Semaphore(1);
    await sem.acquire();
    const order: string[] = [];
    const waiting = [
      sem.acquire(undefined, 5).then(() => order.push('5a')),
      sem.acquire().then(() => order.push('none')),
      sem.acquire(undefined, 1).then(() => order.push('1')),
      sem.acquire(undefined, 5).then(() => order.push('5b')),
    ];
    for (let i = 0; i < waiting.length; i += 1) {
      sem.release();
      await tick();
    }
    await Promise.all(waiting);
    expect(order).toEqual(['1', '5a', '5b', 'none']);
  });

  it('caps holders opening a connection at a quarter of the slots while a kept-alive waiter is in line', async () => {
    const sem = new Semaphore(8); // a cap of 2 openers
    for (let i = 0; i < 8; i += 1) await sem.acquire(undefined, 0, true);
    const order: string[] = [];
    const waiting = [
      sem.acquire(undefined, 1, true).then(() => order.push('open 1')),
      sem.acquire(undefined, 2, true).then(() => order.push('open 2')),
      sem.acquire(undefined, 9, false).then(() => order.push('kept 9')),
      sem.acquire(undefined, 10, false).then(() => order.push('kept 10')),
    ];
    // 7 openers hold slots once one is freed: the freed slot goes past both openers in line to a kept-alive
    // request, however far back it stands; and the next one likewise.
    sem.release(true);
    await tick();
    expect(order).toEqual(['kept 9']);
    sem.release(true);
    await tick();
    expect(order).toEqual(['kept 9', 'kept 10']);
    // No kept-alive request left in line: openers go in priority order again, past the cap.
    sem.release(true);
    sem.release(true);
    await Promise.all(waiting);
    expect(order).toEqual(['kept 9', 'kept 10', 'open 1', 'open 2']);
  });

  it('lets openers through under their cap, by priority, and counts them off as they end', async () => {
    const sem = new Semaphore(8);
    await sem.acquire(undefined, 0, true);
    for (let i = 0; i < 7; i += 1) await sem.acquire(undefined, 0, false);
    const order: string[] = [];
    const waiting = [
      sem.acquire(undefined, 1, true).then(() => order.push('open 1')),
      sem.acquire(undefined, 2, true).then(() => order.push('open 2')),
      sem.acquire(undefined, 9, false).then(() => order.push('kept 9')),
    ];
    sem.release(); // 1 opener holds a slot: under the cap of 2, the first in line goes
    await tick();
    expect(order).toEqual(['open 1']);
    sem.release(); // 2 openers: at the cap, the kept-alive request goes first
    await tick();
    expect(order).toEqual(['open 1', 'kept 9']);
    sem.release(true); // an opener ends: 1 left, so the next opener goes
    await Promise.all(waiting);
    expect(order).toEqual(['open 1', 'kept 9', 'open 2']);
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
  const options = (time: ReturnType<typeof fakeTime>, extra: Record<string, unknown> = {}) => ({
    perHostConcurrency: 1,
    minDelayMs: 250,
    maxCrawlDelayMs: 30_000,
    global: new Semaphore(8),
    sleep: time.sleep,
    now: time.now,
    ...extra,
  });
  /** Takes a pass, sends at once and gives it back. */
  const visit = async (polite: HostPoliteness, host: string) => {
    const pass = await polite.acquire(host);
    pass.sent();
    pass.release();
  };

  it('keeps the minimum gap between sends on one host, not across hosts', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time));
    await visit(polite, 'a.example');
    await visit(polite, 'b.example');
    expect(time.sleeps).toEqual([]);
    await visit(polite, 'A.example');
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
    await visit(polite, 'a.example');
    await visit(polite, 'a.example');
    expect(time.sleeps).toEqual([5_000]);
  });

  it('holds at most perHostConcurrency requests in flight on a host', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time, { perHostConcurrency: 2, minDelayMs: 0 }));
    const first = await polite.acquire('a.example');
    first.sent();
    const second = await polite.acquire('a.example');
    second.sent();
    let thirdIn = false;
    const third = polite.acquire('a.example').then((pass) => {
      thirdIn = true;
      return pass;
    });
    await tick();
    expect(thirdIn).toBe(false);
    first.release();
    (await third).release();
    expect(thirdIn).toBe(true);
    second.release();
  });

  it('pushes a host back after a 429/503', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time, { minDelayMs: 0 }));
    polite.pushBack('a.example', 7_000);
    await visit(polite, 'a.example');
    expect(time.sleeps).toEqual([7_000]);
  });

  it('counts the gap from the end of the last request, however long it waited for a global slot', async () => {
    const time = fakeTime();
    const global = new Semaphore(1);
    const polite = new HostPoliteness(options(time, { global }));
    const other = await polite.acquire('b.example');
    other.sent();
    const first = polite.acquire('a.example');
    await tick();
    // b holds the only global slot for 150 ms: a's first request leaves only then, not at 0.
    time.advance(150);
    other.release();
    const pass = await first;
    pass.sent();
    time.advance(60);
    pass.release();
    await visit(polite, 'a.example');
    // A whole gap after its answer at 210 (a gap reserved before the wait would have ended at 250).
    expect(time.sleeps).toEqual([250]);
  });

  it('checks the gap again once the global slot is taken (a 429 pushed the host back meanwhile)', async () => {
    const time = fakeTime();
    const global = new Semaphore(1);
    const polite = new HostPoliteness(options(time, { global, minDelayMs: 0 }));
    const other = await polite.acquire('b.example');
    other.sent();
    const waiting = polite.acquire('a.example');
    await tick();
    polite.pushBack('a.example', 1_000);
    other.release();
    (await waiting).release();
    expect(time.sleeps).toEqual([1_000]);
  });

  it('counts from the dispatch a request that never reached the wire (its connection failed)', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time));
    const pass = await polite.acquire('a.example');
    time.advance(100);
    pass.release();
    await visit(polite, 'a.example');
    expect(time.sleeps).toEqual([150]);
  });

  it('makes a second slot on the host wait until the first request is on the wire', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time, { perHostConcurrency: 2 }));
    const first = await polite.acquire('a.example');
    let secondIn = false;
    const second = polite.acquire('a.example').then((pass) => {
      secondIn = true;
      return pass;
    });
    await tick();
    expect(secondIn).toBe(false);
    time.advance(40);
    first.sent();
    const pass = await second;
    expect(time.sleeps).toEqual([250]);
    pass.sent();
    pass.release();
    first.release();
  });

  it('does not hold a global slot while it waits for a host gap', async () => {
    const time = fakeTime();
    const global = new Semaphore(1);
    let release: () => void = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    // A sleep that waits for the test: a's gap is still running while b asks for the only global slot.
    const polite = new HostPoliteness(
      options(time, {
        global,
        sleep: async (ms: number) => {
          time.sleeps.push(ms);
          await gate;
          time.advance(ms);
        },
      }),
    );
    await visit(polite, 'a.example');
    const waiting = visit(polite, 'a.example');
    await tick();
    await visit(polite, 'b.example');
    expect(global.load).toEqual({ active: 0, waiting: 0 });
    release();
    await waiting;
    expect(time.sleeps).toEqual([250]);
  });

  it("counts a host's first request as opening its connection: requests on a kept-alive one go past it", async () => {
    const time = fakeTime();
    const global = new Semaphore(4); // a cap of 1 opener
    const polite = new HostPoliteness(options(time, { global }));
    await visit(polite, 'kept.example');
    const holding = await Promise.all(['b', 'c', 'd', 'e'].map((h) => polite.acquire(`${h}.example`)));
    const order: string[] = [];
    const fresh = polite.acquire('fresh.example', undefined, 1).then((pass) => {
      order.push('fresh');
      return pass;
    });
    const kept = polite.acquire('kept.example', undefined, 5).then((pass) => {
      order.push('kept');
      return pass;
    });
    await tick();
    for (const pass of holding.slice(0, 2)) {
      pass.sent();
      pass.release();
      await tick();
    }
    // Four openers held every slot: the first slot freed went to the kept-alive host despite its later place.
    expect(order).toEqual(['kept', 'fresh']);
    for (const pass of [...holding.slice(2), await fresh, await kept]) pass.release();
    expect(global.idle).toBe(true);
  });

  it('gives the global slot back when the pass is released, sent or not', async () => {
    const time = fakeTime();
    const global = new Semaphore(2);
    const polite = new HostPoliteness(options(time, { global }));
    const unsent = await polite.acquire('a.example');
    const sent = await polite.acquire('b.example');
    sent.sent();
    expect(global.load.active).toBe(2);
    unsent.release();
    sent.release();
    sent.release();
    expect(global.idle).toBe(true);
  });

  it('lets a request waiting for its host give up', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time));
    const first = await polite.acquire('a.example');
    const controller = new AbortController();
    const waiting = polite.acquire('a.example', controller.signal);
    controller.abort(new Error('gave up'));
    await expect(waiting).rejects.toThrow('gave up');
    first.sent();
    first.release();
  });

  it('forgets idle hosts once the table is full, without losing a pending gap', async () => {
    const time = fakeTime();
    const polite = new HostPoliteness(options(time, { maxHosts: 2 }));
    await visit(polite, 'a.example');
    await visit(polite, 'b.example');
    await visit(polite, 'c.example');
    // a and b were still inside their gap when c arrived, so a's gap holds.
    await visit(polite, 'a.example');
    expect(time.sleeps).toEqual([250]);
  });
});
