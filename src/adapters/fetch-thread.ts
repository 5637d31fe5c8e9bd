// The http fetcher on a thread of its own (SEEDBED_FETCH_THREAD). Moving bytes costs the main thread more than
// anything else a contract batch does: TLS handshakes and record encryption, undici's parsing, the body streams,
// the politeness lines and their timers. The worker runs the very same createHttpFetcher, so requests, politeness
// and answers are those of the fetcher on the main thread; this side forwards each fetch() and its answer.
//
// Per request: one message out, the answer back (its body handed over, not copied), and, when the caller asks to
// hear of our own line (`queueing`), a message each time the request leaves it (and enters it again, for a
// redirect or a retry): every request starts in the line, so this side says so itself when it sends one, and
// says it left when the answer comes if no message did. A caller's abort is
// forwarded; the worker answers it as the fetcher does (ABORTED). setCrawlDelay is a message too: messages keep
// their order, so a delay set before a fetch holds for that fetch. Both sides send their messages in batches,
// one postMessage per turn of the event loop (thread-outbox.ts).
import { Worker } from 'node:worker_threads';
import {
  FetchError,
  type FetchErrorCode,
  type Fetcher,
  type FetchOptions,
  type FetchResponse,
} from '../ports/fetcher.js';
import type { HttpFetcherConfig } from './fetch-settings.js';
import { createOutbox, type Outbox } from './thread-outbox.js';

/** The settings a worker can be given: no functions (DNS, clock, sleep: those are the main-thread fetcher's). */
export type ThreadFetcherConfig = Omit<HttpFetcherConfig, 'lookup' | 'sleep' | 'now' | 'random'>;

/**
 * FetchOptions as sent: the signal and the queueing callback stay here (the signal's key travels empty: the
 * caller's options are copied once, not taken apart and put together again).
 */
export type ThreadFetchOptions = Omit<FetchOptions, 'signal' | 'queueing'> & {
  signal?: undefined;
  queueing: boolean;
};

export type ToFetchThread =
  | { t: 'fetch'; id: number; url: string; options: ThreadFetchOptions }
  | { t: 'abort'; id: number; reason: string }
  | { t: 'delay'; host: string; seconds: number }
  | { t: 'ping' }
  | { t: 'close' };

export interface ThreadFetchError {
  code: FetchErrorCode;
  message: string;
  url: string;
  status?: number;
  finalUrl?: string;
  requests?: number;
}

export type FromFetchThread =
  | { t: 'queue'; id: number; waiting: boolean }
  | { t: 'ok'; id: number; response: Omit<FetchResponse, 'body'>; body: Uint8Array }
  | { t: 'error'; id: number; error: ThreadFetchError }
  | { t: 'pong' }
  | { t: 'closed' };

interface Pending {
  resolve: (response: FetchResponse) => void;
  reject: (error: FetchError) => void;
  queueing: ((waiting: boolean) => void) | undefined;
  /** What the caller was last told: in our own line or not. */
  inLine: boolean;
  url: string;
}

/** Starts the worker: its compiled .js beside this file, or (running from source) the .ts through tsx. */
export function startFetchThread(config: ThreadFetcherConfig): Worker {
  const here = import.meta.url;
  if (here.endsWith('.js'))
    return new Worker(new URL('./fetch-thread-worker.js', here), { workerData: config });
  // tsx does not carry its hooks into worker threads: the worker registers them itself.
  const loader = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./fetch-thread-worker.ts', here).href;
  return new Worker(
    `import(${JSON.stringify(loader)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`,
    { eval: true, workerData: config },
  );
}

/** Crawl-delays kept to tell a restarted worker: the most recently set, this many hosts. */
const KEPT_CRAWL_DELAYS = 10_000;

/**
 * A Fetcher whose requests run on a worker thread. A worker that dies fails every request in hand (`NETWORK`)
 * and is started again for the next one. The new one is told the Crawl-delays set since (the last 10,000
 * hosts'); each host's gap starts afresh, as after a restart of the process.
 */
export function createThreadedFetcher(
  config: ThreadFetcherConfig,
  /** For tests: how a worker is started. */
  start: (config: ThreadFetcherConfig) => Worker = startFetchThread,
): Fetcher {
  const pending = new Map<number, Pending>();
  const crawlDelays = new Map<string, number>();
  let worker: Worker | null = null;
  /** The running worker's outbox: what is queued for a worker that died goes nowhere, as its requests failed. */
  let outbox: Outbox<ToFetchThread> | null = null;
  let nextId = 1;
  let closing: Promise<void> | null = null;
  /** The running worker's first answer (its modules loaded), for prepare(); null until someone asks. */
  let answered: { promise: Promise<void>; resolve: () => void; reject: (error: Error) => void } | null = null;

  function onMessages(batch: FromFetchThread[]): void {
    for (const message of batch) onMessage(message);
  }

  function onMessage(message: FromFetchThread): void {
    if (message.t === 'closed') return;
    if (message.t === 'pong') {
      answered?.resolve();
      if (pending.size === 0) worker?.unref();
      return;
    }
    const waiting = pending.get(message.id);
    if (!waiting) return;
    if (message.t === 'queue') {
      if (waiting.inLine !== message.waiting) waiting.queueing?.(message.waiting);
      waiting.inLine = message.waiting;
      return;
    }
    pending.delete(message.id);
    if (waiting.inLine) waiting.queueing?.(false);
    if (pending.size === 0) worker?.unref();
    if (message.t === 'ok') {
      const { body } = message;
      // The answer is this thread's own copy: it gets its body back in place rather than being copied.
      const response = message.response as FetchResponse;
      response.body = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
      waiting.resolve(response);
    } else {
      const { code, message: text, ...details } = message.error;
      waiting.reject(new FetchError(code, text, details));
    }
  }

  function started(): { worker: Worker; outbox: Outbox<ToFetchThread> } {
    if (worker && outbox) return { worker, outbox };
    const created = start(config);
    const createdOutbox = createOutbox<ToFetchThread>((batch) => created.postMessage(batch));
    created.on('message', onMessages);
    const fail = (reason: string) => {
      if (worker !== created) return;
      worker = null;
      outbox = null;
      answered?.reject(new Error(`the fetch thread stopped: ${reason}`));
      answered = null;
      for (const [id, waiting] of pending) {
        pending.delete(id);
        if (waiting.inLine) waiting.queueing?.(false);
        waiting.reject(
          new FetchError('NETWORK', `the fetch thread stopped: ${reason}`, { url: waiting.url }),
        );
      }
    };
    created.on('error', (error) => fail(error.message));
    created.on('exit', (code) => fail(`exit code ${code}`));
    created.unref();
    worker = created;
    outbox = createdOutbox;
    for (const [host, seconds] of crawlDelays) createdOutbox.send({ t: 'delay', host, seconds });
    return { worker: created, outbox: createdOutbox };
  }

  /** A closed fetcher starts no worker again (an abort or a Crawl-delay that comes late). */
  const post = (message: ToFetchThread) => {
    if (!closing) started().outbox.send(message);
  };

  return {
    fetch(url, options) {
      if (closing) return Promise.reject(new FetchError('ABORTED', 'the fetcher is closed', { url }));
      const { signal, queueing } = options;
      if (signal?.aborted)
        return Promise.reject(new FetchError('ABORTED', `request to ${url} was cancelled`, { url }));
      const id = nextId++;
      return new Promise<FetchResponse>((resolve, reject) => {
        const onAbort = () => post({ t: 'abort', id, reason: String(signal?.reason ?? 'aborted') });
        signal?.addEventListener('abort', onAbort, { once: true });
        const settle =
          <T>(done: (value: T) => void) =>
          (value: T) => {
            signal?.removeEventListener('abort', onAbort);
            done(value);
          };
        const inLine = queueing !== undefined;
        pending.set(id, { resolve: settle(resolve), reject: settle(reject), queueing, inLine, url });
        const target = started();
        target.worker.ref();
        target.outbox.send({
          t: 'fetch',
          id,
          url,
          options: { ...options, signal: undefined, queueing: queueing !== undefined },
        });
        // Every request starts in our own line (its host's slot and gap, a global slot): the worker does not
        // send that first notice.
        queueing?.(true);
      });
    },
    setCrawlDelay(host, seconds) {
      crawlDelays.delete(host);
      crawlDelays.set(host, seconds);
      if (crawlDelays.size > KEPT_CRAWL_DELAYS) crawlDelays.delete(crawlDelays.keys().next().value as string);
      // A worker not started yet is told when it starts.
      if (worker) post({ t: 'delay', host, seconds });
    },
    prepare() {
      if (closing) return Promise.resolve();
      const target = started();
      if (!answered) {
        let resolve = () => {};
        let reject: (error: Error) => void = () => {};
        const promise = new Promise<void>((yes, no) => {
          resolve = yes;
          reject = no;
        });
        // Nobody may be listening when a thread that cannot start fails; the caller that is sees the rejection.
        promise.catch(() => undefined);
        answered = { promise, resolve, reject };
        // Held until it answers, as a request is: someone is waiting for it.
        target.worker.ref();
        target.outbox.send({ t: 'ping' });
      }
      return answered.promise;
    },
    close() {
      closing ??= (async () => {
        const running = worker;
        if (!running || !outbox) return;
        running.ref();
        const closed = new Promise<void>((resolve) => {
          running.on('message', (batch: FromFetchThread[]) => {
            if (batch.some((message) => message.t === 'closed')) resolve();
          });
          running.once('exit', () => resolve());
        });
        outbox.send({ t: 'close' });
        outbox.flush();
        await closed;
        worker = null;
        await running.terminate();
      })();
      return closing;
    },
  };
}
