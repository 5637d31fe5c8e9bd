// The feed-reading worker thread (feed-reader-pool.ts): reads each feed body it is sent with the engine's own
// readFeed and answers with the plain result. One message in, one out; a failure is answered, never thrown.
import { parentPort } from 'node:worker_threads';
import { readFeed } from '../engine/feed-content.js';
import type { FeedReadAnswer, FeedReadRequest } from './feed-reader-pool.js';
import { nameThisThread } from './thread-name.js';

const port = parentPort;
if (!port) throw new Error('feed-worker.ts runs only as a worker thread');
nameThisThread('seedbed-feeds');
port.on('message', (request: FeedReadRequest) => {
  let answer: FeedReadAnswer;
  try {
    const now = request.nowMs === null ? null : new Date(request.nowMs);
    answer = { id: request.id, content: readFeed(Buffer.from(request.body), now, request.contentType) };
  } catch (err) {
    answer = { id: request.id, error: err instanceof Error ? err.message : String(err) };
  }
  port.postMessage(answer);
});
