// Feed roles: main (the site's posts), section, comments (site-wide or one post's) or item (one article's own
// feed), from the feed's content, its link title and its URL shape. The order of evidence is in docs/collection.md.

import { safeDecodeURIComponent } from '../domain/percent-decode.js';
import type { FeedRole } from '../domain/seed-facts.js';
import type { CandidateSource } from './feed-candidates.js';
import type { FeedContent } from './feed-content.js';
import { cutText } from './page-text.js';

export { FEED_ROLES, type FeedRole } from '../domain/seed-facts.js';

/** The page a candidate was announced on: an article page's feeds may be that article's own. */
export interface PageContext {
  url: string;
  canonical: string | null;
  article: boolean;
}

export interface FeedEvidence {
  /** Final URL (after redirects); the requested one may differ. */
  url: string;
  requestedUrl: string;
  source: CandidateSource;
  /** <link title> or <a> text. */
  label: string | null;
  /** Announced by a <link> on the entry page. */
  announced: boolean;
  sameSite: boolean;
  foundOn: PageContext | null;
  /** Null before the feed is fetched (a prediction from the candidate alone). */
  content: Pick<FeedContent, 'title' | 'homeLink' | 'item_titles' | 'item_links'> | null;
}

export interface SiteContext {
  entryUrl: string;
  /** Words that name the site (its title, og:site_name, host labels): they do not make a feed a section. */
  siteWords: ReadonlySet<string>;
}

export interface RoleVerdict {
  role: FeedRole;
  /** The evidence that decided, for people reading the seed. */
  reason: string;
  /** The one feed chosen as the site's main feed (its same-content twins are main too, but not primary). */
  primary: boolean;
}

const letters = (s: string) => `(?<![\\p{L}\\p{N}])(?:${s})(?![\\p{L}\\p{N}])`;

/** "Comments" in the languages WordPress and Blogger are most used in, as a word. */
const COMMENT_WORD = new RegExp(
  letters(
    'comments|comment feed|comment rss|commentaires|kommentare|comentarios|comentários|commenti|reacties|kommentarer|kommentit|komentarze|komentáře|комментарии|коментарі|yorumlar|σχόλια',
  ),
  'iu',
);
const COMMENT_CJK = /评论|評論|コメント|댓글/u;

/** WordPress comment-feed titles: "Comments on: <post>" and "Comments for <site>", and their translations. */
const COMMENT_FEED_TITLE =
  /^\s*(comments?\s+(on|for|to)|commentaires\s+(sur|pour|de)|kommentare\s+(zu|für|fur)|comentarios\s+(en|sobre|para|de)|comentários\s+(sobre|em|para|de)|commenti\s+(a|su|per)|reacties\s+(op|voor)|kommentarer\s+(til|till|på|for)|komentarze\s+do)(?![\p{L}])/iu;

/** WordPress comment items: "By: <author>" (per post) and "Comment on <post> by <author>" (site-wide). */
const COMMENT_ITEM_TITLE =
  /^\s*((by|par|von|por|door|di|da|av|af|przez|от|autor)\s*:\s|(comment\s+on|commentaire\s+sur|kommentar\s+(zu|von)|comentario\s+en|comentário\s+(em|sobre)|reactie\s+op|commento\s+a)\s)/iu;

/** Words that say "the whole site" in a label or a feed title. */
const MAIN_WORD = new RegExp(
  letters(
    'all|everything|latest|main|whole|full|home|homepage|front ?page|top stories|headlines|à la une|a la une|alle|tout|tous|toutes|todas|todos|tutte|tutti|ultime|últimas|ultimas|neueste|aktuell|aktuelle|aktuelles|recent',
  ),
  'iu',
);

/** Words that neither name a section nor the whole site: formats, fillers, and what every site publishes. */
const FILLER = new Set(
  'rss atom feed feeds xml rdf json jsonfeed version subscribe syndication to our the a an of for and in on via by von de du des la le les el los der die das news blog posts post articles stories entries updates items content site website web www com org net default http https'.split(
    ' ',
  ),
);

/** Path segments that put a section's name after them. */
const SECTION_SEGMENT =
  /^(category|categories|tag|tags|topic|topics|section|sections|author|authors|series|column|columns|channel|channels|keyword|keywords|subject|subjects|region|regions|rubrique|rubriques|thema|themen|kategorie|kategorien|categoria|categorias|categorie|etiqueta|etiquetas|tema|temas|label|labels|-)$/;
const SECTION_QUERY = /^(cat|tag|category|category_name|author|author_name|section|topic|label)$/;
/** After /feeds/, /rss/ or /feed/, these name the whole stream or a format of it, not a section. */
const STREAM_NAME =
  /^(index|all|main|latest|default|posts|home|everything|full|news|articles|stories|headlines|top|rss\d?|atom|rdf|json|xml|feed|feeds|comments)$/;

/** Paths (below the site root, trailing slash ignored) where a site's whole feed lives. */
const MAIN_PATHS: ReadonlySet<string> = new Set([
  '/feed',
  '/rss',
  '/rss.xml',
  '/atom.xml',
  '/feed.xml',
  '/index.xml',
  '/index.rss',
  '/index.rdf',
  '/index.atom',
  '/atom',
  '/feed.atom',
  '/feed.json',
  '/feed/json',
  '/feed/atom',
  '/feed/rss',
  '/feed/rss2',
  '/feed/rdf',
  '/rss2',
  '/feeds/posts/default',
  '/feeds/posts',
  '/feeds/all.atom.xml',
  '/feeds/all.rss.xml',
  '/feeds/main',
  '/feeds/latest',
  '/feeds/all',
  '/rss/index.xml',
  '/rss/all',
  '/rss/latest',
  '/blog.atom',
  '/blog/feed',
  '/blog/rss',
  '/blog/rss.xml',
  '/blog/atom.xml',
  '/blog/feed.xml',
]);

function parse(url: string): URL | null {
  try {
    return new URL(url);
  } catch {
    return null;
  }
}

function pathOf(url: URL): string {
  const path = safeDecodeURIComponent(url.pathname).toLowerCase();
  return path.length > 1 ? path.replace(/\/+$/, '') : path;
}

function words(text: string | null): string[] {
  return (text ?? '').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

export function siteWordsOf(...texts: Array<string | null>): Set<string> {
  return new Set(texts.flatMap(words));
}

/** Comment evidence in a URL: a `comments` path token (/comments/feed/, /feeds/comments/default, …) or query. */
function commentUrl(url: string): boolean {
  const parsed = parse(url);
  if (parsed === null) return false;
  if (/(^|[/._-])comments([/._-]|$)/.test(pathOf(parsed))) return true;
  return /[?&](feed=comments|withcomments=)/i.test(parsed.search);
}

function commentLabel(text: string | null): boolean {
  return text !== null && (COMMENT_WORD.test(text) || COMMENT_CJK.test(text));
}

function commentContent(content: FeedEvidence['content']): string | null {
  if (content === null) return null;
  if (content.title !== null && COMMENT_FEED_TITLE.test(content.title))
    return `feed title "${cutText(content.title, 60)}"`;
  const titles = content.item_titles;
  const hits = titles.filter((t) => COMMENT_ITEM_TITLE.test(t)).length;
  if (titles.length > 0 && hits * 2 >= titles.length) return `${hits} of ${titles.length} items are comments`;
  return null;
}

/** Comments win over everything else: a comments feed in a contract is the costliest mistake. */
export function commentsReason(feed: FeedEvidence): string | null {
  const fromContent = commentContent(feed.content);
  if (fromContent) return fromContent;
  if (commentLabel(feed.label)) return `link title "${cutText(feed.label!, 60)}"`;
  if (commentUrl(feed.requestedUrl) || commentUrl(feed.url)) return 'comments URL';
  return null;
}

function samePage(a: string | null, b: string | null): boolean {
  if (a === null || b === null) return false;
  const x = parse(a);
  const y = parse(b);
  return x !== null && y !== null && x.host === y.host && pathOf(x) === pathOf(y);
}

/** A feed announced on an article page that covers only that article: its own feed, not the site's. */
export function itemReason(feed: FeedEvidence): string | null {
  const page = feed.foundOn;
  if (page === null || !page.article) return null;
  const pageUrl = parse(page.canonical ?? page.url);
  if (pageUrl === null || pathOf(pageUrl) === '/') return null;
  const pages = [page.url, page.canonical];
  const hangsOff = (candidate: string) => {
    const url = parse(candidate);
    if (url === null || url.host !== pageUrl.host) return false;
    const path = pathOf(url);
    const base = pathOf(pageUrl);
    return (
      path.startsWith(`${base}/`) &&
      /^(feed|rss|atom|rss\.xml|atom\.xml|feed\.xml)$/.test(path.slice(base.length + 1))
    );
  };
  if (hangsOff(feed.requestedUrl) || hangsOff(feed.url)) return "the article's own feed URL";
  const content = feed.content;
  if (content === null) return null;
  if (pages.some((p) => samePage(content.homeLink, p))) return 'the feed is about the article page';
  const links = content.item_links;
  if (links.length > 0 && links.every((l) => pages.some((p) => samePage(l, p))))
    return 'every item is the article page';
  return null;
}

/** A section's URL: /category/x/feed/, /tag/x/, /section/x/rss, /feeds/x.xml, /rss/x, ?cat=, Blogger /-/label. */
export function sectionReason(feed: FeedEvidence): string | null {
  const url = parse(feed.url);
  if (url === null) return null;
  const segments = pathOf(url)
    .split('/')
    .filter((s) => s !== '');
  for (let i = 0; i < segments.length - 1; i += 1) {
    if (SECTION_SEGMENT.test(segments[i]!)) return `section path /${segments[i]}/${segments[i + 1]}`;
  }
  for (const key of url.searchParams.keys())
    if (SECTION_QUERY.test(key.toLowerCase())) return `section query ?${key}=`;
  const streamParent = segments.findIndex((s) => s === 'feeds' || s === 'rss' || s === 'feed');
  if (streamParent >= 0 && streamParent === segments.length - 2) {
    const name = segments
      .at(-1)!
      .replace(/\.(xml|rss|atom|rdf|json)$/, '')
      .replace(/\.(xml|rss|atom)$/, '');
    if (!STREAM_NAME.test(name) && !MAIN_PATHS.has(`/${segments.slice(-2).join('/')}`))
      return `named feed /${segments.slice(-2).join('/')}`;
  }
  return null;
}

function mainPath(feed: FeedEvidence, entryUrl: string): boolean {
  const url = parse(feed.url);
  const entry = parse(entryUrl);
  if (url === null || entry === null) return false;
  const path = pathOf(url);
  const entryPath = pathOf(entry).replace(/\/[^/]*\.[a-z0-9]+$/, '');
  const candidates = [path];
  if (entryPath !== '/' && path.startsWith(`${entryPath}/`)) candidates.push(path.slice(entryPath.length));
  if (candidates.some((p) => MAIN_PATHS.has(p))) return true;
  const query = url.search.toLowerCase();
  return (
    (path === '/' || path === '/index.php') &&
    /[?&](feed=(rss2?|atom|rdf)|format=(feed|rss|atom))(&|$)/.test(query)
  );
}

const FORMAT_TOKEN = /^(feed|feeds|index|rss\d?|atom|rdf|json|xml)$/;

/** A feed URL with its format spelled out removed: /feed/atom/, /feed/json/, ?alt=rss, news-atom.xml → news. */
function streamKey(url: string): string | null {
  const parsed = parse(url);
  if (parsed === null) return null;
  const segments = pathOf(parsed)
    .split('/')
    .filter((s) => s !== '')
    .map((s) => s.replace(/\.(xml|rss|atom|rdf|json|php)$/, ''))
    .map((s) =>
      s
        .split(/[._-]/)
        .filter((part) => !FORMAT_TOKEN.test(part))
        .join('-'),
    )
    .filter((s) => s !== '');
  const query = [...parsed.searchParams]
    .filter(
      ([k, v]) => !/^(alt|format|type|feed|output)$/i.test(k) || !/^(feed|rss\d?|atom|rdf|json)$/i.test(v),
    )
    .map(([k, v]) => `${k}=${v}`)
    .sort();
  return `${parsed.host}/${segments.join('/')}?${query.join('&')}`;
}

/**
 * Two URLs of one stream in two formats (Blogger's Atom and ?alt=rss, WordPress /feed/ and /feed/json/, RSS
 * and Atom files side by side): the judgement used before items can be compared.
 */
export function formatTwins(a: string, b: string): boolean {
  const x = streamKey(a);
  return x !== null && x === streamKey(b);
}

type TextKind = 'main' | 'plain' | 'named' | null;

/** What a label or feed title says: "All stories" (main), "Site » Feed" (plain), "Site » Politics" (named). */
function textKind(text: string | null, site: SiteContext): TextKind {
  if (text === null) return null;
  if (MAIN_WORD.test(text)) return 'main';
  const residue = words(text).filter((w) => !FILLER.has(w) && !site.siteWords.has(w) && !/^\d+$/.test(w));
  return residue.length === 0 ? 'plain' : 'named';
}

/** How strongly a feed looks like the whole site's; only compared between feeds of one site. */
export function mainScore(feed: FeedEvidence, site: SiteContext): number {
  let score = 0;
  if (mainPath(feed, site.entryUrl)) score += 3;
  const label = textKind(feed.label, site);
  const title = textKind(feed.content?.title ?? null, site);
  score += label === 'main' ? 2 : label === 'plain' ? 1 : label === 'named' ? -1 : 0;
  score += title === 'main' ? 1 : title === 'plain' ? 1 : title === 'named' ? -1 : 0;
  if (feed.announced) score += 1;
  if (feed.sameSite) score += 1;
  return score;
}

/**
 * The role of every feed of one site, given in discovery order (the order breaks ties). Comments and per-article
 * feeds are set aside first; the rest are grouped by `sameContent` (one stream in RSS and Atom is one group). A
 * group is a section when every member has a section's URL; of the others, the best-scored group is the site's
 * main stream (its first member is the primary feed) and the remaining groups are sections.
 */
export function classifyFeeds(
  feeds: readonly FeedEvidence[],
  site: SiteContext,
  sameContent: (a: number, b: number) => boolean,
): RoleVerdict[] {
  const verdicts: Array<RoleVerdict | null> = feeds.map((feed) => {
    const comments = commentsReason(feed);
    if (comments) return { role: 'comments', reason: comments, primary: false };
    const item = itemReason(feed);
    return item ? { role: 'item', reason: item, primary: false } : null;
  });
  const groups: number[][] = [];
  for (let i = 0; i < feeds.length; i += 1) {
    if (verdicts[i] !== null) continue;
    const group = groups.find((g) => g.some((j) => sameContent(i, j)));
    if (group) group.push(i);
    else groups.push([i]);
  }
  const sections = feeds.map(sectionReason);
  const scores = feeds.map((feed) => mainScore(feed, site));
  const open = groups.filter((g) => g.some((i) => sections[i] === null));
  let best: number[] | null = null;
  let bestScore = Number.NEGATIVE_INFINITY;
  for (const group of open) {
    const score = Math.max(...group.map((i) => scores[i]!));
    if (score > bestScore) {
      best = group;
      bestScore = score;
    }
  }
  for (const group of groups) {
    for (const i of group) {
      if (group === best) {
        verdicts[i] =
          i === group[0]
            ? { role: 'main', reason: `site-wide (score ${scores[i]})`, primary: true }
            : { role: 'main', reason: 'same items as the main feed', primary: false };
      } else {
        const reason = sections[i] ?? `narrower than the main feed (score ${scores[i]})`;
        verdicts[i] = { role: 'section', reason, primary: false };
      }
    }
  }
  return verdicts as RoleVerdict[];
}

/**
 * Words that make a section feed match a seed category (its URL, label or title), beside the category itself.
 * Categories not listed match their own slug only.
 */
export const CATEGORY_WORDS: Readonly<Record<string, readonly string[]>> = {
  news: [
    'news',
    'nachrichten',
    'actualites',
    'actualités',
    'actualite',
    'noticias',
    'notizie',
    'nieuws',
    'nyheter',
    'uutiset',
    'berita',
    'haberler',
    'newsroom',
  ],
  announcement: [
    'announcement',
    'announcements',
    'press',
    'pressreleases',
    'releases',
    'newsroom',
    'notices',
    'communiques',
    'communiqués',
    'medienmitteilungen',
    'pressemitteilungen',
  ],
  opinion: [
    'opinion',
    'opinions',
    'editorial',
    'editorials',
    'commentary',
    'columns',
    'oped',
    'meinung',
    'tribune',
    'opinión',
    'opinião',
  ],
  research: ['research', 'publications', 'papers', 'studies', 'reports', 'forschung'],
  data: ['data', 'statistics', 'stats', 'datasets', 'opendata'],
  policy: ['policy', 'policies', 'legislation', 'regulations', 'regulation'],
  guide: ['guide', 'guides', 'howto', 'tutorials', 'tutorial'],
  faq: ['faq', 'faqs', 'questions'],
  alert: ['alert', 'alerts', 'warnings', 'advisories', 'advisory', 'bulletins', 'security'],
  directory: ['directory', 'directories'],
};

/** Whether a section feed is about the seed's category (e.g. /category/news/feed/ for `news`). */
export function matchesCategory(
  feed: { url: string; label: string | null; title: string | null },
  category: string,
): boolean {
  const wanted = new Set([category.toLowerCase(), ...(CATEGORY_WORDS[category.toLowerCase()] ?? [])]);
  const url = parse(feed.url);
  const urlWords = url === null ? [] : words(`${pathOf(url)} ${[...url.searchParams.values()].join(' ')}`);
  // "press-releases" is one idea: joined neighbours count as a word too.
  const all = [...urlWords, ...words(feed.label), ...words(feed.title)];
  const joined = all.slice(1).map((w, i) => `${all[i]}${w}`);
  return [...all, ...joined].some((w) => wanted.has(w));
}
