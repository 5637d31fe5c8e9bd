// Real pages of the article-page and entry-page sets served as the homepages of their own hosts, for the service path end to end
// (test/api/real-pages-through-api.test.ts): each page's published bytes at `/` of its URL's host, the bare
// registrable domain redirecting there, robots.txt absent or allow-all, everything else 404 (no feeds, no
// sitemaps, no articles). Plain HTTP only: the TLDs' port 443 goes to a closed port, so the service takes its
// http fallback (the fake internet's certificate cannot name real hosts). How each page is sent varies by its
// place in the sample: Content-Type with or without the charset, gzip or not, a few padded past the probe cap.
import { createHash } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import { registrableDomainOf } from '../../src/domain/domains.js';
import { closedPort } from './closed-port.js';
import {
  declaredCharset,
  EIGHTEENTH_PAGES_DIR,
  EIGHTH_PAGES_DIR,
  ELEVENTH_PAGES_DIR,
  FIFTEENTH_PAGES_DIR,
  FOURTEENTH_PAGES_DIR,
  FOURTH_PAGES_DIR,
  FRESH_PAGES_DIR,
  REAL_PAGES_DIR,
  type RealPage,
  readRealPagesManifest,
  realPageBytes,
  realPageOf,
  SEVENTEENTH_PAGES_DIR,
  SEVENTH_PAGES_DIR,
  SIXTEENTH_PAGES_DIR,
  SIXTH_PAGES_DIR,
  TENTH_PAGES_DIR,
  THIRD_PAGES_DIR,
  THIRTEENTH_PAGES_DIR,
  TWELFTH_PAGES_DIR,
} from './real-pages.js';

/** Sets of mostly article pages, served as homepages: the decoding and the verdict's article signals. */
export const ARTICLE_PAGE_SETS = {
  first: REAL_PAGES_DIR,
  fresh: FRESH_PAGES_DIR,
  third: THIRD_PAGES_DIR,
  fourth: FOURTH_PAGES_DIR,
};
/** Sets of entry pages (site roots): what the service reads first of every domain, served where they were found. */
export const ENTRY_PAGE_SETS = {
  sixth: SIXTH_PAGES_DIR,
  seventh: SEVENTH_PAGES_DIR,
  eighth: EIGHTH_PAGES_DIR,
  tenth: TENTH_PAGES_DIR,
  eleventh: ELEVENTH_PAGES_DIR,
  twelfth: TWELFTH_PAGES_DIR,
  thirteenth: THIRTEENTH_PAGES_DIR,
  fourteenth: FOURTEENTH_PAGES_DIR,
  fifteenth: FIFTEENTH_PAGES_DIR,
  sixteenth: SIXTEENTH_PAGES_DIR,
  seventeenth: SEVENTEENTH_PAGES_DIR,
  eighteenth: EIGHTEENTH_PAGES_DIR,
};
export const REAL_PAGE_SETS = { ...ARTICLE_PAGE_SETS, ...ENTRY_PAGE_SETS };
export type RealPageSet = keyof typeof REAL_PAGE_SETS;

/** The probe cap (src/adapters/fetch-settings.ts, 2 MiB): a padded page is sent past it and read in part. */
const PROBE_CAP = 2 * 1024 * 1024;

export interface ServedPage {
  page: RealPage;
  set: RealPageSet;
  /** The host of the page's URL, where it is served at `/`. */
  host: string;
  registrableDomain: string;
  contentType: string;
  gzip: boolean;
  robots: 'absent' | 'allow-all';
  /** Sent with an HTML comment after its end that takes it past the probe cap. */
  padded: boolean;
  body: Buffer;
}

const rank = (id: string) => createHash('sha256').update(`through-api:${id}`).digest('hex');

/** A declared charset other than UTF-8: the pages that test decoding the most. */
const isLegacyCharset = (bytes: Buffer) => !/^utf-?8$/.test(declaredCharset(bytes) ?? 'utf-8');

export interface ServedSample {
  /** For the contract batch: `perSet` pages of each set by a hash of their ids, and every legacy-charset page. */
  contract: ServedPage[];
  /** For the discovery batch: the next `candidatesPerSet` pages of each set, linked from the hub seed. */
  candidates: ServedPage[];
}

/** How many pages of each set a sample takes: for the contract batch, and as the discovery's candidates. */
export interface SampleSize {
  perSet: number;
  candidatesPerSet: number;
}

/**
 * Pages of the sets, one per registrable domain across them, in the order of a hash of their ids: `articleSets`
 * pages of each article-page set, `entrySets` of each entry-page set. The i-th page overall is sent with the charset
 * in its Content-Type when i is even, gzipped when i % 4 ≥ 2, with robots.txt allow-all when i is odd (absent
 * otherwise), and padded past the probe cap when i % 16 is 5.
 */
export function sampleServedPages(articleSets: SampleSize, entrySets: SampleSize): ServedSample {
  const taken = new Set<string>();
  const sample: ServedSample = { contract: [], candidates: [] };
  let i = 0;
  for (const [set, dir] of Object.entries(REAL_PAGE_SETS) as Array<[RealPageSet, string]>) {
    const { perSet, candidatesPerSet } = set in ENTRY_PAGE_SETS ? entrySets : articleSets;
    const entries = [...readRealPagesManifest(dir).pages].sort((a, b) =>
      rank(a.id).localeCompare(rank(b.id)),
    );
    let contract = 0;
    let candidates = 0;
    for (const entry of entries) {
      const host = new URL(entry.url).hostname;
      const registrableDomain = registrableDomainOf(host);
      if (registrableDomain === null || taken.has(registrableDomain)) continue;
      const bytes = realPageBytes(entry.id, dir);
      const part =
        contract < perSet || isLegacyCharset(bytes)
          ? 'contract'
          : candidates < candidatesPerSet
            ? 'candidates'
            : null;
      if (part === null) continue;
      if (part === 'contract') contract += 1;
      else candidates += 1;
      taken.add(registrableDomain);
      const charset = declaredCharset(bytes) ?? 'utf-8';
      const padded = i % 16 === 5;
      sample[part].push({
        page: realPageOf(entry, bytes),
        set,
        host,
        registrableDomain,
        contentType: i % 2 === 0 ? `text/html; charset=${charset}` : 'text/html',
        gzip: i % 4 >= 2,
        robots: i % 2 === 1 ? 'allow-all' : 'absent',
        padded,
        body: padded ? padPastCap(bytes) : bytes,
      });
      i += 1;
    }
  }
  return sample;
}

function padPastCap(bytes: Buffer): Buffer {
  const filler = Buffer.alloc(PROBE_CAP + 64 * 1024 - bytes.length, 'x');
  return Buffer.concat([bytes, Buffer.from('\n<!-- '), filler, Buffer.from(' -->\n')]);
}

export interface RealPagesWeb {
  /** A SEEDBED_FETCH_RESOLVE value: every sampled TLD's port 80 to the server, its port 443 to a closed port. */
  resolveSpec: string;
  /** How each homepage was answered: the host and whether the body went gzipped. */
  homepageAnswers: Array<{ host: string; gzip: boolean }>;
  close(): Promise<void>;
}

/** A seed's homepage that links to every candidate's homepage: what a discovery batch harvests. */
export interface HubPage {
  host: string;
  links: readonly ServedPage[];
}

export function hubHtml(hub: HubPage): string {
  const items = hub.links.map(
    (p) => `<li><a href="http://${p.registrableDomain}/">${p.registrableDomain}</a></li>`,
  );
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Around the web</title></head><body><h1>Around the web</h1><ul>${items.join('')}</ul></body></html>`;
}

export async function startRealPagesWeb(pages: readonly ServedPage[], hub?: HubPage): Promise<RealPagesWeb> {
  const byHost = new Map(pages.map((p) => [p.host, p]));
  const redirects = new Map(
    pages.filter((p) => p.host !== p.registrableDomain).map((p) => [p.registrableDomain, p.host]),
  );
  const homepageAnswers: RealPagesWeb['homepageAnswers'] = [];
  const server = http.createServer((req, res) => {
    const host = String(req.headers.host ?? '')
      .replace(/:\d+$/, '')
      .toLowerCase();
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const moved = redirects.get(host);
    if (moved !== undefined) {
      res.writeHead(301, { location: `http://${moved}${req.url ?? '/'}` });
      res.end();
      return;
    }
    if (hub !== undefined && host === hub.host && path === '/') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(hubHtml(hub));
      return;
    }
    const served = byHost.get(host);
    if (served !== undefined && path === '/robots.txt' && served.robots === 'allow-all') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('User-agent: *\nAllow: /\n');
      return;
    }
    if (served === undefined || path !== '/') {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<html><head><title>Not found</title></head></html>');
      return;
    }
    const gzip = served.gzip && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''));
    homepageAnswers.push({ host, gzip });
    res.writeHead(200, {
      'content-type': served.contentType,
      ...(gzip ? { 'content-encoding': 'gzip' } : {}),
    });
    res.end(gzip ? gzipSync(served.body) : served.body);
  });
  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve((server.address() as AddressInfo).port));
  });
  const refused = await closedPort();
  const hosts = [...pages.map((p) => p.host), ...(hub ? [hub.host] : [])];
  const tlds = [...new Set(hosts.map((host) => host.split('.').pop()!))].sort();
  return {
    resolveSpec: tlds
      .flatMap((tld) => [`*.${tld}:80=127.0.0.1:${port}`, `*.${tld}:443=127.0.0.1:${refused}`])
      .join(','),
    homepageAnswers,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
