// The fetch thread (fetch-thread.ts): the http fetcher, built from the settings it was started with, answering
// the main thread's fetch messages. Every failure is answered as the FetchError's plain fields, never thrown.
import { parentPort, workerData } from 'node:worker_threads';
import { FetchError, type FetchOptions, type FetchResponse } from '../ports/fetcher.js';
import type { FromFetchThread, ThreadFetcherConfig, ToFetchThread } from './fetch-thread.js';
import { createHttpFetcher } from './http-fetcher.js';
import { nameThisThread } from './thread-name.js';
import { createOutbox } from './thread-outbox.js';

const port = parentPort;
if (!port) throw new Error('fetch-thread-worker.ts runs only as a worker thread');
nameThisThread('seedbed-fetch');
const fetcher = createHttpFetcher(workerData as ThreadFetcherConfig);
/** The caller's side of each request in hand: aborted when the main thread's signal is. */
const callers = new Map<number, AbortController>();
const outbox = createOutbox<FromFetchThread>((batch, transfer) => port.postMessage(batch, transfer));
const send = outbox.send;

async function run(message: Extract<ToFetchThread, { t: 'fetch' }>): Promise<void> {
  const { id, url, options } = message;
  const caller = new AbortController();
  callers.set(id, caller);
  try {
    // The message is this thread's own copy: its options are handed on as they are (no copy per request), the
    // flag `queueing` replaced by the callback. `caller` is the request's own controller: no second signal.
    const wantsQueueing = options.queueing;
    const forwarded = options as unknown as FetchOptions;
    // Set, not deleted: a deleted property turns the object into a slower dictionary.
    forwarded.queueing = undefined;
    if (wantsQueueing) {
      // The calling thread counts the request in line from its send: the first "in line" is not sent.
      let first = true;
      forwarded.queueing = (waiting: boolean) => {
        if (first && waiting) {
          first = false;
          return;
        }
        first = false;
        send({ t: 'queue', id, waiting });
      };
    }
    const response = await fetcher.fetch(url, forwarded, caller);
    const body = ownBytes(response.body);
    // The answer crosses without its Buffer (the bytes go as `body`, handed over): cleared, not copied.
    const answer = response as Omit<FetchResponse, 'body'> & { body: Buffer | undefined };
    answer.body = undefined;
    send({ t: 'ok', id, response: answer, body }, body.buffer as ArrayBuffer);
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

/**
 * The body's bytes in a buffer of their own, to hand over rather than clone: a body read whole usually is one
 * already; a small Buffer is a view of a shared pool, and is copied.
 */
function ownBytes(body: Buffer): Uint8Array {
  if (body.byteLength > 0 && body.byteOffset === 0 && body.byteLength === body.buffer.byteLength)
    return new Uint8Array(body.buffer, 0, body.byteLength);
  return new Uint8Array(body);
}

function handle(message: ToFetchThread): void {
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
    case 'ping':
      send({ t: 'pong' });
      return;
    case 'close':
      void fetcher.close().finally(() => {
        send({ t: 'closed' });
        outbox.flush();
      });
      return;
  }
}

port.on('message', (batch: ToFetchThread[]) => {
  for (const message of batch) handle(message);
});
