// Does a URL look like one article? News sites give each story a date, a numeric id or a long slug in its path;
// front pages, sections, tags, products and static pages have none of these. Pure; any string is accepted.

export const ARTICLE_URL_SHAPES = ['dated', 'numeric_id', 'long_slug', 'html_under_section'] as const;
export type ArticleUrlShape = (typeof ARTICLE_URL_SHAPES)[number];

/** Years a dated path may carry: older archives and a little of the future (scheduled posts, clock skew). */
const MIN_YEAR = 1995;
const MAX_YEAR = 2035;

/** /2024/05/12/, /2024/05/, /2024-05-12, /20240512 (as a whole segment or a segment's prefix). */
const DATED_SEGMENTS = /\/((?:19|20)\d\d)[/-](0[1-9]|1[0-2])(?:[/-](0[1-9]|[12]\d|3[01]))?(?=[/\-_.]|$)/;
const COMPACT_DATE = /(?:^|[/\-_])((?:19|20)\d\d)(0[1-9]|1[0-2])(0[1-9]|[12]\d|3[01])(?=[/\-_.]|$)/;
/** Five or more digits standing as their own token: /story/12345678, -a-123456.html, ?id=45678. */
const NUMERIC_ID = /(?:^|[/\-_.=,])(\d{5,})(?=$|[/\-_.,&?])/;
/** Path segments that name listings, people, shops or site furniture, never one story. */
const NOT_ARTICLE_SEGMENT =
  /^(tag|tags|category|categories|categoria|kategorie|rubrique|author|authors|autor|auteur|page|pages|search|suche|login|signin|sign-in|register|account|about|about-us|contact|contacto|kontakt|impressum|privacy|privacy-policy|terms|cookies|legal|shop|store|product|products|produkt|produit|producto|collections|catalog|catalogue|katalog|cart|checkout|basket|warenkorb|panier|carrito|carrello|item|items|wp-admin|wp-content|wp-includes|wp-json|feed|rss|cdn-cgi|static|assets|images|img|media|uploads|video|videos|gallery|galleries|topics?|subscribe|subscription|newsletter|jobs|careers|events)$/i;
/** Files that are never an article page, whatever their path says. */
const NOT_ARTICLE_FILE =
  /\.(jpe?g|png|gif|webp|avif|svg|ico|css|js|json|xml|rss|pdf|zip|mp3|mp4|m3u8|woff2?|ttf)$/i;
/** A query naming one story by its id: ?p=128314, &id=4567, ?newsid=20240512, &newid=5178, ?storyid=9912. */
const ARTICLE_ID_QUERY =
  /(?:^\?|&)(id|article|story|p|newsid|news_id|new_?id|aid|nid|idxno|article_?id|story_?id)=\d{4,}/i;
/**
 * A script that shows one news story or article, named so (news_view.html, articleView.html, newsDetail.aspx,
 * read_article.php), with any parameter of four or more digits: the story's number, under whatever name the CMS gives
 * it (?idx=8576, ?Seq_Code=181595). Korean, Chinese and Japanese newsrooms' systems address stories this way.
 */
const STORY_VIEWER =
  /^(?:(?:news|article|story)[_-]?(?:view|read|detail|show)|(?:view|read|detail|show)[_-]?(?:news|article|story))\.\w{2,5}$/i;
const NUMBERED_QUERY = /(?:^\?|&)[\w.]+=\d{4,}(?=&|$)/;
/**
 * A query value that is a date followed by a serial number, under any name: `view.php?key=20180315010008773`,
 * `read.asp?no=2024051201234`. A newsroom system numbering its stories by the day they went out; a shop's product
 * or a forum's thread is numbered in sequence, not by date.
 */
const DATED_SERIAL_QUERY =
  /(?:^\?|&)[\w.]+=((?:19|20)\d\d)(?:0[1-9]|1[0-2])(?:0[1-9]|[12]\d|3[01])\d{4,}(?=&|$)/;
const HTML_FILE = /\.(s?html?|php|aspx?)$/i;
/**
 * Joomla's K2, a news extension many local papers run: a story is `/<section>/item/<id>-<slug of five or more
 * words>.html`. A shop's "item" segment is followed by a code or a short name, so "item" stays a shop's word elsewhere.
 */
const K2_ITEM = /\/item\/\d+-(?:[^/-]+-){4,}[^/]+?\.html?$/i;

/** A URL's path (`/` when empty) and query, read from the string without parsing it; null for no URL. */
export function pathAndQuery(url: string): { path: string; query: string } | null {
  if (typeof url !== 'string' || url.length > 4096) return null;
  const match = /^[a-z][a-z0-9+.-]*:\/\/[^/?#]*([^?#]*)(\?[^#]*)?/i.exec(url.trim());
  if (match === null) return null;
  return { path: match[1] || '/', query: match[2] ?? '' };
}

/**
 * The first shape that makes the URL look like one article, or null. A dated path wins over an id, an id over a
 * slug: the strongest evidence is the one reported.
 */
export function articleUrlShape(url: string): ArticleUrlShape | null {
  const parts = pathAndQuery(url);
  if (parts === null) return null;
  const { path, query } = parts;
  if (NOT_ARTICLE_FILE.test(path)) return null;
  // Read off the path where it is: splitting it into segments was most of this function's garbage, per link.
  const last = lastSegment(path);
  // The site's root: a story only by its query's id (WordPress's plain links, /?p=128314).
  if (last === '') return ARTICLE_ID_QUERY.test(query) ? 'numeric_id' : null;
  if (K2_ITEM.test(path)) {
    const segments = path.split('/').filter((s) => s !== '');
    if (!segments.slice(0, -2).some((s) => NOT_ARTICLE_SEGMENT.test(s))) return 'numeric_id';
  }
  if (NOT_ARTICLE_SEGMENT_IN_PATH.test(path)) return null;
  // A bare page number (/news/2) or year (/2024/) is an archive listing, not a story.
  if (/^\d{1,4}$/.test(last) && !segmentsAtLeast(path, 3)) return null;

  const dated = DATED_SEGMENTS.exec(path) ?? COMPACT_DATE.exec(path);
  if (dated !== null) {
    const year = Number(dated[1]);
    // /2024/05/ alone is a monthly archive; a story follows the date.
    if (
      year >= MIN_YEAR &&
      year <= MAX_YEAR &&
      charsAfterSeparators(path, dated.index + dated[0].length) >= 3
    )
      return 'dated';
  }
  if (NUMERIC_ID.test(path) || ARTICLE_ID_QUERY.test(query)) return 'numeric_id';
  if (STORY_VIEWER.test(last) && NUMBERED_QUERY.test(query)) return 'numeric_id';
  const datedSerial = DATED_SERIAL_QUERY.exec(query);
  if (datedSerial !== null && Number(datedSerial[1]) >= MIN_YEAR && Number(datedSerial[1]) <= MAX_YEAR)
    return 'numeric_id';
  const words = last
    .replace(HTML_FILE, '')
    .split(/[-_]+/)
    .filter((w) => w !== '');
  if (words.length >= 5 && last.length >= 25) return 'long_slug';
  if (HTML_FILE.test(last) && segmentsAtLeast(path, 2) && words.length >= 3 && last.length >= 15)
    return 'html_under_section';
  return null;
}

/**
 * A path segment NOT_ARTICLE_SEGMENT names, found in the path: a path starts with `/` (pathAndQuery), so every
 * segment follows one and ends at the next or at the end.
 */
const NOT_ARTICLE_SEGMENT_IN_PATH = new RegExp(
  `/${NOT_ARTICLE_SEGMENT.source.slice(1, -1)}(?=/|$)`,
  NOT_ARTICLE_SEGMENT.flags,
);

/** The last non-empty segment of a path, or '' when it has none (`/`, `//`). */
function lastSegment(path: string): string {
  let end = path.length;
  while (end > 0 && path.charCodeAt(end - 1) === 47 /* / */) end -= 1;
  return path.slice(path.lastIndexOf('/', end - 1) + 1, end);
}

/** Whether the path has at least `n` non-empty segments. */
function segmentsAtLeast(path: string, n: number): boolean {
  let segments = 0;
  for (let i = 0; i < path.length; i += 1)
    if (path.charCodeAt(i) !== 47 && (i === 0 || path.charCodeAt(i - 1) === 47) && ++segments >= n)
      return true;
  return false;
}

/** How many characters of the path follow `from` once the separators (`/`, `-`, `_`) right there are skipped. */
function charsAfterSeparators(path: string, from: number): number {
  let i = from;
  while (i < path.length && SEPARATOR_CODES.has(path.charCodeAt(i))) i += 1;
  return path.length - i;
}
const SEPARATOR_CODES: ReadonlySet<number> = new Set([47, 45, 95]);

export function looksLikeArticleUrl(url: string): boolean {
  return articleUrlShape(url) !== null;
}
