// Sitemap discovery: robots-listed sitemaps first, else /sitemap.xml; follows sitemap indexes (bounded depth
// and count), gunzips .gz files with an output cap, counts every URL reached and spots Google News sitemaps.
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';
import { FetchError, type Fetcher } from '../ports/fetcher.js';

export const DEFAULT_SITEMAP_LIMITS = {
  /** Index → index → urlset is depth 2; deeper trees are rare and usually loops. */
  maxDepth: 3,
  /** Sitemap files fetched per domain, indexes included. */
  maxFiles: 50,
  /** Uncompressed size of one file: the sitemap protocol's own 50 MB limit. */
  maxUncompressedBytes: 50 * 1024 * 1024,
} as const;

export type SitemapLimits = { maxDepth: number; maxFiles: number; maxUncompressedBytes: number };

export interface SitemapDiscovery {
  /** The first top-level sitemap that answered as a sitemap; else the last one tried; null if none was tried. */
  url: string | null;
  status_code: number | null;
  exists: boolean;
  /** Every <url> entry in every urlset reached (not de-duplicated). */
  url_count: number;
  /** A urlset declared the Google News sitemap namespace. */
  news: boolean;
  /** Top-level sitemaps that answered as sitemaps. */
  sitemap_urls: string[];
  /** The first top-level sitemap, decompressed: kept as evidence. */
  firstBody: Buffer | null;
  filesFetched: number;
  /** Stopped at maxFiles or maxDepth with sitemaps left unread: url_count is a lower bound. */
  truncated: boolean;
}

type Parsed =
  | { kind: 'urlset'; count: number; news: boolean }
  | { kind: 'index'; locs: string[] }
  | { kind: 'none' };

const NEWS_NS = 'google.com/schemas/sitemap-news/';
// Opening tags of <url> (any prefix), not <urlset>: counting beats a full parse of a 50 MB urlset, whose
// object tree costs several times the file in memory.
const URL_TAG = /<(?:[A-Za-z_][\w.-]*:)?url[\s>/]/g;
const ROOT_TAG = /<(?:[A-Za-z_][\w.-]*:)?(urlset|sitemapindex)[\s>]/;

function indexLocs(xml: string): string[] {
  const parser = new XMLParser({
    removeNSPrefix: true,
    ignoreAttributes: true,
    ignoreDeclaration: true,
    ignorePiTags: true,
    isArray: (name) => name === 'sitemap',
  });
  const doc = parser.parse(xml) as { sitemapindex?: { sitemap?: Array<{ loc?: unknown }> } };
  return (doc.sitemapindex?.sitemap ?? [])
    .map((s) => (typeof s.loc === 'string' ? s.loc.trim() : ''))
    .filter((loc) => loc !== '');
}

/** Classifies a decompressed sitemap body. Plain-text sitemaps (one URL per line) count as a urlset. */
export function parseSitemap(text: string): Parsed {
  const head = text.slice(0, 4096);
  const root = ROOT_TAG.exec(head)?.[1];
  if (root === 'sitemapindex') {
    try {
      return { kind: 'index', locs: indexLocs(text) };
    } catch {
      return { kind: 'none' };
    }
  }
  if (root === 'urlset') {
    return {
      kind: 'urlset',
      count: text.match(URL_TAG)?.length ?? 0,
      news: head.includes(NEWS_NS) || text.includes(NEWS_NS),
    };
  }
  const lines = text
    .split(/\r?\n/)
    .map((l) => l.trim())
    .filter((l) => l !== '');
  if (
    lines.length > 0 &&
    !text.trimStart().startsWith('<') &&
    lines.every((l) => /^https?:\/\/\S+$/.test(l))
  ) {
    return { kind: 'urlset', count: lines.length, news: false };
  }
  return { kind: 'none' };
}

/**
 * A .gz sitemap served without Content-Encoding arrives still compressed (gzip magic bytes). null when it does
 * not inflate or inflates past the cap: that file is skipped.
 */
function maybeGunzip(body: Buffer, maxBytes: number): Buffer | null {
  if (body.length < 2 || body[0] !== 0x1f || body[1] !== 0x8b) return body;
  try {
    return gunzipSync(body, { maxOutputLength: maxBytes });
  } catch {
    return null;
  }
}

function httpUrl(text: string, base: string): string | null {
  try {
    const url = new URL(text, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

export interface SitemapInput {
  /** The site's entry origin, e.g. https://example.org. */
  origin: string;
  /** Sitemap URLs from robots.txt, in their order. */
  listed: string[];
  /** robots.txt check; a disallowed sitemap is not fetched. */
  allowed: (url: string) => boolean;
  limits?: Partial<SitemapLimits>;
}

export async function discoverSitemaps(fetcher: Fetcher, input: SitemapInput): Promise<SitemapDiscovery> {
  const limits = { ...DEFAULT_SITEMAP_LIMITS, ...input.limits };
  const result: SitemapDiscovery = {
    url: null,
    status_code: null,
    exists: false,
    url_count: 0,
    news: false,
    sitemap_urls: [],
    firstBody: null,
    filesFetched: 0,
    truncated: false,
  };
  const seen = new Set<string>();

  /** Reads one sitemap and everything under it; returns what the top-level file turned out to be. */
  async function visit(url: string, depth: number): Promise<{ status: number | null; body: Buffer | null }> {
    if (seen.has(url) || !input.allowed(url)) return { status: null, body: null };
    if (result.filesFetched >= limits.maxFiles) {
      result.truncated = true;
      return { status: null, body: null };
    }
    seen.add(url);
    result.filesFetched += 1;
    let status: number;
    let body: Buffer | null;
    try {
      const res = await fetcher.fetch(url, { kind: 'sitemap' });
      status = res.status;
      if (res.status < 200 || res.status >= 300) return { status, body: null };
      body = maybeGunzip(res.body, limits.maxUncompressedBytes);
    } catch (err) {
      // One unreadable child must not sink the others: a network error or a size cap skips that file only.
      if (err instanceof FetchError) return { status: err.status ?? null, body: null };
      throw err;
    }
    if (body === null) return { status, body: null };
    const parsed = parseSitemap(body.toString('utf8'));
    if (parsed.kind === 'none') return { status, body: null };
    if (parsed.kind === 'urlset') {
      result.url_count += parsed.count;
      result.news ||= parsed.news;
    } else {
      for (const loc of parsed.locs) {
        const child = httpUrl(loc, url);
        if (child === null) continue;
        if (depth + 1 > limits.maxDepth) {
          result.truncated = true;
          break;
        }
        await visit(child, depth + 1);
      }
    }
    return { status, body };
  }

  const listed = input.listed.map((u) => httpUrl(u, input.origin)).filter((u): u is string => u !== null);
  const fallback = new URL('/sitemap.xml', input.origin).href;
  for (const candidates of [listed, [fallback]]) {
    for (const url of candidates) {
      if (!input.allowed(url) || seen.has(url)) continue;
      const top = await visit(url, 0);
      if (top.body !== null) {
        result.sitemap_urls.push(url);
        if (result.firstBody === null) {
          result.firstBody = top.body;
          result.url = url;
          result.status_code = top.status;
          result.exists = true;
        }
      } else if (!result.exists) {
        result.url = url;
        result.status_code = top.status;
      }
    }
    // /sitemap.xml is only a fallback for sites whose robots.txt names no working sitemap.
    if (result.exists) break;
  }
  return result;
}
