// Concurrency and politeness for the HTTP fetcher: a global limit on requests in flight, and per host a
// concurrency limit plus a minimum gap (raised by robots.txt Crawl-delay or a 429/503) that runs from the end
// of the host's last request, and from the moment it was *sent*, to the moment the next one is sent. Counted
// from the end, the gap holds as the site sees it however late the site noticed the last request; it is
// checked after the global slot is taken, so a long wait for a slot never squeezes two requests together.
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
  priority: number;
  /** The request will open a new connection (a TLS handshake: far dearer for the fetch thread than a request). */
  opens: boolean;
  resolve: () => void;
  reject: (reason: unknown) => void;
  signal: AbortSignal | undefined;
  onAbort: () => void;
}

/**
 * A counting semaphore whose waiters can give up through an AbortSignal. Waiters are served lowest priority
 * number first, in arrival order among equals (no priority given: after every prioritised waiter) — except
 * that holders opening a new connection are capped at a quarter of the slots while a waiter on a kept-alive
 * connection is in line: then a freed slot goes to the first such waiter instead.
 *
 * Why: a new connection's TLS handshake costs the fetch thread several times what a request on an open one
 * does. At the start of a batch every domain's first request (its robots.txt) opens one, and in priority order
 * they all went first: the fetch thread spent seconds on handshakes alone (85 % busy) with half the slots
 * idle at the sites, while the early domains' homepages, on connections already open, waited behind them.
 */
export class Semaphore {
  private active = 0;
  private opening = 0;
  private readonly waiters: Waiter[] = [];
  private readonly openingCap: number;

  constructor(private readonly limit: number) {
    this.openingCap = Math.max(1, Math.floor(limit / 4));
  }

  get idle(): boolean {
    return this.active === 0 && this.waiters.length === 0;
  }

  /** Slots taken and waiters queued (for metrics and tests). */
  get load(): { active: number; waiting: number } {
    return { active: this.active, waiting: this.waiters.length };
  }

  /** `opens`: the holder will open a new connection; give the same flag back to release(). */
  acquire(signal?: AbortSignal, priority = Number.POSITIVE_INFINITY, opens = false): Promise<void> {
    signal?.throwIfAborted();
    if (this.active < this.limit) {
      this.active += 1;
      if (opens) this.opening += 1;
      return Promise.resolve();
    }
    return new Promise<void>((resolve, reject) => {
      const waiter: Waiter = {
        priority,
        opens,
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
      // Behind every waiter of the same or a lower number: FIFO within a priority.
      let at = this.waiters.length;
      while (at > 0 && (this.waiters[at - 1] as Waiter).priority > priority) at -= 1;
      this.waiters.splice(at, 0, waiter);
    });
  }

  release(opened = false): void {
    if (opened) this.opening -= 1;
    const at = this.nextWaiter();
    if (at === -1) {
      this.active -= 1;
      return;
    }
    // The slot passes straight to the next waiter, so active stays the same.
    const [next] = this.waiters.splice(at, 1) as [Waiter];
    if (next.opens) this.opening += 1;
    next.signal?.removeEventListener('abort', next.onAbort);
    next.resolve();
  }

  /** The waiter a freed slot goes to (-1: none): the first in line, unless openers are at their cap. */
  private nextWaiter(): number {
    if (this.waiters.length === 0) return -1;
    if (this.opening < this.openingCap || !(this.waiters[0] as Waiter).opens) return 0;
    const kept = this.waiters.findIndex((w) => !w.opens);
    return kept === -1 ? 0 : kept;
  }
}

/** How far ahead a crawl-delayed host's requests go: beyond any domain's place in line. */
const CRAWL_DELAYED_AHEAD = 2 ** 40;

export interface HostPolitenessOptions {
  perHostConcurrency: number;
  /** The gap before a request to a host, after its last one ended, when robots.txt says nothing. */
  minDelayMs: number;
  /** A Crawl-delay above this is capped (some robots.txt ask for an hour). */
  maxCrawlDelayMs: number;
  /** Requests in flight across all hosts. */
  global: Semaphore;
  sleep: Sleep;
  /** Milliseconds on a monotonic clock. */
  now: () => number;
  /** Idle host entries are swept once the table grows past this. */
  maxHosts?: number;
}

/** The right to send one request: call sent() the moment it goes on the wire, release() when it is over. */
export interface Pass {
  sent(): void;
  release(): void;
}

interface HostState {
  slots: Semaphore;
  /** When the last request to this host was sent (or, while one is being sent, dispatched). */
  lastSentAt: number;
  /** When the last request to this host that reached the wire was over. */
  lastEndAt: number;
  notBefore: number;
  /** A request holds its pass but has not reached the wire yet (connecting): the next one waits for it. */
  sending: boolean;
  onSent: Array<() => void>;
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

  /**
   * Waits for a slot on the host, for the host's gap, and for a global slot, in that order; the gap is checked
   * again once the global slot is held, so it holds at the moment of sending however long that wait was.
   * A lower `priority` is served first when the global limit is reached.
   */
  async acquire(host: string, signal?: AbortSignal, priority?: number): Promise<Pass> {
    const { global, sleep, now } = this.options;
    const key = host.toLowerCase();
    const state = this.state(key);
    await state.slots.acquire(signal);
    let holdsGlobal = false;
    // No request has been sent to the host yet: this one opens its connection.
    let opens = false;
    const drop = () => {
      if (holdsGlobal) global.release(opens);
      holdsGlobal = false;
    };
    try {
      for (;;) {
        if (state.sending) {
          // A slot on the host is being sent right now: its send time is not known yet. Never hold a global
          // slot while waiting on one host.
          drop();
          await this.sendSettled(state, signal);
          continue;
        }
        const wait = this.readyAt(state, key) - now();
        if (wait > 0) {
          drop();
          await sleep(wait, signal);
          continue;
        }
        if (!holdsGlobal) {
          opens = state.lastSentAt === Number.NEGATIVE_INFINITY;
          await global.acquire(signal, this.placeInLine(key, priority), opens);
          holdsGlobal = true;
          // The wait may have been long: look at the host again (another slot may have sent meanwhile).
          continue;
        }
        break;
      }
    } catch (err) {
      drop();
      state.slots.release();
      throw err;
    }
    // Nothing awaited since the last check: this request is the host's next one. Until it is really on the
    // wire (a new connection may take a while), the dispatch time stands for it and other slots wait.
    state.sending = true;
    state.lastSentAt = Math.max(state.lastSentAt, now());
    let sent = false;
    let released = false;
    const settle = () => {
      if (!state.sending) return;
      state.sending = false;
      for (const wake of state.onSent.splice(0)) wake();
    };
    return {
      sent: () => {
        if (sent || released) return;
        sent = true;
        state.lastSentAt = Math.max(state.lastSentAt, now());
        settle();
      },
      release: () => {
        if (released) return;
        released = true;
        // Never sent (the connection failed): the dispatch time stays as the last contact with the host.
        if (!sent) settle();
        else state.lastEndAt = Math.max(state.lastEndAt, now());
        global.release(opens);
        state.slots.release();
      },
    };
  }

  /**
   * A host whose robots.txt asks for more than our own gap waits that long between requests anyway: when its
   * turn comes it goes ahead of ordinary requests, so its long chain is not stretched further by the queue
   * (a few such hosts otherwise decide when a whole batch ends).
   */
  private placeInLine(key: string, priority: number | undefined): number | undefined {
    if (priority === undefined || this.delayFor(key) <= this.options.minDelayMs) return priority;
    return priority - CRAWL_DELAYED_AHEAD;
  }

  /** The earliest moment the host's next request may be sent. */
  private readyAt(state: HostState, key: string): number {
    return Math.max(Math.max(state.lastSentAt, state.lastEndAt) + this.delayFor(key), state.notBefore);
  }

  private sendSettled(state: HostState, signal?: AbortSignal): Promise<void> {
    signal?.throwIfAborted();
    return new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = state.onSent.indexOf(wake);
        if (at !== -1) state.onSent.splice(at, 1);
        reject(signal?.reason);
      };
      const wake = () => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      state.onSent.push(wake);
    });
  }

  private state(key: string): HostState {
    let state = this.hosts.get(key);
    if (!state) {
      if (this.hosts.size >= this.maxHosts) this.sweep();
      state = {
        slots: new Semaphore(this.options.perHostConcurrency),
        lastSentAt: Number.NEGATIVE_INFINITY,
        lastEndAt: Number.NEGATIVE_INFINITY,
        notBefore: 0,
        sending: false,
        onSent: [],
      };
      this.hosts.set(key, state);
    }
    return state;
  }

  private sweep(): void {
    const now = this.options.now();
    for (const [key, state] of this.hosts) {
      if (state.slots.idle && !state.sending && this.readyAt(state, key) <= now) {
        this.hosts.delete(key);
      }
    }
  }
}
