// robots.txt for our user agent: fetch it, then answer "may we fetch this URL", its Crawl-delay and its Sitemap
// lines. Status rules follow RFC 9309 §2.3.1: 4xx means no rules, 5xx/unreachable means stay out.
import robotsParserModule from 'robots-parser';
import { FetchError, type Fetcher } from '../ports/fetcher.js';

/** The product token matched against User-agent lines (the full UA is `SeedbedBot/<version> (+<docs>)`). */
export const ROBOTS_AGENT_TOKEN = 'SeedbedBot';

export interface RobotsPolicy {
  url: string;
  status_code: number | null;
  /** A robots.txt file was served (2xx). */
  exists: boolean;
  crawl_delay: number | null;
  sitemap_urls: string[];
  /** Set when the whole site is off limits because robots.txt could not be read (5xx, 429, network). */
  disallowAllReason: string | null;
  allowed(url: string): boolean;
}

interface Parsed {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

// robots-parser is CommonJS (module.exports = function) but its typings declare an ES default export, which
// NodeNext reads as `.default`; at run time the default import IS the function.
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => Parsed;

function sitemapUrls(lines: string[], base: string): string[] {
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

/** Rules of one robots.txt text. URLs on another origin are not governed by it and are allowed. */
export function parseRobots(
  robotsUrl: string,
  text: string,
  status: number | null = 200,
  agent = ROBOTS_AGENT_TOKEN,
): RobotsPolicy {
  const parser = robotsParser(robotsUrl, text.replace(/^\uFEFF/, ''));
  const delay = parser.getCrawlDelay(agent);
  return {
    url: robotsUrl,
    status_code: status,
    exists: true,
    crawl_delay: delay !== undefined && Number.isFinite(delay) && delay > 0 ? delay : null,
    sitemap_urls: sitemapUrls(parser.getSitemaps(), robotsUrl),
    disallowAllReason: null,
    allowed: (url) => parser.isAllowed(url, agent) ?? true,
  };
}

function withoutRules(
  robotsUrl: string,
  status: number | null,
  disallowAllReason: string | null,
): RobotsPolicy {
  const origin = new URL(robotsUrl).origin;
  return {
    url: robotsUrl,
    status_code: status,
    exists: false,
    crawl_delay: null,
    sitemap_urls: [],
    disallowAllReason,
    allowed: (url) => disallowAllReason === null || !sameOrigin(url, origin),
  };
}

function sameOrigin(url: string, origin: string): boolean {
  try {
    return new URL(url).origin === origin;
  } catch {
    return false;
  }
}

export interface RobotsFetch {
  policy: RobotsPolicy;
  /** The file as served (2xx only), kept as evidence. */
  body: Buffer | null;
}

/**
 * Fetches `{origin}/robots.txt`. The rules are applied to the origin asked for even when the file came through
 * a redirect (RFC 9309 §2.3.1.2). Too many redirects count as "no robots.txt".
 */
export async function fetchRobots(
  fetcher: Fetcher,
  origin: string,
  agent = ROBOTS_AGENT_TOKEN,
): Promise<RobotsFetch> {
  const robotsUrl = new URL('/robots.txt', origin).href;
  try {
    const res = await fetcher.fetch(robotsUrl, { kind: 'robots' });
    if (res.status >= 200 && res.status < 300) {
      return { policy: parseRobots(robotsUrl, res.body.toString('utf8'), res.status, agent), body: res.body };
    }
    if (res.status === 429 || res.status >= 500) {
      return { policy: withoutRules(robotsUrl, res.status, `robots.txt answered ${res.status}`), body: null };
    }
    return { policy: withoutRules(robotsUrl, res.status, null), body: null };
  } catch (err) {
    if (!(err instanceof FetchError)) throw err;
    if (err.code === 'TOO_MANY_REDIRECTS' || err.code === 'REDIRECT_LOOP') {
      return { policy: withoutRules(robotsUrl, err.status ?? null, null), body: null };
    }
    return {
      policy: withoutRules(robotsUrl, err.status ?? null, `robots.txt unreachable: ${err.code}`),
      body: null,
    };
  }
}
