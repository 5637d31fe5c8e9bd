import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { servePlainHttp1 } from '../../../bench/plain-http1.js';

// The latency internet's HTTP/1.1: the same bytes node:http's server wrote for writeHead + end, answers in order on
// a kept-alive connection. Spoken here over plain TCP (the bench's sockets are TLS ones; the bytes are the same).
const servers: net.Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((resolve) => server.close(resolve));
});

let connections = 0;

async function start(delays: Record<string, number> = {}): Promise<number> {
  const server = net.createServer({ noDelay: true }, (socket) =>
    servePlainHttp1(socket, (request, respond) => {
      setTimeout(
        () =>
          respond({
            status: request.target === '/missing' ? 404 : 200,
            type: 'text/plain',
            body: `${request.method} ${request.target} for ${request.host} ✓`,
          }),
        delays[request.target] ?? 0,
      );
    }),
  );
  server.on('connection', () => {
    connections += 1;
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return (server.address() as AddressInfo).port;
}

/** The raw bytes answered to `requests` written at once on one connection, until `until` is seen. */
function raw(port: number, requests: string, until: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.write(requests));
    let got = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk) => {
      got += chunk;
      if (until.test(got)) {
        socket.destroy();
        resolve(got);
      }
    });
    socket.on('error', reject);
  });
}

describe('servePlainHttp1', () => {
  it("writes node:http's head and a chunked body, counted in bytes", async () => {
    const port = await start();
    const bytes = await raw(port, 'GET /a?b=1 HTTP/1.1\r\nHost: x.test\r\n\r\n', /\r\n0\r\n\r\n$/);
    const body = 'GET /a?b=1 for x.test ✓';
    expect(bytes.replace(/Date: [^\r]+/, 'Date: D')).toBe(
      'HTTP/1.1 200 OK\r\ncontent-type: text/plain\r\nDate: D\r\nConnection: keep-alive\r\nKeep-Alive: timeout=30\r\n' +
        `Transfer-Encoding: chunked\r\n\r\n${Buffer.byteLength(body).toString(16)}\r\n` +
        `${Buffer.from(body).toString('latin1')}\r\n0\r\n\r\n`,
    );
  });

  it('answers requests sent together in their order, whichever is ready first', async () => {
    const port = await start({ '/slow': 50 });
    const bytes = await raw(
      port,
      'GET /slow HTTP/1.1\r\nHost: x.test\r\n\r\nGET /fast HTTP/1.1\r\nHost: x.test\r\n\r\n',
      /\/fast[\s\S]*\r\n0\r\n\r\n$/,
    );
    expect(bytes.indexOf('/slow')).toBeLessThan(bytes.indexOf('/fast'));
  });

  it("is read by node:http's client on one kept-alive connection, HEAD and 404 included", async () => {
    const port = await start();
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    connections = 0;
    const get = (path: string, method = 'GET') =>
      new Promise<{ status: number; body: string; type: string | undefined }>((resolve, reject) => {
        const request = http.request({ port, host: '127.0.0.1', path, method, agent }, (response) => {
          let body = '';
          response.setEncoding('utf8');
          response.on('data', (chunk) => {
            body += chunk;
          });
          response.on('end', () =>
            resolve({ status: response.statusCode ?? 0, body, type: response.headers['content-type'] }),
          );
        });
        request.on('error', reject);
        request.end();
      });
    expect(await get('/one')).toEqual({
      status: 200,
      body: `GET /one for 127.0.0.1:${port} ✓`,
      type: 'text/plain',
    });
    expect((await get('/missing')).status).toBe(404);
    expect((await get('/three')).body).toBe(`GET /three for 127.0.0.1:${port} ✓`);
    expect(connections).toBe(1);
    // Last: node:http's client opens a new connection for the request after a HEAD, against node:http's server too.
    expect(await get('/two', 'HEAD')).toEqual({ status: 200, body: '', type: 'text/plain' });
    agent.destroy();
  });

  it('closes after answering a request that asks it to', async () => {
    const port = await start();
    const bytes = await new Promise<string>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write('GET / HTTP/1.1\r\nHost: x.test\r\nConnection: close\r\n\r\n'),
      );
      let got = '';
      socket.setEncoding('latin1');
      socket.on('data', (chunk) => {
        got += chunk;
      });
      socket.on('end', () => resolve(got));
    });
    expect(bytes).toContain('Connection: close\r\n');
    expect(bytes).not.toContain('Keep-Alive');
    expect(bytes.endsWith('\r\n0\r\n\r\n')).toBe(true);
  });
});
