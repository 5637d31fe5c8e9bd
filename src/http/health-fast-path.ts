// GET /health answered by the HTTP server itself, before Fastify's router, hooks and reply: the route that load
// balancers and uptime checks call many times a second carries a constant and the clock, and Fastify's pipeline
// cost more than the answer (docs/profiles.md). Anything else about the request — a query string, a trailing
// slash, HEAD, a missing Host, a service shutting down — goes on to Fastify, which answers it exactly as before;
// so this path only ever answers the one request whose answer is already known.
import {
  createServer,
  type IncomingMessage,
  type Server,
  type ServerOptions,
  type ServerResponse,
} from 'node:http';

/** What Fastify passes to a server factory: its own options, defaults filled in. */
interface FactoryOptions {
  http?: ServerOptions;
  keepAliveTimeout?: number;
  requestTimeout?: number;
  connectionTimeout?: number;
  maxRequestsPerSocket?: number;
}

export interface HealthFastPath {
  /** The JSON text of GET /health now; the route in Fastify sends the very same text. */
  body(): string;
  /** A server for Fastify's `serverFactory`: the fast path first, Fastify's handler for the rest. */
  serverFactory(
    handler: (request: IncomingMessage, response: ServerResponse) => void,
    options: Record<string, unknown>,
  ): Server;
}

export function createHealthFastPath(deps: {
  version: string;
  /** True from the moment the app starts closing: Fastify then answers 503 with its problem body. */
  closing: () => boolean;
  /** Counted, not timed: the request counter is all /health contributes to the metrics. */
  answered: () => void;
}): HealthFastPath {
  const versionJson = JSON.stringify(deps.version);
  const body = () => `{"status":"ok","timestamp":"${new Date().toISOString()}","version":${versionJson}}`;

  const answers = (request: IncomingMessage) =>
    request.url === '/health' &&
    request.method === 'GET' &&
    // RFC 9112 §3.2: an HTTP/1.1 request without Host is a 400, which Fastify's hook answers.
    (request.headers.host !== undefined || request.httpVersion !== '1.1') &&
    !deps.closing();

  return {
    body,
    serverFactory(handler, factoryOptions) {
      const options = factoryOptions as FactoryOptions;
      const server = createServer(options.http ?? {}, (request, response) => {
        if (!answers(request)) return handler(request, response);
        const text = body();
        response.writeHead(200, {
          'content-type': 'application/json; charset=utf-8',
          'content-length': Buffer.byteLength(text),
        });
        response.end(text);
        deps.answered();
      });
      // The timeouts Fastify sets on a server it makes itself (slow-client protection), kept on ours.
      if (options.keepAliveTimeout !== undefined) server.keepAliveTimeout = options.keepAliveTimeout;
      if (options.requestTimeout !== undefined) server.requestTimeout = options.requestTimeout;
      if (options.connectionTimeout !== undefined) server.setTimeout(options.connectionTimeout);
      if (options.maxRequestsPerSocket) server.maxRequestsPerSocket = options.maxRequestsPerSocket;
      return server;
    },
  };
}
