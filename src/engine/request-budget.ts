// What one contract run may ask a site for, and how many requests it did ask. A site's Crawl-delay says how dear
// each request is to it: at 10 s, the 20-odd requests of an ordinary run hold the site (and one of our domain
// slots) for minutes, so a slow site gets what robots.txt and its homepage name, plus a few guesses, and no more.
import { FetchError, type Fetcher, type FetchResponse } from '../ports/fetcher.js';
import { MAX_FEED_FETCHES, MAX_FEED_PAGES } from './feeds.js';
import { WELL_KNOWN_NEWS_SITEMAP_PATHS, WELL_KNOWN_SITEMAP_PATHS } from './sitemaps.js';
import { MAX_SAMPLED_ARTICLES } from './source-verdicts.js';

/** A Crawl-delay (seconds) from which the run keeps to the slow budget: 5 s makes 12 requests a minute. */
export const SLOW_CRAWL_DELAY_SECONDS = 5;

export interface RequestBudget {
  /** Well-known sitemap paths guessed (when robots.txt names no working sitemap), in their order. */
  sitemapGuesses: number;
  /** Well-known news-sitemap paths guessed (same condition, and no news sitemap read yet). */
  newsSitemapGuesses: number;
  /** Sitemap files fetched in all (named ones, index children, guesses); null: the sitemap limits decide. */
  sitemapFiles: number | null;
  /** Feed candidates fetched in all (the homepage's links and anchors, pages one hop away, guesses). */
  feedFetches: number;
  /** HTML pages one hop away read for more feed candidates. */
  feedPages: number;
  /** Guessed feed paths (when the homepage led to no feed). */
  feedGuesses: number;
  /** /.well-known/tdmrep.json: a guessed path too. */
  tdmrep: boolean;
  /** Article pages fetched to decide whether the site is news. */
  articleSamples: number;
}

export const FULL_BUDGET: RequestBudget = {
  sitemapGuesses: WELL_KNOWN_SITEMAP_PATHS.length,
  newsSitemapGuesses: WELL_KNOWN_NEWS_SITEMAP_PATHS.length,
  sitemapFiles: null,
  feedFetches: MAX_FEED_FETCHES,
  feedPages: MAX_FEED_PAGES,
  feedGuesses: Number.POSITIVE_INFINITY,
  tdmrep: true,
  articleSamples: MAX_SAMPLED_ARTICLES,
};

/**
 * Under a long Crawl-delay (docs/fetching.md, "A request budget"): one guess of each kind a contract needs (the
 * commonest sitemap path, the commonest feed path), no news-sitemap guess, no page one hop away, no TDMRep file
 * and no article sample. What robots.txt and the homepage name is still read, within 8 sitemap files and 4 feed
 * candidates: a contract needs one working sitemap tree's top and one main feed, not the whole tree.
 */
export const SLOW_SITE_BUDGET: RequestBudget = {
  sitemapGuesses: 1,
  newsSitemapGuesses: 0,
  sitemapFiles: 8,
  feedFetches: 4,
  feedPages: 0,
  feedGuesses: 1,
  tdmrep: false,
  articleSamples: 0,
};

/** A Crawl-delay (seconds) from which the run reads one file of each kind: the slow budget would take up to 4 minutes. */
export const VERY_SLOW_CRAWL_DELAY_SECONDS = 20;

/**
 * Under a Crawl-delay of 20 s or more (docs/fetching.md, "A request budget"), where the slow budget's 14 requests
 * would hold the site for 4.5–14 minutes: robots.txt, the homepage, one sitemap file (the first robots.txt names,
 * else `/sitemap.xml`) and one feed (the homepage's best candidate, else the CMS's own path). Four requests, about
 * three minutes at the 60 s cap; the contract names the sitemap it read (an index's children unread, marked
 * truncated) and the feed.
 */
export const VERY_SLOW_SITE_BUDGET: RequestBudget = {
  sitemapGuesses: 1,
  newsSitemapGuesses: 0,
  sitemapFiles: 1,
  feedFetches: 1,
  feedPages: 0,
  feedGuesses: 1,
  tdmrep: false,
  articleSamples: 0,
};

export function requestBudget(crawlDelaySeconds: number | null): RequestBudget {
  if (crawlDelaySeconds === null || crawlDelaySeconds < SLOW_CRAWL_DELAY_SECONDS) return FULL_BUDGET;
  return crawlDelaySeconds < VERY_SLOW_CRAWL_DELAY_SECONDS ? SLOW_SITE_BUDGET : VERY_SLOW_SITE_BUDGET;
}

export interface CountingFetcher extends Fetcher {
  /** Requests sent to sites through this fetcher so far, redirects, retries and revalidations included. */
  readonly requests: number;
}

/** What one fetch sent: the fetcher's own count when it keeps one, else the hops its answer shows. */
function sentBy(response: FetchResponse): number {
  return response.requests ?? 1 + response.redirects.length;
}

/**
 * Counts what a run sent. It wraps the network below the revalidating layer's stash and above the early robots.txt
 * read, so an answer handed over without a request is not counted and the early read is counted once.
 */
export function countingFetcher(fetcher: Fetcher): CountingFetcher {
  let requests = 0;
  return {
    get requests() {
      return requests;
    },
    async fetch(url, options) {
      try {
        const response = await fetcher.fetch(url, options);
        requests += sentBy(response);
        return response;
      } catch (err) {
        // A fetcher that does not say (a test's stub) is taken to have sent the request it failed on.
        if (err instanceof FetchError) requests += err.requests ?? 1;
        throw err;
      }
    },
    setCrawlDelay: (host, seconds) => fetcher.setCrawlDelay(host, seconds),
    close: () => fetcher.close(),
  };
}
