// Feeds read on worker threads read exactly as on the calling thread (the pool runs the same readFeed).
import { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { createFeedReaderPool, type FeedReaderPool } from '../../../src/adapters/feed-reader-pool.js';
import { readFeed } from '../../../src/engine/feed-content.js';

const NOW = new Date('2026-11-26T12:00:00Z');

const rss = (title: string, items: number) =>
  `<?xml version="1.0"?><rss version="2.0"><channel><title>${title}</title><link>https://news.test/</link>` +
  '<language>fi</language>' +
  Array.from(
    { length: items },
    (_, i) =>
      `<item><title>Uutinen ${i}</title><link>https://news.test/a/${i}</link>` +
      `<pubDate>${new Date(NOW.getTime() - i * 86_400_000).toUTCString()}</pubDate></item>`,
  ).join('') +
  '</channel></rss>';

const BODIES: Array<[string, Buffer, string | undefined]> = [
  ['RSS', Buffer.from(rss('Uutiset', 12)), 'application/rss+xml'],
  [
    'Atom',
    Buffer.from(
      '<feed xmlns="http://www.w3.org/2005/Atom"><title>Atom news</title><link href="https://atom.test/"/>' +
        '<entry><title>One</title><link href="https://atom.test/1"/><updated>2026-11-25T08:00:00Z</updated></entry></feed>',
    ),
    'application/atom+xml',
  ],
  [
    'JSON Feed',
    Buffer.from(
      JSON.stringify({
        version: 'https://jsonfeed.org/version/1.1',
        title: 'JSON news',
        items: [{ id: '1', url: 'https://json.test/1', date_published: '2026-11-24T10:00:00Z' }],
      }),
    ),
    'application/feed+json',
  ],
  ['a page, not a feed', Buffer.from('<!doctype html><html><body>Hello</body></html>'), 'text/html'],
  ['Latin-1 by its header', Buffer.from(rss('Café', 2), 'latin1'), 'application/rss+xml; charset=iso-8859-1'],
];

describe('the feed reader pool', () => {
  let pool: FeedReaderPool | null = null;
  afterEach(async () => {
    await pool?.close();
    pool = null;
  });

  it('reads every body on its workers exactly as readFeed does on this thread, many at once', async () => {
    pool = createFeedReaderPool(2);
    const reader = pool;
    const inThread = BODIES.map(([, body, type]) => readFeed(body, NOW, type));
    // Each body several times over, all in flight together across both workers.
    const read = await Promise.all(
      [0, 1, 2].flatMap(() => BODIES.map(([, body, type]) => reader.read(body, NOW, type))),
    );
    expect(read).toEqual([...inThread, ...inThread, ...inThread]);
    expect(reader.stats).toEqual({ onWorkers: 15, onCaller: 0 });
    expect(inThread[0]).toMatchObject({ type: 'rss', title: 'Uutiset', language: 'fi', item_count: 12 });
    expect(inThread[3]).toBeNull();
    expect(inThread[4]).toMatchObject({ title: 'Café' });
  });

  it('passes "no now" on as null, and leaves the caller\'s buffer whole', async () => {
    pool = createFeedReaderPool(1);
    const [, body, type] = BODIES[0] as [string, Buffer, string];
    const before = Buffer.from(body);
    expect(await pool.read(body, null, type)).toEqual(readFeed(body, null, type));
    expect(body.equals(before)).toBe(true);
    expect(pool.stats).toEqual({ onWorkers: 1, onCaller: 0 });
  });

  it('reads on the calling thread with no workers, and after it was closed', async () => {
    const none = createFeedReaderPool(0);
    const [, body, type] = BODIES[1] as [string, Buffer, string];
    expect(await none.read(body, NOW, type)).toEqual(readFeed(body, NOW, type));
    expect(none.stats).toEqual({ onWorkers: 0, onCaller: 1 });
    pool = createFeedReaderPool(1);
    await pool.read(body, NOW, type);
    await pool.close();
    expect(await pool.read(body, NOW, type)).toEqual(readFeed(body, NOW, type));
    expect(pool.stats).toEqual({ onWorkers: 1, onCaller: 1 });
  });

  it('reads on the calling thread for good when its worker cannot start, instead of starting one per feed', async () => {
    let started = 0;
    pool = createFeedReaderPool(1, () => {
      started += 1;
      return new Worker('throw new Error("no worker here")', { eval: true });
    });
    const [, body, type] = BODIES[0] as [string, Buffer, string];
    expect(await pool.read(body, NOW, type)).toEqual(readFeed(body, NOW, type));
    expect(await pool.read(body, NOW, type)).toEqual(readFeed(body, NOW, type));
    expect(started).toBe(1);
    expect(pool.stats).toEqual({ onWorkers: 0, onCaller: 2 });
  });

  it('is ready only once every worker has answered a first message', async () => {
    const workers: Worker[] = [];
    // A stand-in worker that answers only when told to, as a slow-loading one would.
    const held =
      'const { parentPort } = require("node:worker_threads"); const asked = [];' +
      'parentPort.on("message", (m) => { if (m === "go") for (const a of asked) parentPort.postMessage({ id: a.id, content: null }); else asked.push(m); });';
    pool = createFeedReaderPool(2, () => {
      const worker = new Worker(held, { eval: true });
      workers.push(worker);
      return worker;
    });
    let ready = false;
    const preparing = pool.prepare().then(() => {
      ready = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    workers[0]?.postMessage('go');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(ready).toBe(false);
    workers[1]?.postMessage('go');
    await preparing;
    expect(ready).toBe(true);
    expect(pool.stats).toEqual({ onWorkers: 0, onCaller: 0 });
  });

  it('starts every worker when asked to get ready, and reads on those', async () => {
    let started = 0;
    // A stand-in worker that answers every feed with "not a feed", from the thread it was started on.
    const echo =
      'const { parentPort } = require("node:worker_threads");' +
      'parentPort.on("message", (m) => parentPort.postMessage({ id: m.id, content: null }));';
    pool = createFeedReaderPool(2, () => {
      started += 1;
      return new Worker(echo, { eval: true });
    });
    const ready = pool.prepare();
    expect(started).toBe(2);
    await ready;
    await pool.prepare();
    const [, body, type] = BODIES[0] as [string, Buffer, string];
    expect(await pool.read(body, NOW, type)).toBeNull();
    expect(started).toBe(2);
    expect(pool.stats).toEqual({ onWorkers: 1, onCaller: 0 });
  });
});
