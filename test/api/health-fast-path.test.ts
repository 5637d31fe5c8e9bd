// GET /health on a real socket, where the HTTP server answers it before Fastify's router
// (src/http/health-fast-path.ts): inject() never reaches that path, so the app listens on 127.0.0.1 here. The
// fast path must answer what the route answers, be counted in the metrics, and leave every other request —
// a query string, HEAD, a missing Host, a shutdown — to Fastify's own handling.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHealthFastPath } from '../../src/http/health-fast-path.js';
import { createApiSeedbed, inject } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function request(port: number, method: string, path: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const outgoing = http.request({ host: '127.0.0.1', port, method, path }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (part: string) => {
        body += part;
      });
      response.on('end', () =>
        resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
      );
    });
    outgoing.on('error', reject);
    outgoing.end();
  });
}

/** The raw bytes of an HTTP/1.1 request with no Host header, and the status line of the answer. */
function withoutHost(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET /health HTTP/1.1\r\n\r\n'));
    let text = '';
    socket.setEncoding('utf8');
    socket.on('data', (part: string) => {
      text += part;
    });
    socket.on('close', () => resolve(text));
    socket.on('error', reject);
  });
}

const healthCount = (metrics: string) =>
  Number(
    /seedbed_http_requests_total\{method="GET",route="\/health",status="200"\} (\d+)/.exec(metrics)?.[1] ?? 0,
  );

describe('GET /health answered before the router, on a real socket', () => {
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

  it('answers what the route answers: same type, same fields, this version', async () => {
    const onSocket = await request(port, 'GET', '/health');
    const routed = await inject(t.app, { method: 'GET', url: '/health' });
    expect(onSocket.status).toBe(200);
    expect(onSocket.headers['content-type']).toBe(routed.headers['content-type']);
    expect(Number(onSocket.headers['content-length'])).toBe(Buffer.byteLength(onSocket.body));
    const body = JSON.parse(onSocket.body);
    expect(Object.keys(body)).toEqual(Object.keys(routed.json()));
    expect(body.status).toBe('ok');
    expect(body.version).toBe(routed.json().version);
    expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it('counts every answer in the request counter', async () => {
    const before = healthCount((await inject(t.app, { method: 'GET', url: '/metrics' })).body);
    for (let i = 0; i < 5; i++) expect((await request(port, 'GET', '/health')).status).toBe(200);
    const after = healthCount((await inject(t.app, { method: 'GET', url: '/metrics' })).body);
    expect(after - before).toBe(5);
  });

  it('leaves a query string, HEAD and other paths to the router', async () => {
    const withQuery = await request(port, 'GET', '/health?verbose=1');
    expect(withQuery.status).toBe(400);
    expect(withQuery.headers['content-type']).toMatch(/^application\/problem\+json/);
    const head = await request(port, 'HEAD', '/health');
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect((await request(port, 'GET', '/health/live')).status).toBe(200);
  });

  it('an HTTP/1.1 request without Host is still the 400 problem', async () => {
    const answer = await withoutHost(port);
    expect(answer).toMatch(/^HTTP\/1\.1 400 /);
    expect(answer).toContain('missing_host');
  });
});

describe('the fast path itself', () => {
  const fastPath = (closing: boolean) => {
    let answered = 0;
    let handed = 0;
    const path = createHealthFastPath({
      version: '9.9.9',
      closing: () => closing,
      answered: () => answered++,
    });
    const server = path.serverFactory(
      (_request, response) => {
        handed++;
        response.writeHead(503).end('from the router');
      },
      { keepAliveTimeout: 1234, requestTimeout: 5678, connectionTimeout: 4321 },
    );
    return { server, counts: () => ({ answered, handed }) };
  };

  it('answers GET /health itself, without the router', async () => {
    const { server, counts } = fastPath(false);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const port = (server.address() as AddressInfo).port;
      const answer = await request(port, 'GET', '/health');
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.body)).toMatchObject({ status: 'ok', version: '9.9.9' });
      expect((await request(port, 'GET', '/health/')).status).toBe(503);
      expect(counts()).toEqual({ answered: 1, handed: 1 });
    } finally {
      server.close();
    }
  });

  it('hands GET /health to the router while the service is closing', async () => {
    const { server, counts } = fastPath(true);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const answer = await request((server.address() as AddressInfo).port, 'GET', '/health');
      expect(answer.status).toBe(503);
      expect(counts()).toEqual({ answered: 0, handed: 1 });
    } finally {
      server.close();
    }
  });

  it('keeps the timeouts Fastify would have set on its own server', () => {
    const { server } = fastPath(false);
    expect(server.keepAliveTimeout).toBe(1234);
    expect(server.requestTimeout).toBe(5678);
    expect(server.timeout).toBe(4321);
  });
});
