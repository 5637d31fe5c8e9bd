// What a site says about itself beyond its pages' layout: its host's authority and its name (a public body, a
// newspaper word), the software that made it, its feeds' pace and freshness, its sitemap, and whether anything it
// shows carries a date. Each reader returns reasons with evidence a person can check; news-verdict.ts sums them.
import { classifyHost } from '../domain/domains.js';
import { articleUrlShape } from './article-urls.js';
import { shownTimeOf } from './news-page-reasons.js';
import {
  FEED_RATE_TIERS,
  type NewsFeedFacts,
  type NewsInput,
  type NewsReason,
  round,
  STALE_AFTER_DAYS,
  WEIGHTS,
} from './news-signals.js';
import type { PageFacts } from './page-facts.js';
import { generatorKind, newsroomName, publicBodyName } from './site-kind-signals.js';

/** Authorities (domains.ts, from the suffix's labels and the override table) of bodies that are not newsrooms. */
const PUBLIC_BODY_AUTHORITIES: ReadonlySet<string> = new Set(['gov', 'mil', 'edu']);

/** A public body: by its host's authority (a gov, mil or edu suffix), else by the site's name or its CMS. */
export function publicBodyReasons(input: NewsInput, all: PageFacts[]): NewsReason[] {
  const host = classifyHost(input.host);
  return host.ok && PUBLIC_BODY_AUTHORITIES.has(host.authority)
    ? [
        {
          signal: 'public_body_host',
          weight: WEIGHTS.public_body_host,
          evidence: `${host.host} is a ${host.authority} host`,
        },
      ]
    : publicBodySite(all);
}

function daysSince(iso: string | null, now: Date): number | null {
  if (iso === null) return null;
  const time = Date.parse(iso);
  return Number.isNaN(time) ? null : (now.getTime() - time) / 86_400_000;
}

export function feedReasons(input: NewsInput): NewsReason[] {
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
export function nothingDated(input: NewsInput, all: PageFacts[]): boolean {
  const datedPage = all.some(
    (p) => p.published_time !== null || shownTimeOf(p) !== null || p.time_elements > 0 || p.article_links > 0,
  );
  const datedFeed = input.feeds.some((f) => f.newest_item_at !== null);
  return !datedPage && !datedFeed && !(input.sitemap?.news ?? false);
}

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
export function generatorReasons(all: PageFacts[]): NewsReason[] {
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
export function newsroomNameReasons(registrableDomain: string, all: PageFacts[]): NewsReason[] {
  const page = all[0];
  const evidence = newsroomName(registrableDomain, page?.og_site_name ?? null, page?.title ?? null);
  return evidence === null ? [] : [{ signal: 'newsroom_name', weight: WEIGHTS.newsroom_name, evidence }];
}
