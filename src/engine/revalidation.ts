// A re-check's politeness (docs/design.md §11): robots.txt and sitemaps are asked for with the validators the last
// discovery of the domain recorded (If-None-Match / If-Modified-Since). robots.txt answered 304 is read from the
// copy the last discovery stored; a sitemap tree whose every top-level file answered 304 is not read again, and
// the last discovery's counts stand. Feeds and the homepage are always fetched: freshness, languages and
// liveness are measured from them.
import { isDeepStrictEqual } from 'node:util';
import type { Fetcher, FetchOptions, FetchResponse, Validators } from '../ports/fetcher.js';
import type { SitemapDiscovery, SitemapMetadata } from './sitemaps.js';

/** What the last discovery of the domain left to revalidate against. */
export interface PreviousDiscovery {
  /** By URL: the validators its answers carried (domain_metadata.json `validators`). */
  validators: Record<string, Validators>;
  /** robots.txt as it was stored then; null when none was. */
  robotsTxt: Buffer | null;
  /** Its sitemap record (domain_metadata.json `sitemap`), aggregates included. */
  sitemap: SitemapMetadata | null;
}

/**
 * Kinds whose validators are kept for the next run. A sitemap is sent its validators only as a top-level file
 * (`unchanged`): a tree being read needs every file's body.
 */
const KEPT: ReadonlySet<FetchOptions['kind']> = new Set(['robots', 'sitemap']);

export interface RevalidatingFetcher extends Fetcher {
  /** Validators of this run's answers (2xx with an ETag or Last-Modified; a 304 keeps the earlier ones). */
  validators(): Record<string, Validators>;
  /** URLs that answered 304 Not Modified in this run. */
  readonly notModified: ReadonlySet<string>;
  /**
   * Asks for each top-level sitemap conditionally; true when every one answered 304. Otherwise the answers read
   * are handed to the tree's reading (nothing is fetched twice), and the unchanged ones are asked for in full.
   */
  unchanged(roots: readonly string[]): Promise<boolean>;
}

/**
 * Sends robots.txt and sitemap requests conditionally when `previous` has validators for them, and keeps the
 * validators of every answer for the next run. A 304 for robots.txt comes back as the stored copy (status 200),
 * so the robots reader never sees the difference.
 */
export function revalidatingFetcher(
  fetcher: Fetcher,
  previous: PreviousDiscovery | null,
): RevalidatingFetcher {
  const seen: Record<string, Validators> = {};
  const notModified = new Set<string>();
  /** Answers already read by `unchanged`, handed to the next ask for the URL. */
  const stash = new Map<string, FetchResponse>();

  /** robots.txt is revalidated here, and only when its last copy is at hand to stand for a 304. */
  async function fetch(url: string, options: FetchOptions): Promise<FetchResponse> {
    const stashed = stash.get(url);
    if (stashed) {
      stash.delete(url);
      return stashed;
    }
    if (!KEPT.has(options.kind)) return fetcher.fetch(url, options);
    const known = options.kind === 'robots' && previous?.robotsTxt ? previous.validators[url] : undefined;
    return ask(url, options, known);
  }

  async function ask(url: string, options: FetchOptions, known: Validators | undefined) {
    const response = await fetcher.fetch(url, known ? { ...options, conditional: known } : options);
    if (response.status === 304 && known) {
      notModified.add(url);
      seen[url] = known;
      if (options.kind === 'robots' && previous?.robotsTxt)
        return { ...response, status: 200, body: previous.robotsTxt };
      return response;
    }
    const validators = validatorsOf(response);
    if (validators) seen[url] = validators;
    return response;
  }

  async function unchanged(roots: readonly string[]): Promise<boolean> {
    const answers: FetchResponse[] = [];
    // One after another, as the tree's reading would: politeness per host is the fetcher's either way.
    for (const url of roots) answers.push(await ask(url, { kind: 'sitemap' }, previous?.validators[url]));
    if (answers.every((answer) => answer.status === 304)) return true;
    // The tree is read after all: what changed is handed over as read, what did not is asked for in full.
    for (const answer of answers) {
      if (answer.status === 304) notModified.delete(answer.url);
      else stash.set(answer.url, answer);
    }
    return false;
  }

  return {
    fetch,
    setCrawlDelay: (host, seconds) => fetcher.setCrawlDelay(host, seconds),
    close: () => fetcher.close(),
    validators: () => ({ ...seen }),
    notModified,
    unchanged,
  };
}

function validatorsOf(response: FetchResponse): Validators | null {
  if (response.status < 200 || response.status >= 300) return null;
  const etag = response.headers['etag'];
  const lastModified = response.headers['last-modified'];
  if (!etag && !lastModified) return null;
  return { ...(etag ? { etag } : {}), ...(lastModified ? { last_modified: lastModified } : {}) };
}

/**
 * The top-level sitemaps to revalidate, or null when the tree must be read afresh: no earlier tree, one cut
 * short by a budget, one whose files carried no validators, or robots.txt now listing other sitemaps.
 */
export function revalidatableSitemaps(
  previous: PreviousDiscovery | null,
  listed: readonly string[],
): string[] | null {
  const sitemap = previous?.sitemap;
  if (!previous || !sitemap?.exists || sitemap.truncated) return null;
  const roots = sitemap.sitemaps.filter((s) => s.kind !== 'failed').map((s) => s.url);
  if (roots.length === 0 || !roots.every((url) => previous.validators[url])) return null;
  const wasListed = sitemap.sitemaps.filter((s) => s.source === 'robots').map((s) => s.url);
  if (!isDeepStrictEqual([...wasListed].sort(), [...listed].sort())) return null;
  return roots;
}

/** The last discovery's tree, standing for this run's after every top-level file answered 304. */
export function unchangedSitemaps(sitemap: SitemapMetadata, requests: number): SitemapDiscovery {
  return {
    url: sitemap.url,
    status_code: sitemap.status_code,
    exists: sitemap.exists,
    url_count: sitemap.url_count,
    news: sitemap.news,
    sitemap_urls: sitemap.sitemaps.filter((s) => s.kind !== 'failed').map((s) => s.url),
    sitemaps: sitemap.sitemaps,
    firstBody: null,
    filesFetched: requests,
    files_failed: sitemap.files_failed,
    files_damaged: 0,
    cycles: 0,
    bytes_read: 0,
    truncated: false,
    truncated_reason: null,
    aggregates: sitemap.aggregates,
  };
}
