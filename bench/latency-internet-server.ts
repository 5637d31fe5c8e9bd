// The latency fake internet's server, run in a process of its own so that serving costs no time on the
// process that is being measured (its CPU, its garbage collector). Every site `sNNNN.latency.test` has the same structure (homepage with two feed
// links, robots.txt naming a sitemap index of two sitemaps); every answer waits the site's delay first.
// It logs each request's arrival, end, delay and connection, and hands the log over when asked.
// It stands in for publishers on other machines, yet shares this machine's cores with the measured process, so it
// is kept cheap: HTTP/1.1 spoken by plain-http1.ts rather than node:http, each site's bodies rendered once per
// path and site shape and the host put in (docs/fetching-speed.md, "The fake internet's own CPU").
// Sites by name (the discovery bench's `news-00001.test`…, each its own registrable domain) are answered by
// discovery-sites.ts after their own delay, under certificates naming them (chosen by SNI).
import type { AddressInfo, Socket } from 'node:net';
import { createSecureContext, createServer, type SecureContext, type TLSSocket } from 'node:tls';
import { page, rss, sitemapIndex, urlset } from '../test/fixtures/fake-internet/content.js';
import { type NamedSite, namedAnswer } from './discovery-sites.js';
import { type PlainAnswer, servePlainHttp1 } from './plain-http1.js';
import { buildSite } from './sitemap-scale-site.js';

export interface SiteShape {
  /** Milliseconds every answer of the site waits. */
  delayMs: number;
  /** Crawl-delay in robots.txt, seconds (0: none). */
  crawlDelay: number;
  /** Child sitemaps under the index. */
  sitemaps: number;
  /** The sitemap-scale bench's tree instead (75 gzipped children, 2.6 million URLs): one per run at most. */
  huge?: boolean;
}

export interface ServerData {
  cert: string;
  key: string;
  /** Per site number (0-based); sites beyond the list use the last entry's shape. */
  shapes: SiteShape[];
  sites: number;
  /** Sites by host name, each answering after `namedDelayMs`. */
  named?: Record<string, NamedSite>;
  namedDelayMs?: number;
  /** Certificates (the server's key) for the named hosts, each naming a group of them. */
  namedCerts?: Array<{ hosts: string[]; cert: string }>;
}

export interface ServedRequest {
  host: string;
  path: string;
  arrivedAt: number;
  endedAt: number;
  delayMs: number;
  connection: number;
}

/** The parent sends the server's data as its first message (the process is forked with an IPC channel). */
const data = await new Promise<ServerData>((resolve) => {
  process.once('message', (message: { kind: 'data'; data: ServerData }) => resolve(message.data));
  process.send?.({ kind: 'ready' });
});
const send = (message: unknown) => process.send?.(message);
let busySince = performance.eventLoopUtilization();
const log: ServedRequest[] = [];
const sockets = new Set<Socket>();
let connections = 0;

export function siteNumber(host: string): number | null {
  const match = /^s(\d+)\.latency\.test$/.exec(host);
  return match ? Number(match[1]) : null;
}

function shapeOf(n: number): SiteShape {
  return data.shapes[Math.min(n, data.shapes.length - 1)] as SiteShape;
}

/** The huge site's files, built once (it takes seconds) for the host that has that shape. */
let hugeFiles: { host: string; files: Map<string, { type: string; body: Buffer }> } | null = null;
const hugeNumber = data.shapes.findIndex((shape) => shape.huge === true);
if (hugeNumber !== -1) {
  const host = `s${String(hugeNumber).padStart(5, '0')}.latency.test`;
  hugeFiles = { host, files: buildSite(`https://${host}`) };
}

function answer(host: string, path: string, shape: SiteShape): PlainAnswer {
  if (shape.huge && hugeFiles?.host === host) {
    const file = hugeFiles.files.get(path);
    if (file) return { status: 200, ...file };
    if (path === '/')
      return { status: 200, type: 'text/html; charset=utf-8', body: page(`Site ${host}`, '') };
    return { status: 404, type: 'text/html; charset=utf-8', body: page('Not found') };
  }
  const key = `${path}\n${shape.crawlDelay}\n${shape.sitemaps}`;
  let template = templates.get(key);
  if (template === undefined) {
    const { status, type, body } = render(HOST, path, shape);
    template = { status, type, parts: (body as string).split(HOST) };
    // Only paths a site has are kept (a bound on the map): a 404's path can be anything a client asks for.
    if (status === 200) templates.set(key, template);
  }
  return { status: template.status, type: template.type, body: template.parts.join(host) };
}

/**
 * A site's bodies differ from another's of the same shape only by its host name: each path's is rendered once with
 * a stand-in for the host, which the answer replaces (no character of it occurs in a rendered body otherwise).
 */
const HOST = '\u0000host\u0000';
const templates = new Map<string, { status: number; type: string; parts: string[] }>();

function render(host: string, path: string, shape: SiteShape): PlainAnswer {
  const origin = `https://${host}/`;
  switch (path) {
    case '/': {
      const links =
        `<link rel="alternate" type="application/rss+xml" title="News" href="/feed.xml">` +
        `<link rel="alternate" type="application/rss+xml" title="Policy" href="/policy/feed.xml">`;
      return { status: 200, type: 'text/html; charset=utf-8', body: page(`Site ${host}`, links) };
    }
    case '/robots.txt': {
      const delay = shape.crawlDelay > 0 ? `Crawl-delay: ${shape.crawlDelay}\n` : '';
      const body = `User-agent: *\nAllow: /\n${delay}Sitemap: ${origin}sitemap_index.xml\n`;
      return { status: 200, type: 'text/plain', body };
    }
    case '/sitemap_index.xml': {
      const children = Array.from({ length: shape.sitemaps }, (_, i) => `${origin}sitemap-${i + 1}.xml`);
      return { status: 200, type: 'application/xml', body: sitemapIndex(children) };
    }
    case '/feed.xml':
    case '/policy/feed.xml':
      return { status: 200, type: 'application/rss+xml', body: rss(`Feed of ${host}`, origin) };
    default:
      if (/^\/sitemap-\d+\.xml$/.test(path)) {
        const urls = Array.from({ length: 20 }, (_, i) => `${origin}story-${i + 1}`);
        return { status: 200, type: 'application/xml', body: urlset(urls) };
      }
      return { status: 404, type: 'text/html; charset=utf-8', body: page('Not found') };
  }
}

/** The secure context of each named host (its group's certificate); others get the wildcard's. */
const contexts = new Map<string, SecureContext>();
for (const group of data.namedCerts ?? []) {
  const context = createSecureContext({ cert: group.cert, key: data.key });
  for (const host of group.hosts) contexts.set(host, context);
}
/** Named sites answer as of the server's start: their stories are dated from it. */
const namedNow = new Date();

const server = createServer({
  cert: data.cert,
  key: data.key,
  ...(contexts.size > 0
    ? {
        SNICallback: (name: string, done: (error: Error | null, context?: SecureContext) => void) =>
          done(null, contexts.get(name.toLowerCase())),
      }
    : {}),
});
server.on('secureConnection', (socket: TLSSocket) => {
  connections += 1;
  const connection = connections;
  sockets.add(socket);
  socket.on('close', () => sockets.delete(socket));
  servePlainHttp1(socket, (request, respond) => {
    const host = request.host.replace(/:\d+$/, '').toLowerCase();
    const path = new URL(request.target, 'http://x').pathname;
    const n = siteNumber(host);
    const shape = n === null || n >= data.sites ? null : shapeOf(n);
    const named = shape === null ? data.named?.[host] : undefined;
    const arrivedAt = performance.timeOrigin + performance.now();
    const delayMs = shape?.delayMs ?? (named ? (data.namedDelayMs ?? 0) : 0);
    setTimeout(() => {
      respond(
        shape
          ? answer(host, path, shape)
          : named
            ? namedAnswer(host, path, named, namedNow)
            : { status: 404, type: 'text/plain', body: 'no such site\n' },
      );
      log.push({
        host,
        path,
        arrivedAt,
        endedAt: performance.timeOrigin + performance.now(),
        delayMs,
        connection,
      });
    }, delayMs);
  });
});
server.on('tlsClientError', () => undefined);

server.listen(0, '127.0.0.1', () => {
  send({ kind: 'listening', port: (server.address() as AddressInfo).port });
});

process.on('message', (message: { kind: 'log' } | { kind: 'close' }) => {
  if (message.kind === 'log') {
    const busy = performance.eventLoopUtilization(busySince).utilization;
    busySince = performance.eventLoopUtilization();
    send({ kind: 'log', log: log.splice(0), connections, busy });
  }
  if (message.kind === 'close') {
    for (const socket of sockets) socket.destroy();
    server.close(() => send({ kind: 'closed' }));
  }
});
