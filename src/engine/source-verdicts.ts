// What a contract run concludes about the source beyond its contract: is it news (news-verdict.ts), which
// country (country-guess.ts), and which other sites it links to (discovery's candidates). Read from what the run
// already fetched; at most two article pages more, and only when the homepage, feeds and sitemap leave the
// verdict undecided (`maybe`), each within robots.txt and the host's politeness.
import { getDomain } from 'tldts';
import type { CitationSource } from '../domain/candidates.js';
import type { CountryGuess, NewsVerdict, SourceLanguage } from '../domain/seed-facts.js';
import { FetchError, type Fetcher } from '../ports/fetcher.js';
import { type CountryInput, guessCountry } from './country-guess.js';
import type { DiscoveredFeed } from './feeds.js';
import { judgeNews, type NewsFeedFacts } from './news-verdict.js';
import { type PageFacts, type PageLink, readPageFacts, readPageLinks } from './page-facts.js';
import { fetchRobots } from './robots.js';
import { decodeText } from './text-decoding.js';

/** Where a link to another site was found (an imported list is the one other source of a citation). */
export type OutlinkSource = Exclude<CitationSource, 'import'>;

/** A link to another site: its registrable domain, the first URL and anchor seen, and where it was found. */
export interface Outlink {
  domain: string;
  url: string;
  anchor: string;
  found_in: OutlinkSource;
}

/** At most this many article pages are fetched to decide a `maybe`. */
export const MAX_SAMPLED_ARTICLES = 2;
/** Other sites kept per source: a link farm or a blogroll of thousands says nothing more. */
export const MAX_OUTLINKS = 200;

export interface SourceVerdictInput {
  entryUrl: string;
  registrableDomain: string;
  html: string | null;
  /** readPageFacts of that HTML when the caller already has it (readHomepage's one pass); read from `html` if absent. */
  homepage?: PageFacts | null;
  /** The homepage's Content-Language header. */
  contentLanguage: string | undefined;
  languages: readonly SourceLanguage[];
  feeds: readonly DiscoveredFeed[];
  sitemap: { exists: boolean; news: boolean } | null;
  /** URLs of other hosts the sitemap tree lists (one each): links to other sites, like a homepage's. */
  sitemapOtherHosts?: ReadonlyArray<{ host: string; url: string }>;
  /** robots.txt's answer for a URL of the site; nothing is sampled where it says no. */
  allowed: (url: string) => boolean;
  /** Countries of the seeds that cite this source, with counts (a candidate's). */
  citing?: Record<string, number>;
  now: Date;
  /** Article pages that may be fetched (MAX_SAMPLED_ARTICLES when absent; none under a long Crawl-delay). */
  maxSamples?: number;
}

export interface SourceVerdicts {
  news: NewsVerdict;
  country_guess: CountryGuess;
  outlinks: Outlink[];
  /** The article pages fetched to decide (empty when the first look decided). */
  sampled: string[];
}

export async function judgeSource(fetcher: Fetcher, input: SourceVerdictInput): Promise<SourceVerdicts> {
  const homepage =
    input.homepage !== undefined
      ? input.homepage
      : input.html === null
        ? null
        : readPageFacts(input.html, input.entryUrl);
  const feeds = input.feeds.map(feedFacts);
  const judge = (articles: PageFacts[]) =>
    judgeNews({
      host: new URL(input.entryUrl).hostname,
      registrableDomain: input.registrableDomain,
      homepage,
      articles,
      sitemap: input.sitemap,
      feeds,
      now: input.now,
    });
  let news = judge([]);
  const articles: PageFacts[] = [];
  if (news.verdict === 'maybe' && !isPlatformVerdict(news)) {
    for (const url of articleSamples(input, homepage).slice(0, input.maxSamples ?? MAX_SAMPLED_ARTICLES)) {
      const page = await fetchPage(fetcher, url);
      if (page !== null) articles.push(page);
    }
    if (articles.length > 0) news = judge(articles);
  }
  const page = pageCountrySignals(homepage);
  const country_guess = guessCountry({
    ...page,
    host: new URL(input.entryUrl).hostname,
    registrableDomain: input.registrableDomain,
    contentLanguage: [...page.contentLanguage, ...languageTags(input.contentLanguage)],
    languages: [...input.languages],
    ...(input.citing ? { citing: input.citing } : {}),
  });
  return {
    news,
    country_guess,
    outlinks: outlinksOf(input, homepage, articles),
    sampled: articles.map((a) => a.url),
  };
}

/**
 * What the entry page says about its country, as the country guess reads it: its language tags and what it says
 * beside them (the real-page figures of docs/discovery.md are measured with exactly these). No page, no signals.
 */
export function pageCountrySignals(
  page: PageFacts | null,
): Omit<CountryInput, 'host' | 'registrableDomain' | 'languages' | 'citing'> {
  return {
    htmlLang: page?.html_lang ?? null,
    contentLanguage: page?.content_language ?? [],
    hreflang: (page?.hreflang ?? []).map((h) => h.lang),
    ogLocale: page?.og_locale ?? null,
    pageTimes: page?.page_times ?? [],
    addressCountries: page?.address_countries ?? [],
    externalLinks: (page?.links ?? []).filter((l) => !l.internal).map((l) => l.url),
    textMarkers: page?.text_markers ?? null,
    placeNames: page?.place_names ?? null,
    menuPlaceNames: page?.menu_place_names ?? null,
    publisherPlaceNames: page?.publisher_place_names ?? null,
    siteNames: page?.site_names ?? [],
  };
}

function isPlatformVerdict(news: NewsVerdict): boolean {
  return news.reasons.some((r) => r.signal === 'platform_host');
}

function feedFacts(feed: DiscoveredFeed): NewsFeedFacts {
  return {
    url: feed.url,
    role: feed.role,
    item_count: feed.item_count,
    items_per_day: itemsPerDay(feed),
    item_urls: feed.item_links.slice(0, 20),
    newest_item_at: feed.newest_item_at,
  };
}

/** Dated items over the days between the oldest and the newest (at least one day); null when none is dated. */
function itemsPerDay(feed: DiscoveredFeed): number | null {
  if (feed.dated_items === 0 || feed.newest_item_at === null || feed.oldest_item_at === null) return null;
  const days = (Date.parse(feed.newest_item_at) - Date.parse(feed.oldest_item_at)) / 86_400_000;
  if (!Number.isFinite(days)) return null;
  return feed.dated_items / Math.max(1, days);
}

function languageTags(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((t) => t.trim().toLowerCase())
    .filter((t) => /^[a-z]{2,3}(-[a-z0-9]{1,8})*$/.test(t));
}

const registrableOf = (host: string): string | null => getDomain(host, { allowPrivateDomains: true });

function sameSite(url: string, registrableDomain: string): boolean {
  try {
    return registrableOf(new URL(url).hostname) === registrableDomain;
  } catch {
    return false;
  }
}

/**
 * The newest items of the main feed (a feed lists its newest first), else the homepage's article-shaped links:
 * pages of the site itself that robots.txt lets us read.
 */
function articleSamples(input: SourceVerdictInput, homepage: PageFacts | null): string[] {
  const main = input.feeds.find((f) => f.role === 'main') ?? input.feeds.find((f) => f.role === 'section');
  const candidates = [...(main?.item_links ?? []), ...(homepage?.article_link_examples ?? [])];
  const picked: string[] = [];
  for (const url of candidates) {
    if (picked.length >= MAX_SAMPLED_ARTICLES) break;
    if (url === input.entryUrl || picked.includes(url)) continue;
    if (!/^https?:\/\//i.test(url) || !sameSite(url, input.registrableDomain) || !input.allowed(url))
      continue;
    picked.push(url);
  }
  return picked;
}

/**
 * An article page's facts (or what `read` reads of it); null when it cannot be read (a page makes a fact unknown,
 * never fails a domain).
 */
async function fetchPage<T = PageFacts>(
  fetcher: Fetcher,
  url: string,
  read: (html: string, pageUrl: string) => T = readPageFacts as (html: string, pageUrl: string) => T,
): Promise<T | null> {
  try {
    const res = await fetcher.fetch(url, { kind: 'html', truncate: true });
    if (res.status < 200 || res.status >= 300) return null;
    return read(decodeText(res.body, res.headers['content-type']), res.finalUrl);
  } catch (error) {
    if (error instanceof FetchError) return null;
    throw error;
  }
}

/** Links to other registrable domains: the homepage's, the sampled articles', the feed items'. Once per domain. */
function outlinksOf(
  input: Pick<SourceVerdictInput, 'registrableDomain' | 'feeds' | 'sitemapOtherHosts'>,
  homepage: { links: readonly PageLink[] } | null,
  articles: ReadonlyArray<{ links: readonly PageLink[] }>,
): Outlink[] {
  const found = new Map<string, Outlink>();
  const add = (url: string, anchor: string, found_in: OutlinkSource) => {
    if (found.size >= MAX_OUTLINKS) return;
    let host: string;
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return;
      host = parsed.hostname;
    } catch {
      return;
    }
    const domain = registrableOf(host);
    if (domain === null || domain === input.registrableDomain || found.has(domain)) return;
    found.set(domain, { domain, url, anchor, found_in });
  };
  for (const link of homepage?.links ?? []) if (!link.internal) add(link.url, link.anchor, 'homepage');
  for (const page of articles)
    for (const link of page.links) if (!link.internal) add(link.url, link.anchor, 'article');
  for (const feed of input.feeds) for (const url of feed.item_links) add(url, '', 'feed');
  for (const other of input.sitemapOtherHosts ?? []) add(other.url, '', 'sitemap');
  return [...found.values()];
}

/**
 * A citing source's links read again on their own (a discovery's harvest of a seed): its robots.txt, then its
 * entry page when robots.txt lets us in, two requests. A page that cannot be read gives no links, not an error.
 */
export async function harvestLinks(
  fetcher: Fetcher,
  source: { entryUrl: string; registrableDomain: string },
): Promise<{ outlinks: Outlink[]; reason: string | null }> {
  let origin: string;
  try {
    origin = new URL(source.entryUrl).origin;
  } catch {
    return { outlinks: [], reason: `not a URL: ${source.entryUrl}` };
  }
  const robots = await fetchRobots(fetcher, origin);
  if (robots.policy.crawl_delay !== null)
    fetcher.setCrawlDelay(new URL(origin).hostname, robots.policy.crawl_delay);
  if (!robots.policy.allowed(source.entryUrl)) {
    // An unreachable robots.txt disallows everything (RFC 9309 §2.3.1.4); say that the site did not answer.
    const reason =
      robots.errorCode !== null
        ? `the site did not answer (${robots.errorCode})`
        : 'robots.txt disallows the entry page';
    return { outlinks: [], reason };
  }
  const links = await fetchPage(fetcher, source.entryUrl, readPageLinks);
  if (links === null) return { outlinks: [], reason: 'the entry page could not be read' };
  const input = { registrableDomain: source.registrableDomain, feeds: [] };
  return { outlinks: outlinksOf(input, { links }, []), reason: null };
}
