// What one HTML page tells a news verdict and a country guess, in one htmlparser2 pass: declared languages and
// regions, og/article meta, JSON-LD types, links and how many look like articles, section navigation, bylines,
// shop, recipe and parked-page signals. Pure; any string is accepted, nothing throws, every list is capped.
import { getDomain } from 'tldts';
import { articleUrlShape } from './article-urls.js';
import { type PlaceNameCounts, readPlaceNames } from './country-place-signals.js';
import { emptyTextMarkers, readTextMarkers, type TextMarkers } from './country-text-signals.js';
import { emptyJsonLdFacts, MAX_JSON_LD_CHARS, readJsonLdBlock, schemaTypeName } from './json-ld.js';
import { anyOfLiterals } from './literal-pattern.js';
import { reporterCredits, wireDatelines } from './newsroom-signals.js';
import { type PageCollector, tokenise } from './page-pass.js';
import { languageList, normaliseLanguageTag } from './page-signals.js';
import {
  BYLINE_CLASS,
  BYLINE_TEXT,
  CART_PATH,
  CART_WORDS,
  COMPANY_MENU_TEXT,
  MOST_READ_PHRASES,
  ORGANISATION_MENU_TEXT,
  PARKED_PHRASES,
  PARKING_HOSTS,
  RECIPE_PLUGIN_CLASS,
  RECIPE_WORDS,
  SALES_LINK_TEXT,
  SHOP_MARKUP,
} from './page-vocabulary.js';
import { sectionOfAnchor } from './section-words.js';
import { shownTime } from './shown-time.js';
import { hostedBlogOfAsset } from './site-kind-signals.js';

export interface PageLink {
  /** Absolute http(s) URL, fragment dropped. */
  url: string;
  /** The anchor text, whitespace collapsed, capped. */
  anchor: string;
  /** Same registrable domain as the page. */
  internal: boolean;
}

export interface PageFacts {
  url: string;
  title: string | null;
  /** The first of `<meta name="description">` and og:description, collapsed, ≤ 300 characters. */
  description: string | null;
  html_lang: string | null;
  content_language: string[];
  hreflang: Array<{ lang: string; url: string | null }>;
  og_type: string | null;
  og_site_name: string | null;
  /** article:published_time, else JSON-LD or microdata datePublished. */
  published_time: string | null;
  /**
   * WordPress's own comment form (posted to wp-comments-post.php, or id="commentform"): blogs keep it; newsrooms
   * mostly run another comment system or none.
   */
  blog_comment_form: boolean;
  /** <time datetime> elements: listings and articles date their stories. */
  time_elements: number;
  /** schema.org types from JSON-LD and microdata itemtype, once each. */
  schema_types: string[];
  publisher_names: string[];
  /** Distinct links in page order, at most MAX_LINKS. */
  links: PageLink[];
  /** Distinct internal links whose URL looks like one article (article-urls.ts), and a few of them. */
  article_links: number;
  article_link_examples: string[];
  /** Distinct internal links that do not. */
  other_internal_links: number;
  /** Anchor texts of internal article links: headlines, for language detection and evidence. */
  headlines: string[];
  /** Section → the anchor text that named it, from menus (nav, header, menu classes) and shallow internal links. */
  sections: Record<string, { word: string; core: boolean }>;
  bylines: string[];
  /** Evidence strings: og:type product, price meta, cart links or buttons, shop software class names. */
  shop_signals: string[];
  /** Evidence strings: recipe plugin class names, recipe-card words. */
  recipe_signals: string[];
  /**
   * Evidence strings: an organisation's own links — a company selling software or services (`sales: pricing`,
   * `menu: products`), or a campaigning, research or member body (`organisation: get involved`).
   */
  sales_links: string[];
  /** Evidence strings: "for sale" phrases, links to parking services. */
  parked_signals: string[];
  /** og:locale as written (en_US, de_AT). */
  og_locale: string | null;
  /** Publication and modification times from meta, JSON-LD, microdata and <time datetime>, as written, ≤ 20. */
  page_times: string[];
  /** Countries the page states for itself: JSON-LD addressCountry, geo.country / geo.region meta, as written. */
  address_countries: string[];
  /** Newsroom publishing markup: news_keywords, Googlebot-News, Parse.ly, Sailthru, cXense meta. */
  publisher_meta: string[];
  /** `<meta name="generator">` values as written (WordPress 6.5, MediaWiki 1.35, Hugo 0.71), ≤ 5. */
  generator: string[];
  /** The hosted blog service whose own scripts or theme the page loads (Substack, Blogger), site-kind-signals.ts. */
  hosted_blog: string | null;
  /** Country hints of the visible text: currencies, clock-time zones, spellings (country-text-signals.ts). */
  text_markers: TextMarkers;
  /** Places of the gazetteer named in the title and visible text, with how many times (country-place-signals.ts). */
  place_names: PlaceNameCounts;
  /** The same in the link texts of its menus (nav, header, menu classes): the sections a newsroom gives places. */
  menu_place_names: PlaceNameCounts;
  /**
   * The same in the publisher's own name and address: og:site_name, JSON-LD publisher names, the title's last part
   * ("… | Dallas Morning News") and JSON-LD addressLocality / addressRegion: where the newsroom says it is.
   */
  publisher_place_names: PlaceNameCounts;
  /** The publisher's own names as written: og:site_name, JSON-LD publishers, the title's last part (≤ 12). */
  site_names: string[];
  /**
   * A stretch of the visible text (≤ TEXT_SAMPLE_CHARS, from a fifth of the way in, past most menus), for the
   * language when nothing declares one and the headlines are too few to tell (languages.ts).
   */
  text_sample: string;
  /** The heading of a "most read" list in the visible text, as found (page-vocabulary.ts), once each, ≤ 3. */
  most_read: string[];
  /** Wire copy's opening in the visible text, "BERLIN (dpa) –" (newsroom-signals.ts), ≤ 3. */
  wire_datelines: string[];
  /** A staff reporter or desk editor credited by title in CJK text, "（记者宋晨）", "배윤경 기자 bykj@…" (newsroom-signals.ts), ≤ 3. */
  reporter_credits: string[];
  /** The first date with a clock time in the visible text, "2023-11-07 15:03" (shown-time.ts): a time shown, not declared. */
  shown_time: string | null;
}

export const MAX_LINKS = 400;
export const TEXT_SAMPLE_CHARS = 2000;
/** Distinct URLs counted (articles or not); beyond this a page is a link farm and counting more tells nothing. */
const MAX_COUNTED_URLS = 5000;
const MAX_ANCHOR_CHARS = 120;
/** Visible text kept for phrase searches (parked, recipe words): the start of a page says what it is. */
const MAX_TEXT_CHARS = 200_000;
const MAX_LIST = 20;
const MAX_ATTRIBUTE_CHARS = 2048;

const NAV_CLASS =
  /(^|[\s_-])(nav|navbar|navigation|menu|main-menu|mainmenu|header|masthead|sections?|footer)([\s_-]|$)/i;
const NAV_ELEMENTS: ReadonlySet<string> = new Set(['nav', 'header', 'footer', 'menu']);
// A textarea holds a form's value, not the page's words: Taobao and Tmall keep their JSON data in hidden ones.
const SKIP_TEXT: ReadonlySet<string> = new Set([
  'script',
  'style',
  'noscript',
  'template',
  'svg',
  'textarea',
]);

const COMMENT_CLASS = /comment/i;

const FLAG_NAV = 1;
const FLAG_BYLINE = 2;
const FLAG_SKIP = 4;

function registrableOf(host: string): string {
  return getDomain(host, { allowPrivateDomains: true }) ?? host;
}

function resolve(href: string, base: URL | null): URL | null {
  const text = href.slice(0, MAX_ATTRIBUTE_CHARS).trim();
  if (text === '' || /^(javascript|mailto|tel|data|sms|whatsapp):/i.test(text)) return null;
  try {
    const url = base === null ? new URL(text) : new URL(text, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    // Only what is written can bring a fragment (a base's never carries over), and setting one costs a reparse.
    if (text.includes('#')) url.hash = '';
    return url;
  } catch {
    return null;
  }
}

/** Whitespace other than a single space: what collapse rewrites. Most anchor texts have none. */
const UNCOLLAPSED = /\s\s|[^\S ]/;

function collapse(text: string, max: number): string {
  return (UNCOLLAPSED.test(text) ? text.replace(/\s+/g, ' ') : text).trim().slice(0, max);
}

/** At most two non-empty path segments (`/`, `/politics/`, `/news/world`): a section's address, not an article's. */
function shallowPath(pathname: string): boolean {
  let segments = 0;
  let inSegment = false;
  for (let i = 0; i < pathname.length; i += 1) {
    if (pathname.charCodeAt(i) === 47 /* / */) inSegment = false;
    else if (!inSegment) {
      inSegment = true;
      segments += 1;
      if (segments > 2) return false;
    }
  }
  return true;
}

function pushOnce(list: string[], value: string, max = MAX_LIST): void {
  if (value !== '' && list.length < max && !list.includes(value)) list.push(value);
}

export function readPageFacts(html: string, pageUrl: string): PageFacts {
  const collector = pageFactsCollector(pageUrl);
  tokenise(typeof html === 'string' ? html : '', [collector.handler]);
  return collector.result();
}

/**
 * readPageFacts(html, pageUrl).links alone: the links are read during the pass, and what result() adds (the text's
 * phrases, markers and places) is left unread. A discovery's harvest of a seed wants nothing else.
 */
export function readPageLinks(html: string, pageUrl: string): PageLink[] {
  const collector = pageFactsCollector(pageUrl);
  tokenise(typeof html === 'string' ? html : '', [collector.handler]);
  return collector.links;
}

/** readPageFacts as a collector of a shared pass (page-pass.ts); `links` fills during the pass. */
export function pageFactsCollector(
  pageUrl: string,
): PageCollector<PageFacts> & { readonly links: PageLink[] } {
  const base = resolve(typeof pageUrl === 'string' ? pageUrl : '', null);
  const pageDomain = base === null ? null : registrableOf(base.hostname);
  // What relative links resolve against: the page, until its first <base href> (which applies to the links after
  // it, as in feed discovery: a base declared late is a template's afterthought). Whether a link is internal is
  // still judged against the page's own domain.
  let linkBase = base;
  let sawBase = false;
  const facts: PageFacts = {
    url: base?.href ?? String(pageUrl),
    title: null,
    html_lang: null,
    content_language: [],
    hreflang: [],
    og_type: null,
    description: null,
    og_site_name: null,
    published_time: null,
    blog_comment_form: false,
    time_elements: 0,
    schema_types: [],
    publisher_names: [],
    links: [],
    article_links: 0,
    article_link_examples: [],
    other_internal_links: 0,
    headlines: [],
    sections: {},
    bylines: [],
    shop_signals: [],
    recipe_signals: [],
    parked_signals: [],
    sales_links: [],
    og_locale: null,
    page_times: [],
    address_countries: [],
    publisher_meta: [],
    generator: [],
    hosted_blog: null,
    text_markers: emptyTextMarkers(),
    place_names: {},
    menu_place_names: {},
    publisher_place_names: {},
    site_names: [],
    text_sample: '',
    most_read: [],
    wire_datelines: [],
    reporter_credits: [],
    shown_time: null,
  };
  const jsonLd = emptyJsonLdFacts();
  const domains = new Map<string, string>();
  const domainOf = (host: string): string => {
    let known = domains.get(host);
    if (known === undefined) {
      known = registrableOf(host);
      if (domains.size < 2000) domains.set(host, known);
    }
    return known;
  };
  const counted = new Set<string>();
  const menuAnchors: string[] = [];
  const stack: number[] = [];
  let navDepth = 0;
  let bylineDepth = 0;
  let skipDepth = 0;
  let text = '';
  // htmlparser2 hands a text run over in pieces, one per character reference (`caf&eacute;` is "caf", "é"): a space
  // goes between texts only where a tag came between them, so an escaped letter does not split its word.
  let tagSinceText = true;
  let titleText: string | null = null;
  let jsonLdText: string | null = null;
  let anchor: { url: URL | null; text: string; author: boolean } | null = null;
  let bylineText = '';
  let buttonText: string | null = null;
  let microdataDate: string | null = null;

  // `collapsed`: the value is collapse()'s answer already (an anchor's trimmed text), so only its cut is left.
  const noteCartText = (value: string, collapsed = false) => {
    const lower = (collapsed ? value.slice(0, 60) : collapse(value, 60)).toLowerCase();
    if (lower === '' || lower.length > 40) return;
    const word = CART_WORDS.find((w) => lower.includes(w));
    if (word !== undefined) pushOnce(facts.shop_signals, `cart text: ${word}`, 10);
  };
  const noteSalesLink = (value: string, collapsed: string | null) => {
    if (value.length > 200) return;
    // collapse(value, 60) is the start of collapse(value, n) for any n ≥ 60: the anchor's, when it was made.
    const words = collapsed === null ? collapse(value, 60) : collapsed.slice(0, 60);
    if (SALES_LINK_TEXT.test(words)) pushOnce(facts.sales_links, `sales: ${words.toLowerCase()}`, 10);
    else if (COMPANY_MENU_TEXT.test(words)) pushOnce(facts.sales_links, `menu: ${words.toLowerCase()}`, 10);
    else if (ORGANISATION_MENU_TEXT.test(words))
      pushOnce(facts.sales_links, `organisation: ${words.toLowerCase()}`, 10);
  };
  /** A script's or stylesheet's URL: a hosted blog service's own assets name the service. */
  const noteAsset = (url: URL | null) => {
    if (url === null) return;
    if (facts.hosted_blog === null) facts.hosted_blog = hostedBlogOfAsset(url);
    noteHost(url);
  };
  const noteHost = (url: URL | null) => {
    if (url === null) return;
    const domain = domainOf(url.hostname);
    if (PARKING_HOSTS.has(domain) || PARKING_HOSTS.has(url.hostname))
      pushOnce(facts.parked_signals, `link to ${url.hostname}`, 10);
    if (domain === 'shopify.com' && url.hostname === 'cdn.shopify.com')
      pushOnce(facts.shop_signals, 'cdn.shopify.com', 10);
  };
  /** The anchor's text as recordLink collapsed it, for noteSalesLink. */
  const recordLink = (url: URL, trimmed: string, author: boolean) => {
    const href = url.href;
    const internal = pageDomain !== null && domainOf(url.hostname) === pageDomain;
    if (author && trimmed.length >= 3 && trimmed.length <= 60) pushOnce(facts.bylines, trimmed, 10);
    noteCartText(trimmed, true);
    const pathname = url.pathname;
    if (CART_PATH.test(pathname + url.search)) pushOnce(facts.shop_signals, `cart link: ${pathname}`, 10);
    if (navDepth > 0 && menuAnchors.length < MAX_LINKS) menuAnchors.push(trimmed);
    if (internal && (navDepth > 0 || shallowPath(pathname))) {
      const match = sectionOfAnchor(trimmed);
      if (match !== null && facts.sections[match.section] === undefined)
        facts.sections[match.section] = { word: match.word, core: match.core };
    }
    if (counted.has(href) || counted.size >= MAX_COUNTED_URLS) return;
    counted.add(href);
    if (facts.links.length < MAX_LINKS) facts.links.push({ url: href, anchor: trimmed, internal });
    if (!internal) return;
    if (articleUrlShape(href) !== null) {
      facts.article_links += 1;
      pushOnce(facts.article_link_examples, href, 5);
      if (trimmed.length >= 15) pushOnce(facts.headlines, trimmed, 30);
    } else {
      facts.other_internal_links += 1;
    }
  };

  const handler = {
    onopentag(name: string, attribs: Record<string, string>) {
      tagSinceText = true;
      let flags = 0;
      const cls = (attribs['class'] ?? '').slice(0, 500);
      const id = (attribs['id'] ?? '').slice(0, 200);
      if (name === 'form' && (id === 'commentform' || /wp-comments-post/i.test(attribs['action'] ?? '')))
        facts.blog_comment_form = true;
      if (
        NAV_ELEMENTS.has(name) ||
        attribs['role'] === 'navigation' ||
        NAV_CLASS.test(cls) ||
        NAV_CLASS.test(id)
      )
        flags |= FLAG_NAV;
      if (SKIP_TEXT.has(name)) flags |= FLAG_SKIP;
      if (cls !== '') {
        // A commenter's name (comment-author) or a comment form's name field (comment-form-author) is no byline.
        if (BYLINE_CLASS.test(cls) && !COMMENT_CLASS.test(cls) && bylineDepth === 0 && name !== 'a') {
          flags |= FLAG_BYLINE;
          bylineText = '';
        }
        const recipe = RECIPE_PLUGIN_CLASS.exec(cls);
        if (recipe !== null) pushOnce(facts.recipe_signals, `class ${recipe[1]!.toLowerCase()}`, 10);
        const shop = SHOP_MARKUP.exec(cls);
        if (shop !== null) pushOnce(facts.shop_signals, `class ${shop[1]!.toLowerCase()}`, 10);
      }
      stack.push(flags);
      if (flags & FLAG_NAV) navDepth += 1;
      if (flags & FLAG_BYLINE) bylineDepth += 1;
      if (flags & FLAG_SKIP) skipDepth += 1;

      const itemtype = attribs['itemtype'];
      if (itemtype !== undefined)
        for (const type of itemtype.slice(0, 500).split(/\s+/))
          if (type !== '') pushOnce(facts.schema_types, schemaTypeName(type), 50);
      const itemprop = attribs['itemprop'];
      if (itemprop === 'datePublished' || itemprop === 'dateModified') {
        const date = (attribs['content'] ?? attribs['datetime'] ?? '').trim().slice(0, 64);
        if (itemprop === 'datePublished') microdataDate ??= date || null;
        pushOnce(facts.page_times, date);
      }

      switch (name) {
        case 'html':
          if (facts.html_lang === null)
            facts.html_lang = normaliseLanguageTag(attribs['lang'] ?? attribs['xml:lang']);
          break;
        case 'title':
          if (facts.title === null && titleText === null && skipDepth === 0) titleText = '';
          break;
        case 'script':
          if ((attribs['type'] ?? '').trim().toLowerCase() === 'application/ld+json') jsonLdText = '';
          if (attribs['src'] !== undefined) noteAsset(resolve(attribs['src'], linkBase));
          break;
        case 'meta':
          readMeta(attribs, facts);
          break;
        case 'base':
          if (!sawBase && attribs['href'] !== undefined && attribs['href'].trim() !== '') {
            sawBase = true;
            linkBase = resolve(attribs['href'], base) ?? base;
          }
          break;
        case 'link': {
          const rel = (attribs['rel'] ?? '').toLowerCase().split(/\s+/);
          if (rel.includes('stylesheet') && attribs['href'] !== undefined)
            noteAsset(resolve(attribs['href'], linkBase));
          const lang = normaliseLanguageTag(attribs['hreflang']);
          if (
            rel.includes('alternate') &&
            lang !== null &&
            facts.hreflang.length < 100 &&
            !facts.hreflang.some((h) => h.lang === lang)
          )
            facts.hreflang.push({ lang, url: resolve(attribs['href'] ?? '', linkBase)?.href ?? null });
          break;
        }
        case 'a': {
          const rel = (attribs['rel'] ?? '').toLowerCase();
          anchor = {
            url: resolve(attribs['href'] ?? '', linkBase),
            text: '',
            author: /\bauthor\b/.test(rel),
          };
          noteHost(anchor.url);
          break;
        }
        case 'iframe':
          noteHost(resolve(attribs['src'] ?? '', linkBase));
          break;
        case 'time':
          if (attribs['datetime'] !== undefined) {
            facts.time_elements += 1;
            pushOnce(facts.page_times, attribs['datetime'].trim().slice(0, 64));
          }
          break;
        case 'button':
          buttonText = '';
          break;
        case 'input':
          if (/^(submit|button)$/i.test(attribs['type'] ?? '')) noteCartText(attribs['value'] ?? '');
          break;
      }
    },
    ontext(data: string) {
      if (jsonLdText !== null) {
        if (jsonLdText.length <= MAX_JSON_LD_CHARS) jsonLdText += data.slice(0, MAX_JSON_LD_CHARS + 1);
        return;
      }
      if (titleText !== null) {
        if (titleText.length < 1000) titleText += data.slice(0, 1000);
        return;
      }
      if (skipDepth > 0) return;
      const gap = tagSinceText ? ' ' : '';
      tagSinceText = false;
      if (text.length < MAX_TEXT_CHARS) text += gap + data.slice(0, MAX_TEXT_CHARS - text.length);
      if (anchor !== null && anchor.text.length < MAX_ANCHOR_CHARS * 2)
        anchor.text += data.slice(0, MAX_ANCHOR_CHARS * 2);
      if (bylineDepth > 0 && bylineText.length < 200) bylineText += gap + data.slice(0, 200);
      if (buttonText !== null && buttonText.length < 80) buttonText += data.slice(0, 80);
      if (data.length < 60 && BYLINE_TEXT.test(data)) pushOnce(facts.bylines, collapse(data, 60), 10);
    },
    onclosetag(name: string) {
      tagSinceText = true;
      const flags = stack.pop() ?? 0;
      if (flags & FLAG_NAV) navDepth -= 1;
      if (flags & FLAG_SKIP) skipDepth -= 1;
      if (flags & FLAG_BYLINE) {
        bylineDepth -= 1;
        const byline = collapse(bylineText, 100);
        if (byline.length >= 3 && byline.length <= 80 && /\p{L}/u.test(byline))
          pushOnce(facts.bylines, byline, 10);
      }
      if (name === 'title' && titleText !== null) {
        facts.title = collapse(titleText, 300) || null;
        titleText = null;
      }
      if (name === 'script' && jsonLdText !== null) {
        readJsonLdBlock(jsonLdText, jsonLd);
        jsonLdText = null;
      }
      if (name === 'a' && anchor !== null) {
        let trimmed: string | null = null;
        if (anchor.url !== null) {
          trimmed = collapse(anchor.text, MAX_ANCHOR_CHARS);
          recordLink(anchor.url, trimmed, anchor.author);
        }
        noteSalesLink(anchor.text, trimmed);
        anchor = null;
      }
      if (name === 'button' && buttonText !== null) {
        noteCartText(buttonText);
        buttonText = null;
      }
    },
  };

  const result = (): PageFacts => {
    for (const type of jsonLd.types) pushOnce(facts.schema_types, type, 50);
    for (const name of jsonLd.publishers) pushOnce(facts.publisher_names, name, 10);
    for (const name of jsonLd.authors) if (name.length <= 60) pushOnce(facts.bylines, name, 10);
    facts.published_time ??= jsonLd.datePublished ?? microdataDate;
    for (const date of jsonLd.dates) pushOnce(facts.page_times, date);
    for (const country of jsonLd.addressCountries) pushOnce(facts.address_countries, country, 10);
    readTextPhrases(text.toLowerCase(), facts);
    facts.wire_datelines = wireDatelines(text);
    facts.reporter_credits = reporterCredits(text);
    facts.shown_time = shownTime(text);
    // The publisher's telephone in its structured data is read as if printed, unless the text prints it already.
    const telephones = jsonLd.telephones.filter((t) => !text.includes(t));
    facts.text_markers = readTextMarkers(
      telephones.length === 0 ? text : `${text} ${telephones.join(' ; ')}`,
    );
    facts.place_names = readPlaceNames([facts.title ?? '', text]);
    facts.menu_place_names = readPlaceNames(menuAnchors);
    for (const name of [facts.og_site_name ?? '', ...facts.publisher_names, titleSiteName(facts.title)])
      pushOnce(facts.site_names, name, 12);
    facts.publisher_place_names = readPlaceNames([...facts.site_names, ...jsonLd.addressPlaces]);
    facts.text_sample = textSample(text);
    return facts;
  };
  return { handler, result, links: facts.links };
}

/**
 * TEXT_SAMPLE_CHARS of collapsed text from a fifth of the way in (a page of little text, under four samples' worth:
 * from its start), cut at word boundaries where there are spaces. The raw text is sliced before it is collapsed: it
 * may hold 200,000 characters.
 */
function textSample(text: string): string {
  const whole = text.length <= TEXT_SAMPLE_CHARS * 4;
  const from = whole ? 0 : Math.floor(text.length / 5);
  const end = whole ? text.length : Math.min(text.length, from + TEXT_SAMPLE_CHARS * 4);
  const stretch = collapsedStart(text, from, end, TEXT_SAMPLE_CHARS);
  if (whole || stretch.length < TEXT_SAMPLE_CHARS) return stretch;
  const first = stretch.indexOf(' ');
  const last = stretch.lastIndexOf(' ');
  return first >= 0 && first < 40 && last > first ? stretch.slice(first + 1, last) : stretch;
}

/**
 * `text.slice(from, end)` with its whitespace runs made one space, trimmed, cut at `max`, collapsing no more of it
 * than the cut needs (the whole stretch was collapsed for a fifth of it kept). The collapse of a prefix is a prefix
 * of the whole's (a run cut at the prefix's end is one space either way), so once the prefix, trimmed at its
 * start, holds more than `max` characters, its first `max` are the whole's: at most one trailing space is trimmed.
 */
function collapsedStart(text: string, from: number, end: number, max: number): string {
  const step = max + (max >> 2);
  for (let to = Math.min(end, from + step); ; to = Math.min(end, to + step)) {
    const collapsed = text.slice(from, to).replace(/\s+/g, ' ').trimStart();
    if (to >= end) return collapsed.trimEnd().slice(0, max);
    if (collapsed.length > max) return collapsed.slice(0, max);
  }
}

/** A title's parts: "Headline | Site", "Headline - Section - Site", "Headline — Site". */
const TITLE_SEPARATOR = /\s+[|–—·-]\s+|\s*\|\s*|\s+::\s+/;
/** Longer than this, the title's last part is a headline's tail, not a site's name. */
const MAX_SITE_NAME_CHARS = 60;

/** The last part of a title of two or more parts: where sites write their own name. */
function titleSiteName(title: string | null): string {
  const parts = (title ?? '').split(TITLE_SEPARATOR);
  const last = parts.length >= 2 ? parts[parts.length - 1]!.trim() : '';
  return last.length <= MAX_SITE_NAME_CHARS ? last : '';
}

function readMeta(attribs: Record<string, string>, facts: PageFacts): void {
  const key = (attribs['property'] ?? attribs['name'] ?? attribs['itemprop'] ?? '')
    .trim()
    .toLowerCase()
    .replace(/^og:article:/, 'article:');
  const equiv = (attribs['http-equiv'] ?? '').trim().toLowerCase();
  // Some saved or rewritten pages carry the value in `value=` instead of `content=`; the key may be og:-prefixed.
  const content = (attribs['content'] ?? attribs['value'] ?? '').slice(0, MAX_ATTRIBUTE_CHARS).trim();
  if (content === '') return;
  if (equiv === 'content-language') facts.content_language = languageList(content);
  switch (key) {
    case 'og:type':
      facts.og_type ??= content.toLowerCase().slice(0, 60);
      if (/^(product|og:product|product\.item|product\.group)$/.test(content.toLowerCase()))
        pushOnce(facts.shop_signals, `og:type ${content.toLowerCase()}`, 10);
      break;
    case 'og:site_name':
      facts.og_site_name ??= collapse(content, 120);
      break;
    case 'description':
    case 'og:description':
      facts.description ??= collapse(content, 300);
      break;
    case 'article:published_time':
    case 'og:published_time':
    case 'datepublished':
      facts.published_time ??= content.slice(0, 64);
      pushOnce(facts.page_times, content.slice(0, 64));
      break;
    case 'article:modified_time':
    case 'og:updated_time':
    case 'datemodified':
      pushOnce(facts.page_times, content.slice(0, 64));
      break;
    case 'og:locale':
      facts.og_locale ??= content.slice(0, 20);
      break;
    case 'geo.country':
    case 'geo.region':
      // geo.region is ISO 3166-2 (US-NY): its country is the part before the dash.
      pushOnce(facts.address_countries, content.split('-')[0]!.trim().slice(0, 60), 10);
      break;
    case 'generator':
      pushOnce(facts.generator, collapse(content, 120), 5);
      break;
    case 'news_keywords':
    case 'googlebot-news':
      pushOnce(facts.publisher_meta, key, 10);
      break;
    case 'author':
    case 'article:author':
    case 'byl':
      if (content.length <= 80 && !/^https?:/i.test(content))
        pushOnce(facts.bylines, collapse(content, 80), 10);
      break;
    case 'product:price:amount':
    case 'og:price:amount':
    case 'product:availability':
      pushOnce(facts.shop_signals, `meta ${key}`, 10);
      break;
    default:
      if (/^(parsely-|sailthru\.|cxenseparse:)/.test(key))
        pushOnce(facts.publisher_meta, key.replace(/^(parsely|sailthru|cxenseparse).*$/, '$1'), 10);
      break;
  }
}

/** Phrases searched in the page's visible text: parked-page announcements and recipe-card words. */
function readTextPhrases(lower: string, facts: PageFacts): void {
  // One scan says whether any of them occurs (most pages hold none); only then is each looked for, as before.
  if (ANY_PHRASE.test(lower)) {
    for (const phrase of PARKED_PHRASES)
      if (lower.includes(phrase)) pushOnce(facts.parked_signals, `text "${phrase}"`, 10);
    for (const word of RECIPE_WORDS)
      if (lower.includes(word)) pushOnce(facts.recipe_signals, `text "${word}"`, 10);
  }
  for (const found of lower.matchAll(MOST_READ)) {
    // A whole phrase where words are spaced ("almost read" is none); CJK phrases may sit inside a run of their script.
    const before = lower[found.index - 1] ?? ' ';
    const after = lower[found.index + found[0].length] ?? ' ';
    if (SPACED_LETTER.test(before) || SPACED_LETTER.test(after)) continue;
    pushOnce(facts.most_read, found[0], 3);
    if (facts.most_read.length >= 3) break;
  }
}

/** Matches where one of the parked phrases or recipe words occurs: 47 substring searches of a page's text in one. */
const ANY_PHRASE = anyOfLiterals([...PARKED_PHRASES, ...RECIPE_WORDS]);

/**
 * The "most read" headings as one alternation, boundaries checked per match: a lookbehind in the pattern was tried
 * at every character of the text (0.25 ms a page against 0.09).
 */
const MOST_READ = anyOfLiterals(MOST_READ_PHRASES, 'g');
const SPACED_LETTER = /[\p{Script=Latin}\p{Script=Cyrillic}\p{Script=Greek}]/u;
