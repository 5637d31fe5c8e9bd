// Contract discovery for one domain: liveness, robots.txt, sitemaps, feeds and the homepage, turned into the
// domain_metadata.json record (docs/design.md §4), its evidence files, and a draft seed contract (or the reason for none).
import type { CountryGuess, NewsVerdict } from '../domain/seed-facts.js';
import type { Fetcher, Validators } from '../ports/fetcher.js';
import { type AiPolicy, fetchTdmRep, readAiPolicy, type TdmRule } from './ai-policy.js';
import type { FeedReader } from './feed-content.js';
import { type DiscoveredFeed, discoverFeeds, type FeedRecord, feedFetchUrls, feedRecord } from './feeds.js';
import { cadenceFor, cronFor, type Freshness, measureFreshness } from './freshness.js';
import { readHomepage } from './homepage-read.js';
import { type SourceLanguage, sourceLanguages } from './languages.js';
import { type LivenessOptions, type LivenessResult, probeLiveness } from './liveness.js';
import { countingFetcher, requestBudget } from './request-budget.js';
import {
  type PreviousDiscovery,
  revalidatableSitemaps,
  revalidatingFetcher,
  unchangedSitemaps,
} from './revalidation.js';
import { fetchRobots, type RobotsFetch } from './robots.js';
import {
  discoverSitemaps,
  type SitemapDiscovery,
  type SitemapLimits,
  type SitemapMetadata,
  sitemapMetadata,
} from './sitemaps.js';
import { judgeSource, type Outlink } from './source-verdicts.js';
import { decodeText } from './text-decoding.js';

export interface DomainMetadata {
  domain_id: string;
  registrable_domain: string;
  country: string;
  category: string;
  collected_at: string;
  robots: {
    url: string | null;
    status_code: number | null;
    exists: boolean;
    crawl_delay: number | null;
    sitemap_urls: string[];
  };
  /** url, status_code, exists, url_count (distinct page URLs), plus truncation, per-sitemap counts and aggregates. */
  sitemap: SitemapMetadata;
  /** Every feed found, ranked as a person would pick them (main, section, comments, item). */
  feeds: FeedRecord[];
  homepage: { final_url: string | null; status_code: number | null };
  /** Publication rate and newest item, from the main feeds and the news sitemaps. */
  freshness: Freshness;
  /** Declared languages with their sources, strongest first; detected from titles when none is declared. */
  languages: SourceLanguage[];
  /** What robots.txt, TDMRep and noai say to AI crawlers; null when the homepage was not reached. */
  ai: AiPolicy | null;
  /** Is it a news source, with the reasons; null when the homepage was not reached. */
  news: NewsVerdict | null;
  /** Its country as its signals tell it, with the reasons; null when the homepage was not reached. */
  country_guess: CountryGuess | null;
  /** Other sites it links to (discovery's candidates) and the article pages read to decide `news`. */
  outlinks: Outlink[];
  sampled_articles: string[];
  /** Where the domain came from: a batch, or a raw dataset file (only the keys given are written). */
  source: { batch_id?: string; raw_file_path?: string };
  /** By URL: the ETag / Last-Modified of robots.txt and the sitemaps, sent back by the next run (revalidation.ts). */
  validators: Record<string, Validators>;
  /** URLs that answered 304 Not Modified to this run (robots.txt read from the last copy, a sitemap tree not re-read). */
  not_modified: string[];
  /** Requests this run sent to the site: redirects, 429/503 retries and revalidations (304s) included. */
  requests: number;
}

export interface SeedDraft {
  /** The homepage's <title>. */
  name: string | null;
  entry_url: string;
  fetch: { type: 'rss' | 'sitemap' | 'html'; urls: string[] };
  /** The same ranked feeds as the metadata; `fetch.urls` holds only the main and category-matching ones. */
  feeds: FeedRecord[];
  /** Cron, five fields, UTC. */
  schedule: string;
  policy: { robots_url: string; robots_allowed: boolean; crawl_delay: number | null; sitemap_urls: string[] };
  /** Facts beside the contract (the seed's `freshness`, `languages` and `policy.ai`), as in the metadata. */
  freshness: Freshness;
  languages: SourceLanguage[];
  ai: AiPolicy;
  news: NewsVerdict;
  country_guess: CountryGuess;
}

export interface ContractInput {
  domainId: string;
  registrableDomain: string;
  /** The host whose homepage is the entry (`seedbed probe www.bbc.co.uk`); the registrable domain when absent. */
  host?: string;
  country: string;
  category: string;
  source?: { batch_id?: string; raw_file_path?: string };
  /** Overrides of the sitemap budgets (files, bytes, time, depth); the defaults suit a big publisher. */
  sitemapLimits?: Partial<SitemapLimits>;
  /** A source whose newest item is older than this is stale (SEEDBED_STALE_AFTER_DAYS); 30 when absent. */
  staleAfterDays?: number;
  /** The domain's last discovery: robots.txt and sitemaps are revalidated against it instead of read again. */
  previous?: PreviousDiscovery | null;
  /** Countries of the seeds citing the domain (a discovery candidate's), for its country guess. */
  citing?: Record<string, number>;
}

export interface ContractDiscovery {
  liveness: LivenessResult;
  metadata: DomainMetadata;
  evidence: { robotsTxt: Buffer | null; sitemapXml: Buffer | null };
  draft: SeedDraft | null;
  /** The feeds with their item aggregates (dates, titles, language) for freshness and language work. */
  feeds: DiscoveredFeed[];
  /** Why there is no draft (null when there is one). */
  reason: string | null;
}

/**
 * The schedule when no rate could be measured: feeds and Google News sitemaps hourly, anything else daily. With a
 * rate, the table in freshness.ts decides (cadenceFor). Spread by a hash of the domain either way.
 */
export function scheduleFor(domain: string, frequent: boolean, freshness: Freshness | null = null): string {
  return cronFor(domain, cadenceFor(freshness, frequent));
}

function sourceOf(input: ContractInput): DomainMetadata['source'] {
  const source: DomainMetadata['source'] = {};
  if (input.source?.batch_id !== undefined) source.batch_id = input.source.batch_id;
  if (input.source?.raw_file_path !== undefined) source.raw_file_path = input.source.raw_file_path;
  return source;
}

const nothingFetched = (
  now: Date,
): Pick<
  DomainMetadata,
  | 'robots'
  | 'sitemap'
  | 'feeds'
  | 'freshness'
  | 'languages'
  | 'ai'
  | 'validators'
  | 'not_modified'
  | 'news'
  | 'country_guess'
  | 'outlinks'
  | 'sampled_articles'
> => ({
  news: null,
  country_guess: null,
  outlinks: [],
  sampled_articles: [],
  robots: { url: null, status_code: null, exists: false, crawl_delay: null, sitemap_urls: [] },
  sitemap: sitemapMetadata(null),
  feeds: [],
  freshness: measureFreshness({ feeds: [], news: null, now }),
  languages: [],
  ai: null,
  validators: {},
  not_modified: [],
});

/** The sitemap limits with the request budget's file count, never raising what the caller set. */
function sitemapLimitsWithin(
  limits: Partial<SitemapLimits> | undefined,
  files: number | null,
): Partial<SitemapLimits> | undefined {
  if (files === null) return limits;
  return { ...limits, maxFiles: Math.min(limits?.maxFiles ?? files, files) };
}

/**
 * robots.txt is the first request to a host, so its Crawl-delay holds from the second request on (the homepage
 * included). The delay is given to the host asked and to the host that served the file after redirects
 * (example.org/robots.txt → www.example.org/robots.txt, where the homepage will be read too).
 */
async function robotsFirst(fetcher: Fetcher, origin: string): Promise<RobotsFetch> {
  const robots = await fetchRobots(fetcher, origin);
  const delay = robots.policy.crawl_delay;
  if (delay !== null) {
    fetcher.setCrawlDelay(new URL(origin).hostname, delay);
    if (robots.finalUrl !== null) {
      const servedBy = new URL(robots.finalUrl).hostname;
      if (servedBy !== new URL(origin).hostname) fetcher.setCrawlDelay(servedBy, delay);
    }
  }
  return robots;
}

/**
 * https failures that hint at a plain-http site and are known at once (a timeout is not: waiting for it twice
 * would double a dead site's cost).
 */
const HTTP_ONLY_SIGNS: ReadonlySet<string> = new Set(['ECONNREFUSED', 'TLS']);

/** The https origin of a host as liveness will ask it, or null for a host liveness refuses (it fetches nothing). */
function httpsOrigin(host: string): string | null {
  const name = host.trim().toLowerCase().replace(/\.$/, '');
  try {
    const url = new URL(`https://${name}/`);
    return name !== '' && url.hostname === name ? url.origin : null;
  } catch {
    return null;
  }
}

/**
 * A liveness answer of error / NETWORK_UNAVAILABLE (see isNetworkUnavailable) comes back like any other dead end,
 * with no draft: the caller must retry it later rather than record it.
 */
/** The liveness options, and how fetched feeds are read (on another thread: feed-reader-pool.ts). */
export interface ContractOptions extends LivenessOptions {
  readFeed?: FeedReader;
}

export async function discoverContract(
  network: Fetcher,
  input: ContractInput,
  options: ContractOptions = {},
): Promise<ContractDiscovery> {
  // Counted below the revalidating layer: an answer it hands over a second time was sent once.
  const counter = countingFetcher(network);
  const fetcher = revalidatingFetcher(counter, input.previous ?? null);
  const now = options.now ?? (() => new Date());
  const entryHost = input.host ?? input.registrableDomain;
  // robots.txt before the homepage: a Crawl-delay must hold for the site's second request already. A site that
  // turns out dead cost one request more; its robots.txt is not recorded.
  let firstOrigin = httpsOrigin(entryHost);
  let firstRobots = firstOrigin === null ? null : await robotsFirst(fetcher, firstOrigin);
  if (firstOrigin !== null && HTTP_ONLY_SIGNS.has(firstRobots?.errorCode ?? '')) {
    // https refused or not spoken: liveness will try plain http, so its robots.txt goes first there too.
    firstOrigin = firstOrigin.replace(/^https:/, 'http:');
    firstRobots = await robotsFirst(fetcher, firstOrigin);
  }
  const probe = await probeLiveness(fetcher, entryHost, { now, canary: options.canary ?? null });
  const { result: liveness, response: homepage } = probe;
  const base = {
    domain_id: input.domainId,
    registrable_domain: input.registrableDomain,
    country: input.country,
    category: input.category,
  };
  const homepageMeta = { final_url: liveness.final_url, status_code: liveness.http_status };

  // Only a live homepage is worth a contract: a blocked, dead or erroring site is not fetched any further.
  if (!liveness.alive || liveness.final_url === null) {
    const metadata: DomainMetadata = {
      ...base,
      collected_at: now().toISOString(),
      ...nothingFetched(now()),
      homepage: homepageMeta,
      source: sourceOf(input),
      requests: counter.requests,
    };
    const reason = `domain is ${liveness.state}: ${liveness.error_message ?? liveness.error_code ?? 'no answer'}`;
    return {
      liveness,
      metadata,
      evidence: { robotsTxt: null, sitemapXml: null },
      draft: null,
      feeds: [],
      reason,
    };
  }

  const entryUrl = liveness.final_url;
  const entry = new URL(entryUrl);
  // robots.txt of the origin that actually serves the site (after e.g. example.org → www.example.org, or
  // https → http): the one read first when it is the same origin, else read now.
  const robots =
    firstRobots !== null && entry.origin === firstOrigin
      ? firstRobots
      : await robotsFirst(fetcher, entry.origin);
  const policy = robots.policy;
  // A site's Crawl-delay prices its requests: from 5 s on, only what it names plus a guess of each kind.
  const budget = requestBudget(policy.crawl_delay);
  const robotsAllowed = policy.allowed(entryUrl);
  const html = homepage === null ? null : decodeText(homepage.body, homepage.headers['content-type']);
  // Read once for the feed finder, the declared signals and the verdicts: tokenising is the costly part.
  const read = html === null ? null : readHomepage(html, entryUrl);

  // Disallowed on the entry path: the draft is recorded for a person to decide, but nothing past robots.txt
  // is fetched. The homepage was already read by the liveness check, so its title is still used.
  let sitemaps: SitemapDiscovery | null = null;
  let feeds: DiscoveredFeed[] = [];
  if (robotsAllowed) {
    const roots = revalidatableSitemaps(input.previous ?? null, policy.sitemap_urls);
    const previousSitemap = input.previous?.sitemap;
    sitemaps =
      roots && previousSitemap && (await fetcher.unchanged(roots))
        ? unchangedSitemaps(previousSitemap, roots.length)
        : await discoverSitemaps(fetcher, {
            origin: entry.origin,
            listed: policy.sitemap_urls,
            allowed: policy.allowed,
            now,
            limits: sitemapLimitsWithin(input.sitemapLimits, budget.sitemapFiles),
            guesses: { sitemaps: budget.sitemapGuesses, news: budget.newsSitemapGuesses },
          });
    feeds = await discoverFeeds(fetcher, {
      pageUrl: entryUrl,
      html,
      entry: read?.page ?? null,
      allowed: policy.allowed,
      now,
      budget: { fetches: budget.feedFetches, pages: budget.feedPages, guesses: budget.feedGuesses },
      ...(options.readFeed ? { readFeed: options.readFeed } : {}),
    });
  }
  // TDMRep's site-wide file is read like any other path: only where robots.txt lets us in.
  const tdmUrl = new URL('/.well-known/tdmrep.json', entry.origin).href;
  const tdmrep: TdmRule[] | null =
    budget.tdmrep && robotsAllowed && policy.allowed(tdmUrl)
      ? await fetchTdmRep(fetcher, entry.origin)
      : null;
  const signals = read?.signals ?? null;
  const headers = homepage?.headers ?? {};
  const news = sitemaps?.news ? sitemaps.aggregates.news : null;
  const freshness = measureFreshness({ feeds, news, now: now(), staleAfterDays: input.staleAfterDays });
  const languages = sourceLanguages({
    page: signals,
    contentLanguage: headers['content-language'],
    feeds,
    sitemap: sitemaps?.aggregates ?? null,
    pageTitles: read === null ? [] : [read.facts.title ?? '', ...read.facts.headlines],
    pageText: read?.facts.text_sample ?? '',
  });
  const ai = readAiPolicy({ robots: policy, entryUrl, headers, page: signals, tdmrep });
  // Last, so its article samples (when the verdict needs them) come after everything the contract itself reads.
  const verdicts = await judgeSource(fetcher, {
    entryUrl,
    registrableDomain: input.registrableDomain,
    html,
    homepage: read?.facts ?? null,
    contentLanguage: headers['content-language'],
    languages,
    feeds,
    sitemap: sitemaps ? { exists: sitemaps.exists, news: sitemaps.news } : null,
    sitemapOtherHosts: sitemaps?.aggregates.other_hosts ?? [],
    allowed: (url) => robotsAllowed && policy.allowed(url),
    maxSamples: budget.articleSamples,
    ...(input.citing ? { citing: input.citing } : {}),
    now: now(),
  });

  const metadata: DomainMetadata = {
    ...base,
    collected_at: now().toISOString(),
    robots: {
      url: policy.url,
      status_code: policy.status_code,
      exists: policy.exists,
      crawl_delay: policy.crawl_delay,
      sitemap_urls: policy.sitemap_urls,
    },
    sitemap: sitemapMetadata(sitemaps),
    feeds: feeds.map(feedRecord),
    homepage: homepageMeta,
    freshness,
    languages,
    ai,
    news: verdicts.news,
    country_guess: verdicts.country_guess,
    outlinks: verdicts.outlinks,
    sampled_articles: verdicts.sampled,
    source: sourceOf(input),
    validators: fetcher.validators(),
    not_modified: [...fetcher.notModified],
    // Last, after the article samples: every request of the run is in.
    requests: counter.requests,
  };

  // Only the main feed and the sections about the seed's category: a comments feed is never fetched as content.
  const feedUrls = feedFetchUrls(feeds, input.category);
  const fetchPlan: SeedDraft['fetch'] =
    feedUrls.length > 0
      ? { type: 'rss', urls: feedUrls }
      : sitemaps?.exists
        ? { type: 'sitemap', urls: sitemaps.sitemap_urls }
        : { type: 'html', urls: [entryUrl] };
  const draft: SeedDraft = {
    name: read?.page.title ?? null,
    entry_url: entryUrl,
    fetch: fetchPlan,
    feeds: metadata.feeds,
    schedule: scheduleFor(input.registrableDomain, feeds.length > 0 || (sitemaps?.news ?? false), freshness),
    policy: {
      robots_url: policy.url,
      robots_allowed: robotsAllowed,
      crawl_delay: policy.crawl_delay,
      sitemap_urls: [...new Set([...policy.sitemap_urls, ...(sitemaps?.sitemap_urls ?? [])])],
    },
    freshness,
    languages,
    ai,
    news: verdicts.news,
    country_guess: verdicts.country_guess,
  };
  return {
    liveness,
    metadata,
    evidence: { robotsTxt: robots.body, sitemapXml: sitemaps?.firstBody ?? null },
    draft,
    feeds,
    reason: null,
  };
}
