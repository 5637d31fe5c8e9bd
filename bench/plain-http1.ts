// The least HTTP/1.1 a fake publisher needs, spoken on a socket the caller accepted (the latency internet's TLS
// sockets): requests read from the socket's bytes as they come, answers written in their order, each as one write.
// The latency internet ran node:http's server before (2026-11-28): its parser, request objects and streams were about
// a third of the fake internet's profile, whose CPU is taken from the same two cores as the process being measured
// (a sixth less CPU a site since, docs/fetching.md "The fake internet's own CPU"). The bytes on the wire are node:http's own for the same `writeHead(status, { 'content-type' })` and
// `end(body)`: the status line, `content-type`, `Date`, `Connection: keep-alive`, `Keep-Alive: timeout=30` and a
// chunked body (node:http sends the head before it knows the length), so what the client parses is unchanged.
// Not a general server: no request bodies (a request with one closes the connection), no pipelined request answered
// before the one ahead of it, no HTTP/1.0.
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

export interface PlainRequest {
  method: string;
  /** The request target as sent (path and query). */
  target: string;
  /** The Host header, as sent. */
  host: string;
}

export interface PlainAnswer {
  status: number;
  type: string;
  body: string | Buffer;
}

/** The answer to a request, when it is ready (the latency internet waits its site's delay first). */
export type Respond = (request: PlainRequest, answer: (response: PlainAnswer) => void) => void;

/** Idle time after which a kept-alive connection is closed (node:http's keepAliveTimeout as the server had it). */
export const KEEP_ALIVE_MS = 30_000;
/** A request head longer than this closes the connection (node:http's limit is 16 KiB). */
const MAX_HEAD = 16 * 1024;

/** node:http's Date header, formatted once a second as node:http does. */
let dateSecond = -1;
let dateValue = '';
function httpDate(): string {
  const second = Math.floor(Date.now() / 1000);
  if (second !== dateSecond) {
    dateSecond = second;
    dateValue = new Date(second * 1000).toUTCString();
  }
  return dateValue;
}

function head(status: number, type: string, close: boolean): string {
  return (
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'unknown'}\r\ncontent-type: ${type}\r\nDate: ${httpDate()}\r\n` +
    (close
      ? 'Connection: close\r\n'
      : `Connection: keep-alive\r\nKeep-Alive: timeout=${KEEP_ALIVE_MS / 1000}\r\n`)
  );
}

/** The bytes of one answer: a chunked body in a single chunk, or the head alone for HEAD. */
function encode(answer: PlainAnswer, method: string, close: boolean): string | Buffer {
  if (method === 'HEAD') return `${head(answer.status, answer.type, close)}\r\n`;
  const start = `${head(answer.status, answer.type, close)}Transfer-Encoding: chunked\r\n\r\n`;
  if (typeof answer.body === 'string') {
    const size = Buffer.byteLength(answer.body);
    return size === 0 ? `${start}0\r\n\r\n` : `${start}${size.toString(16)}\r\n${answer.body}\r\n0\r\n\r\n`;
  }
  if (answer.body.length === 0) return `${start}0\r\n\r\n`;
  return Buffer.concat([
    Buffer.from(`${start}${answer.body.length.toString(16)}\r\n`, 'latin1'),
    answer.body,
    Buffer.from('\r\n0\r\n\r\n', 'latin1'),
  ]);
}

/** Serves HTTP/1.1 on `socket` until the client closes it or it idles for KEEP_ALIVE_MS. */
export function servePlainHttp1(socket: Socket, respond: Respond): void {
  let pending = '';
  /** Answers in request order; an answer ready before the one ahead of it waits (null: not ready yet). */
  const line: Array<{ bytes: string | Buffer | null; close: boolean }> = [];
  const idle = () => {
    if (line.length === 0) socket.setTimeout(KEEP_ALIVE_MS);
  };
  socket.on('timeout', () => socket.destroy());
  socket.on('error', () => undefined);
  idle();
  const flush = () => {
    while (line.length > 0 && line[0]?.bytes != null) {
      const { bytes, close } = line.shift() as { bytes: string | Buffer; close: boolean };
      if (socket.destroyed) return;
      if (close) {
        socket.end(bytes);
        return;
      }
      socket.write(bytes);
    }
    idle();
  };
  socket.setEncoding('latin1');
  socket.on('data', (chunk: string) => {
    pending += chunk;
    for (;;) {
      const end = pending.indexOf('\r\n\r\n');
      if (end === -1) {
        if (pending.length > MAX_HEAD) socket.destroy();
        return;
      }
      const lines = pending.slice(0, end).split('\r\n');
      pending = pending.slice(end + 4);
      const [method = '', target = '', version = ''] = (lines[0] ?? '').split(' ');
      let host = '';
      let close = false;
      for (let i = 1; i < lines.length; i += 1) {
        const header = lines[i] as string;
        const colon = header.indexOf(':');
        const name = header.slice(0, colon).toLowerCase();
        const value = header.slice(colon + 1).trim();
        if (name === 'host') host = value;
        else if (name === 'connection') close = value.toLowerCase() === 'close';
        else if ((name === 'content-length' && value !== '0') || name === 'transfer-encoding') {
          socket.destroy();
          return;
        }
      }
      if (version !== 'HTTP/1.1' || target === '') {
        socket.destroy();
        return;
      }
      socket.setTimeout(0);
      const slot: { bytes: string | Buffer | null; close: boolean } = { bytes: null, close };
      line.push(slot);
      respond({ method, target, host }, (answer) => {
        slot.bytes = encode(answer, method, close);
        flush();
      });
    }
  });
}
