// Feed discovery: <link rel="alternate"> feeds on the homepage first, then a few common feed paths; every
// candidate is fetched and parsed (feedsmith) so only real RSS/Atom/RDF/JSON feeds are reported.
import { parseFeed } from 'feedsmith';
import { Parser } from 'htmlparser2';
import { FetchError, type Fetcher } from '../ports/fetcher.js';

export type FeedType = 'rss' | 'atom' | 'rdf' | 'json';

export interface DiscoveredFeed {
  url: string;
  type: FeedType;
  title: string | null;
}

/** <link type> values that announce a feed (parameters such as charset are ignored). */
export const FEED_LINK_TYPES: ReadonlySet<string> = new Set([
  'application/rss+xml',
  'application/atom+xml',
  'application/rdf+xml',
  'application/feed+json',
  'application/json',
]);

/** Where CMSs put feeds (WordPress /feed, Hugo /index.xml, Jekyll /feed.xml, Ghost /rss, …), in that order. */
export const COMMON_FEED_PATHS: readonly string[] = [
  '/feed',
  '/rss.xml',
  '/atom.xml',
  '/feed.xml',
  '/rss',
  '/index.xml',
];

/** Link candidates fetched per homepage: sites list a few (posts, comments), spam pages list hundreds. */
export const MAX_LINKED_FEEDS = 5;

export interface HomepageInfo {
  title: string | null;
  /** Absolute feed URLs announced by <link rel="alternate">, in page order, de-duplicated. */
  feedLinks: string[];
}

function clean(text: string, max = 300): string | null {
  const value = text.replace(/\s+/g, ' ').trim();
  return value === '' ? null : value.slice(0, max);
}

function httpUrl(text: string, base: string): string | null {
  try {
    const url = new URL(text.trim(), base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Title and feed links of a page; relative hrefs resolve against <base href> or else the page's final URL. */
export function parseHomepage(html: string, pageUrl: string): HomepageInfo {
  let title: string | null = null;
  let titleText = '';
  let inTitle = false;
  let svgDepth = 0;
  let base = pageUrl;
  let sawBase = false;
  const rawLinks: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'svg') svgDepth += 1;
        // An SVG's <title> is a tooltip, not the page's name.
        if (name === 'title' && svgDepth === 0 && title === null) {
          inTitle = true;
          titleText = '';
        }
        if (name === 'base' && !sawBase && attribs['href']) {
          sawBase = true;
          base = httpUrl(attribs['href'], pageUrl) ?? pageUrl;
        }
        if (name === 'link') {
          const rel = (attribs['rel'] ?? '').toLowerCase().split(/\s+/);
          const type = (attribs['type'] ?? '').toLowerCase().split(';')[0]!.trim();
          if (rel.includes('alternate') && FEED_LINK_TYPES.has(type) && attribs['href'])
            rawLinks.push(attribs['href']);
        }
      },
      ontext(text) {
        if (inTitle) titleText += text;
      },
      onclosetag(name) {
        if (name === 'svg' && svgDepth > 0) svgDepth -= 1;
        if (name === 'title' && inTitle) {
          inTitle = false;
          title = clean(titleText);
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  // <base> usually comes first, but a link before it must still resolve the way a browser would (against
  // the base), so links are resolved only once the whole page has been read.
  const links = new Set<string>();
  for (const href of rawLinks) {
    const url = httpUrl(href, base);
    if (url !== null) links.add(url);
  }
  return { title, feedLinks: [...links] };
}

function textOf(value: unknown): string | null {
  if (typeof value === 'string') return clean(value);
  if (value && typeof value === 'object' && typeof (value as { value?: unknown }).value === 'string') {
    return clean((value as { value: string }).value);
  }
  return null;
}

/** The feed's format and title when the body really is a feed; null otherwise. */
export function identifyFeed(body: Buffer): { type: FeedType; title: string | null } | null {
  const text = body.toString('utf8').replace(/^\uFEFF/, '');
  if (text.trim() === '') return null;
  try {
    const parsed = parseFeed(text);
    return { type: parsed.format, title: textOf((parsed.feed as { title?: unknown }).title) };
  } catch {
    return null;
  }
}

export interface FeedInput {
  /** The homepage's final URL: common paths hang off its origin. */
  pageUrl: string;
  /** The homepage HTML, when it was read. */
  html: string | null;
  /** robots.txt check; a disallowed candidate is not fetched. */
  allowed: (url: string) => boolean;
}

async function tryFeed(fetcher: Fetcher, url: string): Promise<DiscoveredFeed | null> {
  try {
    const res = await fetcher.fetch(url, { kind: 'feed' });
    if (res.status < 200 || res.status >= 300) return null;
    const feed = identifyFeed(res.body);
    return feed === null ? null : { url: res.finalUrl, ...feed };
  } catch (err) {
    if (err instanceof FetchError) return null;
    throw err;
  }
}

/**
 * Linked feeds are all checked (a site may offer posts and comments); common paths are only tried when no
 * linked feed works, and stop at the first hit, since /feed, /rss and /feed.xml are usually the same feed.
 */
export async function discoverFeeds(fetcher: Fetcher, input: FeedInput): Promise<DiscoveredFeed[]> {
  const found = new Map<string, DiscoveredFeed>();
  const links = input.html === null ? [] : parseHomepage(input.html, input.pageUrl).feedLinks;
  for (const url of links.slice(0, MAX_LINKED_FEEDS)) {
    if (!input.allowed(url)) continue;
    const feed = await tryFeed(fetcher, url);
    if (feed && !found.has(feed.url)) found.set(feed.url, feed);
  }
  if (found.size > 0) return [...found.values()];
  const origin = new URL(input.pageUrl).origin;
  for (const path of COMMON_FEED_PATHS) {
    const url = new URL(path, origin).href;
    if (links.includes(url) || !input.allowed(url)) continue;
    const feed = await tryFeed(fetcher, url);
    if (feed) return [feed];
  }
  return [];
}
