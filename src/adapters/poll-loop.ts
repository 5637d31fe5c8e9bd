// The one consumer loop both queue adapters run (modelled on pg-boss's own Worker): it asks the adapter's
// driver for jobs while slots are free, runs each through the handler, settles it, renews the leases of
// everything running with one heartbeat, and on stop drains what runs and hands back what could not finish.
import type { EventEmitter } from 'node:events';
import { type BackoffPolicy, isBackendUnavailable, retryDelayMs } from '../domain/errors.js';
import type { ConsumeCapacity, Consumer, Job, JobHandler, QueueName } from '../ports/queue.js';
import { drainWithin } from './drain.js';

/** What an adapter does with its own storage; `D` is its delivery (a job plus the adapter's fencing token). */
export interface QueueDriver<D> {
  /** Up to `max` ready jobs, claimed for this consumer. */
  fetch(queue: QueueName, max: number): Promise<D[]>;
  job(delivery: D): Job;
  /** Completes (failure null) or fails one delivery, fenced: a lost lease changes nothing. */
  settle(delivery: D, failure: { error: unknown } | null): Promise<void>;
  /** Extends the leases of running deliveries. */
  renew(deliveries: D[]): Promise<void>;
  /** Hands a delivery back without using up its attempt, to be delivered again after `delayMs` (default 0). */
  release(delivery: D, delayMs?: number): Promise<void>;
}

export interface PollLoopOptions {
  concurrency: number;
  /** A shared budget that can hold claims back below `concurrency`; it wakes the loop when room appears. */
  capacity?: ConsumeCapacity;
  /** How often an idle consumer asks again (an enqueue in this process wakes it at once). */
  pollIntervalMs: number;
  /**
   * Jobs claimed ahead of free slots (ignored with a capacity budget), started the moment a slot frees without
   * waiting for a claim's round trip. Held with no slot freed for longer than pollIntervalMs, or than twice the
   * time the consumer's recent jobs took when that is longer (at most HOLD_CAP_MS), they are handed back: the
   * slots are busy with long jobs, and a busy consumer never sits on work another could run.
   */
  prefetch?: number;
  heartbeatMs: number;
  /** How long stop() waits for running jobs before releasing them. */
  drainTimeoutMs: number;
  /** How long the loop backs off, step by step, while a backend (database, object store) is unavailable. */
  outageBackoff: BackoffPolicy;
  /** Emits 'enqueued' with a queue name when this process enqueued there. */
  wake: EventEmitter;
  onError: (error: unknown) => void;
}

export function startPollLoop<D>(
  queue: QueueName,
  driver: QueueDriver<D>,
  handler: JobHandler,
  options: PollLoopOptions,
): Consumer {
  let stopping = false;
  let stopped: Promise<void> | null = null;
  const inFlight = new Set<Promise<void>>();
  const running = new Map<string, D>();
  let nudge: (() => void) | null = null;
  const onWake = (name: string) => {
    if (name === queue) nudge?.();
  };
  options.wake.on('enqueued', onWake);
  // Only a loop that paused for lack of room wakes up when room appears (an empty queue waits for enqueues).
  let waitingForRoom = false;
  const unsubscribe =
    options.capacity?.subscribe(() => {
      if (waitingForRoom) nudge?.();
    }) ?? (() => undefined);

  /** Claimed ahead (prefetch), not started yet: their leases are renewed with the running ones. */
  let ready: D[] = [];
  /** False once jobs claimed ahead had to go back, until a job finishes: no claim-and-give-back churn. */
  let slotsTurnOver = true;
  const prefetch = options.capacity ? 0 : Math.max(0, Math.floor(options.prefetch ?? 0));
  /**
   * How long this consumer's jobs take, as a moving average of the finished ones (0 until one finishes). Jobs
   * claimed ahead are held for two of them before they go back: a consumer whose jobs take a little longer than
   * pollIntervalMs (a research chunk under load) would otherwise hand back, and claim again, a job for every job.
   */
  let typicalJobMs = 0;
  const holdMs = () => Math.max(options.pollIntervalMs, Math.min(2 * typicalJobMs, HOLD_CAP_MS));

  const heartbeat = setInterval(() => {
    if (running.size > 0 || ready.length > 0)
      driver.renew([...running.values(), ...ready]).catch(options.onError);
  }, options.heartbeatMs);
  heartbeat.unref();

  /** Settles still being written; a stopping loop waits for them. */
  const settling = new Set<Promise<void>>();
  /** Jobs whose handler still runs (those with a settle under way are in `running` but not here). */
  const handling = new Set<string>();
  const outage = outageBackoff(options.outageBackoff);

  /**
   * Resolves when the handler is done: its slot is free at once, while the settle is written in the background
   * (the adapter may group it with others), so fetching the next jobs overlaps settling the last ones. The job
   * stays in `running`, its lease renewed, until the settle is written.
   */
  async function run(delivery: D): Promise<void> {
    const job = driver.job(delivery);
    running.set(job.id, delivery);
    handling.add(job.id);
    let failure: { error: unknown } | null = null;
    const startedAt = performance.now();
    try {
      await handler(job);
    } catch (error) {
      failure = { error };
    } finally {
      handling.delete(job.id);
    }
    const tookMs = performance.now() - startedAt;
    typicalJobMs = typicalJobMs === 0 ? tookMs : 0.8 * typicalJobMs + 0.2 * tookMs;
    // A backend outage is not the job's fault: it goes back unspent, and the loop stops claiming for a while
    // (rather than failing every queued job once, and each a few times, for as long as the outage lasts).
    const unavailable = failure !== null && isBackendUnavailable(failure.error);
    if (unavailable) outage.failed();
    else if (failure === null) outage.succeeded();
    const settle = (
      unavailable ? driver.release(delivery, outage.delayMs()) : driver.settle(delivery, failure)
    )
      // The job stays claimed; its lease runs out and it is delivered again (at least once).
      .catch(options.onError)
      .finally(() => {
        // Only this delivery: once settled, the job may already be running here again as a new delivery.
        if (running.get(job.id) === delivery) running.delete(job.id);
        settling.delete(settle);
      });
    settling.add(settle);
  }

  /** Resolves on a finished job, an enqueue here, stop(), or the poll timer. */
  function pause(ms: number): Promise<void> {
    return new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, ms);
      nudge = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      nudge = null;
    });
  }

  function start(delivery: D): void {
    const task = run(delivery).finally(() => {
      inFlight.delete(task);
      slotsTurnOver = true;
      // A job claimed ahead takes the slot at once (not while backing off an outage); the loop claims more.
      const next = stopping || outage.remainingMs() > 0 ? undefined : ready.shift();
      if (next !== undefined) start(next);
      nudge?.();
    });
    inFlight.add(task);
  }

  /** Hands back every job claimed ahead (stopping, or held while the slots stayed busy). */
  async function handBack(): Promise<void> {
    const back = ready;
    ready = [];
    await Promise.allSettled(back.map((d) => driver.release(d)));
  }

  async function loop(): Promise<void> {
    while (!stopping) {
      while (ready.length > 0 && inFlight.size < options.concurrency && outage.remainingMs() === 0)
        start(ready.shift() as D);
      const room = options.capacity?.available() ?? Number.POSITIVE_INFINITY;
      const free = Math.min(options.concurrency - inFlight.size, room);
      const backingOff = outage.remainingMs();
      if (backingOff > 0) {
        // A backend is down: what was claimed ahead would only fail too, so it goes back for later.
        await handBack();
        await pause(backingOff);
        continue;
      }
      // Claimed ahead only while the slots turn over: ready jobs are kept for as long as a slot frees now and then.
      const ahead = slotsTurnOver ? prefetch - ready.length : 0;
      if (free <= 0 && (ahead <= 0 || ready.length > 0)) {
        // Nothing is awaited between the look at the budget and the pause, so no room can be missed.
        waitingForRoom = room <= 0;
        const held = ready.length;
        const pausedAt = performance.now();
        const wait = held > 0 ? holdMs() : options.pollIntervalMs;
        await pause(wait);
        waitingForRoom = false;
        // No slot freed for the whole wait: long jobs hold them, so the jobs claimed ahead go back.
        if (held > 0 && ready.length === held && performance.now() - pausedAt >= wait) {
          slotsTurnOver = false;
          await handBack();
        }
        continue;
      }
      let fetched: D[] = [];
      try {
        fetched = await driver.fetch(queue, Math.max(0, free) + Math.max(0, ahead));
      } catch (error) {
        options.onError(error);
      }
      if (stopping) {
        await Promise.allSettled(fetched.map((d) => driver.release(d)));
        break;
      }
      // The first `free` run now; the rest wait for a slot (only a prefetch claims more than that).
      for (const [at, delivery] of fetched.entries()) {
        if (at < free) start(delivery);
        else ready.push(delivery);
      }
      if (fetched.length > 0) continue;
      // Nothing to claim: with every slot busy, no more claims ahead until a job finishes (no polling while full).
      if (free <= 0) slotsTurnOver = false;
      else await pause(options.pollIntervalMs);
    }
    await handBack();
    const drained = await drainWithin(inFlight, options.drainTimeoutMs);
    // Settles are short: every finished job is settled before anything is handed back.
    await Promise.allSettled([...settling]);
    clearInterval(heartbeat);
    if (!drained) {
      const unfinished = [...running].filter(([id]) => handling.has(id)).map(([, d]) => d);
      await Promise.allSettled(unfinished.map((d) => driver.release(d)));
    }
  }

  const looping = loop();
  return {
    stop() {
      if (!stopped) {
        stopping = true;
        nudge?.();
        options.wake.off('enqueued', onWake);
        unsubscribe();
        stopped = looping;
      }
      return stopped;
    },
  };
}

/**
 * Steps of an outage backoff stop growing here, whatever the retry policy's maximum: a probe is one job that
 * fails at once, and a consumer should not sleep a minute past the end of an outage.
 */
const OUTAGE_MAX_STEP_MS = 10_000;

/** Jobs claimed ahead are never held longer than this without a slot freeing, however long jobs take. */
const HOLD_CAP_MS = 1_000;

/** Exponential backoff (with jitter) over consecutive outage failures; one success resets it. */
function outageBackoff(retryPolicy: BackoffPolicy) {
  const policy = { ...retryPolicy, maxMs: Math.min(retryPolicy.maxMs, OUTAGE_MAX_STEP_MS) };
  let streak = 0;
  let delay = 0;
  let until = 0;
  return {
    failed() {
      // Jobs that were running together fail together: one outage step for all of them, not one each.
      if (Date.now() < until) return;
      streak += 1;
      delay = retryDelayMs(null, streak, policy);
      until = Date.now() + delay;
    },
    succeeded() {
      streak = 0;
      until = 0;
    },
    delayMs: () => delay,
    remainingMs: () => Math.max(0, until - Date.now()),
  };
}

/** The consumers an adapter started, so its stop() can stop them all; each leaves the set once stopped. */
export function consumerSet() {
  const consumers = new Set<Consumer>();
  return {
    start<D>(
      queue: QueueName,
      driver: QueueDriver<D>,
      handler: JobHandler,
      options: PollLoopOptions,
    ): Consumer {
      const loop = startPollLoop(queue, driver, handler, options);
      const consumer: Consumer = { stop: () => loop.stop().finally(() => consumers.delete(consumer)) };
      consumers.add(consumer);
      return consumer;
    },
    async stopAll(): Promise<void> {
      await Promise.all([...consumers].map((consumer) => consumer.stop()));
    },
  };
}
