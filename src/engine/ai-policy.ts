// What a site says to AI crawlers and text-and-data miners: robots.txt groups of the known AI crawlers (a dated
// list), TDMRep (/.well-known/tdmrep.json, the tdm-reservation header and meta) and noai / noimageai directives.
import { FetchError, type Fetcher } from '../ports/fetcher.js';
import type { PageSignals } from './page-signals.js';
import type { RobotsPolicy } from './robots.js';
import { matches } from './robots-pattern.js';

/** When AI_CRAWLERS was last compiled (docs/collection.md lists each token's operator and purpose). */
export const AI_CRAWLER_LIST_DATE = '2026-11-23';

/** Product tokens of crawlers (or robots.txt-only tokens) that gather content for AI training, search or answers. */
export const AI_CRAWLERS: readonly string[] = [
  'GPTBot',
  'ChatGPT-User',
  'OAI-SearchBot',
  'CCBot',
  'Google-Extended',
  'GoogleOther',
  'ClaudeBot',
  'Claude-User',
  'Claude-SearchBot',
  'anthropic-ai',
  'Claude-Web',
  'PerplexityBot',
  'Perplexity-User',
  'Bytespider',
  'Applebot-Extended',
  'Meta-ExternalAgent',
  'Meta-ExternalFetcher',
  'FacebookBot',
  'Amazonbot',
  'cohere-ai',
  'cohere-training-data-crawler',
  'Diffbot',
  'AI2Bot',
  'YouBot',
  'DuckAssistBot',
  'MistralAI-User',
  'Omgilibot',
  'Timpibot',
  'ImagesiftBot',
  'img2dataset',
];

import type { AiPolicy, AiStatus, TdmSource } from '../domain/seed-facts.js';

export type { AiPolicy, AiStatus, TdmSource } from '../domain/seed-facts.js';

export interface TdmRule {
  location: string;
  reservation: boolean | null;
  policy: string | null;
}

/** The rules of a tdmrep.json (an array of {location, tdm-reservation, tdm-policy}); null when it is not one. */
export function parseTdmRep(text: string): TdmRule[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return null;
  }
  if (!Array.isArray(parsed)) return null;
  const rules: TdmRule[] = [];
  for (const raw of parsed) {
    if (!raw || typeof raw !== 'object') continue;
    const rule = raw as Record<string, unknown>;
    if (typeof rule['location'] !== 'string') continue;
    const reservation = rule['tdm-reservation'];
    const policy = rule['tdm-policy'];
    rules.push({
      location: rule['location'],
      reservation:
        reservation === 1 || reservation === '1'
          ? true
          : reservation === 0 || reservation === '0'
            ? false
            : null,
      policy: typeof policy === 'string' && policy.trim() !== '' ? policy.trim() : null,
    });
  }
  return rules;
}

/**
 * A TDMRep location against a path: robots.txt-style, `*` any run of characters, a final `$` anchors. Matched
 * by robots.txt's linear matcher, not a RegExp built from the file: a location of some 50 KB made a RegExp
 * "too large" to compile (the throw failed the whole domain), and a RegExp of many `*` can backtrack for ages.
 */
export function tdmLocationMatches(location: string, path: string): boolean {
  let pattern = location.trim();
  if (pattern === '') return false;
  if (!pattern.startsWith('/') && !pattern.startsWith('*')) pattern = `/${pattern}`;
  return matches(pattern, path);
}

/** The rule that speaks for `url`: the first matching one, in file order. */
export function tdmRuleFor(rules: readonly TdmRule[], url: string): TdmRule | null {
  const path = new URL(url).pathname;
  return rules.find((rule) => tdmLocationMatches(rule.location, path)) ?? null;
}

/** `/.well-known/tdmrep.json` of the origin; null when absent, not JSON, or unreachable. */
export async function fetchTdmRep(fetcher: Fetcher, origin: string): Promise<TdmRule[] | null> {
  try {
    const res = await fetcher.fetch(new URL('/.well-known/tdmrep.json', origin).href, {
      kind: 'robots',
      truncate: true,
    });
    if (res.status < 200 || res.status >= 300) return null;
    return parseTdmRep(res.body.toString('utf8'));
  } catch (err) {
    if (err instanceof FetchError) return null;
    throw err;
  }
}

/** Directives of an X-Robots-Tag value: `noai, noimageai`, or `somebot: noai` (the bot name is dropped). */
function robotsTagDirectives(value: string | undefined): string[] {
  if (value === undefined) return [];
  return value
    .toLowerCase()
    .split(',')
    .map((part) => part.replace(/^[^:]*:\s*/, '').trim())
    .filter((d) => d !== '');
}

function reservationOf(value: string | null | undefined): boolean | null {
  const v = value?.trim();
  return v === '1' ? true : v === '0' ? false : null;
}

export interface AiPolicyInput {
  robots: RobotsPolicy;
  entryUrl: string;
  /** The homepage's response headers (lower-case names). */
  headers: Record<string, string>;
  page: PageSignals | null;
  /** tdmrep.json rules, or null when there was none (or it was not fetched). */
  tdmrep: readonly TdmRule[] | null;
}

export function readAiPolicy(input: AiPolicyInput): AiPolicy {
  const { robots, entryUrl } = input;
  const robotsState: AiPolicy['robots'] =
    robots.disallowAllReason !== null ? 'unreadable' : robots.exists ? 'read' : 'none';
  const disallowed: string[] = [];
  const allowed: string[] = [];
  const named: AiPolicy['named'] = [];
  if (robotsState !== 'unreadable') {
    for (const agent of AI_CRAWLERS) {
      const decision = robots.decideFor(agent, entryUrl);
      (decision.allowed ? allowed : disallowed).push(agent);
      if (robots.rulesFor(agent).scope === 'named')
        named.push({ agent, allowed: decision.allowed, line: decision.rule?.line ?? null });
    }
  }

  // TDMRep: what the homepage's own response says first, then its markup, then the site-wide file.
  const header = reservationOf(input.headers['tdm-reservation']);
  const meta = reservationOf(input.page?.tdm_reservation);
  const fileRule = input.tdmrep === null ? null : tdmRuleFor(input.tdmrep, entryUrl);
  let tdm: { reservation: boolean; policy: string | null; source: TdmSource } | null = null;
  if (header !== null)
    tdm = { reservation: header, policy: input.headers['tdm-policy']?.trim() || null, source: 'header' };
  else if (meta !== null) tdm = { reservation: meta, policy: input.page?.tdm_policy ?? null, source: 'meta' };
  else if (fileRule !== null && fileRule.reservation !== null)
    tdm = { reservation: fileRule.reservation, policy: fileRule.policy, source: 'tdmrep.json' };

  const directives = new Set([
    ...(input.page?.robots_directives ?? []),
    ...robotsTagDirectives(input.headers['x-robots-tag']),
  ]);
  const noai = directives.has('noai');
  const noimageai = directives.has('noimageai');
  const reserved = tdm?.reservation === true || noai;
  const status: AiStatus =
    disallowed.length > 0
      ? 'disallowed'
      : reserved
        ? 'reserved'
        : robotsState === 'unreadable'
          ? 'unknown'
          : 'allowed';
  return {
    crawler_list: AI_CRAWLER_LIST_DATE,
    robots: robotsState,
    disallowed_agents: disallowed,
    allowed_agents: allowed,
    named,
    tdm_reservation: tdm?.reservation ?? null,
    tdm_policy_url: tdm?.policy ?? null,
    tdm_source: tdm?.source ?? null,
    noai,
    noimageai,
    status,
  };
}
