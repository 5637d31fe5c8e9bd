// What a fetched feed says about itself: format, title, language, home link, and small aggregates of its items
// (count, dates, a few titles and links) that roles, ranking and later freshness/language work read.
import { parseFeed } from 'feedsmith';
import type { FeedType } from '../domain/seed-facts.js';
import { normaliseLanguageTag } from './language-tags.js';
import { readableText } from './page-text.js';
import { decodeText } from './text-decoding.js';

export type { FeedType };

/** Item titles kept per feed (for language detection and comment-feed evidence). */
export const MAX_ITEM_TITLES = 20;
/** Item links kept per feed (for same-content and per-article evidence). */
export const MAX_ITEM_LINKS = 100;
/** An item dated further ahead than this is a publisher's clock error, not the newest item. */
const FUTURE_SLACK_MS = 24 * 3600 * 1000;
const WEEK_MS = 7 * 24 * 3600 * 1000;

export interface FeedContent {
  type: FeedType;
  title: string | null;
  /** As declared (<language>, xml:lang, dc:language, JSON Feed language), lower-cased; null when none. */
  language: string | null;
  /** The site or page the feed says it is about (RSS <link>, Atom rel=alternate, JSON home_page_url). */
  homeLink: string | null;
  item_count: number;
  newest_item_at: string | null;
  oldest_item_at: string | null;
  /** Items dated within the 7 days before `now`. */
  items_last_7d: number;
  /** Items with a date that could be read. */
  dated_items: number;
  item_titles: string[];
  item_links: string[];
}

function clean(text: string, max = 300): string | null {
  return readableText(
    text.replace(/&(amp|lt|gt|quot|#39|apos);/g, (_m, e: string) =>
      e === 'amp' ? '&' : e === 'lt' ? '<' : e === 'gt' ? '>' : e === 'quot' ? '"' : "'",
    ),
    max,
  );
}

function textOf(value: unknown): string | null {
  if (typeof value === 'string') return clean(value);
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string')
    return clean((value as { value: string }).value);
  return null;
}

type Dict = Record<string, unknown>;
const dict = (value: unknown): Dict => (value && typeof value === 'object' ? (value as Dict) : {});
const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

function atomLink(links: unknown): string | null {
  const all = list(links).map(dict);
  const alternate = all.find((l) => l['rel'] === undefined || l['rel'] === 'alternate');
  return typeof alternate?.['href'] === 'string' ? alternate['href'] : null;
}

interface RawItem {
  title: string | null;
  link: string | null;
  dates: unknown[];
}

function itemsOf(type: FeedType, feed: Dict): RawItem[] {
  if (type === 'atom') {
    return list(feed['entries']).map((raw) => {
      const e = dict(raw);
      return { title: textOf(e['title']), link: atomLink(e['links']), dates: [e['published'], e['updated']] };
    });
  }
  if (type === 'json') {
    return list(feed['items']).map((raw) => {
      const e = dict(raw);
      const link = typeof e['url'] === 'string' ? e['url'] : null;
      return { title: textOf(e['title']), link, dates: [e['date_published'], e['date_modified']] };
    });
  }
  return list(feed['items']).map((raw) => {
    const e = dict(raw);
    const guid = textOf(e['guid']);
    const link = typeof e['link'] === 'string' ? e['link'] : guid;
    const dc = dict(e['dc']);
    return { title: textOf(e['title']), link, dates: [e['pubDate'], ...list(dc['dates']), dc['date']] };
  });
}

function languageOf(feed: Dict): string | null {
  const dc = dict(feed['dc']);
  const candidates = [feed['language'], dict(feed['xml'])['lang'], ...list(dc['languages']), dc['language']];
  for (const value of candidates) {
    // The first that names a real language: `<language>utf-8</language>` is a feed's mistake, not a fact.
    const tag = typeof value === 'string' ? normaliseLanguageTag(value) : null;
    if (tag !== null) return tag;
  }
  return null;
}

function firstDate(values: unknown[]): number | null {
  for (const value of values) {
    if (typeof value !== 'string') continue;
    const ms = Date.parse(value.trim());
    if (Number.isFinite(ms)) return ms;
  }
  return null;
}

function homeLinkOf(type: FeedType, feed: Dict): string | null {
  if (type === 'atom') return atomLink(feed['links']);
  if (type === 'json') return typeof feed['home_page_url'] === 'string' ? feed['home_page_url'] : null;
  return typeof feed['link'] === 'string' ? clean(feed['link']) : null;
}

/** Reads a feed body as readFeed does, on this thread or another (adapters/feed-reader-pool.ts). */
export type FeedReader = (
  body: Buffer,
  now: Date | null,
  contentType?: string,
) => Promise<FeedContent | null>;

/**
 * The feed's content when the body really is a feed (RSS, Atom, RDF, JSON Feed); null otherwise. Dates are
 * judged against `now` (null: no item counts as recent and none as future).
 */
export function readFeed(body: Buffer, now: Date | null, contentType?: string): FeedContent | null {
  const text = decodeText(body, contentType).replace(/^\uFEFF/, '');
  if (text.trim() === '') return null;
  let parsed: { format: FeedType; feed: unknown };
  try {
    parsed = parseFeed(text) as { format: FeedType; feed: unknown };
  } catch {
    return null;
  }
  const type = parsed.format;
  const feed = dict(parsed.feed);
  const items = itemsOf(type, feed);
  const nowMs = now?.getTime() ?? Number.POSITIVE_INFINITY;
  let newest: number | null = null;
  let oldest: number | null = null;
  let dated = 0;
  let lastWeek = 0;
  for (const item of items) {
    const ms = firstDate(item.dates);
    if (ms === null || ms > nowMs + FUTURE_SLACK_MS) continue;
    dated += 1;
    if (newest === null || ms > newest) newest = ms;
    if (oldest === null || ms < oldest) oldest = ms;
    if (now !== null && ms > nowMs - WEEK_MS) lastWeek += 1;
  }
  return {
    type,
    title: textOf(feed['title']),
    language: languageOf(feed),
    homeLink: homeLinkOf(type, feed),
    item_count: items.length,
    newest_item_at: newest === null ? null : new Date(newest).toISOString(),
    oldest_item_at: oldest === null ? null : new Date(oldest).toISOString(),
    items_last_7d: lastWeek,
    dated_items: dated,
    item_titles: items
      .map((i) => i.title)
      .filter((t): t is string => t !== null)
      .slice(0, MAX_ITEM_TITLES),
    item_links: items
      .map((i) => i.link)
      .filter((l): l is string => l !== null)
      .slice(0, MAX_ITEM_LINKS),
  };
}

/** The feed's format and title when the body really is a feed; null otherwise. */
export function identifyFeed(body: Buffer): { type: FeedType; title: string | null } | null {
  const content = readFeed(body, null);
  return content === null ? null : { type: content.type, title: content.title };
}
