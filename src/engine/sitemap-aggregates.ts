// Running aggregates over every page a sitemap tree lists: distinct URLs (as 64-bit hashes), lastmod range,
// Google News publication dates, languages and hreflang — what freshness and language need, never a URL list —
// and one URL from each of the first few other hosts the tree lists (discovery's citations).
import { readableText } from './page-text.js';
import type { SitemapPage } from './sitemap-reader.js';
import { UrlHashSet } from './url-hash-set.js';

export interface SitemapAggregates {
  /** Page entries read (sitemap `<url>`, feed items, text lines), duplicates and unusable ones included. */
  entries: number;
  /** Entries whose location is not an absolute http(s) URL. */
  invalid: number;
  /** Distinct valid page URLs: the tree's url_count. */
  distinct: number;
  /** Over the distinct URLs that carry a readable `<lastmod>` (or a feed item's date). */
  lastmod: {
    count: number;
    newest: string | null;
    oldest: string | null;
    last_7d: number;
    /** Dates more than a day ahead of `now`: left out of newest and the windows. */
    future: number;
  };
  /** Over the distinct URLs that carry `<news:news>`. */
  news: {
    url_count: number;
    newest_publication_date: string | null;
    oldest_publication_date: string | null;
    published_last_7d: number;
    /** The window below, in days before `now` (Google News sitemaps hold the last 2 days). */
    window_days: number;
    published_in_window: number;
    future: number;
    /** `news:language` → URLs; at most 32 keys, the rest under `*`. */
    languages: Record<string, number>;
    /** `news:name` → URLs; at most 8 keys, the rest under `*`. */
    publications: Record<string, number>;
    /** The first few distinct `news:title` values, whitespace collapsed, at most 200 characters each. */
    sample_titles: string[];
  };
  /** hreflang of `<xhtml:link rel="alternate">` → occurrences on distinct URLs; at most 64 keys, the rest under `*`. */
  hreflang: Record<string, number>;
  /** The first URL seen of each host outside the site (at most OTHER_HOSTS hosts); absent when none was. */
  other_hosts?: Array<{ host: string; url: string }>;
}

/** Other hosts a sitemap tree may name, once each: enough for discovery, bounded for a tree of millions. */
export const OTHER_HOSTS = 50;

const DAY_MS = 24 * 60 * 60 * 1000;
const SAMPLE_TITLES = 5;
const TITLE_CHARS = 200;
/** Absolute http(s) with a host and no whitespace: checked with a regex, since `new URL` per entry costs seconds at millions. */
const PAGE_URL = /^https?:\/\/[^\s/?#]+(?:[/?#]\S*)?$/i;
const LANGUAGE = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$|^x-default$/;

export function isPageUrl(loc: string): boolean {
  return loc.length <= 4096 && PAGE_URL.test(loc);
}

const W3C_DATE =
  /^(\d{4})(?:-(\d{2})(?:-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?)?)?)?$/i;

/**
 * W3C datetime (the sitemap and news formats, any precision; no zone means UTC, so the answer never depends on
 * the machine's zone), else an RFC 822 date with an explicit zone (RSS pubDate). Milliseconds, or null.
 */
export function parseSitemapDate(text: string): number | null {
  const value = text.trim();
  const m = W3C_DATE.exec(value);
  if (m) {
    const [, y, mo, d, h, mi, s, frac, zone] = m;
    const ms = frac === undefined ? 0 : Math.round(Number(`0.${frac}`) * 1000);
    let at = Date.UTC(
      Number(y),
      Number(mo ?? 1) - 1,
      Number(d ?? 1),
      Number(h ?? 0),
      Number(mi ?? 0),
      Number(s ?? 0),
      ms,
    );
    if (zone !== undefined && zone.toUpperCase() !== 'Z') {
      const digits = zone.replace(':', '');
      const offset = Number(digits.slice(1, 3)) * 60 + Number(digits.slice(3, 5) || 0);
      at -= (zone[0] === '-' ? -1 : 1) * offset * 60_000;
    }
    return Number.isNaN(at) || Number(mo ?? 1) > 12 || Number(d ?? 1) > 31 ? null : at;
  }
  if (/(?:GMT|UTC|UT|Z|[ECMP][SD]T|[+-]\d{4})$/i.test(value)) {
    const at = Date.parse(value);
    return Number.isNaN(at) ? null : at;
  }
  return null;
}

/** Counts per key, keeping at most `max` keys; later keys are summed under `*` so a hostile file stays small. */
class CountTable {
  private readonly counts = new Map<string, number>();
  constructor(private readonly max: number) {}
  add(key: string): void {
    const known = this.counts.get(key);
    if (known !== undefined) this.counts.set(key, known + 1);
    else if (this.counts.size < this.max) this.counts.set(key, 1);
    else this.counts.set('*', (this.counts.get('*') ?? 0) + 1);
  }
  toJSON(): Record<string, number> {
    return Object.fromEntries([...this.counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)));
  }
}

/** Newest/oldest and window counts over dates measured against one `now`. */
class DateRange {
  count = 0;
  future = 0;
  last7d = 0;
  inWindow = 0;
  private newest = Number.NEGATIVE_INFINITY;
  private oldest = Number.POSITIVE_INFINITY;
  /** The last date text read and its value: a file's entries often share one (pages and sections stamped at once). */
  private lastText: string | null = null;
  private lastAt: number | null = null;
  constructor(
    private readonly now: number,
    private readonly windowDays: number,
  ) {}
  add(text: string | null): void {
    if (text === null) return;
    if (text !== this.lastText) {
      this.lastText = text;
      this.lastAt = parseSitemapDate(text);
    }
    const at = this.lastAt;
    if (at === null) return;
    // A day of slack: publishers often stamp local time as UTC.
    if (at > this.now + DAY_MS) {
      this.future += 1;
      return;
    }
    this.count += 1;
    if (at > this.newest) this.newest = at;
    if (at < this.oldest) this.oldest = at;
    if (at >= this.now - 7 * DAY_MS) this.last7d += 1;
    if (at >= this.now - this.windowDays * DAY_MS) this.inWindow += 1;
  }
  get newestIso(): string | null {
    return this.count === 0 ? null : new Date(this.newest).toISOString();
  }
  get oldestIso(): string | null {
    return this.count === 0 ? null : new Date(this.oldest).toISOString();
  }
}

export interface AggregatorOptions {
  now: Date;
  /** The news window, in days before `now`. */
  newsWindowDays: number;
  /** The site's registrable domain: a URL of another host (not it, not a subdomain of it) is sampled. */
  siteDomain?: string;
}

export class SitemapAggregator {
  // Small at first and doubled as it fills: most sites list a few hundred URLs, and a table sized for thousands
  // was 32 KiB zeroed for every domain of a batch (a large tree's doublings cost about one copy of its table).
  private readonly urls = new UrlHashSet(64);
  private readonly newsUrls = new UrlHashSet(64);
  private entries = 0;
  private invalid = 0;
  private readonly lastmod: DateRange;
  private readonly published: DateRange;
  private readonly languages = new CountTable(32);
  private readonly publications = new CountTable(8);
  private readonly hreflang = new CountTable(64);
  private readonly titles = new Set<string>();
  private readonly otherHosts = new Map<string, string>();
  /** The last host checked: a tree lists its own host entry after entry, so one comparison usually settles it. */
  private lastHost = '';

  constructor(private readonly options: AggregatorOptions) {
    const now = options.now.getTime();
    this.lastmod = new DateRange(now, options.newsWindowDays);
    this.published = new DateRange(now, options.newsWindowDays);
  }

  /** Distinct valid page URLs so far. */
  get distinct(): number {
    return this.urls.size;
  }

  /** Bytes held by the hash sets. */
  get bytes(): number {
    return this.urls.bytes + this.newsUrls.bytes;
  }

  /** Counts a page; only its first sighting feeds the aggregates, so they describe distinct URLs. */
  add(page: SitemapPage): void {
    this.entries += 1;
    if (!isPageUrl(page.loc)) {
      this.invalid += 1;
      return;
    }
    // A fragment names a place in a page, not another page.
    const hash = page.loc.indexOf('#');
    const key = hash === -1 ? page.loc : page.loc.slice(0, hash);
    if (page.news !== null && this.newsUrls.add(key)) this.addNews(page.news);
    if (!this.urls.add(key)) return;
    this.sampleHost(key);
    this.lastmod.add(page.lastmod);
    for (const lang of page.hreflang) {
      const key = lang.toLowerCase();
      this.hreflang.add(LANGUAGE.test(key) ? key : '*');
    }
  }

  private sampleHost(url: string): void {
    const site = this.options.siteDomain;
    if (site === undefined) return;
    const start = url.indexOf('//') + 2;
    const end = url.slice(start).search(/[/?#]/);
    const host = (end === -1 ? url.slice(start) : url.slice(start, start + end))
      .toLowerCase()
      .replace(/:\d+$/, '');
    if (host === this.lastHost) return;
    this.lastHost = host;
    if (host === site || host.endsWith(`.${site}`) || this.otherHosts.has(host)) return;
    if (this.otherHosts.size < OTHER_HOSTS) this.otherHosts.set(host, url);
  }

  private addNews(news: NonNullable<SitemapPage['news']>): void {
    this.published.add(news.publication_date);
    if (news.language !== null) {
      const key = news.language.toLowerCase();
      this.languages.add(LANGUAGE.test(key) ? key : '*');
    }
    const name = news.name === null ? null : readableText(news.name, TITLE_CHARS);
    if (name !== null) this.publications.add(name);
    const title = news.title === null ? null : readableText(news.title, TITLE_CHARS);
    if (title !== null && this.titles.size < SAMPLE_TITLES) this.titles.add(title);
  }

  snapshot(): SitemapAggregates {
    return {
      entries: this.entries,
      invalid: this.invalid,
      distinct: this.urls.size,
      lastmod: {
        count: this.lastmod.count,
        newest: this.lastmod.newestIso,
        oldest: this.lastmod.oldestIso,
        last_7d: this.lastmod.last7d,
        future: this.lastmod.future,
      },
      news: {
        url_count: this.newsUrls.size,
        newest_publication_date: this.published.newestIso,
        oldest_publication_date: this.published.oldestIso,
        published_last_7d: this.published.last7d,
        window_days: this.options.newsWindowDays,
        published_in_window: this.published.inWindow,
        future: this.published.future,
        languages: this.languages.toJSON(),
        publications: this.publications.toJSON(),
        sample_titles: [...this.titles],
      },
      hreflang: this.hreflang.toJSON(),
      ...(this.otherHosts.size > 0
        ? { other_hosts: [...this.otherHosts].map(([host, url]) => ({ host, url })) }
        : {}),
    };
  }
}

/** The aggregates of a tree that read nothing (no sitemap, or nothing fetched). */
export function emptyAggregates(newsWindowDays: number): SitemapAggregates {
  return new SitemapAggregator({ now: new Date(0), newsWindowDays }).snapshot();
}
