// What changed between two discoveries of one domain (docs/design.md §3 "events"): a small summary of each discovery,
// and the events between two summaries — feeds, robots.txt, news sitemaps, AI crawlers, TDM, the site's state.
// Pure: the caller stores the summaries and the events.
import { isDeepStrictEqual } from 'node:util';
import { registrableDomainOf } from '../domain/domains.js';
import type { NewsVerdictValue, LivenessState as SiteState } from '../domain/seed-facts.js';
import { AI_CRAWLERS } from './ai-policy.js';
import type { DomainMetadata } from './contract-discovery.js';
import { parseRobotsRules } from './robots-rules.js';

export type { SiteState };

/** One discovery, reduced to what changes are computed on. `null` is "not known by this run", never "none". */
export interface DiscoverySummary {
  state: SiteState;
  feeds: string[] | null;
  main_feed: string | null;
  robots_allowed: boolean | null;
  crawl_delay: number | null;
  news_sitemaps: string[] | null;
  ai_disallowed: string[] | null;
  /** `{ value }` when the run read the site's TDM reservation (null value: none declared). */
  tdm: { value: unknown } | null;
  /** The news verdict; absent from summaries stored before verdicts existed (read as unknown). */
  news_verdict?: NewsVerdictValue | null;
  /**
   * The registrable domain the entry page answered from, after redirects; absent from summaries stored before it was
   * kept (read as unknown).
   */
  entry_site?: string | null;
}

export const CHANGE_KINDS = [
  'site_blocked',
  'site_dead',
  'site_alive',
  'feed_added',
  'feed_removed',
  'main_feed_changed',
  'robots_disallowed',
  'robots_allowed',
  'crawl_delay_changed',
  'news_sitemap_appeared',
  'news_sitemap_moved',
  'news_sitemap_vanished',
  'ai_crawler_disallowed',
  'ai_crawler_allowed',
  'tdm_reservation_changed',
  'news_verdict_changed',
  'entry_site_changed',
  // Not a difference between two discoveries: SEEDBED_AUTO_SUSPEND suspended an active seed after failed checks.
  'seed_suspended',
] as const;
export type ChangeKind = (typeof CHANGE_KINDS)[number];

export interface ChangeEvent {
  kind: ChangeKind;
  message: string;
  before: unknown;
  after: unknown;
}

export interface SummaryInput {
  state: SiteState;
  metadata: DomainMetadata;
  /** The contract's policy: `robots_allowed` for SeedbedBot, and `ai` when the discovery read AI signals. */
  policy: Record<string, unknown> | null;
  /** robots.txt as served, when one was read. */
  robotsTxt: Uint8Array | null;
  /** The origin the site is served from, for robots decisions on its root. */
  origin: string | null;
}

export function summarizeDiscovery(input: SummaryInput): DiscoverySummary {
  const { state, metadata, policy } = input;
  const unknown: DiscoverySummary = {
    state,
    feeds: null,
    main_feed: null,
    robots_allowed: null,
    crawl_delay: null,
    news_sitemaps: null,
    ai_disallowed: null,
    tdm: null,
  };
  if (state !== 'alive' || policy === null) return unknown;
  const robotsAllowed = typeof policy['robots_allowed'] === 'boolean' ? policy['robots_allowed'] : null;
  const summary: DiscoverySummary = {
    ...unknown,
    robots_allowed: robotsAllowed,
    crawl_delay: metadata.robots.crawl_delay,
    ai_disallowed: aiDisallowed(policy, input.robotsTxt, input.origin),
    tdm: tdmOf(policy),
    news_verdict: metadata.news?.verdict ?? null,
    entry_site: entrySite(metadata.homepage.final_url),
  };
  // Disallowed: feeds and sitemaps were not read, which says nothing about whether they are still there.
  if (robotsAllowed !== true) return summary;
  return {
    ...summary,
    feeds: metadata.feeds.map((feed) => feed.url),
    main_feed: metadata.feeds.find((feed) => feed.role === 'main')?.url ?? null,
    news_sitemaps: metadata.sitemap.sitemaps.filter((s) => s.news).map((s) => s.url),
  };
}

/** What a run did not learn is still what the previous run knew: a dead site has not lost its feeds. */
export function carryForward(previous: DiscoverySummary, next: DiscoverySummary): DiscoverySummary {
  if (next.feeds !== null || next.robots_allowed !== null) {
    return {
      ...next,
      feeds: next.feeds ?? previous.feeds,
      main_feed: next.feeds === null ? previous.main_feed : next.main_feed,
      news_sitemaps: next.news_sitemaps ?? previous.news_sitemaps,
      ai_disallowed: next.ai_disallowed ?? previous.ai_disallowed,
      tdm: next.tdm ?? previous.tdm,
      news_verdict: next.news_verdict ?? previous.news_verdict ?? null,
      entry_site: next.entry_site ?? previous.entry_site ?? null,
    };
  }
  return { ...previous, state: next.state };
}

/** The events between two summaries of one domain; a field unknown on either side gives none. */
export function diffDiscoveries(before: DiscoverySummary, after: DiscoverySummary): ChangeEvent[] {
  const events: ChangeEvent[] = [];
  const add = (kind: ChangeKind, message: string, from: unknown, to: unknown) =>
    events.push({ kind, message, before: from, after: to });

  if (before.state !== after.state) {
    if (after.state === 'blocked')
      add('site_blocked', 'the site now blocks SeedbedBot', before.state, after.state);
    else if (after.state === 'alive')
      add('site_alive', `the site answers again (was ${before.state})`, before.state, after.state);
    else if (before.state === 'alive' || before.state === 'blocked')
      add(
        'site_dead',
        after.state === 'dead' ? 'the site is dead' : 'the site answers only with errors',
        before.state,
        after.state,
      );
  }
  if (before.feeds !== null && after.feeds !== null) {
    for (const url of after.feeds)
      if (!before.feeds.includes(url)) add('feed_added', `feed added: ${url}`, null, url);
    for (const url of before.feeds)
      if (!after.feeds.includes(url)) add('feed_removed', `feed removed: ${url}`, url, null);
    if (before.main_feed !== after.main_feed)
      add(
        'main_feed_changed',
        `main feed is now ${after.main_feed ?? 'none'}`,
        before.main_feed,
        after.main_feed,
      );
  }
  if (before.robots_allowed !== null && after.robots_allowed !== null) {
    if (before.robots_allowed && !after.robots_allowed)
      add('robots_disallowed', 'robots.txt now disallows SeedbedBot', true, false);
    if (!before.robots_allowed && after.robots_allowed)
      add('robots_allowed', 'robots.txt now allows SeedbedBot', false, true);
    if (before.crawl_delay !== after.crawl_delay)
      add(
        'crawl_delay_changed',
        `crawl-delay is now ${after.crawl_delay ?? 'unset'}`,
        before.crawl_delay,
        after.crawl_delay,
      );
  }
  if (before.news_sitemaps !== null && after.news_sitemaps !== null) {
    const [was, is] = [before.news_sitemaps, after.news_sitemaps];
    if (was.length === 0 && is.length > 0)
      add('news_sitemap_appeared', `news sitemap appeared: ${is.join(', ')}`, was, is);
    else if (was.length > 0 && is.length === 0)
      add('news_sitemap_vanished', `news sitemap vanished: ${was.join(', ')}`, was, is);
    else if (!isDeepStrictEqual([...was].sort(), [...is].sort()))
      add('news_sitemap_moved', `news sitemap moved to ${is.join(', ')}`, was, is);
  }
  if (before.ai_disallowed !== null && after.ai_disallowed !== null) {
    for (const agent of after.ai_disallowed)
      if (!before.ai_disallowed.includes(agent))
        add('ai_crawler_disallowed', `${agent} newly disallowed`, `${agent} allowed`, `${agent} disallowed`);
    for (const agent of before.ai_disallowed)
      if (!after.ai_disallowed.includes(agent))
        add('ai_crawler_allowed', `${agent} allowed again`, `${agent} disallowed`, `${agent} allowed`);
  }
  if (before.tdm !== null && after.tdm !== null && !isDeepStrictEqual(before.tdm.value, after.tdm.value))
    add('tdm_reservation_changed', 'TDM reservation changed', before.tdm.value, after.tdm.value);
  const [wasNews, isNews] = [before.news_verdict ?? null, after.news_verdict ?? null];
  if (wasNews !== null && isNews !== null && wasNews !== isNews)
    add('news_verdict_changed', `the news verdict is now ${isNews} (was ${wasNews})`, wasNews, isNews);
  // Where the site lives: a seed that has always answered from its other name (theguardian.co.uk → theguardian.com)
  // gives no event; one whose entry page starts answering from another site (sold, renamed, merged) does.
  const [wasSite, isSite] = [before.entry_site ?? null, after.entry_site ?? null];
  if (wasSite !== null && isSite !== null && wasSite !== isSite)
    add('entry_site_changed', `the entry page now answers from ${isSite} (was ${wasSite})`, wasSite, isSite);
  return events;
}

/** The registrable domain of the entry page's final URL, or null when there is none to read. */
function entrySite(finalUrl: string | null): string | null {
  if (finalUrl === null) return null;
  try {
    return registrableDomainOf(new URL(finalUrl).hostname);
  } catch {
    return null;
  }
}

/**
 * The AI crawlers robots.txt keeps off the site's root: the policy's own `ai.disallowed_agents` when it has one (every
 * discovery since policy.ai), else the same dated list read from robots.txt.
 */
function aiDisallowed(
  policy: Record<string, unknown>,
  robotsTxt: Uint8Array | null,
  origin: string | null,
): string[] | null {
  const ai = policy['ai'];
  if (ai && typeof ai === 'object' && Array.isArray((ai as Record<string, unknown>)['disallowed_agents'])) {
    return ((ai as Record<string, unknown>)['disallowed_agents'] as unknown[]).map(String).sort();
  }
  if (origin === null) return null;
  // No robots.txt: nobody is disallowed.
  if (robotsTxt === null) return [];
  const rules = parseRobotsRules(robotsTxt);
  const root = new URL('/', origin);
  return AI_CRAWLERS.filter((agent) => !rules.decide(agent, root).allowed);
}

function tdmOf(policy: Record<string, unknown>): { value: unknown } | null {
  const ai = policy['ai'];
  if (!ai || typeof ai !== 'object' || !('tdm_reservation' in ai)) return null;
  return { value: (ai as Record<string, unknown>)['tdm_reservation'] ?? null };
}
