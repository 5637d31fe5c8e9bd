// Feeds read on worker threads (SEEDBED_FEED_WORKERS). feedsmith's XML parser compiles its 425 stop-node
// expressions on every parse: about half a megabyte of garbage and half a millisecond per feed, which on a
// contract batch was the main thread's largest single piece of work and most of its garbage collection. The
// worker runs the very same readFeed, so a feed reads the same on or off the main thread.
import { Worker } from 'node:worker_threads';
import { type FeedContent, type FeedReader, readFeed } from '../engine/feed-content.js';

export interface FeedReadRequest {
  id: number;
  body: Uint8Array;
  nowMs: number | null;
  contentType: string | undefined;
}

export type FeedReadAnswer = { id: number; content: FeedContent | null } | { id: number; error: string };

export interface FeedReaderPool {
  read: FeedReader;
  close(): Promise<void>;
  /**
   * Starts the workers now, so the first feed does not wait for one to load (called when workers start);
   * resolves once each has answered a first message (an empty body: its modules loaded, its reader run once).
   */
  prepare(): Promise<void>;
  /** Feeds read on a worker, and on the calling thread (no workers, closed, or a worker failed). */
  readonly stats: { onWorkers: number; onCaller: number };
}

interface Pending {
  resolve: (content: FeedContent | null) => void;
  reject: (error: Error) => void;
}

interface Slot {
  worker: Worker;
  pending: Map<number, Pending>;
  /** Whether it ever answered: a worker that cannot even start is not started again. */
  answered: boolean;
}

/** Starts the worker: its compiled .js beside this file, or (running from source) the .ts through tsx. */
function startWorker(): Worker {
  const here = import.meta.url;
  if (here.endsWith('.js')) return new Worker(new URL('./feed-worker.js', here));
  // tsx does not carry its hooks into worker threads: the worker registers them itself.
  const loader = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./feed-worker.ts', here).href;
  return new Worker(
    `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true },
  );
}

/**
 * `size` workers, started on first use; 0 reads on the calling thread. A worker that dies fails what it had
 * in hand (the domain's feed is then read on the calling thread) and is replaced on the next read; one that
 * dies before it ever answered (it cannot start here) leaves the pool reading on the calling thread for good,
 * rather than starting a doomed worker for every feed. `start` is for tests.
 */
export function createFeedReaderPool(size: number, start: () => Worker = startWorker): FeedReaderPool {
  const stats = { onWorkers: 0, onCaller: 0 };
  const onCaller = (body: Buffer, now: Date | null, contentType?: string) => {
    stats.onCaller += 1;
    return readFeed(body, now, contentType);
  };
  if (size <= 0)
    return {
      read: async (body, now, type) => onCaller(body, now, type),
      async close() {},
      async prepare() {},
      stats,
    };
  const slots: Array<Slot | null> = Array.from({ length: size }, () => null);
  let nextId = 1;
  let closed = false;

  function slot(at: number): Slot {
    const existing = slots[at];
    if (existing) return existing;
    const created: Slot = { worker: start(), pending: new Map(), answered: false };
    created.worker.unref();
    created.worker.on('message', (answer: FeedReadAnswer) => {
      const waiting = created.pending.get(answer.id);
      if (!waiting) return;
      created.pending.delete(answer.id);
      created.answered = true;
      if (created.pending.size === 0) created.worker.unref();
      if ('error' in answer) waiting.reject(new Error(answer.error));
      else waiting.resolve(answer.content);
    });
    const fail = (error: Error) => {
      if (slots[at] === created) slots[at] = null;
      if (!created.answered) closed = true;
      for (const waiting of created.pending.values()) waiting.reject(error);
      created.pending.clear();
    };
    created.worker.on('error', fail);
    created.worker.on('exit', (code) => fail(new Error(`the feed worker stopped (exit code ${code})`)));
    slots[at] = created;
    return created;
  }

  /** The worker with the fewest feeds in hand. */
  function leastBusy(): Slot {
    let best = 0;
    for (let i = 1; i < size; i += 1) {
      if ((slots[i]?.pending.size ?? 0) < (slots[best]?.pending.size ?? 0)) best = i;
    }
    return slot(best);
  }

  function ask(
    target: Slot,
    bytes: Uint8Array<ArrayBuffer>,
    now: Date | null,
    contentType: string | undefined,
  ): Promise<FeedContent | null> {
    const id = nextId++;
    const request: FeedReadRequest = { id, body: bytes, nowMs: now?.getTime() ?? null, contentType };
    return new Promise<FeedContent | null>((resolve, reject) => {
      target.pending.set(id, { resolve, reject });
      target.worker.ref();
      target.worker.postMessage(request, [bytes.buffer]);
    });
  }

  async function read(body: Buffer, now: Date | null, contentType?: string): Promise<FeedContent | null> {
    if (closed) return onCaller(body, now, contentType);
    try {
      // A copy of exactly the body's bytes (a Buffer may be a view of a larger pool), handed over, not cloned.
      const content = await ask(leastBusy(), new Uint8Array(body), now, contentType);
      stats.onWorkers += 1;
      return content;
    } catch {
      // The worker died or could not read it: the calling thread reads it, so a feed is never lost to a worker.
      return onCaller(body, now, contentType);
    }
  }

  return {
    read,
    stats,
    async prepare() {
      if (closed) return;
      // A worker that cannot start makes the pool read on the calling thread: ready all the same.
      await Promise.all(
        Array.from({ length: size }, (_, at) =>
          ask(slot(at), new Uint8Array(0), null, undefined).catch(() => null),
        ),
      );
    },
    async close() {
      closed = true;
      await Promise.all(slots.map((s) => s?.worker.terminate()));
      slots.fill(null);
    },
  };
}
