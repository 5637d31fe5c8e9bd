// A 413 the client can read. When a body is over its route's limit, Fastify stops reading it at once; a client
// still sending then writes into a connection the server has given up on, and on a closing connection sees a
// broken pipe (EPIPE / ECONNRESET) instead of the answer. So the rest of the body is read and thrown away before
// the 413 goes out — up to a bound, so a client cannot make the server read without end: past the bound the 413
// is sent with `Connection: close` and the socket is closed once it has been written.
import type { FastifyReply, FastifyRequest } from 'fastify';

/** Read and discard at most this many times the route's body limit… */
export const DRAIN_LIMIT_FACTOR = 8;
/** …and never more than this, whatever the route's limit (the queue routes take tens of MiB). */
export const MAX_DRAIN_BYTES = 64 * 1024 * 1024;

function drainBound(request: FastifyRequest): number {
  const limit = request.routeOptions.bodyLimit ?? MAX_DRAIN_BYTES;
  return Math.min(limit * DRAIN_LIMIT_FACTOR, MAX_DRAIN_BYTES);
}

/**
 * Resolves once the request's body has been read to its end (true) or `bound` more bytes have been thrown away
 * (false). A request already read, aborted or destroyed resolves at once: there is nothing left to wait for.
 */
export function drainRequestBody(request: FastifyRequest, bound = drainBound(request)): Promise<boolean> {
  const raw = request.raw;
  if (raw.complete || raw.readableEnded || raw.destroyed) return Promise.resolve(true);
  return new Promise((resolve) => {
    let discarded = 0;
    const finish = (ended: boolean) => {
      raw.removeListener('data', onData);
      raw.removeListener('end', onEnd);
      raw.removeListener('error', onEnd);
      raw.removeListener('close', onEnd);
      resolve(ended);
    };
    const onData = (chunk: Buffer | string) => {
      discarded += chunk.length;
      if (discarded > bound) {
        // Stop reading: nothing more is taken off the wire than the bound.
        raw.pause();
        finish(false);
      }
    };
    const onEnd = () => finish(true);
    raw.on('data', onData);
    raw.once('end', onEnd);
    raw.once('error', onEnd);
    raw.once('close', onEnd);
    raw.resume();
  });
}

/**
 * Sends `send()`'s answer once the body is out of the way; past the bound the connection is closed after the
 * answer, since the rest of the body is still on its way and would be taken for the next request.
 */
export async function answerAfterDrain(
  request: FastifyRequest,
  reply: FastifyReply,
  send: () => FastifyReply,
): Promise<FastifyReply> {
  const ended = await drainRequestBody(request);
  if (!ended) {
    reply.header('connection', 'close');
    reply.raw.once('finish', () => request.raw.socket?.destroy());
  }
  return send();
}
