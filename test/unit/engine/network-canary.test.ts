import { describe, expect, it } from 'vitest';
import { createNetworkCanary, DEFAULT_CANARY_URLS } from '../../../src/engine/network-canary.js';
import type { Fetcher, FetchResponse } from '../../../src/ports/fetcher.js';
import { stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';

const A = 'https://canary-a.example/generate_204';
const B = 'https://canary-b.example/generate_204';

const answer = (url: string): FetchResponse => ({
  url,
  finalUrl: url,
  status: 204,
  headers: {},
  body: Buffer.alloc(0),
  redirects: [],
  elapsedMs: 1,
});

/** A clock the test moves by hand. */
function clock(start = Date.parse('2025-03-04T05:06:07.000Z')) {
  let t = start;
  return {
    now: () => new Date(t),
    advance(ms: number) {
      t += ms;
    },
  };
}

describe('createNetworkCanary', () => {
  it('is up when any canary gives any HTTP answer, even an error status', async () => {
    const fetcher = stubFetcher({ [A]: { error: 'ENOTFOUND' }, [B]: { status: 500 } });
    const report = await createNetworkCanary({ fetcher, urls: [A, B] }).check();
    expect(report.up).toBe(true);
    expect(report.probes).toContainEqual({ url: B, status: 500, error_code: null });
  });

  it('is down only when every canary failed, and says how each failed', async () => {
    const fetcher = stubFetcher({ [A]: { error: 'ENOTFOUND' }, [B]: { error: 'TIMEOUT' } });
    const c = clock();
    const report = await createNetworkCanary({ fetcher, urls: [A, B], now: c.now }).check();
    expect(report).toEqual({
      up: false,
      checked_at: '2025-03-04T05:06:07.000Z',
      probes: expect.arrayContaining([
        { url: A, status: null, error_code: 'ENOTFOUND' },
        { url: B, status: null, error_code: 'TIMEOUT' },
      ]),
    });
    expect(report.probes).toHaveLength(2);
  });

  it('asks with HEAD, as a probe', async () => {
    const seen: unknown[] = [];
    const fetcher: Fetcher = {
      async fetch(url, options) {
        seen.push({
          url,
          kind: options.kind,
          method: options.method,
          signal: options.signal instanceof AbortSignal,
        });
        return answer(url);
      },
      setCrawlDelay() {},
      async close() {},
    };
    await createNetworkCanary({ fetcher, urls: [A] }).check();
    expect(seen).toEqual([{ url: A, kind: 'probe', method: 'HEAD', signal: true }]);
  });

  it('reuses a report for ttlMs, then checks again', async () => {
    const fetcher = stubFetcher({ [A]: { status: 204 } });
    const c = clock();
    const canary = createNetworkCanary({ fetcher, urls: [A], ttlMs: 10_000, now: c.now });
    const first = await canary.check();
    c.advance(9_999);
    expect(await canary.check()).toBe(first);
    expect(fetcher.calls).toHaveLength(1);
    c.advance(1);
    const second = await canary.check();
    expect(fetcher.calls).toHaveLength(2);
    expect(second.checked_at).not.toBe(first.checked_at);
  });

  it('reuses a down report as well', async () => {
    const fetcher = stubFetcher({ [A]: { error: 'ECONNREFUSED' } });
    const canary = createNetworkCanary({ fetcher, urls: [A], now: clock().now });
    await canary.check();
    expect((await canary.check()).up).toBe(false);
    expect(fetcher.calls).toHaveLength(1);
  });

  it('lets a burst of failures share one check', async () => {
    let release: (r: FetchResponse) => void = () => undefined;
    let calls = 0;
    const fetcher: Fetcher = {
      fetch() {
        calls += 1;
        return new Promise((resolve) => {
          release = resolve;
        });
      },
      setCrawlDelay() {},
      async close() {},
    };
    const canary = createNetworkCanary({ fetcher, urls: [A], now: clock().now });
    const burst = Array.from({ length: 20 }, () => canary.check());
    release(answer(A));
    const reports = await Promise.all(burst);
    expect(calls).toBe(1);
    expect(new Set(reports).size).toBe(1);
    expect(reports[0]!.up).toBe(true);
  });

  it('answers up as soon as one canary answers, without waiting for a slow one', async () => {
    const fetcher: Fetcher = {
      fetch(url) {
        if (url === B) return new Promise(() => undefined); // never settles
        return Promise.resolve(answer(url));
      },
      setCrawlDelay() {},
      async close() {},
    };
    const report = await createNetworkCanary({ fetcher, urls: [B, A] }).check();
    expect(report).toMatchObject({ up: true, probes: [{ url: A, status: 204 }] });
  });

  it('refuses an empty list and has two independent defaults', () => {
    expect(() => createNetworkCanary({ fetcher: stubFetcher({}), urls: [] })).toThrow(/at least one URL/);
    const hosts = DEFAULT_CANARY_URLS.map((u) => new URL(u).hostname.split('.').slice(-2).join('.'));
    expect(new Set(hosts).size).toBe(DEFAULT_CANARY_URLS.length);
  });
});
