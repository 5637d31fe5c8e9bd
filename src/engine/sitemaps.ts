// Sitemap discovery for one site: every robots-listed sitemap; only when none of them works, the well-known paths
// and then, when no news sitemap turned up, the well-known news paths (each kind until its first hit); follows
// indexes (cycles skipped, bounded depth) within a budget of files, bytes and time, and counts distinct page URLs with running aggregates. Reading itself is in sitemap-file.ts.
import { getDomain } from 'tldts';
import { FetchError, type Fetcher, type FetchResponse } from '../ports/fetcher.js';
import { emptyAggregates, type SitemapAggregates, SitemapAggregator } from './sitemap-aggregates.js';
import { readSitemapFile } from './sitemap-file.js';
import { readSitemapText, type SitemapKind } from './sitemap-reader.js';

export const DEFAULT_SITEMAP_LIMITS = {
  /** Index hops below a top-level sitemap; real trees are 1–3 deep, and a loop is caught by the visited set. */
  maxDepth: 10,
  /** Sitemap files fetched per site, indexes and well-known probes included: a big publisher has hundreds. */
  maxFiles: 500,
  /** Decompressed size of one file: the sitemap protocol's own 50 MB limit. */
  maxUncompressedBytes: 50 * 1024 * 1024,
  /** Decompressed bytes per site: 2.6 million URLs with lastmod are about 350 MB. */
  maxTotalBytes: 1024 * 1024 * 1024,
  /** Wall time per site, polled between files and between chunks. */
  maxDurationMs: 120_000,
} as const;

export type SitemapLimits = {
  maxDepth: number;
  maxFiles: number;
  maxUncompressedBytes: number;
  maxTotalBytes: number;
  maxDurationMs: number;
};

/** Guessed in this order only when robots.txt names no working sitemap; the first that answers as one ends it. */
export const WELL_KNOWN_SITEMAP_PATHS = [
  '/sitemap.xml',
  '/sitemap_index.xml',
  '/sitemap-index.xml',
  '/sitemap.xml.gz',
  '/wp-sitemap.xml',
] as const;

/**
 * Guessed in this order only when robots.txt names no working sitemap and nothing read so far (a guessed index included)
 * is a Google News sitemap; the first that answers as a sitemap ends it.
 */
export const WELL_KNOWN_NEWS_SITEMAP_PATHS = [
  '/news-sitemap.xml',
  '/sitemap_news.xml',
  '/sitemap-news.xml',
  '/news_sitemap.xml',
] as const;

/** Google News sitemaps hold the last two days of articles. */
export const DEFAULT_NEWS_WINDOW_DAYS = 2;
/** The decompressed start of the first top-level sitemap kept as the `sitemap.xml` evidence file. */
export const SITEMAP_EVIDENCE_BYTES = 5 * 1024 * 1024;
/** Top-level sitemaps listed in the result. */
const MAX_LISTED_SITEMAPS = 50;

export type TruncationReason = 'max_files' | 'max_bytes' | 'max_time' | 'max_depth' | 'file_too_large';

/** One top-level sitemap (robots-listed, or a well-known path that answered) and its tree. */
export interface SitemapSummary {
  url: string;
  source: 'robots' | 'well-known';
  /** What the file was; `failed` when it gave no readable answer. */
  kind: SitemapKind | 'failed';
  status_code: number | null;
  /** Distinct valid page URLs first reached through this sitemap's tree (trees are read one after another). */
  url_count: number;
  /** Its tree holds a Google News sitemap. */
  news: boolean;
}

export interface SitemapDiscovery {
  /** The first top-level sitemap that answered as a sitemap; else the first one tried; null if none was tried. */
  url: string | null;
  status_code: number | null;
  exists: boolean;
  /** Distinct valid page URLs reached through every sitemap read. */
  url_count: number;
  /** A Google News sitemap was read. */
  news: boolean;
  /** Top-level sitemaps that answered as sitemaps. */
  sitemap_urls: string[];
  /** Top-level sitemaps tried (robots-listed ones always, well-known ones when they answered), at most 50. */
  sitemaps: SitemapSummary[];
  /** The start of the first top-level sitemap, decompressed (at most SITEMAP_EVIDENCE_BYTES): kept as evidence. */
  firstBody: Buffer | null;
  /** Fetches made, failed ones and well-known probes included. */
  filesFetched: number;
  /** Linked sitemaps (robots-listed or index children) that gave no readable answer. */
  files_failed: number;
  /** Files that broke off (cut XML, broken gzip); what they held before the break is counted. */
  files_damaged: number;
  /** Index children skipped because they were already read: loops and repeats. */
  cycles: number;
  /** Decompressed bytes read. */
  bytes_read: number;
  /** A budget or limit left sitemaps (or part of one) unread: url_count is a lower bound. */
  truncated: boolean;
  /** The first limit that cut the reading short. */
  truncated_reason: TruncationReason | null;
  aggregates: SitemapAggregates;
}

export interface SitemapInput {
  /** The site's entry origin, e.g. https://example.org. */
  origin: string;
  /** Sitemap URLs from robots.txt, in their order. */
  listed: string[];
  /** robots.txt check; a disallowed sitemap is not fetched. */
  allowed: (url: string) => boolean;
  /** The clock: the time budget and the date windows of the aggregates. */
  now: () => Date;
  limits?: Partial<SitemapLimits>;
  newsWindowDays?: number;
  /**
   * How many well-known paths of each kind may be guessed (in their order) when robots.txt names no working sitemap:
   * every one when absent; fewer under a long Crawl-delay (request-budget.ts).
   */
  guesses?: { sitemaps: number; news: number };
}

type Legacy =
  | { kind: 'urlset'; count: number; news: boolean }
  | { kind: 'index'; locs: string[] }
  | { kind: 'none' };

/**
 * Classifies one decompressed body: a urlset (feeds and text sitemaps included) with its `<url>` entry count, an
 * index with its child locations, or none. The streaming reader does the work; this reads a string whole.
 */
export function parseSitemap(text: string): Legacy {
  const locs: string[] = [];
  const summary = readSitemapText(text, { page() {}, child: (loc) => locs.push(loc) });
  if (summary.kind === 'index') return { kind: 'index', locs };
  if (summary.kind === 'unknown' || summary.kind === 'refused') return { kind: 'none' };
  return { kind: 'urlset', count: summary.entries, news: summary.news };
}

function httpUrl(text: string, base: string): string | null {
  try {
    const url = new URL(text, base);
    url.hash = '';
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

const isSitemap = (kind: SitemapKind | 'failed' | null): boolean =>
  kind === 'urlset' || kind === 'index' || kind === 'feed' || kind === 'text';

/** A sitemap request's outcome, settled: an answer, or what it failed with. */
type Fetched = { response: FetchResponse } | { error: unknown };

interface Visit {
  status: number | null;
  kind: SitemapKind | 'failed' | null;
  news: boolean;
}

export async function discoverSitemaps(fetcher: Fetcher, input: SitemapInput): Promise<SitemapDiscovery> {
  const limits = { ...DEFAULT_SITEMAP_LIMITS, ...input.limits };
  const windowDays = input.newsWindowDays ?? DEFAULT_NEWS_WINDOW_DAYS;
  const startedAt = input.now().getTime();
  const siteDomain = getDomain(new URL(input.origin).hostname, { allowPrivateDomains: true }) ?? undefined;
  const aggregator = new SitemapAggregator({ now: input.now(), newsWindowDays: windowDays, siteDomain });
  const result: Omit<SitemapDiscovery, 'url_count' | 'aggregates'> = {
    url: null,
    status_code: null,
    exists: false,
    news: false,
    sitemap_urls: [],
    sitemaps: [],
    firstBody: null,
    filesFetched: 0,
    files_failed: 0,
    files_damaged: 0,
    cycles: 0,
    bytes_read: 0,
    truncated: false,
    truncated_reason: null,
  };
  const seen = new Set<string>();
  /** Set by the budgets that end the whole reading (files, bytes, time), not by one file or one branch. */
  let stopped = false;

  const truncate = (reason: TruncationReason): void => {
    result.truncated = true;
    result.truncated_reason ??= reason;
    if (reason === 'max_files' || reason === 'max_bytes' || reason === 'max_time') stopped = true;
  };
  const timeUp = () => input.now().getTime() - startedAt >= limits.maxDurationMs;

  /** One sitemap request, settled either way (a fetch started early may never be awaited). */
  function fetchSitemap(url: string, following: number): Promise<Fetched> {
    return fetcher.fetch(url, following > 0 ? { kind: 'sitemap', following } : { kind: 'sitemap' }).then(
      (response) => ({ response }),
      (error: unknown) => ({ error }),
    );
  }

  /**
   * Reads one sitemap and everything under it. `linked`: robots or an index named it (a probe's 404 is no
   * failure). `early`: its request, already sent while the sibling before it was being read. `fetched` is called
   * once its own answer is in, before the file is read: the caller starts the next sibling's request then.
   */
  async function visit(
    url: string,
    depth: number,
    linked: boolean,
    keep: boolean,
    following = 0,
    early?: Promise<Fetched>,
    fetched?: () => void,
  ): Promise<Visit> {
    const none: Visit = { status: null, kind: null, news: false };
    if (result.filesFetched >= limits.maxFiles) truncate('max_files');
    else if (result.bytes_read >= limits.maxTotalBytes) truncate('max_bytes');
    else if (timeUp()) truncate('max_time');
    if (stopped) return none;
    seen.add(url);
    result.filesFetched += 1;
    const failed = (status: number | null): Visit => {
      if (linked) result.files_failed += 1;
      return { status, kind: 'failed', news: false };
    };
    const answer = await (early ?? fetchSitemap(url, following));
    fetched?.();
    if ('error' in answer) {
      const err = answer.error;
      // One unreadable file must not sink the others: a network error or a size cap skips that file only.
      if (!(err instanceof FetchError)) throw err;
      if (err.code === 'BODY_TOO_LARGE') truncate('file_too_large');
      return failed(err.status ?? null);
    }
    const res = answer.response;
    if (res.status < 200 || res.status >= 300) return failed(res.status);
    // A redirect onto a sitemap already read is a loop (or an alias, e.g. /sitemap.xml → /sitemap_index.xml).
    if (res.finalUrl !== url) {
      if (seen.has(res.finalUrl)) {
        result.cycles += 1;
        return { status: res.status, kind: null, news: false };
      }
      seen.add(res.finalUrl);
    }

    const children: string[] = [];
    const fileCapFirst = limits.maxUncompressedBytes <= limits.maxTotalBytes - result.bytes_read;
    const read = await readSitemapFile(
      res.body,
      {
        page: (page) => aggregator.add(page),
        child: (loc) => {
          // An index lists at most 50,000 children; more than the file budget could never be fetched anyway.
          if (children.length <= limits.maxFiles) children.push(loc);
        },
      },
      {
        maxBytes: fileCapFirst ? limits.maxUncompressedBytes : limits.maxTotalBytes - result.bytes_read,
        limitedBy: fileCapFirst ? 'file' : 'tree',
        timeUp,
        keepBytes: keep ? SITEMAP_EVIDENCE_BYTES : 0,
      },
    );
    result.bytes_read += read.bytes;
    if (read.stoppedBy === 'file') truncate('file_too_large');
    else if (read.stoppedBy === 'tree') truncate('max_bytes');
    else if (read.stoppedBy === 'time') truncate('max_time');
    if (read.damaged || !read.summary.complete) result.files_damaged += 1;
    const kind = read.summary.kind;
    if (!isSitemap(kind)) return { status: res.status, kind, news: false };
    if (keep && result.firstBody === null) result.firstBody = read.kept;
    let news = read.summary.news;
    result.news ||= news;

    // A child's request goes out as soon as the sibling before it has answered, while that sibling's file is
    // read (2.6 million URLs take seconds to parse): the site still sees one request at a time, its gap kept by
    // the fetcher, and the reading no longer waits for the network nor the network for the reading.
    const ahead: { sent: { url: string; answer: Promise<Fetched> } | null } = { sent: null };
    const eligible = (loc: string): string | null => {
      const child = httpUrl(loc, res.finalUrl);
      return child === null || !input.allowed(child) ? null : child;
    };
    for (const [at, loc] of children.entries()) {
      if (stopped) break;
      const child = eligible(loc);
      if (child === null) continue;
      if (seen.has(child)) {
        result.cycles += 1;
        continue;
      }
      if (depth + 1 > limits.maxDepth) {
        truncate('max_depth');
        break;
      }
      const early = ahead.sent?.url === child ? ahead.sent.answer : undefined;
      ahead.sent = null;
      const sendNext = () => {
        for (let next = at + 1; next < children.length; next += 1) {
          const sibling = eligible(children[next] as string);
          if (sibling === null || sibling === child) continue;
          if (!seen.has(sibling) && !stopped && result.filesFetched < limits.maxFiles)
            ahead.sent = { url: sibling, answer: fetchSitemap(sibling, children.length - next - 1) };
          return;
        }
      };
      // The siblings still to read follow this one: a big index says early that the site's chain is long.
      const below = await visit(child, depth + 1, true, false, children.length - at - 1, early, sendNext);
      news ||= below.news;
    }
    return { status: res.status, kind, news };
  }

  /** A top-level candidate; true when it answered as a sitemap. */
  async function top(url: string, source: SitemapSummary['source']): Promise<boolean> {
    if (stopped || seen.has(url) || !input.allowed(url)) return false;
    const before = aggregator.distinct;
    const found = await visit(url, 0, source === 'robots', result.firstBody === null);
    if (found.kind === null && found.status === null) return false;
    const works = isSitemap(found.kind);
    if (works) {
      result.sitemap_urls.push(url);
      if (!result.exists) {
        result.url = url;
        result.status_code = found.status;
        result.exists = true;
      }
    } else if (result.url === null) {
      result.url = url;
      result.status_code = found.status;
    }
    if ((works || source === 'robots') && result.sitemaps.length < MAX_LISTED_SITEMAPS) {
      result.sitemaps.push({
        url,
        source,
        kind: found.kind ?? 'failed',
        status_code: found.status,
        url_count: aggregator.distinct - before,
        news: found.news,
      });
    }
    return works;
  }

  for (const listed of input.listed) {
    const url = httpUrl(listed, input.origin);
    if (url !== null) await top(url, 'robots');
  }
  // Guesses are requests no publisher asked for: made only when robots.txt names no sitemap that works (a named
  // one that fails still lets /sitemap.xml find the tree: test/unit/engine/sitemaps.test.ts), and each kind ends
  // at its first hit: the well-known paths are usually aliases of one tree, the news paths of one news sitemap.
  // A working named sitemap without news is the publisher's whole answer: no news path is guessed beside it.
  const guesses = input.guesses ?? {
    sitemaps: WELL_KNOWN_SITEMAP_PATHS.length,
    news: WELL_KNOWN_NEWS_SITEMAP_PATHS.length,
  };
  if (!result.exists) {
    for (const path of WELL_KNOWN_SITEMAP_PATHS.slice(0, guesses.sitemaps)) {
      if (await top(new URL(path, input.origin).href, 'well-known')) break;
    }
    // Unless something read so far (a guessed index included) is or holds a Google News sitemap.
    for (const path of result.news ? [] : WELL_KNOWN_NEWS_SITEMAP_PATHS.slice(0, guesses.news)) {
      if (await top(new URL(path, input.origin).href, 'well-known')) break;
    }
  }
  return { ...result, url_count: aggregator.distinct, aggregates: aggregator.snapshot() };
}

/** The `sitemap` block of domain_metadata.json. */
export interface SitemapMetadata {
  url: string | null;
  status_code: number | null;
  exists: boolean;
  url_count: number;
  news: boolean;
  truncated: boolean;
  truncated_reason: TruncationReason | null;
  files_read: number;
  files_failed: number;
  bytes_read: number;
  sitemaps: SitemapSummary[];
  aggregates: SitemapAggregates;
}

export function sitemapMetadata(found: SitemapDiscovery | null): SitemapMetadata {
  if (found === null) {
    return {
      url: null,
      status_code: null,
      exists: false,
      url_count: 0,
      news: false,
      truncated: false,
      truncated_reason: null,
      files_read: 0,
      files_failed: 0,
      bytes_read: 0,
      sitemaps: [],
      aggregates: emptyAggregates(DEFAULT_NEWS_WINDOW_DAYS),
    };
  }
  return {
    url: found.url,
    status_code: found.status_code,
    exists: found.exists,
    url_count: found.url_count,
    news: found.news,
    truncated: found.truncated,
    truncated_reason: found.truncated_reason,
    files_read: found.filesFetched,
    files_failed: found.files_failed,
    bytes_read: found.bytes_read,
    sitemaps: found.sitemaps,
    aggregates: found.aggregates,
  };
}
