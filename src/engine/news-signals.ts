// The news verdict's terms: its input, the weight of every reason (tenths of log-odds), the score's bands, and the
// groups of signs the bounded reasons read. news-verdict.ts sums them; the reason readers beside it
// (news-page-reasons.ts, news-site-reasons.ts) name them.
import type { NewsVerdict } from '../domain/seed-facts.js';
import type { PageFacts } from './page-facts.js';

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
  frequent_front: 0.3,
  newsroom_name: 0.5,
  news_self_description: 0.5,
  frequent_feed: 1,
  very_frequent_feed: 1.5,
  sitemap_article_urls: 0.3,
  recipe_schema: -2.5,
  recipe_plugin: -2,
  recipe_words: -1,
  recipe_menu: -1.5,
  about_me_link: -1,
  company_menu: -1.5,
  school_menu: -1.5,
  shop_menu: -1,
  product_links: -1,
  sports_desks: 0.5,
  newsroom_genres: 0.5,
  newspaper_features: 0.5,
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
 * The most `layout_only_front` takes off: enough that only a front with dozens of stories under a full section menu
 * (article_links_many and sections_many) stays news on its layout alone. At −1, as `no_newsroom_sign`, dozens of
 * stories under three desks did too (session 25): on the labelled sets three non-news fronts (AARP, Daum, Parents) and
 * one news front (nbdpress.com) read so, and on a 2023 crawl of 5,484 company homepages four more (a utility, two
 * banks, a cancer centre) and no news front.
 */
export const LAYOUT_ONLY_FRONT_WEIGHT = -1.25;

/**
 * Signals only a newsroom gives (news markup or sitemap, a section menu, newsroom meta, a wire credit, reader pages,
 * a fact-check, a newspaper name, a feed of several stories a day, a front dating its stories hours apart, a sports
 * desk's menu, a menu of journalism's kinds, a newspaper's reader features). The others
 * for news — an article's og:type and time, article-shaped links, bylines, dated items — show a publisher of articles,
 * which blogs, magazines, tutorial sites and research institutes are too: without one of these `no_newsroom_sign`
 * takes up to 1 off, never below maybe.
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
  'frequent_front',
  'sports_desks',
  'newsroom_genres',
  'newspaper_features',
]);

/** Distinct shop signs that make a shop (`shop_signals_many`), and that make a page's "most viewed" box a shop's. */
export const MANY_SHOP_SIGNS = 2;

/**
 * The signs a front page's layout gives: story-shaped links and a section menu. Portals, classifieds, city and
 * association sites have them too; alone on a front page they leave a site in the maybe band unless they are strong.
 */
export const LAYOUT_SIGNS: ReadonlySet<string> = new Set([
  'article_links_many',
  'article_links_some',
  'article_links_few',
  'sections_many',
  'sections_some',
  'sections_two',
]);

/** A feed's own rate of items, which outranks the pace of a front page's dates. */
export const FEED_RATE_SIGNS: ReadonlySet<string> = new Set(['frequent_feed', 'very_frequent_feed']);

/** Article links on one page for each tier: a front page lists dozens of stories, a blog a handful of posts. */
export const ARTICLE_LINK_TIERS = { many: 30, some: 15, few: 6 } as const;
/** Feed items per day for each tier. */
export const FEED_RATE_TIERS = { frequent: 1, veryFrequent: 5 } as const;
/** A feed or sitemap whose newest item is older than this is stale. */
export const STALE_AFTER_DAYS = 30;

/**
 * The weight of a decisive reason (a platform host): far past any sum of the others, and a finite number, since
 * the verdict is stored and answered as JSON (which has no -Infinity).
 */
export const DECISIVE_WEIGHT = -100;

export function round(value: number, digits = 3): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
