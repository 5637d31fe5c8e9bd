// Feed candidates from a page: <link> autodiscovery, <a href> links that look like feeds or a "RSS feeds" page,
// and the paths CMSs put their feeds at. Pure functions over HTML text; nothing here fetches.
import { getDomain } from 'tldts';
import { safeDecodeURIComponent } from '../domain/percent-decode.js';
import type { FeedType } from '../domain/seed-facts.js';
import { type PageCollector, tokenise } from './page-pass.js';
import { readableText } from './page-text.js';

/** Where a candidate came from, strongest first: the page's own <link>, an <a>, a page one hop away, a guess. */
export type CandidateSource = 'link' | 'anchor' | 'page' | 'guess';

export interface FeedCandidate {
  url: string;
  source: CandidateSource;
  /** The <link title> or the <a> text (with an icon's alt text), as a person would read it. */
  label: string | null;
  /** The <link type>, lower-cased, parameters dropped. */
  declaredType: string | null;
}

export interface PageInfo {
  /** The URL the page was read from (its final URL). */
  url: string;
  title: string | null;
  /** og:site_name or application-name. */
  siteName: string | null;
  /** <meta name="generator"> plus what the markup betrays (wp-content → WordPress). */
  generator: string | null;
  canonical: string | null;
  /** og:type article or article:published_time: the page is one article, not a front page. */
  article: boolean;
  /** Feeds the page announces in <link> elements, in page order, de-duplicated. */
  links: FeedCandidate[];
  /** <a> links that look like a feed or a page listing feeds, in page order, de-duplicated. */
  anchors: FeedCandidate[];
}

/** The format each specific feed <link type> names. */
const LINK_TYPE_FORMATS: ReadonlyMap<string, FeedType> = new Map([
  ['application/rss+xml', 'rss'],
  ['application/rss', 'rss'],
  ['text/rss+xml', 'rss'],
  ['application/atom+xml', 'atom'],
  ['application/x.atom+xml', 'atom'],
  ['application/x-atom+xml', 'atom'],
  ['application/rdf+xml', 'rdf'],
  ['application/feed+json', 'json'],
]);

/**
 * <link type> values that announce a feed (parameters such as charset are ignored): the specific ones, and
 * `application/json`, which names no format (many other things are sent as it).
 */
export const FEED_LINK_TYPES: ReadonlySet<string> = new Set([
  ...LINK_TYPE_FORMATS.keys(),
  'application/json',
]);

/** The format a candidate's <link type> declares; null for generic XML or JSON, or no type (the answer tells). */
export function declaredFeedType(candidate: FeedCandidate): FeedType | null {
  return candidate.declaredType === null ? null : (LINK_TYPE_FORMATS.get(candidate.declaredType) ?? null);
}

/** Generic XML types some old pages announce feeds with; they count only for a feed-like href. */
const XML_LINK_TYPES: ReadonlySet<string> = new Set(['text/xml', 'application/xml']);

/** Link candidates kept per page: sites list a few (posts, comments, sections), spam pages list hundreds. */
export const MAX_PAGE_CANDIDATES = 40;

/**
 * Hosts that serve other sites' feeds on purpose (feed proxies). A link to them from a page is a feed the site
 * publishes, so it is fetched like a same-site one.
 */
export const KNOWN_FEED_HOSTS: ReadonlySet<string> = new Set([
  'feeds.feedburner.com',
  'feeds2.feedburner.com',
  'feedproxy.google.com',
  'feeds.feedblitz.com',
  'feedpress.me',
]);

function clean(text: string, max = 300): string | null {
  return readableText(text, max);
}

/** An absolute http(s) URL without its fragment; `feed:` URLs (an old subscribe scheme) are unwrapped. */
export function absoluteUrl(text: string, base: string): string | null {
  let href = text.trim();
  if (href === '') return null;
  if (/^feed:/i.test(href)) href = href.replace(/^feed:(\/\/)?/i, '').replace(/^(?!https?:)/i, 'http://');
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    // Only what is written can bring a fragment (a base's never carries over), and setting one costs a reparse.
    if (href.includes('#')) url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}

function registrable(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

/**
 * Same site = same registrable domain (Public Suffix List with its private section, so two blogspot.com blogs
 * are two sites); an IP or a bare name must match exactly.
 */
export function sameSite(a: string, b: string): boolean {
  try {
    return registrable(new URL(a).hostname) === registrable(new URL(b).hostname);
  } catch {
    return false;
  }
}

export function isKnownFeedHost(url: string): boolean {
  try {
    return KNOWN_FEED_HOSTS.has(new URL(url).hostname);
  } catch {
    return false;
  }
}

/** Never a feed, whatever its name says: CMS internals, sitemaps, oEmbed, the WordPress REST API. */
const NOT_A_FEED =
  /\/(wp-admin|wp-includes|wp-json)(\/|$)|xmlrpc\.php|oembed|sitemap|\.(opml|xsl|css|js|png|jpe?g|gif|svg|pdf)(\?|$)/i;

/**
 * A URL a person would take for a feed: a path segment named or starting with rss/atom/feed(s)/rdf, a file
 * ending .xml/.rss/.rdf/.atom, or a query asking for a feed (?feed=rss2, ?format=feed, ?alt=rss, ?type=rss).
 */
export function feedLikeUrl(url: string): boolean {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return false;
  }
  // A link cut off mid-escape (`/feed%E2%8`) is still judged by what it says, never thrown on.
  const path = safeDecodeURIComponent(parsed.pathname).toLowerCase();
  if (NOT_A_FEED.test(path) || NOT_A_FEED.test(parsed.search)) return false;
  const segments = path.split('/').filter((s) => s !== '');
  if (segments.some((s) => /^(rss|atom|feeds?|rdf)([._-][\w.-]*)?$/.test(s) || /^rss\d?$/.test(s)))
    return true;
  if (/\.(xml|rss|rdf|atom)$/.test(path)) return true;
  if (/(^|[._-])(rss|atom|feed)\.(json|php|aspx?|cfm|jsp)$/.test(segments.at(-1) ?? '')) return true;
  for (const [key, value] of parsed.searchParams) {
    const k = key.toLowerCase();
    const v = value.toLowerCase();
    if (k === 'feed' || k === 'rss' || k === 'atom') return true;
    if (
      (k === 'format' || k === 'type' || k === 'alt' || k === 'output') &&
      /^(feed|rss\d?|atom|rdf)$/.test(v)
    )
      return true;
  }
  return false;
}

/** Link text a person reads as "the feed" or "our feeds": short, and naming RSS, Atom, feeds or syndication. */
export function feedLikeText(text: string | null): boolean {
  if (text === null || text.length > 40) return false;
  return /\b(rss|atom|feeds?|syndication|xml)\b/i.test(text);
}

function feedType(raw: string | undefined): string {
  return (raw ?? '').toLowerCase().split(';')[0]!.trim();
}

interface RawLink {
  href: string;
  base: string;
  /** Null when the element has no relation at all. */
  rel: string[] | null;
  type: string;
  title: string | null;
}

/**
 * Whether a <link> announces a feed: rel alternate with a feed type; a feed type with no rel at all; or rel
 * alternate/feed with a feed-like href and no (or a generic XML) type.
 */
function linkCandidate(link: RawLink): FeedCandidate | null {
  const url = absoluteUrl(link.href, link.base);
  if (url === null || link.type.includes('oembed') || NOT_A_FEED.test(url)) return null;
  const alternate = link.rel?.includes('alternate') ?? false;
  const feedRel = alternate || (link.rel?.includes('feed') ?? false);
  let ok = false;
  if (FEED_LINK_TYPES.has(link.type)) {
    // application/json with no rel is any JSON document; only a feed-like href makes it a candidate.
    ok = alternate || (link.rel === null && (link.type !== 'application/json' || feedLikeUrl(url)));
  } else if (feedRel && (link.type === '' || XML_LINK_TYPES.has(link.type))) {
    ok = feedLikeUrl(url);
  }
  return ok ? { url, source: 'link', label: link.title, declaredType: link.type || null } : null;
}

/**
 * What never makes feedLikeUrl say yes, read off a serialised http(s) href: its path and query spell one of
 * these words, or hold a percent escape that may decode to one (non-ASCII is always escaped in an href). Most
 * links of a page fail it, and skip the URL parse feedLikeUrl would do.
 */
const FEED_URL_HINT = /rss|atom|feed|rdf|xml|%/i;

/**
 * Whether an href resolved against a base (or the base itself) could serialise to a URL FEED_URL_HINT finds: the
 * resolved URL is made of the two strings' characters, lower-cased where it is case-blind anyway, with dot
 * segments and a fragment only taken away; what could bring new letters or a `%` is a character outside printable
 * ASCII (percent-encoded, or a host turned to punycode, or a tab or newline removed between two letters), so a
 * string with none of those and no hint of its own cannot.
 */
function mayResolveToHint(text: string): boolean {
  return FEED_URL_HINT.test(text) || NOT_PRINTABLE_ASCII.test(text);
}
const NOT_PRINTABLE_ASCII = /[^\x21-\x7e]/;

/**
 * What never makes feedLikeText say yes, read off the raw text before readableText: one of its words, or a
 * control character whose removal could join one up (whitespace is collapsed, never removed, inside a text).
 */
const FEED_TEXT_HINT =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: the characters readableText removes
  /rss|atom|feed|syndication|xml|[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/i;

/** Everything the feed finder needs from one HTML page, in one streaming pass. */
export function parsePage(html: string, pageUrl: string): PageInfo {
  const collector = feedPageCollector(html, pageUrl);
  tokenise(html, [collector.handler]);
  return collector.result();
}

/** parsePage as a collector of a shared pass (page-pass.ts); `html` is only searched for CMS traces. */
export function feedPageCollector(html: string, pageUrl: string): PageCollector<PageInfo> {
  let title: string | null = null;
  let titleText = '';
  let inTitle = false;
  let svgDepth = 0;
  // A <base> applies to the links after it, as the feed autodiscovery test suite asks (HTML4-052): a base
  // declared late is a template's afterthought, and a browser-style rebase would send the links elsewhere.
  let base = pageUrl;
  let sawBase = false;
  const meta: Record<string, string> = {};
  let canonical: string | null = null;
  const links: FeedCandidate[] = [];
  const anchors: FeedCandidate[] = [];
  // The raw title attribute: cleaned only when the anchor text leaves the label to it.
  let anchor: { href: string; base: string; text: string; title: string } | null = null;
  const wordpress = /\/wp-(content|includes)\//.test(html);
  // A link to the page itself is no candidate; resolved once, not per link.
  const pageHref = absoluteUrl(pageUrl, pageUrl);

  const closeAnchor = () => {
    if (anchor === null) return;
    // Most links are neither feed-like by URL nor by text: those are left before their URL is resolved.
    if (
      !FEED_TEXT_HINT.test(anchor.text) &&
      !FEED_TEXT_HINT.test(anchor.title) &&
      !mayResolveToHint(anchor.href) &&
      !mayResolveToHint(anchor.base)
    ) {
      anchor = null;
      return;
    }
    const url = absoluteUrl(anchor.href, anchor.base);
    if (url !== null && url !== pageHref && !NOT_A_FEED.test(url)) {
      const byUrl = FEED_URL_HINT.test(url) && feedLikeUrl(url);
      // The label is read only when it is kept or could match: a page has hundreds of ordinary links.
      const maybeText = byUrl || FEED_TEXT_HINT.test(anchor.text) || FEED_TEXT_HINT.test(anchor.title);
      const label = maybeText ? (clean(anchor.text, 120) ?? clean(anchor.title)) : null;
      if (byUrl || feedLikeText(label)) anchors.push({ url, source: 'anchor', label, declaredType: null });
    }
    anchor = null;
  };

  const handler = {
    onopentag(name: string, attribs: Record<string, string>) {
      if (name === 'svg') svgDepth += 1;
      // An SVG's <title> is a tooltip, not the page's name.
      if (name === 'title' && svgDepth === 0 && title === null) {
        inTitle = true;
        titleText = '';
      }
      if (name === 'base' && !sawBase && attribs['href']) {
        sawBase = true;
        base = absoluteUrl(attribs['href'], pageUrl) ?? pageUrl;
      }
      if (name === 'meta') {
        const key = (attribs['property'] ?? attribs['name'] ?? '').toLowerCase();
        if (key !== '' && attribs['content'] !== undefined && !(key in meta)) meta[key] = attribs['content'];
      }
      if (name === 'link' && attribs['href']) {
        const rel =
          attribs['rel']
            ?.toLowerCase()
            .split(/\s+/)
            .filter((r) => r !== '') ?? [];
        if (rel.includes('canonical') && canonical === null) canonical = absoluteUrl(attribs['href'], base);
        const found = linkCandidate({
          href: attribs['href'],
          base,
          // A rev-only link points the other way (HTML4-032): it has a relation, and not a feed's.
          rel: rel.length > 0 ? rel : attribs['rev'] !== undefined ? ['rev'] : null,
          type: feedType(attribs['type']),
          title: clean(attribs['title'] ?? ''),
        });
        if (found) links.push(found);
      }
      if (name === 'a') {
        closeAnchor();
        if (attribs['href'])
          anchor = { href: attribs['href'], base, text: '', title: attribs['title'] ?? '' };
      }
      if (name === 'img' && anchor !== null && attribs['alt']) anchor.text += ` ${attribs['alt']} `;
    },
    ontext(text: string) {
      if (inTitle) titleText += text;
      if (anchor !== null) anchor.text += text;
    },
    onclosetag(name: string) {
      if (name === 'svg' && svgDepth > 0) svgDepth -= 1;
      if (name === 'title' && inTitle) {
        inTitle = false;
        title = clean(titleText);
      }
      if (name === 'a') closeAnchor();
    },
  };

  const result = (): PageInfo => {
    closeAnchor();
    // A theme may fill <meta name="generator"> with its own name; the markup still says WordPress.
    const generator = clean(`${meta['generator'] ?? ''} ${wordpress ? 'WordPress' : ''}`);
    const ogType = (meta['og:type'] ?? '').toLowerCase();
    return {
      url: pageUrl,
      title,
      siteName: clean(meta['og:site_name'] ?? meta['application-name'] ?? ''),
      generator,
      canonical,
      article: ogType === 'article' || 'article:published_time' in meta,
      links: unique(links),
      anchors: unique(anchors),
    };
  };
  return { handler, result };
}

function unique(candidates: FeedCandidate[]): FeedCandidate[] {
  const seen = new Set<string>();
  const out: FeedCandidate[] = [];
  for (const candidate of candidates) {
    if (seen.has(candidate.url)) continue;
    seen.add(candidate.url);
    out.push(candidate);
    if (out.length >= MAX_PAGE_CANDIDATES) break;
  }
  return out;
}

export interface HomepageInfo {
  title: string | null;
  /** Absolute feed URLs announced by <link> elements, in page order, de-duplicated. */
  feedLinks: string[];
}

/** Title and announced feed links of a page (the older, smaller view of parsePage). */
export function parseHomepage(html: string, pageUrl: string): HomepageInfo {
  const page = parsePage(html, pageUrl);
  return { title: page.title, feedLinks: page.links.map((l) => l.url) };
}

/**
 * Where a CMS puts its feed, by the generator the page names: a person who recognises WordPress tries /feed/
 * first. Paths are tried in this order after the CMS's own; see docs/collection.md.
 */
const CMS_FEED_PATHS: ReadonlyArray<readonly [RegExp, readonly string[]]> = [
  [/wordpress/i, ['/feed/', '/?feed=rss2']],
  [/blogger/i, ['/feeds/posts/default', '/feeds/posts/default?alt=rss']],
  [/drupal/i, ['/rss.xml']],
  [/ghost/i, ['/rss/']],
  [/joomla/i, ['/?format=feed&type=rss', '/index.php?format=feed&type=rss']],
  [/hugo/i, ['/index.xml']],
  [/jekyll/i, ['/feed.xml']],
  [/hexo/i, ['/atom.xml']],
];

export const COMMON_FEED_PATHS: readonly string[] = [
  '/feed',
  '/rss.xml',
  '/atom.xml',
  '/feed.xml',
  '/rss',
  '/index.xml',
  '/feed/',
  '/?feed=rss2',
  '/rss/',
  '/feeds/posts/default',
  '/?format=feed&type=rss',
  '/index.rss',
];

/** Guessed feed URLs on the site's origin: the page's CMS paths first, then the common ones. */
export function guessedFeedUrls(origin: string, page: PageInfo | null): string[] {
  const paths: string[] = [];
  const generator = page?.generator ?? '';
  const host = new URL(origin).hostname;
  for (const [pattern, cmsPaths] of CMS_FEED_PATHS) {
    if (pattern.test(generator) || (pattern.source === 'blogger' && host.includes('.blogspot.')))
      paths.push(...cmsPaths);
  }
  paths.push(...COMMON_FEED_PATHS);
  return [...new Set(paths.map((p) => new URL(p, origin).href))];
}
