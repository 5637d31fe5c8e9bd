// Which country a source belongs to, with its reasons: a country-code TLD, the regions of its language tags, the
// languages it publishes in (only one spoken mainly in one country counts) and the countries of the seeds citing
// it. Each signal adds a weight to its country; strong signals that disagree make the guess `intl`. Pure.
import { isCountryCode } from '../domain/countries.js';
import { countriesOfLanguage } from '../domain/language-countries.js';
import type { CountryGuess } from '../domain/seed-facts.js';
import { nationalPlatformReason, siblingDomainReason } from './country-link-signals.js';
import {
  addressReason,
  countryOfHost,
  linkCountryReason,
  localeReason,
  offsetReason,
  SPELLING_LOCALES,
} from './country-page-signals.js';
import { type PlaceNameCounts, placeCountryReason, publisherPlaceReason } from './country-place-signals.js';
import { type TextMarkers, textCountryReasons } from './country-text-signals.js';

export type { CountryGuess } from '../domain/seed-facts.js';
export { GENERIC_CCTLDS } from './country-page-signals.js';
export type CountryReason = CountryGuess['reasons'][number];

export interface CountryInput {
  host: string;
  registrableDomain: string;
  htmlLang: string | null;
  contentLanguage: string[];
  hreflang: string[];
  /** The source's languages, strongest first (languages.ts). */
  languages: Array<{ code: string }>;
  /** Countries of the seeds that link to it, with how many seeds. */
  citing?: Record<string, number>;
  /** What its pages say beside their language tags (page-facts.ts), all optional. */
  ogLocale?: string | null;
  /** Publication and modification times as written: their UTC offset, read with the language, points to a country. */
  pageTimes?: string[];
  /** addressCountry / geo meta values as written. */
  addressCountries?: string[];
  /** URLs of the external links on its pages. */
  externalLinks?: string[];
  /** Currencies, clock-time zones, spellings and privacy notices of the visible text (country-text-signals.ts). */
  textMarkers?: TextMarkers | null;
  /** Places of the gazetteer its pages name (country-place-signals.ts), read with its primary language. */
  placeNames?: PlaceNameCounts | null;
  /** The same in the link texts of its menus. */
  menuPlaceNames?: PlaceNameCounts | null;
  /** The same in the publisher's own name (site name, JSON-LD publisher, the title's last part). */
  publisherPlaceNames?: PlaceNameCounts | null;
  /** The publisher's own names as written (site name, JSON-LD publisher, the title's last part). */
  siteNames?: string[];
}

/** A country-code TLD of the host: decisive unless other strong signals disagree. */
export const CCTLD_WEIGHT = 3;
/** A region chosen in <html lang> or Content-Language (de-AT). */
export const REGION_WEIGHT = 2;
/** The language's likely region (en-US, de-DE): what a CMS writes when nobody chose. */
export const LIKELY_REGION_WEIGHT = 1;
/** The only region among hreflang alternates. */
export const HREFLANG_REGION_WEIGHT = 1;
/** Alternates for this many countries or more: a site for several countries. */
export const MANY_REGIONS = 3;
export const MANY_REGIONS_WEIGHT = 2;
/** A language spoken mainly in one country (CLDR): supports, never decides against stronger signals. */
export const DOMINANT_LANGUAGE_WEIGHT = 1;
/** Citations: at most this much, reached with 4 seeds of one country. */
export const MAX_CITING_WEIGHT = 3;
/** Two countries each this strong: the signals disagree, the source is `intl`. */
export const STRONG = 2;
/** Strong signals disagree: the source is likely read across borders, but which of them is right is unknown. */
export const DISAGREEMENT_CONFIDENCE = 0.5;
/** The total a guess needs for full confidence. */
export const FULL_CONFIDENCE = 3;

function regionOf(tag: string): string | null {
  const parts = tag.trim().toLowerCase().replace(/_/g, '-').split('-');
  // The region is the first 2-letter subtag after the language (a 4-letter one is a script: zh-Hant-TW).
  const region = parts.slice(1).find((p) => /^[a-z]{2}$/.test(p));
  if (region === undefined) return null;
  const code = region === 'uk' ? 'gb' : region;
  return isCountryCode(code) && code !== 'intl' ? code : null;
}

function regionlessTag(tag: string, region: string): string {
  return `${tag.trim().toLowerCase().split(/[-_]/)[0]}-${region}`;
}

function cctldReason(host: string): CountryReason | null {
  const country = countryOfHost(host);
  if (country === null) return null;
  return {
    signal: 'cctld',
    country: country.code,
    evidence: `${host} ends in .${country.suffix}`,
    weight: CCTLD_WEIGHT,
  };
}

function declaredRegionReasons(input: CountryInput): CountryReason[] {
  const reasons: CountryReason[] = [];
  const declared: Array<[string, string]> = [
    ...(input.htmlLang === null ? [] : [['html_lang', input.htmlLang] as [string, string]]),
    ...input.contentLanguage.map((tag) => ['content_language', tag] as [string, string]),
  ];
  const seen = new Set<string>();
  // A tag in another language than the one the source writes in is a template's (WordPress's en-US over a Bengali
  // front page): its region says where the theme was made, not where the newsroom is.
  const written = input.languages[0]?.code.split('-')[0] ?? null;
  for (const [source, tag] of declared) {
    const region = regionOf(tag);
    if (region === null || seen.has(region)) continue;
    if (written !== null && tag.split('-')[0]!.toLowerCase() !== written) continue;
    seen.add(region);
    const likely =
      countriesOfLanguage(tag)?.likely_region === region || SPELLING_LOCALES.has(regionlessTag(tag, region));
    reasons.push({
      signal: likely ? `${source}_likely_region` : `${source}_region`,
      country: region,
      evidence: likely ? `${source} ${tag} (the language's default region)` : `${source} ${tag}`,
      weight: likely ? LIKELY_REGION_WEIGHT : REGION_WEIGHT,
    });
  }
  const alternates = new Set(input.hreflang.map(regionOf).filter((r): r is string => r !== null));
  if (alternates.size >= MANY_REGIONS)
    reasons.push({
      signal: 'hreflang_many_regions',
      country: null,
      evidence: `hreflang alternates for ${alternates.size} countries: ${[...alternates].slice(0, 8).join(', ')}`,
      weight: MANY_REGIONS_WEIGHT,
    });
  else if (alternates.size === 1) {
    const region = [...alternates][0]!;
    reasons.push({
      signal: 'hreflang_region',
      country: region,
      evidence: `hreflang ${region}`,
      weight: HREFLANG_REGION_WEIGHT,
    });
  }
  return reasons;
}

function languageReasons(input: CountryInput): CountryReason[] {
  const codes = input.languages.map((l) => l.code);
  if (codes.length === 0 && input.htmlLang !== null) codes.push(input.htmlLang);
  const reasons: CountryReason[] = [];
  for (const code of codes.slice(0, 2)) {
    const dominant = countriesOfLanguage(code)?.dominant ?? null;
    if (dominant !== null && !reasons.some((r) => r.country === dominant))
      reasons.push({
        signal: 'dominant_language',
        country: dominant,
        evidence: `${code} is spoken mainly in ${dominant} (CLDR)`,
        weight: DOMINANT_LANGUAGE_WEIGHT,
      });
  }
  return reasons;
}

function pageReasons(input: CountryInput): CountryReason[] {
  const codes = input.languages.map((l) => l.code);
  if (codes.length === 0 && input.htmlLang !== null) codes.push(input.htmlLang);
  const asList = (value: unknown): string[] => (Array.isArray(value) ? value : []);
  // og:locale repeats <html lang> on most pages: it counts only for a region no language tag declared.
  const declared = new Set(
    [input.htmlLang ?? '', ...input.contentLanguage].map(regionOf).filter((r): r is string => r !== null),
  );
  const locale = localeReason(input.ogLocale);
  return [
    offsetReason(asList(input.pageTimes), codes),
    addressReason(asList(input.addressCountries)),
    locale !== null && !declared.has(locale.country ?? '') ? locale : null,
    linkCountryReason(asList(input.externalLinks)),
    siblingDomainReason(input.registrableDomain, asList(input.externalLinks)),
    nationalPlatformReason(asList(input.externalLinks), codes),
    ...textCountryReasons(input.textMarkers, codes),
    placeCountryReason(input.placeNames, codes, input.menuPlaceNames),
    publisherPlaceReason(input.publisherPlaceNames, codes, input.registrableDomain, asList(input.siteNames)),
  ].filter((r): r is CountryReason => r !== null);
}

function citingReasons(citing: Record<string, number>): CountryReason[] {
  const counts = Object.entries(citing)
    .map(([country, n]) => [country.toLowerCase(), Number.isFinite(n) ? Math.max(0, n) : 0] as const)
    .filter(([country, n]) => n > 0 && isCountryCode(country));
  const total = counts.reduce((sum, [, n]) => sum + n, 0);
  if (total === 0) return [];
  const [country, count] = [...counts].sort((a, b) => b[1] - a[1])[0]!;
  const share = count / total;
  if (counts.length >= 3 && share < 0.5)
    return [
      {
        signal: 'cited_by_many_countries',
        country: null,
        evidence: `cited by seeds of ${counts.length} countries`,
        weight: 1,
      },
    ];
  const weight = Math.min(MAX_CITING_WEIGHT, 1 + Math.log2(count)) * share;
  return [
    {
      signal: 'cited_by',
      country,
      evidence: `cited by ${count} of ${total} seed(s) from ${country}`,
      weight: Math.round(weight * 100) / 100,
    },
  ];
}

export function guessCountry(input: CountryInput): CountryGuess {
  const cctld = cctldReason(input.host) ?? cctldReason(input.registrableDomain);
  const reasons: CountryReason[] = [
    ...(cctld === null ? [] : [cctld]),
    ...declaredRegionReasons(input),
    ...languageReasons(input),
    ...pageReasons(input),
    ...citingReasons(input.citing ?? {}),
  ];
  const tally = new Map<string, number>();
  for (const reason of reasons) {
    const code = reason.country ?? 'intl';
    tally.set(code, (tally.get(code) ?? 0) + reason.weight);
  }
  const ranked = [...tally].sort((a, b) => b[1] - a[1]);
  const total = ranked.reduce((sum, [, w]) => sum + w, 0);
  if (ranked.length === 0) return { code: 'intl', confidence: 0, reasons };
  // A strong signal is one reason of weight ≥ STRONG (a ccTLD, a chosen region, a stated address, citations): two
  // countries with one each disagree; one alone wins over any sum of weak ones (default regions, time offsets…).
  const strongCountries = [
    ...new Set(reasons.filter((r) => r.country !== null && r.weight >= STRONG).map((r) => r.country!)),
  ];
  if (strongCountries.length >= 2) return { code: 'intl', confidence: DISAGREEMENT_CONFIDENCE, reasons };
  const [code, weight] =
    strongCountries.length === 1 ? [strongCountries[0]!, tally.get(strongCountries[0]!)!] : ranked[0]!;
  const confidence = (weight / total) * Math.min(1, weight / FULL_CONFIDENCE);
  return { code, confidence: Math.round(confidence * 100) / 100, reasons };
}
