// The site the sitemap-scale benchmark reads, run as its own process so its 75 gzipped files never count in the
// reader's memory: robots.txt → one index → 75 gzipped children, 2.6 million BBC-like URLs with lastmod, built
// deterministically at start. Prints nothing; tells its parent the port over IPC.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';

export const SCALE_HOST = 'www.bbc.test';
export const SCALE_CHILDREN = 75;
export const SCALE_URLS = 2_600_000;

export const childPath = (k: number) =>
  `/sitemaps/https-sitemap-uk-archive-${String(k + 1).padStart(2, '0')}.xml`;

/** A small deterministic generator (xorshift32): the same tree on every run and machine. */
function random(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

const SECTIONS = [
  'uk',
  'world-europe',
  'business',
  'technology',
  'uk-politics',
  'world-asia',
  'health',
  'entertainment-arts',
];
const SPORTS = ['football', 'cricket', 'tennis', 'formula1', 'rugby-union', 'golf', 'athletics'];
const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/** URL number `i` of the tree: every one distinct, shaped like the paths of a large news publisher. */
function entry(i: number, next: () => number): string {
  const kind = i % 10;
  const id = (0x2f00_0000 + i * 7919).toString(36);
  const loc =
    kind < 4
      ? `https://www.bbc.co.uk/news/articles/c${id}${'abcdefghij'[i % 10]}o`
      : kind < 7
        ? `https://www.bbc.com/sport/${SPORTS[i % SPORTS.length]}/${60_000_000 + i}`
        : `https://www.bbc.co.uk/news/${SECTIONS[i % SECTIONS.length]}-${10_000_000 + i}`;
  const day = Math.floor(next() * 3650);
  const date = new Date(Date.UTC(2015, 0, 1) + day * 86_400_000 + Math.floor(next() * 86_400) * 1000);
  const lastmod = `${date.getUTCFullYear()}-${pad(date.getUTCMonth() + 1)}-${pad(date.getUTCDate())}T${pad(date.getUTCHours())}:${pad(date.getUTCMinutes())}:${pad(date.getUTCSeconds())}+00:00`;
  return `<url><loc>${loc}</loc><lastmod>${lastmod}</lastmod></url>\n`;
}

function child(k: number): Buffer {
  const from = Math.floor((k * SCALE_URLS) / SCALE_CHILDREN);
  const to = Math.floor(((k + 1) * SCALE_URLS) / SCALE_CHILDREN);
  const next = random(k + 1);
  const parts = [
    '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n',
  ];
  for (let i = from; i < to; i += 1) parts.push(entry(i, next));
  parts.push('</urlset>\n');
  return gzipSync(parts.join(''));
}

/** The site's files by path; `base` is the origin its robots.txt and index point to. */
export function buildSite(base = `http://${SCALE_HOST}`): Map<string, { type: string; body: Buffer }> {
  const files = new Map<string, { type: string; body: Buffer }>();
  files.set('/robots.txt', {
    type: 'text/plain',
    body: Buffer.from(`User-agent: *\nDisallow: /cbbc/search/\n\nSitemap: ${base}/sitemap.xml\n`),
  });
  const locs = Array.from({ length: SCALE_CHILDREN }, (_, k) => `${base}${childPath(k)}.gz`);
  files.set('/sitemap.xml', {
    type: 'application/xml',
    body: Buffer.from(
      `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs
        .map((l) => `<sitemap><loc>${l}</loc></sitemap>`)
        .join('\n')}\n</sitemapindex>\n`,
    ),
  });
  for (let k = 0; k < SCALE_CHILDREN; k += 1)
    files.set(`${childPath(k)}.gz`, { type: 'application/x-gzip', body: child(k) });
  return files;
}

if (process.send !== undefined && process.argv.includes('--serve')) {
  const files = buildSite();
  const server = http.createServer((req, res) => {
    const file = files.get(new URL(req.url ?? '/', 'http://x').pathname);
    if (file === undefined) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found\n');
      return;
    }
    res.writeHead(200, { 'content-type': file.type, 'content-length': String(file.body.length) });
    res.end(file.body);
  });
  server.listen(0, '127.0.0.1', () => {
    const bytes = [...files.values()].reduce((sum, f) => sum + f.body.length, 0);
    process.send?.({ port: (server.address() as AddressInfo).port, bytes });
  });
  process.on('disconnect', () => server.close(() => process.exit(0)));
}
