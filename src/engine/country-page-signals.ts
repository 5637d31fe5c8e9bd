// Country signals a page carries beside its language tags: the country code of a host's TLD (its own and those of
// the sites it links to), the UTC offset of its publication times, the address it states for itself and the region
// of og:locale. Each returns at most one reason (or null); country-guess.ts weighs them. Pure; any input is accepted.
import { domainToASCII } from 'node:url';
import { parse } from 'tldts';
import { COUNTRY_CODES, isCountryCode } from '../domain/countries.js';
import { countriesOfLanguage } from '../domain/language-countries.js';
import offsetTable from '../domain/offset-countries.json' with { type: 'json' };
import type { CountryGuess } from '../domain/seed-facts.js';

type CountryReason = CountryGuess['reasons'][number];

/**
 * Country-code TLDs sold and used worldwide as generic names (.io for tech, .tv for video, .fm for radio, .me,
 * .co…): alone they say nothing about the country. They still count under a second-level label (com.co is
 * Colombian, co.tv is not a thing) because registries there sell only to residents or locals use them.
 */
// biome-ignore format: a code list reads better packed
export const GENERIC_CCTLDS: ReadonlySet<string> = new Set([
  'ac', 'ad', 'ag', 'ai', 'am', 'as', 'bz', 'cc', 'cd', 'cx', 'co', 'dj', 'fm', 'gg', 'gl', 'gs', 'io', 'je', 'la',
  'ly', 'me', 'ms', 'mu', 'nu', 'sh', 'so', 'st', 'sx', 'tk', 'tm', 'to', 'tv', 'vc', 'vg', 'ws',
]);
/**
 * ISO 3166 names the United Kingdom gb; its TLD is .uk. .gov, .mil and .edu are generic TLDs only the United States
 * government, military and (since 2001) accredited US colleges may register — other countries use gov.xx, ac.xx,
 * edu.xx — so they name the United States like a ccTLD.
 */
const TLD_ALIASES: Readonly<Record<string, string>> = {
  uk: 'gb',
  gov: 'us',
  mil: 'us',
  edu: 'us',
  ...internationalizedCcTlds(),
  ...geographicTlds(),
};

/**
 * ICANN's geographic top-level domains, each of a region, a people or a city within one country (.cat, .bzh, .berlin,
 * .scot, .quebec, .tokyo): as telling as that country's code. Brands and words that only sound like places (.kiwi)
 * are not among them; nor is .la (Laos's code, sold as a generic one).
 */
function geographicTlds(): Record<string, string> {
  const byCountry: Record<string, string[]> = {
    es: ['cat', 'eus', 'gal', 'barcelona', 'madrid'],
    fr: ['bzh', 'alsace', 'corsica', 'paris'],
    de: ['berlin', 'hamburg', 'bayern', 'koeln', 'cologne', 'nrw', 'saarland', 'ruhr'],
    at: ['wien', 'tirol'],
    ch: ['swiss', 'zuerich'],
    be: ['brussels', 'bruxelles', 'vlaanderen', 'gent'],
    nl: ['amsterdam', 'frl'],
    gb: ['scot', 'wales', 'cymru', 'london'],
    us: ['nyc', 'boston', 'miami', 'vegas'],
    ca: ['quebec'],
    au: ['melbourne', 'sydney'],
    jp: ['tokyo', 'osaka', 'nagoya', 'okinawa', 'yokohama', 'kyoto'],
    ru: ['moscow', 'moskva', 'tatar'],
    tr: ['istanbul', 'ist'],
    za: ['capetown', 'durban', 'joburg'],
    br: ['rio'],
    fi: ['helsinki'],
    se: ['stockholm'],
    ae: ['abudhabi', 'dubai'],
    qa: ['doha'],
  };
  return Object.fromEntries(
    Object.entries(byCountry).flatMap(([country, tlds]) => tlds.map((tld) => [tld, country])),
  );
}

/**
 * The internationalised country-code TLDs (IANA's root zone: .рф, .中国, .한국, .السعودية…), each under its own script
 * and as the `xn--` name hosts carry (WHATWG URLs turn пример.рф into xn--e1afmkfd.xn--p1ai). Listed in their own
 * script so a reader can check them; the ASCII names are computed. The .ею of the European Union is not a country's.
 */
function internationalizedCcTlds(): Record<string, string> {
  // biome-ignore format: a code list reads better packed
  const byCountry: Record<string, string[]> = {
    ru: ['рф'], by: ['бел'], ua: ['укр'], rs: ['срб'], mk: ['мкд'], kz: ['қаз'], mn: ['мон'], bg: ['бг'], ge: ['გე'],
    am: ['հայ'], gr: ['ελ'], cn: ['中国', '中國'], hk: ['香港'], mo: ['澳門'], tw: ['台湾', '台灣'], sg: ['新加坡', 'சிங்கப்பூர்'],
    kr: ['한국'], th: ['ไทย'], la: ['ລາວ'], lk: ['ලංකා', 'இலங்கை'], bd: ['বাংলা'], my: ['مليسيا'],
    in: ['भारत', 'ভারত', 'ਭਾਰਤ', 'ભારત', 'இந்தியா', 'భారత్', 'ಭಾರತ', 'ഭാരതം', 'ଭାରତ', 'بھارت', 'ভাৰত', 'भारतम्', 'भारोत', 'ڀارت', 'بارت'],
    ae: ['امارات'], sa: ['السعودية'], eg: ['مصر'], ir: ['ایران'], pk: ['پاکستان'], dz: ['الجزائر'], ma: ['المغرب'],
    tn: ['تونس'], qa: ['قطر'], om: ['عمان'], jo: ['الاردن'], ps: ['فلسطين'], sy: ['سورية'], sd: ['سودان'], iq: ['عراق'],
    bh: ['البحرين'], mr: ['موريتانيا'],
  };
  const aliases: Record<string, string> = {};
  for (const [code, names] of Object.entries(byCountry))
    for (const name of names) {
      aliases[name] = code;
      aliases[domainToASCII(name)] = code;
    }
  return aliases;
}

/** The UTC offset of published times, when the page's language is spoken mainly in one country at that offset. */
export const OFFSET_WEIGHT = 1.5;
/** Share of the language's speakers (GDP-weighted, CLDR) at that offset that one country must hold. */
export const OFFSET_SHARE = 2 / 3;
/** A country stated in the page's own address (JSON-LD addressCountry, geo meta). */
export const ADDRESS_WEIGHT = 2;
/** og:locale with a region (de_AT); the language's default region (en_US, what WordPress writes) counts for less. */
export const LOCALE_WEIGHT = 1;
export const LIKELY_LOCALE_WEIGHT = 0.5;
/** External links to hosts under country-code TLDs: at least this many, one country holding LINK_SHARE of them. */
export const MIN_LINK_CCTLDS = 5;
export const LINK_SHARE = 2 / 3;
export const LINK_WEIGHT = 1;
/** …and this much more when LINK_MANY or more links point to that country. */
export const LINK_MANY = 15;
export const LINK_MANY_WEIGHT = 1.5;

/** The country of a host's country-code TLD (`.co.uk` → gb, `.com.co` → co), or null (generic, gTLD, IP). */
export function countryOfHost(host: string): { code: string; suffix: string } | null {
  if (typeof host !== 'string' || host === '') return null;
  const parsed = parse(host, { allowPrivateDomains: false, extractHostname: false });
  if (parsed.isIp || parsed.publicSuffix === null) return null;
  const labels = parsed.publicSuffix.toLowerCase().split('.');
  const top = labels[labels.length - 1]!;
  const code = TLD_ALIASES[top] ?? top;
  if (code.length !== 2 || !isCountryCode(code)) return null;
  if (labels.length === 1 && GENERIC_CCTLDS.has(top)) return null;
  return { code, suffix: parsed.publicSuffix };
}

const OFFSETS = offsetTable.offsets as Record<string, string[]>;

/** "2024-05-12T08:00:00+02:00" → "+02:00"; UTC (Z, +00:00) and times without an offset → null. */
export function offsetOfTime(time: string): string | null {
  const match = /\d{4}-\d\d-\d\d[T ]\d\d:\d\d(?::\d\d)?(?:[.,]\d+)?\s*([+-])(\d\d):?(\d\d)$/.exec(
    time.trim(),
  );
  if (match === null) return null;
  const offset = `${match[1]}${match[2]}:${match[3]}`;
  return offset === '+00:00' || offset === '-00:00' ? null : offset;
}

/**
 * The offset most of the page's times carry (UTC is left out: servers write it whatever the newsroom), and the
 * country holding OFFSET_SHARE of the language's speakers among the countries observing it then.
 */
export function offsetReason(times: readonly string[], languages: readonly string[]): CountryReason | null {
  const counts = new Map<string, number>();
  for (const time of times.slice(0, 50))
    if (typeof time === 'string') {
      const offset = offsetOfTime(time);
      if (offset !== null) counts.set(offset, (counts.get(offset) ?? 0) + 1);
    }
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (top === undefined) return null;
  const [offset] = top;
  const observing = new Set(OFFSETS[offset] ?? []);
  const language = languages[0];
  if (observing.size === 0 || language === undefined) return null;
  const candidates = (countriesOfLanguage(language)?.countries ?? []).filter(([code]) => observing.has(code));
  const total = candidates.reduce((sum, [, share]) => sum + share, 0);
  const best = candidates[0];
  if (best === undefined || best[1] < OFFSET_SHARE * total) return null;
  return {
    signal: 'published_offset',
    country: best[0],
    evidence: `published times at UTC${offset}; of the ${language} speakers there, ${Math.round((best[1] / total) * 100)}% are in ${best[0]}`,
    weight: OFFSET_WEIGHT,
  };
}

let namedCountries: Map<string, string> | null = null;

/** English names of the countries (Intl), plus the usual short forms, lower-cased → code. */
function countryByName(name: string): string | null {
  if (namedCountries === null) {
    namedCountries = new Map([
      ['usa', 'us'],
      ['u.s.', 'us'],
      ['u.s.a.', 'us'],
      ['uk', 'gb'],
      ['england', 'gb'],
    ]);
    try {
      const names = new Intl.DisplayNames(['en'], { type: 'region' });
      for (const code of COUNTRY_CODES) {
        if (code === 'intl') continue;
        const english = names.of(code.toUpperCase());
        if (english !== undefined) namedCountries.set(english.toLowerCase(), code);
      }
    } catch {
      // no ICU names: codes and the short forms above still work
    }
  }
  const lower = name.trim().toLowerCase();
  if (/^[a-z]{2}$/.test(lower))
    return lower === 'uk' ? 'gb' : isCountryCode(lower) && lower !== 'intl' ? lower : null;
  return namedCountries.get(lower) ?? null;
}

/** The country the page states in its own address or geo meta, when every stated country agrees. */
export function addressReason(stated: readonly string[]): CountryReason | null {
  const codes = new Set<string>();
  for (const value of stated.slice(0, 20)) {
    if (typeof value !== 'string') continue;
    const code = countryByName(value);
    if (code !== null) codes.add(code);
  }
  if (codes.size !== 1) return null;
  const code = [...codes][0]!;
  return {
    signal: 'address_country',
    country: code,
    evidence: `the page's address: ${stated.slice(0, 3).join(', ')}`,
    weight: ADDRESS_WEIGHT,
  };
}

/**
 * Tags that pick a spelling standard as often as a country: Commonwealth sites write en-GB, African and Asian
 * Portuguese sites pt-PT, Hong Kong sites zh-TW. They count like a likely region (weakly), in a language tag's
 * region (country-guess.ts) and in og:locale alike.
 */
export const SPELLING_LOCALES: ReadonlySet<string> = new Set([
  'en-gb',
  'en-us',
  'pt-pt',
  'pt-br',
  'zh-tw',
  'zh-cn',
  'es-es',
]);

/** og:locale's region (de_AT → at); the language's default region (en_US) weighs half. */
export function localeReason(locale: string | null | undefined): CountryReason | null {
  if (typeof locale !== 'string') return null;
  const match = /^([a-z]{2,3})[_-]([a-z]{2})$/i.exec(locale.trim());
  if (match === null) return null;
  const region = match[2]!.toLowerCase() === 'uk' ? 'gb' : match[2]!.toLowerCase();
  if (!isCountryCode(region) || region === 'intl') return null;
  // The region must be one where the language is spoken: es_LA is Facebook's "Latin America", not Laos.
  const language = countriesOfLanguage(match[1]!);
  if (language === null || !language.countries.some(([code]) => code === region)) return null;
  const likely =
    language.likely_region === region || SPELLING_LOCALES.has(`${match[1]!.toLowerCase()}-${region}`);
  return {
    signal: likely ? 'og_locale_likely_region' : 'og_locale_region',
    country: region,
    evidence: `og:locale ${locale.trim()}`,
    weight: likely ? LIKELY_LOCALE_WEIGHT : LOCALE_WEIGHT,
  };
}

/** The country most external links point to by their TLD, when one holds LINK_SHARE of the country-coded ones. */
export function linkCountryReason(urls: readonly string[]): CountryReason | null {
  const counts = new Map<string, number>();
  for (const url of urls.slice(0, 1000)) {
    if (typeof url !== 'string') continue;
    const host = /^[a-z][a-z0-9+.-]*:\/\/([^/?#:]+)/i.exec(url)?.[1] ?? url;
    const country = countryOfHost(host);
    if (country !== null) counts.set(country.code, (counts.get(country.code) ?? 0) + 1);
  }
  const total = [...counts.values()].reduce((sum, n) => sum + n, 0);
  const top = [...counts].sort((a, b) => b[1] - a[1])[0];
  if (top === undefined || total < MIN_LINK_CCTLDS || top[1] < LINK_SHARE * total) return null;
  return {
    signal: 'linked_country',
    country: top[0],
    evidence: `${top[1]} of ${total} external links under country-code TLDs point to ${top[0]}`,
    weight: top[1] >= LINK_MANY ? LINK_MANY_WEIGHT : LINK_WEIGHT,
  };
}
