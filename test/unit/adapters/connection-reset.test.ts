// A connection reset before any answer: the fetcher sends the request once more on a new connection (a server that
// closed a kept-alive connection just as it was reused), and only once.
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AfterHeadersError } from '../../../src/adapters/fetch-errors.js';
import { isResetBeforeAnswer } from '../../../src/adapters/fetch-request.js';
import { createHttpFetcher } from '../../../src/adapters/http-fetcher.js';
import { FetchError } from '../../../src/ports/fetcher.js';
import { TEST_USER_AGENT } from '../../fixtures/fake-internet/test-fetcher.js';

const arrivals: string[] = [];
const sockets = new Set<Socket>();
let server: http.Server;
let port = 0;

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const host = String(req.headers.host).replace(/:\d+$/, '');
    arrivals.push(host);
    const seen = arrivals.filter((h) => h === host).length;
    // once.reset.test resets its first request's connection; always.reset.test every one.
    if (host.startsWith('always.') || (host.startsWith('once.') && seen === 1)) {
      req.socket.resetAndDestroy();
      return;
    }
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(`answer ${seen}\n`);
  });
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of sockets) socket.destroy();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('a connection reset before any answer', () => {
  const fetcher = () =>
    createHttpFetcher({
      userAgent: TEST_USER_AGENT,
      resolve: `*.reset.test=127.0.0.1:${port}`,
      perHostMinDelayMs: 0,
    });

  it('is sent once more on a new connection, and counts as two requests', async () => {
    const f = fetcher();
    try {
      const res = await f.fetch('http://once.reset.test/', { kind: 'html' });
      expect(res.status).toBe(200);
      expect(res.body.toString()).toBe('answer 2\n');
      expect(res.requests).toBe(2);
    } finally {
      await f.close();
    }
  });

  it('fails a site whose every connection resets, after two requests', async () => {
    const f = fetcher();
    try {
      const err = await f.fetch('http://always.reset.test/', { kind: 'html' }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(FetchError);
      expect((err as FetchError).code).toBe('NETWORK');
      expect(arrivals.filter((h) => h === 'always.reset.test')).toHaveLength(2);
    } finally {
      await f.close();
    }
  });

  it('is told apart from a failure after the answer began', () => {
    const reset = Object.assign(new Error('read ECONNRESET'), { code: 'ECONNRESET' });
    expect(isResetBeforeAnswer(reset)).toBe(true);
    expect(
      isResetBeforeAnswer(Object.assign(new Error('other side closed'), { code: 'UND_ERR_SOCKET' })),
    ).toBe(true);
    expect(isResetBeforeAnswer(new AfterHeadersError(reset, 200))).toBe(false);
    expect(isResetBeforeAnswer(Object.assign(new Error('refused'), { code: 'ECONNREFUSED' }))).toBe(false);
  });
});
