// How fresh a source is and how fast it publishes, from its main feeds' items and its news sitemaps'
// publication dates; and the schedule that rate calls for (the table in docs/collection.md).
import { createHash } from 'node:crypto';
import type { DiscoveredFeed } from './feeds.js';
import type { SitemapAggregates } from './sitemap-aggregates.js';

const DAY_MS = 24 * 3600 * 1000;
/** A source whose newest item is older than this many days is stale (SEEDBED_STALE_AFTER_DAYS). */
export const DEFAULT_STALE_AFTER_DAYS = 30;
/** A window shorter than this (one burst of items) says little about a daily rate: it is counted as this. */
const MIN_SPAN_DAYS = 1 / 24;

import type { Freshness } from '../domain/seed-facts.js';

export type { Freshness };

interface RateSource {
  kind: 'feed' | 'news_sitemap';
  newest: number | null;
  oldest: number | null;
  last7d: number;
  /** Dated items within `windowDays` (or all of them when the source has no fixed window). */
  dated: number;
  /** Days a news sitemap covers (Google News holds the last 2); null for a feed (its items are the window). */
  windowDays: number | null;
}

/**
 * A source's rate: a feed that reaches back more than a week is counted over the week; a shorter one (a busy
 * site's last 50 items cover a few hours) over the span from its oldest item to now.
 */
function rateOf(source: RateSource, now: number): number | null {
  if (source.oldest === null) return null;
  const spanDays = (now - source.oldest) / DAY_MS;
  if (spanDays >= 7) return source.last7d / 7;
  const window = source.windowDays === null ? spanDays : Math.min(spanDays, source.windowDays);
  return source.dated / Math.max(window, MIN_SPAN_DAYS);
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * Freshness from the feeds a contract fetches (main, else section; duplicates left out; never comments or
 * per-item feeds) and the news sitemap aggregates. The sources describe the same publication, so the one that
 * counts most (items, rate) is taken, never their sum.
 */
export function measureFreshness(input: {
  feeds: readonly DiscoveredFeed[];
  news: SitemapAggregates['news'] | null;
  now: Date;
  staleAfterDays?: number;
}): Freshness {
  const now = input.now.getTime();
  const content = input.feeds.filter((f) => f.duplicate_of === null);
  const main = content.filter((f) => f.role === 'main');
  const chosen = main.length > 0 ? main : content.filter((f) => f.role === 'section');
  const parse = (iso: string | null) => (iso === null ? null : Date.parse(iso));
  const sources: RateSource[] = chosen.map((f) => ({
    kind: 'feed',
    newest: parse(f.newest_item_at),
    oldest: parse(f.oldest_item_at),
    last7d: f.items_last_7d,
    dated: f.dated_items,
    windowDays: null,
  }));
  const news = input.news;
  if (news !== null && news.url_count > 0) {
    sources.push({
      kind: 'news_sitemap',
      newest: parse(news.newest_publication_date),
      oldest: parse(news.oldest_publication_date),
      last7d: news.published_last_7d,
      dated: news.published_in_window,
      windowDays: news.window_days,
    });
  }
  let newest: number | null = null;
  let last7d = 0;
  let best: { rate: number; kind: RateSource['kind'] } | null = null;
  for (const source of sources) {
    if (source.newest !== null && (newest === null || source.newest > newest)) newest = source.newest;
    last7d = Math.max(last7d, source.last7d);
    const rate = rateOf(source, now);
    if (rate !== null && (best === null || rate > best.rate)) best = { rate, kind: source.kind };
  }
  const staleMs = (input.staleAfterDays ?? DEFAULT_STALE_AFTER_DAYS) * DAY_MS;
  return {
    newest_item_at: newest === null ? null : new Date(newest).toISOString(),
    items_last_7d: last7d,
    items_per_day: best === null ? null : round(best.rate),
    measured_at: input.now.toISOString(),
    stale: newest === null ? null : now - newest > staleMs,
    based_on: best?.kind ?? null,
  };
}

/** How often a seed is read, by its publication rate: the first row whose minimum the rate reaches. */
export const SCHEDULE_TABLE = [
  { min_items_per_day: 24, every: '15 minutes' },
  { min_items_per_day: 2, every: 'hour' },
  { min_items_per_day: 0.5, every: '6 hours' },
  { min_items_per_day: 0, every: 'day' },
] as const;

export type ScheduleEvery = (typeof SCHEDULE_TABLE)[number]['every'] | 'week';

/**
 * The cadence for a source: by its rate when items were dated (a stale source weekly); without dates, hourly for
 * a feed or a news sitemap, daily for anything else (the rule before rates were measured).
 */
export function cadenceFor(freshness: Freshness | null, frequent: boolean): ScheduleEvery {
  if (freshness === null || freshness.items_per_day === null) return frequent ? 'hour' : 'day';
  if (freshness.stale) return 'week';
  const rate = freshness.items_per_day;
  return SCHEDULE_TABLE.find((row) => rate >= row.min_items_per_day)?.every ?? 'day';
}

/**
 * A cron (five fields, UTC) for the cadence. Minute, hour and weekday come from a hash of the domain, so
 * thousands of seeds do not all fire at :00.
 */
export function cronFor(domain: string, every: ScheduleEvery): string {
  const hash = createHash('sha256').update(domain).digest();
  const minute = hash.readUInt16BE(0) % 60;
  const hour = hash.readUInt16BE(2) % 24;
  switch (every) {
    case '15 minutes': {
      const first = minute % 15;
      return `${[0, 1, 2, 3].map((q) => first + q * 15).join(',')} * * * *`;
    }
    case 'hour':
      return `${minute} * * * *`;
    case '6 hours':
      return `${minute} ${[0, 1, 2, 3].map((q) => (hour % 6) + q * 6).join(',')} * * *`;
    case 'day':
      return `${minute} ${hour} * * *`;
    case 'week':
      return `${minute} ${hour} * * ${hash.readUInt16BE(4) % 7}`;
  }
}
