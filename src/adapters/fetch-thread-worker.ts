// The fetch thread (fetch-thread.ts): the http fetcher, built from the settings it was started with, answering
// the main thread's fetch messages. Every failure is answered as the FetchError's plain fields, never thrown.
import { parentPort, workerData } from 'node:worker_threads';
import { FetchError } from '../ports/fetcher.js';
import type { FromFetchThread, ThreadFetcherConfig, ToFetchThread } from './fetch-thread.js';
import { createHttpFetcher } from './http-fetcher.js';

const port = parentPort;
if (!port) throw new Error('fetch-thread-worker.ts runs only as a worker thread');
const fetcher = createHttpFetcher(workerData as ThreadFetcherConfig);
/** The caller's side of each request in hand: aborted when the main thread's signal is. */
const callers = new Map<number, AbortController>();
const send = (message: FromFetchThread, transfer?: ArrayBuffer[]) => port.postMessage(message, transfer);

async function run(message: Extract<ToFetchThread, { t: 'fetch' }>): Promise<void> {
  const { id, url, options } = message;
  const caller = new AbortController();
  callers.set(id, caller);
  try {
    const { queueing, ...plain } = options;
    // The calling thread counts the request in line from its send: the first "in line" is not sent.
    let first = true;
    const notice = (waiting: boolean) => {
      if (first && waiting) {
        first = false;
        return;
      }
      first = false;
      send({ t: 'queue', id, waiting });
    };
    const response = await fetcher.fetch(url, {
      ...plain,
      signal: caller.signal,
      ...(queueing ? { queueing: notice } : {}),
    });
    // A copy of exactly the body's bytes (a small Buffer is a view of a shared pool), handed over, not cloned.
    const body = new Uint8Array(response.body);
    const { body: _, ...rest } = response;
    send({ t: 'ok', id, response: rest, body }, [body.buffer as ArrayBuffer]);
  } catch (err) {
    const error =
      err instanceof FetchError
        ? err
        : new FetchError('NETWORK', err instanceof Error ? err.message : String(err), { url });
    send({
      t: 'error',
      id,
      error: {
        code: error.code,
        message: error.message,
        url: error.url,
        ...(error.status !== undefined ? { status: error.status } : {}),
        ...(error.finalUrl !== undefined ? { finalUrl: error.finalUrl } : {}),
        ...(error.requests !== undefined ? { requests: error.requests } : {}),
      },
    });
  } finally {
    callers.delete(id);
  }
}

port.on('message', (message: ToFetchThread) => {
  switch (message.t) {
    case 'fetch':
      void run(message);
      return;
    case 'abort':
      callers.get(message.id)?.abort(new DOMException(message.reason, 'AbortError'));
      return;
    case 'delay':
      fetcher.setCrawlDelay(message.host, message.seconds);
      return;
    case 'close':
      void fetcher.close().finally(() => send({ t: 'closed' }));
      return;
  }
});
