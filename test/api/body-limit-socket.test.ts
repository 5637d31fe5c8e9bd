// A body over the limit on a real socket: the client still sending when the server decides must receive the 413
// problem, not a broken pipe (EPIPE / ECONNRESET). inject() cannot show this — it has no socket — so the app
// listens on 127.0.0.1 and node:http sends the body in slices, slowly enough to be mid-body at the answer.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DRAIN_LIMIT_FACTOR } from '../../src/http/body-drain.js';
import { createApiSeedbed, expectProblem, inject } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

interface Answer {
  status?: number;
  headers?: http.IncomingHttpHeaders;
  body?: string;
  error?: string;
}

/** POSTs `body` in `slice`-byte writes `pauseMs` apart; resolves with the answer, or the client's error code. */
function slowPost(port: number, path: string, body: Buffer, slice: number, pauseMs: number, close = false) {
  return new Promise<Answer>((resolve) => {
    const request = http.request({
      host: '127.0.0.1',
      port,
      method: 'POST',
      path,
      headers: {
        'content-type': 'application/json',
        'content-length': body.length,
        ...(close ? { connection: 'close' } : {}),
      },
    });
    request.on('response', (response) => {
      let text = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => {
        text += part;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode, headers: response.headers, body: text }),
      );
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
    let offset = 0;
    const next = () => {
      if (offset >= body.length) {
        request.end();
        return;
      }
      request.write(body.subarray(offset, offset + slice));
      offset += slice;
      setTimeout(next, pauseMs);
    };
    next();
  });
}

const RECHECK = '/api/v1/queues/recheck';
const recheckBody = (ids: number) =>
  Buffer.from(
    JSON.stringify({ seedIds: Array.from({ length: ids }, (_, i) => `gov:sg:agency${i}.gov.sg::news`) }),
  );

describe('a body over the limit, on a real socket', () => {
  let t: TestSeedbed;
  let port: number;
  beforeAll(async () => {
    t = await createApiSeedbed();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('a 100,000-id POST /api/v1/queues/recheck receives the 413 problem while still sending', async () => {
    const body = recheckBody(100_000);
    // Over the route's 1 MiB limit, under the bound the server reads and discards.
    expect(body.length).toBeGreaterThan(1024 * 1024);
    for (const close of [false, true]) {
      const answer = await slowPost(port, RECHECK, body, 32 * 1024, 1, close);
      expect(answer.error, 'the client met an error instead of the answer').toBeUndefined();
      expect(answer.status).toBe(413);
      expect(answer.headers?.['content-type']).toMatch(/^application\/problem\+json/);
      expect(JSON.parse(answer.body ?? '{}')).toMatchObject({ status: 413, code: 'body_too_large' });
    }
    // The connection it was kept on still serves.
    expect((await inject(t.app, { method: 'GET', url: '/health' })).statusCode).toBe(200);
  });

  it('past the bound the server stops reading: the 413 says the connection closes', async () => {
    // inject: a stream without end, which only the bound can stop.
    let sent = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          sent += 64 * 1024;
          yield Buffer.alloc(64 * 1024, 0x20);
        }
      })(),
    );
    const response = await inject(t.app, {
      method: 'POST',
      url: RECHECK,
      payload: endless,
      headers: { 'content-type': 'application/json' },
    });
    expectProblem(response, 413, 'body_too_large');
    expect(response.headers.connection).toBe('close');
    endless.destroy();
    // Read up to the bound (8 × the 1 MiB limit), not beyond: the stream's own buffer (16 chunks, 1 MiB) aside.
    expect(sent).toBeGreaterThan(DRAIN_LIMIT_FACTOR * 1024 * 1024);
    expect(sent).toBeLessThan((DRAIN_LIMIT_FACTOR + 2) * 1024 * 1024);
  });
});
