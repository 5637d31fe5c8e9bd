// Two country hints in where a page links to, beside the count of ccTLD links (country-page-signals.ts): the
// publisher's own name under one country's TLD (elnuevodia.com linking to elnuevodia.pr, nikkei.com to
// nikkei.co.jp: the brand's national domain, kept for an e-paper, a shop or an old address), and the platforms read
// in one country only, on a page in their language (Weibo and QQ buttons on a Chinese page, src/domain/
// national-platforms.ts). Both are weak: a ccTLD or a chosen region outweighs them. Pure; any input is accepted.
import { parse } from 'tldts';
import { nationalPlatformOf } from '../domain/national-platforms.js';
import type { CountryGuess } from '../domain/seed-facts.js';
import { countryOfHost } from './country-page-signals.js';

type CountryReason = CountryGuess['reasons'][number];

/** The publisher's name under one country's TLD. */
export const SIBLING_DOMAIN_WEIGHT = 1;
/** A name this short is too often another publisher's too (abc.es and abc.net.au). */
export const MIN_SIBLING_NAME = 4;
/** Platforms of one country, on a page in its language; the country must hold this share of such links. */
export const NATIONAL_PLATFORM_WEIGHT = 1;
export const NATIONAL_PLATFORM_SHARE = 2 / 3;

const MAX_LINKS = 1000;

function hostOf(url: unknown): string | null {
  if (typeof url !== 'string') return null;
  return /^[a-z][a-z0-9+.-]*:\/\/([^/?#:@]+)/i.exec(url)?.[1]?.toLowerCase() ?? null;
}

/**
 * The country whose TLD carries the publisher's own name among its external links (elnuevodia.com → elnuevodia.pr),
 * when exactly one country does: a brand with editions in several countries (huffingtonpost.de, .fr, .co.uk) names
 * none of them.
 */
export function siblingDomainReason(
  registrableDomain: string,
  urls: readonly string[],
): CountryReason | null {
  if (typeof registrableDomain !== 'string' || !Array.isArray(urls)) return null;
  const own = parse(registrableDomain, { allowPrivateDomains: true });
  const name = own.domainWithoutSuffix;
  if (name === null || name.length < MIN_SIBLING_NAME) return null;
  const found = new Map<string, string>();
  for (const url of urls.slice(0, MAX_LINKS)) {
    const host = hostOf(url);
    if (host === null) continue;
    const linked = parse(host, { allowPrivateDomains: true });
    if (linked.domainWithoutSuffix !== name || linked.domain === own.domain) continue;
    const country = countryOfHost(host);
    if (country !== null && !found.has(country.code)) found.set(country.code, linked.domain ?? host);
  }
  if (found.size !== 1) return null;
  const [country, domain] = [...found][0]!;
  return {
    signal: 'sibling_domain',
    country,
    evidence: `links to ${domain}, its own name under the TLD of ${country}`,
    weight: SIBLING_DOMAIN_WEIGHT,
  };
}

/** The country of the national platforms the page links to, when it is written in their readers' language. */
export function nationalPlatformReason(
  urls: readonly string[],
  languages: readonly string[],
): CountryReason | null {
  if (!Array.isArray(urls) || !Array.isArray(languages)) return null;
  const language = (typeof languages[0] === 'string' ? languages[0] : '').toLowerCase().split(/[-_]/)[0];
  const counts = new Map<string, { links: number; hosts: Set<string> }>();
  let total = 0;
  for (const url of urls.slice(0, MAX_LINKS)) {
    const host = hostOf(url);
    const platform = host === null ? null : nationalPlatformOf(host);
    if (platform === null || platform.language !== language) continue;
    const entry = counts.get(platform.country) ?? { links: 0, hosts: new Set<string>() };
    entry.links += 1;
    entry.hosts.add(host!);
    counts.set(platform.country, entry);
    total += 1;
  }
  const top = [...counts].sort((a, b) => b[1].links - a[1].links)[0];
  if (top === undefined || top[1].links < NATIONAL_PLATFORM_SHARE * total) return null;
  const [country, { links, hosts }] = top;
  return {
    signal: 'national_platform',
    country,
    evidence: `${links} link(s) to platforms read in ${country} (${[...hosts].slice(0, 4).join(', ')})`,
    weight: NATIONAL_PLATFORM_WEIGHT,
  };
}
