// Is a site a news source? Signals for and against, each with a weight in log-odds and evidence a person can
// check, summed and squashed by a logistic into a score; the score's band is the verdict. Pure; the inputs are
// what discovery already read (homepage, a few article pages, the sitemap, the feeds).
import { classifyHost } from '../domain/domains.js';
import { type PlatformKind, platformKind } from '../domain/platform-hosts.js';
import type { NewsVerdict, NewsVerdictValue } from '../domain/seed-facts.js';
import { aggregatorSelfDescription } from './aggregator-front.js';
import { articleUrlShape, pathAndQuery } from './article-urls.js';
import { type FrontCadence, slowFrontCadence } from './front-cadence.js';
import {
  aggregatorLinks,
  catalogueLinks,
  editorialLinks,
  isPlaceholderByline,
  wireCredit,
} from './newsroom-signals.js';
import type { PageFacts } from './page-facts.js';
import {
  generatorKind,
  hostedBlogDeclaresNews,
  newsroomName,
  newsSelfDescription,
  publicBodyName,
} from './site-kind-signals.js';

export { NEWS_VERDICTS, type NewsVerdict, type NewsVerdictValue } from '../domain/seed-facts.js';
export type NewsReason = NewsVerdict['reasons'][number];

export interface NewsFeedFacts {
  url: string;
  role: string;
  item_count: number | null;
  items_per_day: number | null;
  item_urls?: string[];
  newest_item_at: string | null;
}

export interface NewsInput {
  host: string;
  registrableDomain: string;
  /** The entry page's facts (it may itself be an article page). */
  homepage: PageFacts | null;
  /** At most a couple of sampled article pages. */
  articles: PageFacts[];
  sitemap: { exists: boolean; news: boolean; sample_urls?: string[] } | null;
  feeds: NewsFeedFacts[];
  now: Date;
}

/** The starting log-odds: with no evidence at all a site is more likely not a newsroom (score 0.27). */
export const BASE_LOG_ODDS = -1;
/**
 * score ≥ this: news. logistic(0.4) rounded: the weights are tenths of log-odds, and 0.6 (log-odds 0.405) left evidence
 * worth exactly 1.4 over the base — a section menu or a wire credit with a named byline — just under the line.
 */
export const NEWS_THRESHOLD = 0.599;
/** score < this: not_news; between the two: maybe. */
export const NOT_NEWS_THRESHOLD = 0.4;

/** Every weight in one table, so docs/discovery.md and the code cannot drift apart. */
export const WEIGHTS = {
  news_schema: 2,
  news_sitemap: 1.5,
  article_published: 0.8,
  article_links_many: 1.5,
  article_links_some: 1,
  article_links_few: 0.5,
  front_page_few_stories: -0.5,
  sections_many: 1.5,
  sections_some: 1,
  sections_two: 0.5,
  bylines: 0.4,
  wire_credit: 1,
  reporter_credit: 0.7,
  editorial_links: 0.7,
  most_read_list: 0.7,
  fact_check_schema: 1,
  publisher_meta_many: 1,
  publisher_meta_one: 0.5,
  dated_items: 0.3,
  newsroom_name: 0.5,
  news_self_description: 0.5,
  frequent_feed: 1,
  very_frequent_feed: 1.5,
  sitemap_article_urls: 0.3,
  recipe_schema: -2.5,
  recipe_plugin: -2,
  recipe_words: -1,
  product_schema: -2,
  offer_schema: -0.7,
  software_schema: -1.5,
  job_schema: -1.5,
  forum_schema: -1.5,
  blog_schema: -0.7,
  guide_schema: -1,
  howto_headlines: -1.5,
  placeholder_byline: -0.5,
  blog_comment_form: -0.5,
  aggregator_links: -1,
  catalogue_counts: -1.5,
  public_body_host: -1.5,
  public_body_site: -1.5,
  wiki_generator: -2,
  docs_generator: -2,
  blog_generator: -0.7,
  newsroom_generator: 0.5,
  shop_signals_many: -1.5,
  shop_signals_one: -0.7,
  company_sales_links: -1,
  organisation_menu: -1.5,
  parked: -4,
  nothing_dated: -1,
  stale_feeds: -0.7,
} as const;

/** Log-odds a tenth under the news line's 0.4 (score 0.574): `no_newsroom_sign` takes a score no lower. */
export const MAYBE_CEILING_LOG_ODDS = 0.3;
/** The most `no_newsroom_sign` takes off. */
export const NO_NEWSROOM_SIGN_WEIGHT = -1;

/**
 * Signals only a newsroom gives (news markup or sitemap, a section menu, newsroom meta, a wire credit, reader pages,
 * a fact-check, a newspaper name, a feed of several stories a day). The others for news — an article's og:type and
 * time, article-shaped links, bylines, dated items — show a publisher of articles, which blogs, magazines, tutorial
 * sites and research institutes are too: without one of these `no_newsroom_sign` takes up to 1 off, never below maybe.
 */
export const NEWSROOM_SIGNS: ReadonlySet<string> = new Set([
  'news_schema',
  'news_sitemap',
  'sections_many',
  'sections_some',
  'sections_two',
  'wire_credit',
  'reporter_credit',
  'editorial_links',
  'most_read_list',
  'fact_check_schema',
  'publisher_meta_many',
  'publisher_meta_one',
  'newsroom_name',
  'news_self_description',
  'newsroom_generator',
  'frequent_feed',
  'very_frequent_feed',
]);

/**
 * The signs a front page's layout gives: story-shaped links and a section menu. Portals, classifieds, city and
 * association sites have them too; alone on a front page they leave a site in the maybe band unless they are strong.
 */
/** Distinct shop signs that make a shop (`shop_signals_many`), and that make a page's "most viewed" box a shop's. */
const MANY_SHOP_SIGNS = 2;

export const LAYOUT_SIGNS: ReadonlySet<string> = new Set([
  'article_links_many',
  'article_links_some',
  'article_links_few',
  'sections_many',
  'sections_some',
  'sections_two',
]);

/** A feed's own rate of items, which outranks the pace of a front page's dates. */
const FEED_RATE_SIGNS: ReadonlySet<string> = new Set(['frequent_feed', 'very_frequent_feed']);

/** Article links on one page for each tier: a front page lists dozens of stories, a blog a handful of posts. */
export const ARTICLE_LINK_TIERS = { many: 30, some: 15, few: 6 } as const;
/** Feed items per day for each tier. */
export const FEED_RATE_TIERS = { frequent: 1, veryFrequent: 5 } as const;
/** A feed or sitemap whose newest item is older than this is stale. */
export const STALE_AFTER_DAYS = 30;

const NEWS_TYPES: ReadonlySet<string> = new Set([
  'NewsArticle',
  'ReportageNewsArticle',
  'AnalysisNewsArticle',
  'OpinionNewsArticle',
  'BackgroundNewsArticle',
  'ReviewNewsArticle',
  'AskPublicNewsArticle',
  'NewsMediaOrganization',
  'LiveBlogPosting',
]);
const PRODUCT_TYPES: ReadonlySet<string> = new Set([
  'Product',
  'ProductGroup',
  'ProductModel',
  'IndividualProduct',
]);
const OFFER_TYPES: ReadonlySet<string> = new Set(['Offer', 'AggregateOffer']);
const FORUM_TYPES: ReadonlySet<string> = new Set(['QAPage', 'DiscussionForumPosting', 'ProfilePage']);
const BLOG_TYPES: ReadonlySet<string> = new Set(['Blog', 'BlogPosting']);
/** Pages that teach or answer rather than report: how-tos, health references, FAQs, courses, technical docs. */
const GUIDE_TYPES: ReadonlySet<string> = new Set([
  'HowTo',
  'MedicalWebPage',
  'FAQPage',
  'Course',
  'TechArticle',
]);
/** A fact-check: the markup fact-checking newsrooms put on their verdicts. */
const FACT_CHECK_TYPES: ReadonlySet<string> = new Set(['ClaimReview']);
/** Authorities (domains.ts, from the suffix's labels and the override table) of bodies that are not newsrooms. */
const PUBLIC_BODY_AUTHORITIES: ReadonlySet<string> = new Set(['gov', 'mil', 'edu']);
const SOFTWARE_TYPES: ReadonlySet<string> = new Set([
  'SoftwareApplication',
  'MobileApplication',
  'WebApplication',
  'VideoGame',
]);

function pages(input: NewsInput): PageFacts[] {
  return [...(input.homepage === null ? [] : [input.homepage]), ...input.articles.slice(0, 4)];
}

/** The first page declaring one of `types`, with the type it declares. */
function firstTyped(all: PageFacts[], types: ReadonlySet<string>): { page: PageFacts; type: string } | null {
  for (const page of all) {
    const type = page.schema_types.find((t) => types.has(t));
    if (type !== undefined) return { page, type };
  }
  return null;
}

/** The date and clock time a page shows (facts stored before the field existed lack it). */
function shownTimeOf(page: PageFacts): string | null {
  return typeof page.shown_time === 'string' ? page.shown_time : null;
}

function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}

function daysSince(iso: string | null, now: Date): number | null {
  if (iso === null) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : (now.getTime() - time) / 86_400_000;
}

/**
 * News markup, counted at 0 where the page is a hosted newsletter or blog whose template declares NewsArticle on every
 * post (Substack, Over-blog): there it is the service's declaration, not the publisher's.
 */
function newsSchemaReason(page: PageFacts, type: string): NewsReason {
  const evidence = `JSON-LD/microdata ${type} on ${page.url}`;
  const hosted = typeof page.hosted_blog === 'string' ? page.hosted_blog : null;
  return hosted !== null && hostedBlogDeclaresNews(hosted)
    ? {
        signal: 'news_schema',
        weight: 0,
        evidence: `${evidence}: ${hosted}'s template declares it on every post`,
      }
    : { signal: 'news_schema', weight: WEIGHTS.news_schema, evidence };
}

function markupReasons(all: PageFacts[]): NewsReason[] {
  const reasons: NewsReason[] = [];
  const typed = (signal: keyof typeof WEIGHTS, types: ReadonlySet<string>) => {
    const found = firstTyped(all, types);
    if (found !== null)
      reasons.push({
        signal,
        weight: WEIGHTS[signal],
        evidence: `JSON-LD/microdata ${found.type} on ${found.page.url}`,
      });
  };
  const news = firstTyped(all, NEWS_TYPES);
  if (news !== null) reasons.push(newsSchemaReason(news.page, news.type));
  typed('fact_check_schema', FACT_CHECK_TYPES);
  typed('recipe_schema', new Set(['Recipe']));
  typed('product_schema', PRODUCT_TYPES);
  if (firstTyped(all, PRODUCT_TYPES) === null) typed('offer_schema', OFFER_TYPES);
  typed('software_schema', SOFTWARE_TYPES);
  typed('job_schema', new Set(['JobPosting']));
  typed('forum_schema', FORUM_TYPES);
  // A newsroom's live blog is BlogPosting too: the type counts against only where no news type is declared.
  if (firstTyped(all, NEWS_TYPES) === null) {
    typed('blog_schema', BLOG_TYPES);
    typed('guide_schema', GUIDE_TYPES);
  }
  // An article (by og:type, or with none declared by its URL's shape) dated by its markup, else by the date and clock
  // time it shows its readers.
  const isArticle = (p: PageFacts) =>
    p.og_type === 'article' || ((p.og_type ?? null) === null && articleUrlShape(p.url) !== null);
  const published =
    all.find((p) => p.published_time !== null && isArticle(p)) ??
    all.find((p) => shownTimeOf(p) !== null && isArticle(p));
  if (published !== undefined)
    reasons.push({
      signal: 'article_published',
      weight: WEIGHTS.article_published,
      evidence: `${published.og_type === 'article' ? 'og:type article' : 'an article-shaped URL'} ${published.published_time === null ? `showing the time "${shownTimeOf(published)}"` : `published ${published.published_time}`} on ${published.url}`,
    });
  return reasons;
}

/**
 * A site's front page: its root, or a one-segment edition or home path (`/en/`, `/de-at`, `/home`, `/index.html`).
 * A newsroom's front lists dozens of stories; a handful of story-shaped links there is a company's, a city's or a
 * blogger's front (on an article page a handful is the related stories, and counts for news).
 */
export function isFrontPage(url: string): boolean {
  const parts = pathAndQuery(url);
  if (parts === null) return false;
  const path = parts.path.replace(/\/+$/, '');
  return (
    path === '' || /^\/(?:[a-z]{2,3}(?:[-_][a-z]{2,4})?|home|index\.\w{2,5}|default\.\w{2,5})$/i.test(path)
  );
}

function homepageReasons(page: PageFacts, front: boolean): NewsReason[] {
  const reasons: NewsReason[] = [];
  const count = page.article_links;
  const tier =
    count >= ARTICLE_LINK_TIERS.many
      ? 'article_links_many'
      : count >= ARTICLE_LINK_TIERS.some
        ? 'article_links_some'
        : count >= ARTICLE_LINK_TIERS.few
          ? 'article_links_few'
          : null;
  if (tier === 'article_links_few' && front)
    reasons.push({
      signal: 'front_page_few_stories',
      weight: WEIGHTS.front_page_few_stories,
      evidence: `only ${count} internal links look like articles on the front page ${page.url}, where a newsroom lists dozens`,
    });
  else if (tier !== null)
    reasons.push({
      signal: tier,
      weight: WEIGHTS[tier],
      evidence: `${count} internal links look like articles on ${page.url}, e.g. ${page.article_link_examples.slice(0, 2).join(' ')}`,
    });
  // A front page that calls its own site news (its title or description): the site's own claim, weak like its name.
  const selfDescribed = front ? newsSelfDescription(page.title, page.description ?? null) : null;
  if (selfDescribed !== null)
    reasons.push({
      signal: 'news_self_description',
      weight: WEIGHTS.news_self_description,
      evidence: selfDescribed,
    });
  const aggregated = aggregatorLinks(page.links, count);
  if (aggregated !== null)
    reasons.push({
      signal: 'aggregator_links',
      weight: WEIGHTS.aggregator_links,
      evidence: `story links to ${aggregated.sites} other sites against ${count} of its own on ${page.url}, e.g. ${aggregated.examples.slice(0, 2).join(' ')}`,
    });
  const sections = Object.entries(page.sections);
  const strength = sections.reduce((sum, [, s]) => sum + (s.core ? 1 : 0.5), 0);
  const sectionTier =
    strength >= 4 ? 'sections_many' : strength >= 3 ? 'sections_some' : strength >= 2 ? 'sections_two' : null;
  if (sectionTier !== null)
    reasons.push({
      signal: sectionTier,
      weight: WEIGHTS[sectionTier],
      evidence: `section navigation: ${sections.map(([name, s]) => `${s.word} (${name})`).join(', ')}`,
    });
  return reasons;
}

/**
 * Headlines that teach rather than report, in the languages of the page vocabulary: "How to…", "7 ways to…", "Wie
 * man…", "Cómo…", "Comment faire…". A newsroom runs the odd explainer; a how-to site's links are mostly these.
 */
const HOWTO_HEADLINE =
  /^(?:read article\s+)?(?:how to|how do (?:i|you)|\d+ (?:ways|tips|steps) to|wie man|so (?:geht|gelingt)|anleitung|c[oó]mo (?:hacer|se|hacer)|como fazer|comment (?:faire|r[ée]ussir)|come (?:fare|si)|как (?:сделать|приготовить))\b/iu;
/** At least this many headlines on a page, half of them how-tos, make `howto_headlines`. */
export const HOWTO_MIN_HEADLINES = 3;

function howtoReasons(all: PageFacts[]): NewsReason[] {
  for (const page of all) {
    const howtos = page.headlines.filter((h) => HOWTO_HEADLINE.test(h.trim()));
    if (page.headlines.length >= HOWTO_MIN_HEADLINES && howtos.length * 2 >= page.headlines.length)
      return [
        {
          signal: 'howto_headlines',
          weight: WEIGHTS.howto_headlines,
          evidence: `${howtos.length} of ${page.headlines.length} headlines on ${page.url} are how-tos, e.g. "${howtos[0]}"`,
        },
      ];
  }
  return [];
}

/** A news agency credited by a byline, else by wire copy's dateline in the text ("BERLIN (dpa) –"). */
function wireReason(all: PageFacts[]): NewsReason | null {
  for (const page of all) {
    const wire = wireCredit(page.bylines);
    if (wire !== null)
      return {
        signal: 'wire_credit',
        weight: WEIGHTS.wire_credit,
        evidence: `byline "${wire.byline}" credits the news agency ${wire.agency} on ${page.url}`,
      };
  }
  for (const page of all) {
    const dateline = Array.isArray(page.wire_datelines) ? page.wire_datelines[0] : undefined;
    if (dateline !== undefined)
      return {
        signal: 'wire_credit',
        weight: WEIGHTS.wire_credit,
        evidence: `wire copy's dateline "${dateline}" on ${page.url}`,
      };
  }
  return null;
}

function pageSignalReasons(all: PageFacts[]): NewsReason[] {
  const reasons: NewsReason[] = [...howtoReasons(all)];
  // A byline counts when it names someone: "admin" is the blog software's default account.
  const named = (p: PageFacts) => p.bylines.filter((b) => !isPlaceholderByline(b));
  const bylined = all.find((p) => named(p).length > 0);
  if (bylined !== undefined)
    reasons.push({
      signal: 'bylines',
      weight: WEIGHTS.bylines,
      evidence: `bylines on ${bylined.url}: ${named(bylined).slice(0, 3).join('; ')}`,
    });
  const placeholder = all.find((p) => p.bylines.some(isPlaceholderByline));
  if (placeholder !== undefined)
    reasons.push({
      signal: 'placeholder_byline',
      weight: WEIGHTS.placeholder_byline,
      evidence: `byline "${placeholder.bylines.find(isPlaceholderByline)}" names no writer on ${placeholder.url}`,
    });
  const commented = all.find((p) => p.blog_comment_form);
  if (commented !== undefined)
    reasons.push({
      signal: 'blog_comment_form',
      weight: WEIGHTS.blog_comment_form,
      evidence: `WordPress's own comment form (wp-comments-post.php) on ${commented.url}`,
    });
  const wire = wireReason(all);
  if (wire !== null) reasons.push(wire);
  const credited = all.find((p) => Array.isArray(p.reporter_credits) && p.reporter_credits.length > 0);
  if (credited !== undefined)
    reasons.push({
      signal: 'reporter_credit',
      weight: WEIGHTS.reporter_credit,
      evidence: `a staff reporter or editor credited by title on ${credited.url}: ${credited.reporter_credits.map((c) => `"${c}"`).join(', ')}`,
    });
  for (const page of all) {
    const catalogue = catalogueLinks(page.links);
    if (catalogue === null) continue;
    reasons.push({
      signal: 'catalogue_counts',
      weight: WEIGHTS.catalogue_counts,
      evidence: `${catalogue.counted} of ${page.links.length} links on ${page.url} end in an item count, a catalogue's listing: ${catalogue.examples.join('; ')}`,
    });
    break;
  }
  for (const page of all) {
    const editorial = editorialLinks(page.links);
    if (editorial.length === 0) continue;
    reasons.push({
      signal: 'editorial_links',
      weight: WEIGHTS.editorial_links,
      evidence: `links to a newsroom's reader pages on ${page.url}: ${editorial.map((l) => `"${l.anchor}" ${l.url}`).join(', ')}`,
    });
    break;
  }
  // Facts stored before a field existed lack it (the same for sales_links below).
  // A "most viewed" box beside a cart (two shop signs on the page) is a shop's bestsellers, not a newsroom's most read.
  const mostRead = all.find(
    (p) =>
      Array.isArray(p.most_read) && p.most_read.length > 0 && (p.shop_signals?.length ?? 0) < MANY_SHOP_SIGNS,
  );
  if (mostRead !== undefined)
    reasons.push({
      signal: 'most_read_list',
      weight: WEIGHTS.most_read_list,
      evidence: `a "most read" list on ${mostRead.url}: "${mostRead.most_read[0]}"`,
    });
  // Markup newsrooms add for news search and their analytics (news_keywords, Parse.ly, cXense…).
  // Parse.ly alone is not enough: company blogs and blog platforms run it too.
  const meta = [...new Set(all.flatMap((p) => p.publisher_meta))];
  if (meta.length > 0 && !(meta.length === 1 && meta[0] === 'parsely')) {
    const signal = meta.length >= 2 ? 'publisher_meta_many' : 'publisher_meta_one';
    reasons.push({
      signal,
      weight: WEIGHTS[signal],
      evidence: `publisher meta: ${meta.slice(0, 5).join(', ')}`,
    });
  }
  const dated = all.find((p) => p.time_elements >= 3);
  if (dated !== undefined)
    reasons.push({
      signal: 'dated_items',
      weight: WEIGHTS.dated_items,
      evidence: `${dated.time_elements} <time datetime> elements on ${dated.url}`,
    });
  const recipePlugin = all.flatMap((p) =>
    p.recipe_signals.filter((s) => s.startsWith('class ')).map((s) => `${s} on ${p.url}`),
  );
  const recipeWords = all.flatMap((p) => p.recipe_signals.filter((s) => s.startsWith('text ')));
  if (recipePlugin.length > 0)
    reasons.push({
      signal: 'recipe_plugin',
      weight: WEIGHTS.recipe_plugin,
      evidence: recipePlugin.slice(0, 3).join('; '),
    });
  else if (new Set(recipeWords).size >= 2)
    reasons.push({
      signal: 'recipe_words',
      weight: WEIGHTS.recipe_words,
      evidence: [...new Set(recipeWords)].slice(0, 4).join(', '),
    });
  const shop = [...new Set(all.flatMap((p) => p.shop_signals))];
  if (shop.length >= MANY_SHOP_SIGNS)
    reasons.push({
      signal: 'shop_signals_many',
      weight: WEIGHTS.shop_signals_many,
      evidence: shop.slice(0, 4).join('; '),
    });
  else if (shop.length === 1)
    reasons.push({ signal: 'shop_signals_one', weight: WEIGHTS.shop_signals_one, evidence: shop[0]! });
  const ownLinks = [...new Set(all.flatMap((p) => (Array.isArray(p.sales_links) ? p.sales_links : [])))];
  const organisation = ownLinks.filter((s) => s.startsWith('organisation: '));
  const sales = ownLinks.filter((s) => !s.startsWith('organisation: '));
  const salesCalls = sales.filter((s) => s.startsWith('sales: '));
  if (salesCalls.length >= 1 || sales.length - salesCalls.length >= 2)
    reasons.push({
      signal: 'company_sales_links',
      weight: WEIGHTS.company_sales_links,
      evidence: `a company's own links: ${sales.slice(0, 4).join('; ')}`,
    });
  if (organisation.length >= 2)
    reasons.push({
      signal: 'organisation_menu',
      weight: WEIGHTS.organisation_menu,
      evidence: `an organisation's own menu: ${organisation.slice(0, 4).join('; ')}`,
    });
  const parked = all.find((p) => p.parked_signals.length > 0);
  if (parked !== undefined)
    reasons.push({
      signal: 'parked',
      weight: WEIGHTS.parked,
      evidence: `${parked.parked_signals.slice(0, 3).join('; ')} on ${parked.url}`,
    });
  return reasons;
}

function feedReasons(input: NewsInput): NewsReason[] {
  const reasons: NewsReason[] = [];
  const content = input.feeds.filter((f) => f.role === 'main' || f.role === 'section');
  // A feed counts when its items are article pages: a shop's product feed or a podcast's episodes are frequent too.
  const articleLike = content.filter((f) => {
    const urls = f.item_urls ?? [];
    return urls.length === 0 || urls.filter((u) => articleUrlShape(u) !== null).length * 2 >= urls.length;
  });
  const fastest = articleLike.reduce<NewsFeedFacts | null>(
    (best, f) => ((f.items_per_day ?? 0) > (best?.items_per_day ?? 0) ? f : best),
    null,
  );
  const rate = fastest?.items_per_day ?? 0;
  if (fastest !== null && rate >= FEED_RATE_TIERS.frequent) {
    const signal = rate >= FEED_RATE_TIERS.veryFrequent ? 'very_frequent_feed' : 'frequent_feed';
    reasons.push({
      signal,
      weight: WEIGHTS[signal],
      evidence: `${round(rate, 1)} items a day in ${fastest.url}`,
    });
  }
  const ages = content
    .map((f) => daysSince(f.newest_item_at, input.now))
    .filter((d): d is number => d !== null);
  if (ages.length > 0 && Math.min(...ages) > STALE_AFTER_DAYS)
    reasons.push({
      signal: 'stale_feeds',
      weight: WEIGHTS.stale_feeds,
      evidence: `newest feed item ${Math.round(Math.min(...ages))} days old`,
    });
  if (input.sitemap?.news)
    reasons.push({
      signal: 'news_sitemap',
      weight: WEIGHTS.news_sitemap,
      evidence: 'a sitemap in the Google News namespace',
    });
  const sample = input.sitemap?.sample_urls ?? [];
  const sampleArticles = sample.filter((u) => articleUrlShape(u) !== null);
  if (sample.length >= 3 && sampleArticles.length * 2 >= sample.length)
    reasons.push({
      signal: 'sitemap_article_urls',
      weight: WEIGHTS.sitemap_article_urls,
      evidence: `${sampleArticles.length} of ${sample.length} sitemap URLs look like articles, e.g. ${sampleArticles[0]}`,
    });
  return reasons;
}

/** Nothing anywhere carries a date: no dated links, no publication time, no dated feed items, no news sitemap. */
function nothingDated(input: NewsInput, all: PageFacts[]): boolean {
  const datedPage = all.some(
    (p) => p.published_time !== null || shownTimeOf(p) !== null || p.time_elements > 0 || p.article_links > 0,
  );
  const datedFeed = input.feeds.some((f) => f.newest_item_at !== null);
  return !datedPage && !datedFeed && !(input.sitemap?.news ?? false);
}

/**
 * The weight of a decisive reason (a platform host): far past any sum of the others, and a finite number, since
 * the verdict is stored and answered as JSON (which has no -Infinity).
 */
export const DECISIVE_WEIGHT = -100;

/** A public body named by the site's name or its CMS (when the host's suffix did not already say so). */
function publicBodySite(all: PageFacts[]): NewsReason[] {
  for (const page of all) {
    const name = publicBodyName(page.og_site_name, page.title);
    const generator = generatorKind(page.generator ?? []);
    const evidence =
      name !== null
        ? `the site's name "${name}" names a public body`
        : generator?.kind === 'public_body'
          ? `generator ${generator.generator} on ${page.url}`
          : null;
    if (evidence !== null)
      return [{ signal: 'public_body_site', weight: WEIGHTS.public_body_site, evidence }];
  }
  return [];
}

/** Software that makes wikis, documentation or blogs rather than newsrooms' sites, or a publishers' editorial system (`<meta name="generator">`). */
function generatorReasons(all: PageFacts[]): NewsReason[] {
  for (const page of all) {
    const found = generatorKind(page.generator ?? []);
    if (found === null || found.kind === 'public_body') continue;
    const signal = `${found.kind}_generator` as const;
    return [{ signal, weight: WEIGHTS[signal], evidence: `generator ${found.generator} on ${page.url}` }];
  }
  // No generator said so, but the page loads a hosted blog service's own scripts or theme (a custom domain on Substack).
  const hosted = all.find((p) => typeof p.hosted_blog === 'string');
  return hosted === undefined
    ? []
    : [
        {
          signal: 'blog_generator',
          weight: WEIGHTS.blog_generator,
          evidence: `${hosted.hosted_blog}'s own scripts or theme on ${hosted.url}: a hosted blog or newsletter`,
        },
      ];
}

/** A newspaper word in the domain or the site's name (Zeitung, News, Herald, Diario): weak, names are cheap. */
function newsroomNameReasons(registrableDomain: string, all: PageFacts[]): NewsReason[] {
  const page = all[0];
  const evidence = newsroomName(registrableDomain, page?.og_site_name ?? null, page?.title ?? null);
  return evidence === null ? [] : [{ signal: 'newsroom_name', weight: WEIGHTS.newsroom_name, evidence }];
}

function platformVerdict(kind: PlatformKind, input: NewsInput): NewsVerdict {
  return {
    verdict: 'not_news',
    score: 0,
    reasons: [
      {
        signal: 'platform_host',
        weight: DECISIVE_WEIGHT,
        evidence: `${input.registrableDomain} is a platform (${kind})`,
      },
    ],
  };
}

/**
 * A candidate whose entry page answers from another site (oldname.com → newname.com, a second domain of one
 * newsroom): not a source of its own, whatever the other site's pages say. Discovery proposes the other site instead.
 */
export function movedVerdict(registrableDomain: string, finalUrl: string, movedTo: string): NewsVerdict {
  return {
    verdict: 'not_news',
    score: 0,
    reasons: [
      {
        signal: 'moved_to_other_site',
        weight: DECISIVE_WEIGHT,
        evidence: `${registrableDomain}'s entry page answers from ${finalUrl}, on ${movedTo}`,
      },
    ],
  };
}

export function verdictOfScore(score: number): NewsVerdictValue {
  return score >= NEWS_THRESHOLD ? 'news' : score < NOT_NEWS_THRESHOLD ? 'not_news' : 'maybe';
}

/**
 * What a bounded reason takes off a sum above the maybe band: down to its ceiling, never more than
 * NO_NEWSROOM_SIGN_WEIGHT, so strong evidence stays news and weaker evidence stays a candidate for a person.
 */
function towardMaybe(sum: number): number {
  return round(Math.max(NO_NEWSROOM_SIGN_WEIGHT, MAYBE_CEILING_LOG_ODDS - sum));
}

/**
 * The reasons summed before the three bounded ones (`no_newsroom_sign`, `layout_only_front`, `slow_front`) and the
 * cap `aggregator_front`, and what
 * those read: the entry page's URL when it is the site's front, how many pages were read, and the front's dates when
 * they are days apart. Null for a platform host (decisive).
 * scripts/fit-news-weights.ts fits the weights on these.
 */
export interface RawNewsReasons {
  reasons: NewsReason[];
  frontUrl: string | null;
  pageCount: number;
  /** The front page's dated items when they are days apart (front-cadence.ts), which `slow_front` reads. */
  slowFront: FrontCadence | null;
  /** Where the front says it gathers other outlets' news (aggregator-front.ts), which `aggregator_front` reads. */
  aggregatorFront?: string | null;
}

export function rawNewsReasons(input: NewsInput): RawNewsReasons | null {
  return platformOf(input) === null ? readReasons(input) : null;
}

function platformOf(input: NewsInput): PlatformKind | null {
  return platformKind(input.registrableDomain) ?? platformKind(input.host);
}

function readReasons(input: NewsInput): RawNewsReasons {
  const all = pages(input);
  const host = classifyHost(input.host);
  const publicBody =
    host.ok && PUBLIC_BODY_AUTHORITIES.has(host.authority)
      ? [
          {
            signal: 'public_body_host',
            weight: WEIGHTS.public_body_host,
            evidence: `${host.host} is a ${host.authority} host`,
          },
        ]
      : [];
  // The entry page's URL when it is the site's front (isFrontPage), which two reasons below read.
  const frontUrl = input.homepage !== null && isFrontPage(input.homepage.url) ? input.homepage.url : null;
  const reasons: NewsReason[] = [
    ...(publicBody.length > 0 ? publicBody : publicBodySite(all)),
    ...generatorReasons(all),
    ...newsroomNameReasons(input.registrableDomain, all),
    ...markupReasons(all),
    ...(input.homepage === null ? [] : homepageReasons(input.homepage, frontUrl !== null)),
    ...pageSignalReasons(all),
    ...feedReasons(input),
  ];
  ownShopOnNewsroomFront(reasons, frontUrl);
  if (nothingDated(input, all))
    reasons.push({
      signal: 'nothing_dated',
      weight: WEIGHTS.nothing_dated,
      evidence: `no dated or article-like link, publication time, feed item or news sitemap on ${all.length} page(s)`,
    });
  const slowFront = frontUrl === null || input.homepage === null ? null : slowFrontCadence(input.homepage);
  const aggregatorFront =
    frontUrl === null || input.homepage === null
      ? null
      : aggregatorSelfDescription(input.homepage.title, input.homepage.description ?? null);
  return { reasons, frontUrl, pageCount: all.length, slowFront, aggregatorFront };
}

/**
 * One shop sign on a front whose layout is a newsroom's — dozens of stories under a full section menu — is the paper's
 * own shop (its e-paper, lottery or merchandise basket: a Polish tabloid's "koszyk"); it stays among the reasons, at 0.
 * Two shop signs, or one on any other page, count as before.
 */
function ownShopOnNewsroomFront(reasons: NewsReason[], frontUrl: string | null): void {
  if (frontUrl === null) return;
  const has = (signal: string) => reasons.some((r) => r.signal === signal);
  if (!has('sections_many') || !has('article_links_many')) return;
  const at = reasons.findIndex((r) => r.signal === 'shop_signals_one');
  if (at < 0) return;
  const shop = reasons[at] as NewsReason;
  reasons[at] = {
    ...shop,
    weight: 0,
    evidence: `${shop.evidence}: one shop sign on a newsroom's front, its own shop`,
  };
}

/** The verdict of raw reasons (their weights as given, summed from `baseLogOdds`), the three bounded reasons added. */
export function verdictOfReasons(raw: RawNewsReasons, baseLogOdds = BASE_LOG_ODDS): NewsVerdict {
  const { frontUrl } = raw;
  const reasons = [...raw.reasons];
  let sum = reasons.reduce((total, r) => total + r.weight, baseLogOdds);
  const articleSigns = reasons.filter((r) => r.weight > 0);
  if (sum > MAYBE_CEILING_LOG_ODDS && !articleSigns.some((r) => NEWSROOM_SIGNS.has(r.signal))) {
    // At most NO_NEWSROOM_SIGN_WEIGHT, and never below the maybe band: a page with plenty of article evidence and no
    // markup (an unmarked newsroom) can still be news, and a weaker one stays a candidate for a person to look at.
    const weight = towardMaybe(sum);
    reasons.push({
      signal: 'no_newsroom_sign',
      weight,
      evidence: `only signs of a publisher of articles (${articleSigns.map((r) => r.signal).join(', ')}), none of a newsroom (news markup or sitemap, section menu, newsroom meta, wire credit, reader pages, frequent feed) on ${raw.pageCount} page(s)`,
    });
    sum += weight;
  }
  const layout = articleSigns.filter((r) => LAYOUT_SIGNS.has(r.signal));
  if (sum > MAYBE_CEILING_LOG_ODDS && layout.length === articleSigns.length && frontUrl !== null) {
    // Bounded like no_newsroom_sign: a front with dozens of stories under a full menu stays news; a thinner one is a
    // candidate for a person to look at, since portals, classifieds and city sites have the same layout.
    const weight = towardMaybe(sum);
    reasons.push({
      signal: 'layout_only_front',
      weight,
      evidence: `only the front page's layout (${layout.map((r) => r.signal).join(', ')}) on ${frontUrl}: no byline, date, news markup, feed or newsroom name`,
    });
    sum += weight;
  }
  const slow = raw.slowFront;
  const frequentFeed = articleSigns.some((r) => FEED_RATE_SIGNS.has(r.signal));
  if (slow !== null && frontUrl !== null && sum > MAYBE_CEILING_LOG_ODDS && !frequentFeed) {
    // The front's dates say one item every few days: its story-shaped links, menu and dates are a blog's or an
    // institution's front, not a newsroom's, so they count for nothing; the other signs (markup, name, reader pages)
    // still count, and the score goes no lower than the maybe band.
    const front = articleSigns.filter((r) => LAYOUT_SIGNS.has(r.signal) || r.signal === 'dated_items');
    const weight = round(
      Math.max(-front.reduce((total, r) => total + r.weight, 0), MAYBE_CEILING_LOG_ODDS - sum),
    );
    if (weight < 0) {
      reasons.push({
        signal: 'slow_front',
        weight,
        evidence: `${slow.dates} dated items on the front page ${frontUrl}, a median of ${round(slow.medianGapDays, 1)} days apart, where a newsroom's front dates its stories hours apart`,
      });
      sum += weight;
    }
  }
  if (raw.aggregatorFront && frontUrl !== null && sum > MAYBE_CEILING_LOG_ODDS) {
    // A cap, not bounded like the three above: an aggregator's front has dozens of stories under a section menu and
    // calls itself news, which they let through; it stays a candidate for a person to look at.
    const weight = round(MAYBE_CEILING_LOG_ODDS - sum);
    reasons.push({ signal: 'aggregator_front', weight, evidence: raw.aggregatorFront });
    sum += weight;
  }
  const score = round(1 / (1 + Math.exp(-sum)));
  return {
    verdict: verdictOfScore(score),
    score,
    reasons: reasons.sort((a, b) => Math.abs(b.weight) - Math.abs(a.weight)),
  };
}

export function judgeNews(input: NewsInput): NewsVerdict {
  const platform = platformOf(input);
  return platform === null ? verdictOfReasons(readReasons(input)) : platformVerdict(platform, input);
}
