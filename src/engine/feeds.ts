// Feed discovery for one site: candidates from the entry page (<link>, <a>), from a feeds page one hop away and
// from CMS paths (only when the page led to no usable feed), each fetched and parsed within a budget, then given
// a role and ranked as a person would.
import { FetchError, type Fetcher, type FetchResponse } from '../ports/fetcher.js';
import {
  type CandidateSource,
  declaredFeedType,
  type FeedCandidate,
  guessedFeedUrls,
  isKnownFeedHost,
  type PageInfo,
  parsePage,
  sameSite,
} from './feed-candidates.js';
import { type FeedContent, type FeedReader, type FeedType, readFeed } from './feed-content.js';
import {
  classifyFeeds,
  commentsReason,
  type FeedEvidence,
  type FeedRole,
  formatTwins,
  itemReason,
  matchesCategory,
  type PageContext,
  sectionReason,
  siteWordsOf,
} from './feed-roles.js';
import { decodeText } from './text-decoding.js';

export { COMMON_FEED_PATHS, FEED_LINK_TYPES, type HomepageInfo, parseHomepage } from './feed-candidates.js';
export { identifyFeed } from './feed-content.js';
export type { FeedRole, FeedType };

/** Candidate URLs fetched per site, pages one hop away included: 12 covers a main feed in RSS and Atom, comments,
 *  a few sections and the CMS guesses, and keeps a site with a 5 s Crawl-delay near a minute. */
export const MAX_FEED_FETCHES = 12;
/** HTML pages read for more candidates (a "RSS feeds" page, a <link> that answered HTML). */
export const MAX_FEED_PAGES = 2;

export interface DiscoveredFeed {
  url: string;
  type: FeedType;
  title: string | null;
  role: FeedRole;
  /** Null when the feed was listed without being read (a comments feed its own link names: `listUnread`). */
  item_count: number | null;
  newest_item_at: string | null;
  /** As the feed declares it, lower-cased; null when it declares none. */
  language: string | null;
  oldest_item_at: string | null;
  items_last_7d: number;
  dated_items: number;
  /** The first item titles (at most 20), for language detection. */
  item_titles: string[];
  /** The items' links in feed order (at most 100): article samples and links to other sites (discovery). */
  item_links: string[];
  /** How it was found, and by what. */
  source: CandidateSource;
  label: string | null;
  announced: boolean;
  same_site: boolean;
  role_reason: string;
  /** A better-ranked feed with the same items (the same posts in another format); null when none. */
  duplicate_of: string | null;
}

import type { FeedRecord } from '../domain/seed-facts.js';

export type { FeedRecord };

export function feedRecord(feed: DiscoveredFeed): FeedRecord {
  const record: FeedRecord = {
    url: feed.url,
    type: feed.type,
    title: feed.title,
    role: feed.role,
    item_count: feed.item_count,
    newest_item_at: feed.newest_item_at,
  };
  if (feed.language !== null) record.language = feed.language;
  return record;
}

export interface FeedInput {
  /** The entry page's final URL: guesses hang off its origin. */
  pageUrl: string;
  /** The entry page's HTML, when it was read. */
  html: string | null;
  /** parsePage of that HTML when the caller already has it (readHomepage's one pass); read from `html` if absent. */
  entry?: PageInfo | null;
  /** robots.txt check; a disallowed candidate is not fetched. */
  allowed: (url: string) => boolean;
  now: () => Date;
  /** Reads a fetched body as a feed; readFeed on this thread when absent. */
  readFeed?: FeedReader;
  /** Fewer fetches, pages one hop away and guesses than the defaults (a long Crawl-delay: request-budget.ts). */
  budget?: { fetches: number; pages: number; guesses: number };
}

interface Pending extends FeedCandidate {
  priority: number;
  foundOn: PageContext | null;
  sameSite: boolean;
}

interface Found {
  evidence: FeedEvidence;
  content: FeedContent;
  order: number;
  /** False for a feed listed from its link alone: its content is empty, not read. */
  read: boolean;
}

/** A feed's content when it was not read: nothing counted, nothing dated. */
function unreadContent(type: FeedType): FeedContent {
  return {
    type,
    title: null,
    language: null,
    homeLink: null,
    item_count: 0,
    newest_item_at: null,
    oldest_item_at: null,
    items_last_7d: 0,
    dated_items: 0,
    item_titles: [],
    item_links: [],
  };
}

const ROLE_ORDER: Record<FeedRole, number> = { main: 0, section: 1, comments: 2, item: 3 };

function contextOf(page: PageInfo): PageContext {
  return { url: page.url, canonical: page.canonical, article: page.article };
}

/** A candidate's expected worth before fetching: site-wide-looking first, comments and per-article feeds last. */
function predictedRank(candidate: FeedCandidate, foundOn: PageContext | null): number {
  const evidence: FeedEvidence = {
    url: candidate.url,
    requestedUrl: candidate.url,
    source: candidate.source,
    label: candidate.label,
    announced: false,
    sameSite: true,
    foundOn,
    content: null,
  };
  if (commentsReason(evidence) || itemReason(evidence)) return 2;
  return sectionReason(evidence) ? 1 : 0;
}

function looksLikeHtml(res: FetchResponse): boolean {
  if (/html/i.test(res.headers['content-type'] ?? '')) return true;
  return /^\s*(<!doctype html|<html)/i.test(res.body.subarray(0, 512).toString('latin1'));
}

function itemKey(link: string): string {
  return link.replace(/^https?:\/\//i, '').replace(/#.*$/, '');
}

/** Two feeds carry the same posts when half the smaller one's items are in the other (RSS and Atom of one blog). */
function sameItems(a: FeedContent, b: FeedContent): boolean {
  const keysA = new Set((a.item_links.length > 0 ? a.item_links : a.item_titles).map(itemKey));
  const keysB = new Set((b.item_links.length > 0 ? b.item_links : b.item_titles).map(itemKey));
  if (keysA.size === 0 || keysB.size === 0) return keysA.size === keysB.size && a.title === b.title;
  let shared = 0;
  for (const key of keysA) if (keysB.has(key)) shared += 1;
  return shared * 2 >= Math.min(keysA.size, keysB.size);
}

/**
 * Finds, fetches, classifies and ranks a site's feeds. Candidates are fetched in this order, at most
 * MAX_FEED_FETCHES in all: the entry page's <link> feeds (same site first), its <a> feed links, candidates of
 * pages one hop away, and, only when none of them was a main or section feed, the CMS paths until one is a feed.
 */
export async function discoverFeeds(fetcher: Fetcher, input: FeedInput): Promise<DiscoveredFeed[]> {
  const entry =
    input.entry !== undefined
      ? input.entry
      : input.html === null
        ? null
        : parsePage(input.html, input.pageUrl);
  const entryContext = entry === null ? null : contextOf(entry);
  const site = {
    entryUrl: input.pageUrl,
    siteWords: siteWordsOf(entry?.title ?? null, entry?.siteName ?? null, new URL(input.pageUrl).hostname),
  };
  const pending: Pending[] = [];
  const seen = new Set<string>([input.pageUrl]);
  const found: Found[] = [];
  let fetches = 0;
  let pagesRead = 0;
  const maxFetches = input.budget?.fetches ?? MAX_FEED_FETCHES;
  const maxPages = input.budget?.pages ?? MAX_FEED_PAGES;

  const enqueue = (candidates: FeedCandidate[], tier: number, foundOn: PageContext | null, any: boolean) => {
    for (const candidate of candidates) {
      const same = sameSite(candidate.url, input.pageUrl);
      // Only the page's own <link> may point at another site: that is the publisher's declaration. Guesses, <a>
      // links and second-hand candidates stay on the site (or a known feed proxy), so a blogroll is not followed.
      if (!any && !same && !isKnownFeedHost(candidate.url)) continue;
      const crossSite = same || isKnownFeedHost(candidate.url) ? 0 : 5;
      const priority = tier * 10 + crossSite + predictedRank(candidate, foundOn);
      pending.push({ ...candidate, priority, foundOn, sameSite: same });
    }
  };
  const next = (): Pending | undefined => {
    let best = -1;
    for (let i = 0; i < pending.length; i += 1)
      if (best < 0 || pending[i]!.priority < pending[best]!.priority) best = i;
    return best < 0 ? undefined : pending.splice(best, 1)[0];
  };

  const fetchOne = async (url: string): Promise<FetchResponse | null> => {
    fetches += 1;
    try {
      const res = await fetcher.fetch(url, { kind: 'feed' });
      return res.status >= 200 && res.status < 300 ? res : null;
    } catch (err) {
      if (err instanceof FetchError) return null;
      throw err;
    }
  };

  /** Fetches a candidate; records it when it is a feed, reads it for candidates when it is a page. */
  const visit = async (candidate: Pending): Promise<Found | null> => {
    if (seen.has(candidate.url) || !input.allowed(candidate.url)) return null;
    seen.add(candidate.url);
    if (listUnread(candidate)) return null;
    const res = await fetchOne(candidate.url);
    if (res === null) return null;
    seen.add(res.finalUrl);
    const content = await (input.readFeed ?? readFeed)(res.body, input.now(), res.headers['content-type']);
    if (content === null) {
      const firstHop = candidate.source === 'link' || candidate.source === 'anchor';
      if (firstHop && pagesRead < maxPages && looksLikeHtml(res)) {
        pagesRead += 1;
        const page = parsePage(decodeText(res.body, res.headers['content-type']), res.finalUrl);
        const again = [...page.links, ...page.anchors].map((c) => ({ ...c, source: 'page' as const }));
        enqueue(again, 3, contextOf(page), false);
      }
      return null;
    }
    if (found.some((f) => f.evidence.url === res.finalUrl)) return null;
    const record: Found = {
      content,
      order: found.length,
      read: true,
      evidence: {
        url: res.finalUrl,
        requestedUrl: candidate.url,
        source: candidate.source,
        label: candidate.label,
        announced: candidate.source === 'link' && candidate.foundOn === entryContext,
        sameSite: sameSite(res.finalUrl, input.pageUrl) || candidate.sameSite,
        foundOn: candidate.foundOn,
        content,
      },
    };
    found.push(record);
    return record;
  };

  // A feed whose own <link> says it is comments (its title or its URL) is comments whatever it holds: the content
  // can only add a reason (`commentsReason` reads the link's words and URL as well), and a contract never fetches
  // it. So it is listed from the link, unread — a request a WordPress site no longer pays (every WordPress front
  // announces its comments feed). Only with a declared feed type, so the listing's `type` is the publisher's word.
  const listUnread = (candidate: Pending): boolean => {
    const type = declaredFeedType(candidate);
    if (type === null || candidate.source !== 'link') return false;
    const evidence: FeedEvidence = {
      url: candidate.url,
      requestedUrl: candidate.url,
      source: candidate.source,
      label: candidate.label,
      announced: candidate.foundOn === entryContext,
      sameSite: candidate.sameSite,
      foundOn: candidate.foundOn,
      content: null,
    };
    if (commentsReason(evidence) === null) return false;
    found.push({ content: unreadContent(type), order: found.length, read: false, evidence });
    return true;
  };

  if (entry !== null) {
    enqueue(entry.links, 0, entryContext, true);
    enqueue(entry.anchors, 2, entryContext, false);
  }
  for (let candidate = next(); candidate && fetches < maxFetches; candidate = next()) await visit(candidate);

  const classify = () =>
    classifyFeeds(
      found.map((f) => f.evidence),
      site,
      (a, b) => sameFeed(found[a]!, found[b]!),
    );
  // Guessed paths are requests the publisher never pointed us to: made only when the homepage (its <link>s, its
  // <a>s and the pages one hop away) led to no feed a contract could fetch (a comments or per-article feed is
  // never fetched as content, so it does not count), at most `guesses` of them, and the first guess that is a
  // feed ends the search (/feed, /rss and /feed.xml are usually one feed).
  if (!classify().some((v) => v.role === 'main' || v.role === 'section')) {
    let guessed = 0;
    for (const url of guessedFeedUrls(new URL(input.pageUrl).origin, entry)) {
      if (fetches >= maxFetches || guessed >= (input.budget?.guesses ?? Number.POSITIVE_INFINITY)) break;
      const before = fetches;
      const hit = await visit({
        url,
        source: 'guess',
        label: null,
        declaredType: null,
        priority: 0,
        foundOn: null,
        sameSite: true,
      });
      guessed += fetches - before;
      if (hit) break;
    }
  }
  return rank(found, classify(), input.pageUrl);
}

/** Same posts: judged by the items when both feeds have some, else by the URLs (one stream, two formats). */
function sameFeed(a: Found, b: Found): boolean {
  if (a.content.item_count > 0 && b.content.item_count > 0) return sameItems(a.content, b.content);
  return formatTwins(a.evidence.url, b.evidence.url) || sameItems(a.content, b.content);
}

/** How deep a feed's home link goes: 0 for the site root (or none), 4 for /2025/03/post/… */
function homeDepth(homeLink: string | null, entryUrl: string): number {
  if (homeLink === null) return 0;
  try {
    return new URL(homeLink, entryUrl).pathname.split('/').filter((s) => s !== '').length;
  } catch {
    return 0;
  }
}

function rank(
  found: Found[],
  verdicts: ReturnType<typeof classifyFeeds>,
  entryUrl: string,
): DiscoveredFeed[] {
  const rows = found.map((f, i) => ({
    ...f,
    verdict: verdicts[i]!,
    depth: homeDepth(f.content.homeLink, entryUrl),
  }));
  // A feed about a page deeper than the others' (one post's comments) ranks after the site-wide ones.
  const siteDepth = Math.min(...rows.map((r) => r.depth));
  const narrow = (r: (typeof rows)[number]) => r.depth > siteDepth;
  const primary = rows.find((r) => r.verdict.primary);
  const time = (r: (typeof rows)[number]) =>
    r.content.newest_item_at ? Date.parse(r.content.newest_item_at) : 0;
  // A person ranks the site-wide feed first, then what the homepage announces, then fresh and full feeds.
  rows.sort(
    (a, b) =>
      ROLE_ORDER[a.verdict.role] - ROLE_ORDER[b.verdict.role] ||
      Number(b === primary) - Number(a === primary) ||
      Number(narrow(a)) - Number(narrow(b)) ||
      Number(b.evidence.announced) - Number(a.evidence.announced) ||
      Number(b.evidence.sameSite) - Number(a.evidence.sameSite) ||
      time(b) - time(a) ||
      b.content.item_count - a.content.item_count ||
      a.order - b.order,
  );
  return rows.map((row, i) => {
    const earlier = rows
      .slice(0, i)
      .find(
        (r) =>
          (r.verdict.role === 'main' || r.verdict.role === 'section') &&
          (row.verdict.role === 'main' || row.verdict.role === 'section') &&
          sameFeed(r, row),
      );
    const c = row.content;
    return {
      url: row.evidence.url,
      type: c.type,
      title: c.title,
      role: row.verdict.role,
      item_count: row.read ? c.item_count : null,
      newest_item_at: c.newest_item_at,
      language: c.language,
      oldest_item_at: c.oldest_item_at,
      items_last_7d: c.items_last_7d,
      dated_items: c.dated_items,
      item_titles: c.item_titles,
      item_links: c.item_links,
      source: row.evidence.source,
      label: row.evidence.label,
      announced: row.evidence.announced,
      same_site: row.evidence.sameSite,
      role_reason: row.verdict.reason,
      duplicate_of: earlier?.evidence.url ?? null,
    };
  });
}

/**
 * The feeds a contract fetches: the main feed(s) and the section feeds about the seed's category, each only once
 * (a feed with the same items as a better-ranked one is left out); never a comments or per-article feed.
 */
export function feedFetchUrls(feeds: readonly DiscoveredFeed[], category: string): string[] {
  return feeds
    .filter(
      (f) =>
        f.duplicate_of === null &&
        (f.role === 'main' ||
          (f.role === 'section' &&
            matchesCategory({ url: f.url, label: f.label, title: f.title }, category))),
    )
    .map((f) => f.url);
}
