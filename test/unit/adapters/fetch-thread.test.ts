// The fetcher on its own thread answers as the fetcher on the calling thread does: the same responses (bodies,
// redirects, headers, request counts), the same FetchErrors with their fields, a caller's abort, Crawl-delay.
import { Worker } from 'node:worker_threads';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createThreadedFetcher, startFetchThread } from '../../../src/adapters/fetch-thread.js';
import { createHttpFetcher, type HttpFetcherConfig } from '../../../src/adapters/http-fetcher.js';
import { FetchError, type Fetcher, type FetchResponse } from '../../../src/ports/fetcher.js';
import { type FakeInternet, SITES, startFakeInternet } from '../../fixtures/fake-internet/index.js';
import { TEST_USER_AGENT } from '../../fixtures/fake-internet/test-fetcher.js';

let net: FakeInternet;
let threaded: Fetcher;
let local: Fetcher;

function config(): HttpFetcherConfig {
  return {
    userAgent: TEST_USER_AGENT,
    resolve: net.resolveSpec,
    extraCa: [net.caCert],
    connectTimeoutMs: 2_000,
    headersTimeoutMs: 300,
    bodyTimeoutMs: 1_000,
    perHostMinDelayMs: 0,
  };
}

beforeAll(async () => {
  net = await startFakeInternet();
  threaded = createThreadedFetcher(config());
  local = createHttpFetcher(config());
});

afterAll(async () => {
  await threaded?.close();
  await local?.close();
  await net?.close();
});

/** What a response says, without the timings (they differ from one request to the next). */
function answer(response: FetchResponse) {
  const { elapsedMs: _elapsed, waitedMs: _waited, headers, ...rest } = response;
  const { date: _date, ...stable } = headers;
  return { ...rest, headers: stable, body: response.body.toString('utf8') };
}

async function failure(promise: Promise<unknown>): Promise<FetchError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(FetchError);
  return error as FetchError;
}

describe('the fetcher on its own thread', () => {
  it.each([
    ['a gzip-encoded page', `https://${SITES.news}/`],
    ['redirects and a brotli body', `https://${SITES.atom}/`],
    ['a 403', `https://${SITES.forbidden}/`],
  ])('answers %s as the fetcher on the calling thread does', async (_, url) => {
    const [there, here] = await Promise.all([
      threaded.fetch(url, { kind: 'html' }),
      local.fetch(url, { kind: 'html' }),
    ]);
    expect(Buffer.isBuffer(there.body)).toBe(true);
    expect(answer(there)).toEqual(answer(here));
    expect(there.requests).toBeGreaterThan(0);
    expect(typeof there.waitedMs).toBe('number');
  });

  it('fails with the same FetchError, its code and fields', async () => {
    const [there, here] = await Promise.all([
      failure(threaded.fetch(`https://${SITES.loop}/`, { kind: 'html' })),
      failure(local.fetch(`https://${SITES.loop}/`, { kind: 'html' })),
    ]);
    expect(there.code).toBe('REDIRECT_LOOP');
    expect({ ...there, message: there.message }).toEqual({ ...here, message: here.message });
    expect(there.requests).toBeGreaterThan(1);
  });

  it('refuses private addresses on its thread too, by literal and by redirect, without touching them', async () => {
    const before = net.privateHits();
    for (const url of [`http://127.0.0.1:${net.privatePort}/`, `https://${SITES.ssrf}/`])
      expect((await failure(threaded.fetch(url, { kind: 'html' }))).code).toBe('SSRF_BLOCKED');
    expect(net.privateHits()).toBe(before);
  });

  it("stops a request when the caller's signal aborts, as ABORTED", async () => {
    const caller = new AbortController();
    const pending = threaded.fetch(`https://${SITES.hang}/`, { kind: 'html', signal: caller.signal });
    setTimeout(() => caller.abort(new Error('deadline')), 50);
    expect((await failure(pending)).code).toBe('ABORTED');
    const already = await failure(
      threaded.fetch(`https://${SITES.news}/`, { kind: 'html', signal: caller.signal }),
    );
    expect(already.code).toBe('ABORTED');
  });

  it("reads its own whole-request timeout as TIMEOUT, not as the caller's abort", async () => {
    // On its thread the request's controller is the one the calling thread's abort reaches: the timeout
    // aborts that same controller, and must still read as a timeout.
    const short = { ...config(), totalTimeoutMs: 100, headersTimeoutMs: 5_000 };
    const own = createThreadedFetcher(short);
    const here = createHttpFetcher(short);
    try {
      const caller = new AbortController();
      const [there, local] = await Promise.all([
        failure(own.fetch(`https://${SITES.hang}/`, { kind: 'html', signal: caller.signal })),
        failure(here.fetch(`https://${SITES.hang}/`, { kind: 'html', signal: caller.signal })),
      ]);
      expect(there.code).toBe('TIMEOUT');
      expect(local.code).toBe('TIMEOUT');
      expect(there.message).toBe(local.message);
    } finally {
      await own.close();
      await here.close();
    }
  });

  it('tells the caller when a request enters our own line and leaves it', async () => {
    const told: boolean[] = [];
    await threaded.fetch(`https://${SITES.bare}/`, {
      kind: 'html',
      queueing: (waiting) => told.push(waiting),
    });
    expect(told.length).toBeGreaterThan(0);
    expect(told.length % 2).toBe(0);
    expect(told.filter((waiting) => waiting)).toHaveLength(told.length / 2);
  });

  it('keeps a Crawl-delay set from the calling thread between two requests to the host', async () => {
    const own = createThreadedFetcher(config());
    try {
      own.setCrawlDelay(SITES.bare, 0.3);
      await own.fetch(`https://${SITES.bare}/`, { kind: 'html' });
      // Our own gap is 0 here: only the Crawl-delay holds the second request back.
      const second = await own.fetch(`https://${SITES.bare}/`, { kind: 'html' });
      expect(second.waitedMs).toBeGreaterThanOrEqual(290);
    } finally {
      await own.close();
    }
  });

  it('fails the requests in hand when its thread dies, then starts one again that keeps the Crawl-delays', async () => {
    const workers: Worker[] = [];
    const own = createThreadedFetcher(config(), (settings) => {
      const worker = startFetchThread(settings);
      workers.push(worker);
      return worker;
    });
    try {
      own.setCrawlDelay(SITES.bare, 0.3);
      await own.fetch(`https://${SITES.bare}/`, { kind: 'html' });
      const inHand = own.fetch(`https://${SITES.hang}/`, { kind: 'html' });
      await new Promise((resolve) => setTimeout(resolve, 50));
      await workers[0]?.terminate();
      expect((await failure(inHand)).code).toBe('NETWORK');
      // A new thread, told the Crawl-delay: two requests to the host are still 0.3 s apart.
      await own.fetch(`https://${SITES.bare}/`, { kind: 'html' });
      const second = await own.fetch(`https://${SITES.bare}/`, { kind: 'html' });
      expect(workers).toHaveLength(2);
      expect(second.waitedMs).toBeGreaterThanOrEqual(290);
    } finally {
      await own.close();
    }
  });

  it('starts its thread when asked to get ready, says when it answers, and the first request uses that thread', async () => {
    const workers: Worker[] = [];
    const own = createThreadedFetcher(config(), (settings) => {
      const worker = startFetchThread(settings);
      workers.push(worker);
      return worker;
    });
    try {
      expect(workers).toHaveLength(0);
      const ready = own.prepare?.();
      expect(workers).toHaveLength(1);
      await expect(ready).resolves.toBeUndefined();
      await own.prepare?.();
      const response = await own.fetch(`https://${SITES.bare}/`, { kind: 'html' });
      expect(response.status).toBe(200);
      expect(workers).toHaveLength(1);
    } finally {
      await own.close();
    }
  });

  it('says it cannot get ready when its thread stops before answering', async () => {
    const own = createThreadedFetcher(config(), () => new Worker('process.exit(3)', { eval: true }));
    try {
      await expect(own.prepare?.()).rejects.toThrow(/exit code 3/);
    } finally {
      await own.close();
    }
  });

  it('refuses requests once closed', async () => {
    const own = createThreadedFetcher(config());
    await own.fetch(`https://${SITES.bare}/`, { kind: 'html' });
    await own.close();
    expect((await failure(own.fetch(`https://${SITES.bare}/`, { kind: 'html' }))).code).toBe('ABORTED');
  });
});
