// Conditional requests on the wire (RFC 9110 §13.1): the real fetcher sends the validators it is given as
// If-None-Match / If-Modified-Since, and a server's 304 comes back as a 304 with no body.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHttpFetcher } from '../../../src/adapters/http-fetcher.js';
import type { Fetcher } from '../../../src/ports/fetcher.js';
import { TEST_USER_AGENT } from '../../fixtures/fake-internet/test-fetcher.js';

const ETAG = '"robots-7"';
const MODIFIED = 'Mon, 02 Nov 2026 08:00:00 GMT';
const seen: Array<Record<string, string | undefined>> = [];
let server: http.Server;
let fetcher: Fetcher;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    seen.push({
      'if-none-match': req.headers['if-none-match'],
      'if-modified-since': req.headers['if-modified-since'],
    });
    const unchanged =
      req.headers['if-none-match'] === ETAG ||
      (req.headers['if-none-match'] === undefined && req.headers['if-modified-since'] === MODIFIED);
    if (unchanged) {
      res.writeHead(304, { etag: ETAG });
      res.end();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain', etag: ETAG, 'last-modified': MODIFIED });
    res.end('User-agent: *\nAllow: /\n');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  fetcher = createHttpFetcher({
    userAgent: TEST_USER_AGENT,
    resolve: `*.conditional.test=127.0.0.1:${port}`,
    perHostMinDelayMs: 0,
  });
});

afterAll(async () => {
  await fetcher?.close();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('conditional requests', () => {
  const url = 'http://site.conditional.test/robots.txt';

  it('sends no validator unless given one, and hands back the ones the answer carried', async () => {
    const res = await fetcher.fetch(url, { kind: 'robots' });
    expect(res.status).toBe(200);
    expect(res.headers['etag']).toBe(ETAG);
    expect(res.headers['last-modified']).toBe(MODIFIED);
    expect(seen.at(-1)).toEqual({ 'if-none-match': undefined, 'if-modified-since': undefined });
  });

  it('sends If-None-Match and If-Modified-Since; an unchanged resource is a 304 with an empty body', async () => {
    const res = await fetcher.fetch(url, {
      kind: 'robots',
      conditional: { etag: ETAG, last_modified: MODIFIED },
    });
    expect(seen.at(-1)).toEqual({ 'if-none-match': ETAG, 'if-modified-since': MODIFIED });
    expect(res.status).toBe(304);
    expect(res.body.length).toBe(0);
  });

  it('a date alone revalidates too; a stale ETag gets the full answer', async () => {
    expect(
      (await fetcher.fetch(url, { kind: 'robots', conditional: { last_modified: MODIFIED } })).status,
    ).toBe(304);
    const stale = await fetcher.fetch(url, { kind: 'robots', conditional: { etag: '"robots-6"' } });
    expect(stale.status).toBe(200);
    expect(stale.body.toString()).toContain('User-agent');
  });
});
