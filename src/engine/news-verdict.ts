// Is a site a news source? Signals for and against, each with a weight in log-odds and evidence a person can
// check, summed and squashed by a logistic into a score; the score's band is the verdict. Pure; the inputs are
// what discovery already read (homepage, a few article pages, the sitemap, the feeds).
//
// The terms (input, weights, bands) are in news-signals.ts, the reasons read from pages in news-page-reasons.ts and
// from the site in news-site-reasons.ts; here they are summed and the bounded reasons applied.
import { type PlatformKind, platformKind } from '../domain/platform-hosts.js';
import type { NewsVerdict, NewsVerdictValue } from '../domain/seed-facts.js';
import { aggregatorSelfDescription } from './aggregator-front.js';
import { type FrontCadence, frequentFrontCadence, frontCadence, slowFrontCadence } from './front-cadence.js';
import { mailPortalFront } from './mail-portal-front.js';
import { homepageReasons, isFrontPage, markupReasons, pageSignalReasons } from './news-page-reasons.js';
import {
  BASE_LOG_ODDS,
  DECISIVE_WEIGHT,
  FEED_RATE_SIGNS,
  LAYOUT_ONLY_FRONT_WEIGHT,
  LAYOUT_SIGNS,
  MAYBE_CEILING_LOG_ODDS,
  NEWS_THRESHOLD,
  NEWSROOM_SIGNS,
  type NewsInput,
  type NewsReason,
  NO_NEWSROOM_SIGN_WEIGHT,
  NOT_NEWS_THRESHOLD,
  round,
  WEIGHTS,
} from './news-signals.js';
import {
  feedReasons,
  generatorReasons,
  newsroomNameReasons,
  nothingDated,
  publicBodyReasons,
} from './news-site-reasons.js';
import type { PageFacts } from './page-facts.js';

export { NEWS_VERDICTS, type NewsVerdict, type NewsVerdictValue } from '../domain/seed-facts.js';
export { HOWTO_MIN_HEADLINES, isFrontPage } from './news-page-reasons.js';
export {
  ARTICLE_LINK_TIERS,
  BASE_LOG_ODDS,
  DECISIVE_WEIGHT,
  FEED_RATE_TIERS,
  LAYOUT_SIGNS,
  MAYBE_CEILING_LOG_ODDS,
  NEWS_THRESHOLD,
  NEWSROOM_SIGNS,
  type NewsFeedFacts,
  type NewsInput,
  type NewsReason,
  NO_NEWSROOM_SIGN_WEIGHT,
  NOT_NEWS_THRESHOLD,
  STALE_AFTER_DAYS,
  WEIGHTS,
} from './news-signals.js';

function pages(input: NewsInput): PageFacts[] {
  return [...(input.homepage === null ? [] : [input.homepage]), ...input.articles.slice(0, 4)];
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
 * What a bounded reason takes off a sum above the maybe band: down to its ceiling, never more than `most`
 * (NO_NEWSROOM_SIGN_WEIGHT unless said), so strong evidence stays news and weaker evidence stays a candidate for a
 * person.
 */
function towardMaybe(sum: number, most = NO_NEWSROOM_SIGN_WEIGHT): number {
  return round(Math.max(most, MAYBE_CEILING_LOG_ODDS - sum));
}

/**
 * The reasons summed before the three bounded ones (`no_newsroom_sign`, `layout_only_front`, `slow_front`) and the
 * caps `aggregator_front` and `mail_portal_front`, and what
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
  /** Where the front offers e-mail among its site's services (mail-portal-front.ts), which `mail_portal_front` reads. */
  mailPortalFront?: string | null;
}

export function rawNewsReasons(input: NewsInput): RawNewsReasons | null {
  return platformOf(input) === null ? readReasons(input) : null;
}

function platformOf(input: NewsInput): PlatformKind | null {
  return platformKind(input.registrableDomain) ?? platformKind(input.host);
}

function readReasons(input: NewsInput): RawNewsReasons {
  const all = pages(input);
  // The entry page's URL when it is the site's front (isFrontPage), which two reasons below read.
  const frontUrl = input.homepage !== null && isFrontPage(input.homepage.url) ? input.homepage.url : null;
  const reasons: NewsReason[] = [
    ...publicBodyReasons(input, all),
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
  // The facts the front-only reasons read: the entry page's, when it is the site's front.
  const front = frontUrl === null ? null : input.homepage;
  const cadence = front === null ? null : frontCadence(front);
  const frequent = frequentFrontCadence(cadence);
  if (frequent !== null)
    reasons.push({
      signal: 'frequent_front',
      weight: WEIGHTS.frequent_front,
      evidence: `${frequent.dates} dated items on the front page ${frontUrl}, a median of ${round(frequent.medianGapDays * 24, 1)} hours apart: a newsroom dates its stories through the day`,
    });
  return {
    reasons,
    frontUrl,
    pageCount: all.length,
    slowFront: slowFrontCadence(cadence),
    aggregatorFront:
      front === null ? null : aggregatorSelfDescription(front.title, front.description ?? null),
    mailPortalFront:
      front === null ? null : mailPortalFront(front.title, front.og_site_name, front.description ?? null),
  };
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
  // Beside a shop's own menu or its catalogue's product pages, the sign is the shop's (a farm store's "Checkout").
  if (has('shop_menu') || has('product_links')) return;
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
      evidence: `only signs of a publisher of articles (${articleSigns.map((r) => r.signal).join(', ')}), none of a newsroom (news markup or sitemap, section menu, newsroom meta, wire credit, reader pages, frequent feed, a front dated hours apart, a sports desk's menu, a menu of journalism's kinds, a newspaper's reader features) on ${raw.pageCount} page(s)`,
    });
    sum += weight;
  }
  const layout = articleSigns.filter((r) => LAYOUT_SIGNS.has(r.signal));
  if (sum > MAYBE_CEILING_LOG_ODDS && layout.length === articleSigns.length && frontUrl !== null) {
    // Bounded like no_newsroom_sign: a front with dozens of stories under a full menu stays news; a thinner one is a
    // candidate for a person to look at, since portals, classifieds, city sites and companies' fronts have the same
    // layout.
    const weight = towardMaybe(sum, LAYOUT_ONLY_FRONT_WEIGHT);
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
  // Caps, not bounded like the three above: an aggregator's front and a mail portal's have dozens of stories under
  // a section menu, and an aggregator calls itself news, which they let through; each stays a candidate for a
  // person to look at.
  const caps = [
    ['aggregator_front', raw.aggregatorFront],
    ['mail_portal_front', raw.mailPortalFront],
  ] as const;
  for (const [signal, evidence] of caps) {
    if (!evidence || frontUrl === null || sum <= MAYBE_CEILING_LOG_ODDS) continue;
    const weight = round(MAYBE_CEILING_LOG_ODDS - sum);
    reasons.push({ signal, weight, evidence });
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
