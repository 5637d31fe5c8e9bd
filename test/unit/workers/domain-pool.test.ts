import { describe, expect, it } from 'vitest';
import type { FetchScope } from '../../../src/services/fetch-scope.js';
import { createDomainPool } from '../../../src/workers/domain-pool.js';
import { gate, sleep } from '../../support/waiting.js';

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe('domain pool', () => {
  it('runs at most its number of domains at once and starts the next as one ends', async () => {
    const pool = createDomainPool({ domains: 2, deadlineMs: 60_000 });
    const gates = [gate(), gate(), gate()];
    let running = 0;
    let most = 0;
    const runs = gates.map((g) =>
      pool.run(async () => {
        running += 1;
        most = Math.max(most, running);
        await g.wait;
        running -= 1;
        return 'done';
      }),
    );
    await tick();
    expect(running).toBe(2);
    expect(pool.stats).toEqual({ running: 2, load: 3 });
    gates[0]?.open();
    await tick();
    expect(running).toBe(2);
    for (const g of gates) g.open();
    expect(await Promise.all(runs)).toEqual([
      { ok: true, value: 'done' },
      { ok: true, value: 'done' },
      { ok: true, value: 'done' },
    ]);
    expect(most).toBe(2);
    expect(pool.stats).toEqual({ running: 0, load: 0 });
  });

  it('cuts a domain short at its deadline: aborts its signal, frees its slot, says why', async () => {
    const pool = createDomainPool({ domains: 1, deadlineMs: 30 });
    let signal: AbortSignal | undefined;
    const stuck = pool.run(async (scope) => {
      signal = scope.signal;
      await new Promise(() => {});
    });
    const next = pool.run(async () => 'next');
    const outcome = await stuck;
    expect(outcome).toEqual({ ok: false, reason: expect.stringMatching(/^deadline exceeded/) });
    expect(signal?.aborted).toBe(true);
    expect(await next).toEqual({ ok: true, value: 'next' });
  });

  it('stops the deadline while the work holds it (waiting in our own line), and runs it again after', async () => {
    const pool = createDomainPool({ domains: 2, deadlineMs: 60 });
    // Held for 150 ms (overlapping holds), then 30 ms of its own: well inside 60 ms of its own time.
    const waited = pool.run(async (scope) => {
      const first = scope.hold();
      const second = scope.hold();
      await sleep(100);
      first();
      await sleep(50);
      second();
      second();
      await sleep(30);
      return scope.signal.aborted;
    });
    // The same hold, then more of its own time than the deadline allows: the clock ran again after the hold.
    const overran = pool.run(async (scope) => {
      const done = scope.hold();
      await sleep(100);
      done();
      await sleep(200);
    });
    expect(await waited).toEqual({ ok: true, value: false });
    expect(await overran).toEqual({ ok: false, reason: expect.stringMatching(/^deadline exceeded/) });
  });

  it("lets the work push its deadline back (time that is not the site's own does not count)", async () => {
    const pool = createDomainPool({ domains: 1, deadlineMs: 30 });
    const outcome = await pool.run(async (scope) => {
      scope.extend(200);
      await new Promise((resolve) => setTimeout(resolve, 80));
      return scope.signal.aborted;
    });
    expect(outcome).toEqual({ ok: true, value: false });
  });

  it('passes a failure of the work on to the caller', async () => {
    const pool = createDomainPool({ domains: 1, deadlineMs: 60_000 });
    await expect(pool.run(async () => Promise.reject(new Error('disk full')))).rejects.toThrow('disk full');
    expect(pool.stats).toEqual({ running: 0, load: 0 });
  });

  it('puts earlier domains first, each of their first requests a little further back, long chains ahead', async () => {
    const pool = createDomainPool({ domains: 16, deadlineMs: 60_000 });
    const scopes: FetchScope[] = [];
    await Promise.all([1, 2].map(() => pool.run(async (scope) => void scopes.push(scope))));
    const [first, second] = scopes as [FetchScope, FetchScope];
    expect(first.priority(0)).toBeLessThan(second.priority(0));
    // A second request of the first domain waits behind a first request of a domain started just after it:
    // every domain's first request (its robots.txt) goes ahead of every ordinary domain's later ones.
    expect(first.priority(1)).toBeGreaterThan(second.priority(0));
    expect(second.priority(0)).toBeLessThan(1);
    // A long chain — past a typical domain's requests, or known to come (a big sitemap index) — goes ahead of
    // every ordinary request, the earlier domain first among such.
    expect(second.priority(12)).toBeLessThan(first.priority(0));
    expect(second.priority(3, 40)).toBeLessThan(first.priority(0));
    expect(first.priority(20)).toBeLessThan(second.priority(20));
    // Still behind requests of no domain (0: the network canary).
    expect(second.priority(20)).toBeGreaterThan(0);
    // A few requests known to follow are a typical domain's: no jump.
    expect(second.priority(3, 2)).toBe(second.priority(3));
    // Found slow on the way: from then on it goes ahead as a long chain.
    second.lengthen();
    expect(second.priority(3)).toBeLessThan(first.priority(0));
    expect(second.priority(3)).toBeGreaterThan(0);
  });

  it("moves each ordinary request back by a quarter of the pool: a late domain's early requests catch up", async () => {
    const pool = createDomainPool({ domains: 16, deadlineMs: 60_000 });
    const scopes: FetchScope[] = [];
    await Promise.all([1, 2, 3, 4, 5, 6].map(() => pool.run(async (scope) => void scopes.push(scope))));
    /** The n-th domain to start (1-based). */
    const started = (n: number) => scopes[n - 1] as FetchScope;
    // Two requests in, the first domain waits behind the second request of one started three later (a quarter
    // of 16 slots is 4 places a request), and ahead of one started five later: the batch's last domains do not
    // run their chains alone at its end.
    expect(started(1).priority(2)).toBeGreaterThan(started(4).priority(1));
    expect(started(1).priority(2)).toBeLessThan(started(6).priority(1));
  });

  it('tells its consumers how many chunks to claim, counting claims whose items are not known yet', async () => {
    const pool = createDomainPool({ domains: 40, deadlineMs: 60_000 });
    const woken: number[] = [];
    const unsubscribe = pool.capacity.subscribe(() => woken.push(pool.capacity.available()));
    // Before any chunk is seen, a chunk is guessed at twenty items.
    expect(pool.capacity.available()).toBe(2);
    const first = pool.claiming();
    const second = pool.claiming();
    expect(pool.capacity.available()).toBe(0);
    // The first chunk had four items: they are in the pool, and four is the new guess.
    const held = gate();
    const runs = [1, 2, 3, 4].map(() => pool.run(() => held.wait));
    first(4);
    second(0);
    expect(pool.capacity.available()).toBe(9);
    expect(woken.length).toBeGreaterThan(0);
    held.open();
    await Promise.all(runs);
    expect(pool.capacity.available()).toBe(10);
    unsubscribe();
  });

  it('lets a waiting domain whose lookahead finds a long chain start before ordinary domains that came earlier', async () => {
    // One slot, room for one long chain beside it (an eighth of the slots, at least one).
    const pool = createDomainPool({ domains: 1, deadlineMs: 60_000, lookahead: 4 });
    const started: string[] = [];
    const held = gate();
    const places: number[] = [];
    const scopes = new Map<string, FetchScope>();
    const domain = (name: string, wait: Promise<void>) => (scope: FetchScope) => {
      started.push(name);
      scopes.set(name, scope);
      return wait;
    };
    const runs = [pool.run(domain('first', held.wait))];
    const ordinary = gate<number>();
    const long = gate<number>();
    runs.push(
      pool.run(domain('ordinary', Promise.resolve()), (place) => {
        places.push(place);
        return ordinary.wait;
      }),
    );
    runs.push(
      pool.run(domain('crawl-delayed', Promise.resolve()), (place) => {
        places.push(place);
        return long.wait;
      }),
    );
    await tick();
    expect(started).toEqual(['first']);
    // Each waiting domain's lookahead is one request ahead of every ordinary domain's (numbered from 1), in
    // the order they came, behind the network canary (0).
    expect(places).toHaveLength(2);
    expect(places[0]).toBeGreaterThan(0);
    expect(places[0]).toBeLessThan(places[1] as number);
    expect(places[1]).toBeLessThan(1);
    ordinary.open(0);
    long.open(24_000);
    await tick();
    // The long chain starts at once, through its own door; the ordinary one still waits for the slot.
    expect(started).toEqual(['first', 'crawl-delayed']);
    held.open();
    await Promise.all(runs);
    expect(started).toEqual(['first', 'crawl-delayed', 'ordinary']);
    // Known long, it runs as a long chain from its first request: ahead of every ordinary domain's.
    const crawlDelayed = scopes.get('crawl-delayed') as FetchScope;
    expect(crawlDelayed.priority(0)).toBeLessThan(1);
    expect(crawlDelayed.priority(5)).toBeLessThan((scopes.get('first') as FetchScope).priority(0));
    // An ordinary domain's first request goes ahead of ordinary ones (what it tells is worth knowing early),
    // behind the long chain's; its later ones are ordinary.
    const plain = scopes.get('ordinary') as FetchScope;
    expect(plain.priority(0)).toBeLessThan(1);
    expect(plain.priority(0)).toBeGreaterThan(crawlDelayed.priority(5));
    expect(plain.priority(1)).toBeGreaterThanOrEqual(1);
    expect(pool.stats).toEqual({ running: 0, load: 0 });
  });

  it('gives a free slot to the longest known chain among the waiting, then in the order they came', async () => {
    // No door for long chains without a lookahead; with one slot it holds one long chain, here kept busy.
    const pool = createDomainPool({ domains: 1, deadlineMs: 60_000, lookahead: 8 });
    const started: string[] = [];
    const first = gate();
    const door = gate();
    const run = (name: string, wait: Promise<void>, chainMs?: number) =>
      pool.run(
        async () => {
          started.push(name);
          await wait;
        },
        chainMs === undefined ? undefined : async () => chainMs,
      );
    const runs = [run('first', first.wait), run('door', door.wait, 60_000)];
    await tick();
    runs.push(run('a', Promise.resolve(), 0), run('slow', Promise.resolve(), 12_000));
    runs.push(run('b', Promise.resolve()), run('crawl-delayed', Promise.resolve(), 26_000));
    await tick();
    expect(started).toEqual(['first', 'door']);
    first.open();
    await Promise.all(runs.slice(2));
    expect(started).toEqual(['first', 'door', 'crawl-delayed', 'slow', 'a', 'b']);
    door.open();
    await Promise.all(runs);
  });

  it('claims chunks for the waiting domains too when it looks ahead', () => {
    const plain = createDomainPool({ domains: 40, deadlineMs: 60_000 });
    const ahead = createDomainPool({ domains: 40, deadlineMs: 60_000, lookahead: 40 });
    expect(plain.capacity.available()).toBe(2);
    expect(ahead.capacity.available()).toBe(4);
  });
});
