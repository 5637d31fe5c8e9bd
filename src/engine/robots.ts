// robots.txt for our user agent: fetch it, then answer "may we fetch this URL" (and which line decided), its
// Crawl-delay and its Sitemap lines. Status rules follow RFC 9309 §2.3.1: 4xx means no rules, 5xx/unreachable
// means stay out. Parsing and matching live in robots-rules.ts.
import { FetchError, type Fetcher } from '../ports/fetcher.js';
import { type AgentRules, parseRobotsRules, type RobotsDecision, type RobotsGroup } from './robots-rules.js';

export type { AgentRules, RobotsDecision, RobotsGroup, RobotsRule } from './robots-rules.js';

/** The product token matched against User-agent lines (the full UA is `SeedbedBot/<version> (+<docs>)`). */
export const ROBOTS_AGENT_TOKEN = 'SeedbedBot';

export interface RobotsPolicy {
  url: string;
  status_code: number | null;
  /** A robots.txt file was served (2xx). */
  exists: boolean;
  /** Seconds, for our agent's group (non-standard but honoured); null when none or nonsense. */
  crawl_delay: number | null;
  /** Every Sitemap line (any spelling Google accepts), absolute, http(s) only, once each, in file order. */
  sitemap_urls: string[];
  /** Set when the whole site is off limits because robots.txt could not be read (5xx, 429, network). */
  disallowAllReason: string | null;
  /** The file was longer than RFC 9309's 500 KiB parse limit; only what came before the limit was read. */
  truncated: boolean;
  /** Parsed groups, in file order (empty when no file was read). */
  groups: readonly RobotsGroup[];
  allowed(url: string): boolean;
  /** `allowed` plus the Allow/Disallow line that decided (null when no rule matched). */
  decide(url: string): RobotsDecision;
  /** The same questions for any product token (e.g. `GPTBot`), as if it were the crawler asking. */
  allowedFor(agent: string, url: string): boolean;
  decideFor(agent: string, url: string): RobotsDecision;
  rulesFor(agent: string): AgentRules;
}

function sitemapUrls(lines: readonly string[], base: string): string[] {
  const out = new Set<string>();
  for (const line of lines) {
    try {
      const url = new URL(line.trim(), base);
      if (url.protocol === 'http:' || url.protocol === 'https:') out.add(url.href);
    } catch {
      // an unreadable Sitemap: line is ignored, like any other bad line
    }
  }
  return [...out];
}

/** The URL when robots.txt at `origin` governs it; null for another origin or an unreadable URL. */
function governed(url: string, origin: string): URL | null {
  try {
    const parsed = new URL(url);
    return parsed.origin === origin ? parsed : null;
  } catch {
    return null;
  }
}

const NOT_GOVERNED: RobotsDecision = { allowed: true, rule: null };

/**
 * Rules of one robots.txt (text or the bytes as served). URLs on another origin are not governed by it and
 * are allowed. Only the first 500 KiB are read (RFC 9309 §2.5).
 */
export function parseRobots(
  robotsUrl: string,
  text: string | Uint8Array,
  status: number | null = 200,
  agent = ROBOTS_AGENT_TOKEN,
): RobotsPolicy {
  const parsed = parseRobotsRules(text);
  const origin = new URL(robotsUrl).origin;
  const decideFor = (who: string, url: string): RobotsDecision => {
    const target = governed(url, origin);
    return target === null ? NOT_GOVERNED : parsed.decide(who, target);
  };
  return {
    url: robotsUrl,
    status_code: status,
    exists: true,
    crawl_delay: parsed.rulesFor(agent).crawlDelay,
    sitemap_urls: sitemapUrls(parsed.sitemaps, robotsUrl),
    disallowAllReason: null,
    truncated: parsed.truncated,
    groups: parsed.groups,
    allowed: (url) => decideFor(agent, url).allowed,
    decide: (url) => decideFor(agent, url),
    allowedFor: (who, url) => decideFor(who, url).allowed,
    decideFor,
    rulesFor: (who) => parsed.rulesFor(who),
  };
}

function withoutRules(
  robotsUrl: string,
  status: number | null,
  disallowAllReason: string | null,
): RobotsPolicy {
  const origin = new URL(robotsUrl).origin;
  // No file: every agent gets the same answer; "stay out" covers this origin only.
  const decideFor = (_who: string, url: string): RobotsDecision => ({
    allowed: disallowAllReason === null || governed(url, origin) === null,
    rule: null,
  });
  return {
    url: robotsUrl,
    status_code: status,
    exists: false,
    crawl_delay: null,
    sitemap_urls: [],
    disallowAllReason,
    truncated: false,
    groups: [],
    allowed: (url) => decideFor('', url).allowed,
    decide: (url) => decideFor('', url),
    allowedFor: (who, url) => decideFor(who, url).allowed,
    decideFor,
    rulesFor: () => ({ scope: 'none', groups: [], rules: [], crawlDelay: null }),
  };
}

export interface RobotsFetch {
  policy: RobotsPolicy;
  /** The file as served (2xx only), kept as evidence. */
  body: Buffer | null;
  /** Where the file was read after redirects (2xx only): its host is told the Crawl-delay too. */
  finalUrl: string | null;
  /** Why the file could not be read at all (a FetchError code), null when something answered. */
  errorCode: string | null;
}

/**
 * Fetches `{origin}/robots.txt`. The rules are applied to the origin asked for even when the file came through
 * a redirect (RFC 9309 §2.3.1.2). Too many redirects (more than the fetcher's 5) count as "no robots.txt". A
 * file over the fetcher's cap is cut there rather than refused: only its first 500 KiB are read anyway.
 */
export async function fetchRobots(
  fetcher: Fetcher,
  origin: string,
  agent = ROBOTS_AGENT_TOKEN,
): Promise<RobotsFetch> {
  const robotsUrl = new URL('/robots.txt', origin).href;
  try {
    const res = await fetcher.fetch(robotsUrl, { kind: 'robots', truncate: true });
    if (res.status >= 200 && res.status < 300) {
      return {
        policy: parseRobots(robotsUrl, res.body, res.status, agent),
        body: res.body,
        finalUrl: res.finalUrl,
        errorCode: null,
      };
    }
    if (res.status === 429 || res.status >= 500) {
      return {
        policy: withoutRules(robotsUrl, res.status, `robots.txt answered ${res.status}`),
        body: null,
        finalUrl: null,
        errorCode: null,
      };
    }
    return { policy: withoutRules(robotsUrl, res.status, null), body: null, finalUrl: null, errorCode: null };
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    if (err.code === 'TOO_MANY_REDIRECTS' || err.code === 'REDIRECT_LOOP') {
      return {
        policy: withoutRules(robotsUrl, err.status ?? null, null),
        body: null,
        finalUrl: null,
        errorCode: null,
      };
    }
    return {
      policy: withoutRules(robotsUrl, err.status ?? null, `robots.txt unreachable: ${err.code}`),
      body: null,
      finalUrl: null,
      errorCode: err.code,
    };
  }
}
