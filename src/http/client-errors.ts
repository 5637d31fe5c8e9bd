// What Node's HTTP parser refuses before Fastify sees a request (unknown method, request line or headers over
// the limit, malformed syntax, a timeout) answered as problem+json with `Connection: close`, so a keep-alive
// client reads why instead of an ECONNRESET. A request without Host is refused in a hook (see app.ts).
import type { Socket } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { type Problem, problem } from './errors.js';

/** Node's default, stated so docs/api.md and the 431 detail name the real figure. */
export const MAX_HEADER_BYTES = 16 * 1024;

/** llhttp's error codes, grouped by what they tell a client. */
const MALFORMED: Record<string, string> = {
  HPE_INVALID_CONSTANT: 'the request line is malformed (expected METHOD SP target SP HTTP/1.x)',
  HPE_INVALID_VERSION: 'the HTTP version is not HTTP/1.0 or HTTP/1.1',
  HPE_INVALID_URL: 'the request target is not a valid URL path',
  HPE_INVALID_HEADER_TOKEN: 'a header name or value has characters HTTP does not allow',
  HPE_INVALID_CONTENT_LENGTH: 'Content-Length is not a single decimal number',
  HPE_UNEXPECTED_CONTENT_LENGTH: 'Content-Length and Transfer-Encoding were both sent',
  HPE_INVALID_TRANSFER_ENCODING: 'Transfer-Encoding is not one this server understands (chunked last)',
  HPE_INVALID_CHUNK_SIZE: 'a chunk size of the chunked body is malformed',
  HPE_CR_EXPECTED: 'a line does not end with CRLF',
  HPE_LF_EXPECTED: 'a line does not end with CRLF',
  HPE_STRICT: 'the request breaks HTTP syntax',
  HPE_INVALID_EOF_STATE: 'the connection ended in the middle of a request',
};

/** The problem for a parser error, or null when there is no one left to answer (the peer reset). */
export function clientErrorProblem(error: NodeJS.ErrnoException): Problem | null {
  const code = error.code ?? '';
  if (code === 'ECONNRESET' || code === 'EPIPE') return null;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT')
    return problem(408, 'request_timeout', 'the request was not received in time; send it again');
  if (code === 'HPE_HEADER_OVERFLOW')
    return problem(
      431,
      'headers_too_large',
      `the request line and headers exceed ${MAX_HEADER_BYTES} bytes (a long path or query counts too)`,
    );
  if (code === 'HPE_INVALID_METHOD')
    return problem(
      501,
      'method_not_implemented',
      'the request method is not one HTTP defines; this API uses GET, POST, PATCH and DELETE',
    );
  return problem(400, 'malformed_request', MALFORMED[code] ?? 'the request is not valid HTTP/1.1');
}

/** Writes a complete problem response on the raw socket and closes it once written. */
export function writeProblem(socket: Socket, body: Problem): void {
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${body.status} ${body.title}\r\n` +
      'Content-Type: application/problem+json\r\n' +
      `Content-Length: ${Buffer.byteLength(json)}\r\n` +
      'Connection: close\r\n\r\n' +
      json,
  );
  // A client that never closes its side must not hold the socket open.
  setTimeout(() => socket.destroy(), 5_000).unref();
}

/** The node http server's 'clientError' listener (Fastify's `clientErrorHandler`). */
export function createClientErrorHandler(log: () => FastifyBaseLogger) {
  return (error: NodeJS.ErrnoException, socket: Socket): void => {
    const body = clientErrorProblem(error);
    if (!body || socket.destroyed || !socket.writable) {
      socket.destroy();
      return;
    }
    // A pipelined request before the bad one is still being answered: the problem follows its response.
    const current = (
      socket as Socket & { _httpMessage?: NodeJS.EventEmitter & { writableFinished?: boolean } }
    )._httpMessage;
    if (current && !current.writableFinished) {
      current.once('finish', () => {
        if (!socket.destroyed && socket.writable) writeProblem(socket, body);
      });
      current.once('close', () => setTimeout(() => socket.destroy(), 5_000).unref());
      return;
    }
    log().debug({ code: error.code, status: body.status }, 'HTTP parser refused a request');
    writeProblem(socket, body);
  };
}
