// What the pages a site shows say for and against a newsroom: their markup, the front page's layout (story links,
// section menu), bylines and credits, reader pages, and the marks of recipe sites, shops, companies and parked
// domains. Each reader returns reasons with evidence a person can check; news-verdict.ts sums them.
import { articleUrlShape, pathAndQuery } from './article-urls.js';
import { ARTICLE_LINK_TIERS, MANY_SHOP_SIGNS, type NewsReason, WEIGHTS } from './news-signals.js';
import {
  aggregatorLinks,
  bylineNamesSite,
  catalogueLinks,
  editorialLinks,
  isPlaceholderByline,
  wireCredit,
} from './newsroom-signals.js';
import type { PageFacts } from './page-facts.js';
import { hostedBlogDeclaresNews, newsSelfDescription } from './site-kind-signals.js';
import { readSiteMenus, type SiteMenus } from './site-menus.js';

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
const SOFTWARE_TYPES: ReadonlySet<string> = new Set([
  'SoftwareApplication',
  'MobileApplication',
  'WebApplication',
  'VideoGame',
]);

/** The first page declaring one of `types`, with the type it declares. */
function firstTyped(all: PageFacts[], types: ReadonlySet<string>): { page: PageFacts; type: string } | null {
  for (const page of all) {
    const type = page.schema_types.find((t) => types.has(t));
    if (type !== undefined) return { page, type };
  }
  return null;
}

/** The date and clock time a page shows (facts stored before the field existed lack it). */
export function shownTimeOf(page: PageFacts): string | null {
  return typeof page.shown_time === 'string' ? page.shown_time : null;
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

export function markupReasons(all: PageFacts[]): NewsReason[] {
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

export function homepageReasons(page: PageFacts, front: boolean): NewsReason[] {
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

export function pageSignalReasons(all: PageFacts[]): NewsReason[] {
  const reasons: NewsReason[] = [...howtoReasons(all)];
  // A byline counts when it names someone: "admin" is the blog software's default account, and the site's own name is
  // an organisation signing its pages.
  const named = (p: PageFacts) => p.bylines.filter((b) => !isPlaceholderByline(b) && !bylineNamesSite(b, p));
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
  reasons.push(...siteMenuReasons(all));
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

/** The menus of kinds of site (site-menus.ts), each read once, from the first page showing it. */
const SITE_MENUS = [
  ['recipe_menu', "a recipe site's menu", 'recipe'],
  ['company_menu', "a company's own menu", 'company'],
  ['school_menu', "a school's or course seller's menu", 'school'],
  ['shop_menu', "a shop's menu about buying", 'shop'],
  ['product_links', "a catalogue's product pages", 'products'],
  ['sports_desks', "a newsroom's sports desk menu", 'sports'],
  ['newsroom_genres', "a newsroom's menu of journalism's kinds", 'genres'],
  ['newspaper_features', "a newspaper's reader features", 'features'],
] as const satisfies ReadonlyArray<
  readonly [keyof typeof WEIGHTS, string, Exclude<keyof SiteMenus, 'aboutMe'>]
>;

function siteMenuReasons(all: PageFacts[]): NewsReason[] {
  const reasons: NewsReason[] = [];
  const menus = all.map((page) => readSiteMenus(page.links));
  for (const [signal, what, kind] of SITE_MENUS) {
    const at = menus.findIndex((menu, i) => {
      // A sports shop lists sports as a sports desk does: beside a shop sign the menu is the shop's.
      if (kind === 'sports' && (all[i]?.shop_signals?.length ?? 0) > 0) return false;
      return menu[kind] !== null;
    });
    const items = menus[at]?.[kind];
    if (!items) continue;
    const more = items.length > 8 ? ` and ${items.length - 8} more` : '';
    reasons.push({
      signal,
      weight: WEIGHTS[signal],
      evidence: `${what} on ${all[at]?.url}: ${items.slice(0, 8).join(', ')}${more}`,
    });
  }
  const at = menus.findIndex((menu) => menu.aboutMe !== null);
  const about = menus[at]?.aboutMe;
  if (about)
    reasons.push({
      signal: 'about_me_link',
      weight: WEIGHTS.about_me_link,
      evidence: `a link to its author's own page on ${all[at]?.url}: "${about.anchor}" ${about.url}`,
    });
  return reasons;
}
