// What the HTTP parser refuses, spoken as raw bytes over node:net (inject() never reaches the parser): an
// unknown method, a path or header past 16 KiB, a malformed request line, no Host. Each must answer
// problem+json with `Connection: close`, and the server must then close the socket cleanly (FIN, not RST),
// also when the bad request follows a good one on a keep-alive connection.
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiSeedbed } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

interface RawResponse {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Exchange {
  responses: RawResponse[];
  /** How the server ended the connection: 'end' (a clean close) or the socket error's code. */
  closed: string;
}

/** Parses every complete response in the bytes a server sent (Content-Length framed, as ours are). */
function parseResponses(data: Buffer): RawResponse[] {
  const out: RawResponse[] = [];
  let rest = data;
  while (rest.length > 0) {
    const headEnd = rest.indexOf('\r\n\r\n');
    if (headEnd < 0) break;
    const [statusLine, ...lines] = rest.subarray(0, headEnd).toString('latin1').split('\r\n');
    const headers: Record<string, string> = {};
    for (const line of lines) {
      const colon = line.indexOf(':');
      headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
    }
    const length = Number(headers['content-length'] ?? 0);
    const body = rest.subarray(headEnd + 4, headEnd + 4 + length).toString('utf8');
    out.push({ status: Number(statusLine?.split(' ')[1]), headers, body });
    rest = rest.subarray(headEnd + 4 + length);
  }
  return out;
}

/** Sends raw bytes, collects everything until the server closes the connection (or 10 s pass). */
function exchange(port: number, request: string | Buffer): Promise<Exchange> {
  return new Promise((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' });
    const chunks: Buffer[] = [];
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`the server did not close the connection; got ${Buffer.concat(chunks)}`));
    }, 10_000);
    let closed = 'end';
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error: NodeJS.ErrnoException) => {
      closed = error.code ?? 'error';
    });
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ responses: parseResponses(Buffer.concat(chunks)), closed });
    });
    socket.write(request);
  });
}

function expectClosingProblem(response: RawResponse | undefined, status: number, code: string) {
  expect(response, 'a response was sent').toBeDefined();
  const r = response as RawResponse;
  expect(r.status).toBe(status);
  expect(r.headers['content-type']).toMatch(/^application\/problem\+json/);
  expect(r.headers.connection?.toLowerCase()).toBe('close');
  const body = JSON.parse(r.body);
  expect(body).toMatchObject({ status, code, type: `https://seedbed.dev/problems/${code}` });
  expect(typeof body.title).toBe('string');
  expect(body.detail.length).toBeGreaterThan(0);
  return body;
}

describe('what the HTTP parser refuses', () => {
  let t: TestSeedbed;
  let port: number;
  beforeAll(async () => {
    t = await createApiSeedbed();
    await t.app.listen({ host: '127.0.0.1', port: 0 });
    port = (t.app.server.address() as { port: number }).port;
  });
  afterAll(() => t.close());

  const cases: Array<[string, string, number, string]> = [
    ['an unknown method', 'FOO /health HTTP/1.1\r\nHost: x\r\n\r\n', 501, 'method_not_implemented'],
    [
      'a path over 16 KiB',
      `GET /${'a'.repeat(17 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    [
      'a header over 16 KiB',
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'b'.repeat(17 * 1024)}\r\n\r\n`,
      431,
      'headers_too_large',
    ],
    ['a malformed request line', 'GET /health HTTX/1.1\r\nHost: x\r\n\r\n', 400, 'malformed_request'],
    ['an unsupported HTTP version', 'GET /health HTTP/3.7\r\nHost: x\r\n\r\n', 400, 'malformed_request'],
    [
      'a header name with a space',
      'GET /health HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n',
      400,
      'malformed_request',
    ],
    [
      'Content-Length with Transfer-Encoding',
      'POST /api/v1/seeds HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
      400,
      'malformed_request',
    ],
    ['an HTTP/1.1 request without Host', 'GET /health HTTP/1.1\r\n\r\n', 400, 'missing_host'],
  ];

  for (const [what, request, status, code] of cases) {
    it(`${what}: ${status} ${code} as problem+json, Connection: close, then a clean close`, async () => {
      const { responses, closed } = await exchange(port, request);
      expect(responses).toHaveLength(1);
      expectClosingProblem(responses[0], status, code);
      expect(closed).toBe('end');
    });
  }

  it('a bad request after a good one on a keep-alive connection: the first answered, the second a problem', async () => {
    const { responses, closed } = await exchange(
      port,
      'GET /health HTTP/1.1\r\nHost: x\r\n\r\nFOO /health HTTP/1.1\r\nHost: x\r\n\r\n',
    );
    expect(responses).toHaveLength(2);
    expect(responses[0]?.status).toBe(200);
    expect(responses[0]?.headers.connection?.toLowerCase()).not.toBe('close');
    expectClosingProblem(responses[1], 501, 'method_not_implemented');
    expect(closed).toBe('end');
  });

  it('HTTP/1.0 without Host is still served (Host is an HTTP/1.1 requirement)', async () => {
    const { responses } = await exchange(port, 'GET /health HTTP/1.0\r\n\r\n');
    expect(responses[0]?.status).toBe(200);
  });

  it('a method the parser knows but the API does not (PROPFIND) is a problem, not Fastify JSON', async () => {
    const { responses } = await exchange(
      port,
      'PROPFIND /health HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
    );
    expect(responses[0]?.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(responses[0]?.status).toBe(404);
    expect(JSON.parse(responses[0]?.body ?? '{}').code).toBe('not_found');
  });
});
