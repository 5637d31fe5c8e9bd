// Concurrency and politeness for the HTTP fetcher: a global limit on requests in flight, and per host a
// concurrency limit plus a minimum gap between request starts (raised by robots.txt Crawl-delay or a 429/503).
import { setTimeout as delay } from 'node:timers/promises';

export type Sleep = (ms: number, signal?: AbortSignal) => Promise<void>;

export const realSleep: Sleep = async (ms, signal) => {
  if (ms <= 0) {
    signal?.throwIfAborted();
    return;
  }
  await delay(ms, undefined, signal ? { signal } : undefined);
};

interface Waiter {
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/** A counting semaphore whose waiters are served in order and can give up through an AbortSignal. */
export class Semaphore {
  private active = 0;
  private readonly waiters: Waiter[] = [];

  constructor(private readonly limit: number) {}

  get idle(): boolean {
    return this.active === 0 && this.waiters.length === 0;
  }

  acquire(signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.limit) {
      this.active += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        resolve,
        reject,
        signal,
        onAbort: () => {
          const at = this.waiters.indexOf(waiter);
          if (at !== -1) this.waiters.splice(at, 1);
          reject(signal?.reason);
        },
      };
      signal?.addEventListener('abort', waiter.onAbort, { once: true });
      this.waiters.push(waiter);
    });
  }

  release(): void {
    const next = this.waiters.shift();
    if (next) {
      // The slot passes straight to the next waiter, so active stays the same.
      next.signal?.removeEventListener('abort', next.onAbort);
      next.resolve();
    } else {
      this.active -= 1;
    }
  }
}

export interface HostPolitenessOptions {
  perHostConcurrency: number;
  /** The gap between two request starts to one host when robots.txt says nothing. */
  minDelayMs: number;
  /** A Crawl-delay above this is capped (some robots.txt ask for an hour). */
  maxCrawlDelayMs: number;
  sleep: Sleep;
  now: () => number;
  /** Idle host entries are swept once the table grows past this. */
  maxHosts?: number;
}

interface HostState {
  slots: Semaphore;
  lastStartAt: number;
  notBefore: number;
}

export class HostPoliteness {
  private readonly hosts = new Map<string, HostState>();
  private readonly crawlDelays = new Map<string, number>();
  private readonly maxHosts: number;

  constructor(private readonly options: HostPolitenessOptions) {
    this.maxHosts = options.maxHosts ?? 10_000;
  }

  setCrawlDelay(host: string, seconds: number): void {
    if (!Number.isFinite(seconds) || seconds <= 0) return;
    const key = host.toLowerCase();
    this.crawlDelays.delete(key);
    this.crawlDelays.set(key, Math.min(seconds * 1000, this.options.maxCrawlDelayMs));
    // Insertion order makes the first key the oldest: a simple bound on a table fed by the whole web.
    if (this.crawlDelays.size > this.maxHosts) {
      const oldest = this.crawlDelays.keys().next().value;
      if (oldest !== undefined) this.crawlDelays.delete(oldest);
    }
  }

  delayFor(host: string): number {
    return Math.max(this.options.minDelayMs, this.crawlDelays.get(host.toLowerCase()) ?? 0);
  }

  /** No request to `host` starts before `ms` from now (a 429/503 answer asked us to back off). */
  pushBack(host: string, ms: number): void {
    const state = this.state(host.toLowerCase());
    state.notBefore = Math.max(state.notBefore, this.options.now() + ms);
  }

  /** Waits for a slot on the host and for its gap; resolves with the function that gives the slot back. */
  async acquire(host: string, signal?: AbortSignal): Promise<() => void> {
    const key = host.toLowerCase();
    const state = this.state(key);
    await state.slots.acquire(signal);
    const release = () => state.slots.release();
    try {
      const now = this.options.now();
      // Reserve the start time before sleeping, so a second slot on the same host waits behind this one.
      const start = Math.max(now, state.lastStartAt + this.delayFor(key), state.notBefore);
      state.lastStartAt = start;
      if (start > now) await this.options.sleep(start - now, signal);
      return release;
    } catch (err) {
      release();
      throw err;
    }
  }

  private state(key: string): HostState {
    let state = this.hosts.get(key);
    if (!state) {
      if (this.hosts.size >= this.maxHosts) this.sweep();
      state = {
        slots: new Semaphore(this.options.perHostConcurrency),
        lastStartAt: Number.NEGATIVE_INFINITY,
        notBefore: 0,
      };
      this.hosts.set(key, state);
    }
    return state;
  }

  private sweep(): void {
    const now = this.options.now();
    for (const [key, state] of this.hosts) {
      if (state.slots.idle && state.lastStartAt + this.delayFor(key) <= now && state.notBefore <= now) {
        this.hosts.delete(key);
      }
    }
  }
}
