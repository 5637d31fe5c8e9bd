// The places a page names, for a page whose host and tags leave the country open (a `.com` in Spanish, German or
// Arabic): a newsroom's headlines and text name its own country's cities and regions far more than any other's,
// and its menus give them sections. Names come from the gazetteer (src/domain/place-names.ts), matched whole-word
// and case-sensitive (Arabic with its one- or two-letter proclitics: وبيروت, ببغداد; Chinese, which has no spaces,
// by the longest name at each character). Read with the page's language: only that language's countries count.
// Pure; nothing throws.
import { COUNTRY_CODES } from '../domain/countries.js';
import { allPlaceNames, type PlaceOf, placesOfLanguage } from '../domain/place-names.js';
import type { CountryGuess } from '../domain/seed-facts.js';

type CountryReason = CountryGuess['reasons'][number];

/** The gazetteer's spellings a page's texts name, with how many times (at most MAX_NAMES spellings). */
export type PlaceNameCounts = Record<string, number>;

const MAX_NAMES = 300;
const MAX_MENTIONS = 1000;
/**
 * A word that starts with a capital or an uncased letter (Arabic, Chinese, Devanagari): every name of the table
 * does, and skipping lower-case words is most of the text. Han characters run on into Latin ones (Top15中国), so a
 * word holding any is read character by character instead.
 */
const TOKEN = /[\p{Lu}\p{Lt}\p{Lo}][\p{L}\p{M}\p{N}]*/gu;
const WORD_CHAR = /[\p{L}\p{M}\p{N}]/u;
const HAN = /\p{Script=Han}/u;
const ARABIC_PROCLITICS = 'وبلفك';
/**
 * Nepali writes its postpositions onto the word: काठमाडौंमा "in Kathmandu", काठमाडौंको "of", काठमाडौंबाट "from". A
 * Devanagari name followed by one of these still ends there (Hindi writes its postpositions apart).
 */
const DEVANAGARI = /\p{Script=Devanagari}/u;
// biome-ignore format: a word list reads better packed
const NEPALI_POSTPOSITIONS = ['मा', 'को', 'का', 'की', 'ले', 'लाई', 'बाट', 'सम्म', 'भित्र', 'तिर', 'वासी', 'मै'];

interface Matcher {
  /** Names by their first word, longest first (Buenos Aires before Buenos). */
  byFirstWord: Map<string, string[]>;
  /** The same in capitals, for menus and headings set in capitals (VENEZUELA, BUENOS AIRES). */
  byFirstWordUpper: Map<string, string[]>;
  han: Set<string>;
  longestHan: number;
}

let matcher: Matcher | null = null;
function builtMatcher(): Matcher {
  if (matcher !== null) return matcher;
  const byFirstWord = new Map<string, string[]>();
  const byFirstWordUpper = new Map<string, string[]>();
  const han = new Set<string>();
  let longestHan = 0;
  for (const name of allPlaceNames()) {
    if (HAN.test(name)) {
      han.add(name);
      longestHan = Math.max(longestHan, name.length);
      continue;
    }
    const first = /^[\p{L}\p{M}\p{N}]+/u.exec(name)?.[0];
    if (first === undefined) continue;
    byFirstWord.set(first, [...(byFirstWord.get(first) ?? []), name]);
    const upper = first.toUpperCase();
    byFirstWordUpper.set(upper, [...(byFirstWordUpper.get(upper) ?? []), name]);
  }
  for (const names of [...byFirstWord.values(), ...byFirstWordUpper.values()])
    names.sort((a, b) => b.length - a.length);
  matcher = { byFirstWord, byFirstWordUpper, han, longestHan };
  return matcher;
}

/**
 * The longest name that starts at `at` in `text` and ends at a word boundary: as written, or all in capitals when
 * the word is (a capitalised name is still a name; a lower-cased one may be a common word).
 */
function nameAt(
  text: string,
  at: string,
  index: number,
  m: Matcher,
): { name: string; length: number } | null {
  for (const name of m.byFirstWord.get(at) ?? [])
    if (text.startsWith(name, index) && nameEndsAt(text, index + name.length, name))
      return { name, length: name.length };
  if (at.length < 2 || at !== at.toUpperCase() || at === at.toLowerCase()) return null;
  for (const name of m.byFirstWordUpper.get(at) ?? []) {
    const upper = name.toUpperCase();
    if (text.startsWith(upper, index) && boundaryAt(text, index + upper.length))
      return { name, length: upper.length };
  }
  return null;
}

/** A name the Devanagari token holds before a Nepali postposition written onto it (पोखराबाट: पोखरा), or null. */
function nameBeforePostposition(
  text: string,
  token: string,
  index: number,
  m: Matcher,
): { name: string; length: number } | null {
  for (const p of NEPALI_POSTPOSITIONS)
    if (token.length > p.length && token.endsWith(p)) {
      const found = nameAt(text, token.slice(0, -p.length), index, m);
      if (found !== null) return found;
    }
  return null;
}

/** Whether a name found at `end` ends there: a word boundary, or for a Devanagari name a Nepali postposition and one. */
function nameEndsAt(text: string, end: number, name: string): boolean {
  if (boundaryAt(text, end)) return true;
  if (!DEVANAGARI.test(name)) return false;
  return NEPALI_POSTPOSITIONS.some((p) => text.startsWith(p, end) && boundaryAt(text, end + p.length));
}

function boundaryAt(text: string, index: number): boolean {
  const after = text[index];
  return after === undefined || !WORD_CHAR.test(after);
}

/** The gazetteer's names in the texts (a title, the visible text, menu link texts), counted. */
export function readPlaceNames(texts: readonly string[]): PlaceNameCounts {
  const counts: PlaceNameCounts = {};
  if (!Array.isArray(texts)) return counts;
  const m = builtMatcher();
  let mentions = 0;
  let distinct = 0;
  const add = (name: string) => {
    if (mentions >= MAX_MENTIONS) return;
    if (counts[name] === undefined) {
      if (distinct >= MAX_NAMES) return;
      distinct += 1;
    }
    counts[name] = (counts[name] ?? 0) + 1;
    mentions += 1;
  };
  for (const text of texts) {
    if (typeof text !== 'string' || text === '') continue;
    // The one global pattern, its lastIndex set to each text's start (nothing below reads another text with it).
    const tokens = TOKEN;
    tokens.lastIndex = 0;
    for (let match = tokens.exec(text); match !== null; match = tokens.exec(text)) {
      if (mentions >= MAX_MENTIONS) return counts;
      const token = match[0];
      if (HAN.test(token)) {
        for (let i = 0; i < token.length; ) {
          const found = longestHanAt(token, i, m);
          if (found === null) i += 1;
          else {
            add(found);
            i += found.length;
          }
        }
        continue;
      }
      // A capital inside a word (iPhone, McDonald) starts no name.
      if (match.index > 0 && WORD_CHAR.test(text[match.index - 1]!)) continue;
      let found = nameAt(text, token, match.index, m);
      // Arabic writes و (and), ب (in), ل (for), ف, ك onto the next word: ببيروت is "in Beirut".
      for (let k = 1; found === null && k <= 2 && k < token.length - 2; k++) {
        if (!ARABIC_PROCLITICS.includes(token[k - 1]!)) break;
        found = nameAt(text, token.slice(k), match.index + k, m);
        if (found !== null) found = { name: found.name, length: found.length + k };
      }
      // Nepali: the token is the name with its postposition written on (काठमाडौंमा): look the stem up.
      if (found === null && DEVANAGARI.test(token))
        found = nameBeforePostposition(text, token, match.index, m);
      if (found === null) continue;
      add(found.name);
      tokens.lastIndex = Math.max(tokens.lastIndex, match.index + found.length);
    }
  }
  return counts;
}

function longestHanAt(token: string, i: number, m: Matcher): string | null {
  for (let length = Math.min(m.longestHan, token.length - i); length >= 2; length--) {
    const candidate = token.slice(i, i + length);
    if (m.han.has(candidate)) return candidate;
  }
  return null;
}

/** Places a country needs in the text: one or two names are a story abroad, three a newsroom's own beat. */
export const MIN_PLACES = 3;
/** The share of all the mentions of the language's places that country must hold. */
export const PLACE_SHARE = 2 / 3;
/** Places a country needs in the menus, where no other country's may appear: sections are the beat itself. */
export const MIN_MENU_PLACES = 2;
/**
 * …or one place named this often there (a "Venezuela" or "Oregon" section in the header and the footer menus) with
 * one more of its country's places in the text: a newsroom files its home news under its country's or region's
 * name, a foreign desk files several countries.
 */
export const MIN_MENU_REPEATS = 2;
/** Below a ccTLD's or a chosen region's say, above a language's default region (es-ES, de-DE) or og:locale. */
export const PLACE_WEIGHT = 1.5;

/** Per country: its distinct places, all their mentions, and the mentions of its most-named place. */
type PlacesByCountry = Map<string, { places: Set<string>; mentions: number; topMentions: number }>;

function placesByCountry(counts: PlaceNameCounts | null | undefined, table: ReadonlyMap<string, PlaceOf>) {
  const byCountry: PlacesByCountry = new Map();
  let total = 0;
  if (counts === null || typeof counts !== 'object') return { byCountry, total };
  for (const [name, n] of Object.entries(counts)) {
    const place = table.get(name);
    if (place === undefined || typeof n !== 'number' || !(n > 0)) continue;
    const entry = byCountry.get(place.country) ?? { places: new Set<string>(), mentions: 0, topMentions: 0 };
    entry.places.add(place.place);
    entry.mentions += n;
    entry.topMentions = Math.max(entry.topMentions, n);
    byCountry.set(place.country, entry);
    total += n;
  }
  return { byCountry, total };
}

function listed(places: Set<string>): string {
  return [...places].slice(0, 6).join(', ') + (places.size > 6 ? '…' : '');
}

/**
 * The page's places, read with its primary language, as a country reason: its menus naming places of one country
 * only (Wien and Österreich as sections), else its title and text naming MIN_PLACES of one country that holds
 * PLACE_SHARE of the mentions.
 */
export function placeCountryReason(
  counts: PlaceNameCounts | null | undefined,
  languages: readonly string[],
  menuCounts?: PlaceNameCounts | null,
): CountryReason | null {
  const table = placesOfLanguage(typeof languages?.[0] === 'string' ? languages[0] : '');
  if (table === null) return null;
  const menu = placesByCountry(menuCounts, table).byCountry;
  const { byCountry, total } = placesByCountry(counts, table);
  if (menu.size === 1) {
    const [country, { places, topMentions }] = [...menu][0]!;
    if (places.size >= MIN_MENU_PLACES)
      return {
        signal: 'place_names',
        country,
        evidence: `its menus name places of ${country} only (${listed(places)})`,
        weight: PLACE_WEIGHT,
      };
    // One place as a section (the header's and the footer's), and one more of its country's places in the text
    // (Venezuela and Caracas, Oregon and Portland): a page that names only that place is as likely a story about it.
    const inText = byCountry.get(country)?.places ?? new Set<string>();
    const all = new Set([...places, ...inText]);
    if (topMentions >= MIN_MENU_REPEATS && all.size >= MIN_MENU_PLACES)
      return {
        signal: 'place_names',
        country,
        evidence: `its menus name ${listed(places)} ${topMentions} times and no other country; with its text ${listed(all)}`,
        weight: PLACE_WEIGHT,
      };
  }
  const top = [...byCountry].sort(
    (a, b) => b[1].places.size - a[1].places.size || b[1].mentions - a[1].mentions,
  )[0];
  if (top === undefined) return null;
  const [country, { places, mentions }] = top;
  if (places.size < MIN_PLACES || mentions < PLACE_SHARE * total) return null;
  return {
    signal: 'place_names',
    country,
    evidence: `${places.size} places of ${country} named (${listed(places)}), ${mentions} of ${total} mentions of places`,
    weight: PLACE_WEIGHT,
  };
}

/**
 * A newsroom named for its city, region or country (The Dallas Morning News, La Presse de Tunisie, Berliner Zeitung)
 * is that place's: as much as a page naming its places, not as much as a ccTLD or a chosen region — outlets named for
 * a country they cover from abroad exist (a Mexico news daily in English), so it stays weak.
 */
export const PUBLISHER_PLACE_WEIGHT = 1.5;
/** A place's letters a domain must begin or end with: shorter names are too often parts of other words. */
export const MIN_DOMAIN_PLACE_LETTERS = 5;

function lettersOf(text: string): string {
  return text.toLowerCase().replace(/[^\p{L}]/gu, '');
}

/**
 * The table's places the domain's name begins or ends with, after a leading "the" (dallasnews.com, newyorker.com,
 * braunschweiger-zeitung.de, thestar → nothing): how newsrooms named for a place name their sites.
 */
function domainPlaces(registrableDomain: string, table: ReadonlyMap<string, PlaceOf>): Map<string, string[]> {
  const byCountry = new Map<string, string[]>();
  const label = lettersOf(
    (typeof registrableDomain === 'string' ? registrableDomain : '').split('.')[0] ?? '',
  );
  const bare = label.startsWith('the') ? label.slice(3) : label;
  if (bare.length < MIN_DOMAIN_PLACE_LETTERS) return byCountry;
  for (const [name, place] of table) {
    const letters = lettersOf(name);
    if (letters.length < MIN_DOMAIN_PLACE_LETTERS) continue;
    if (!bare.startsWith(letters) && !bare.endsWith(letters)) continue;
    const places = byCountry.get(place.country) ?? [];
    if (!places.includes(place.place)) places.push(place.place);
    byCountry.set(place.country, places);
  }
  return byCountry;
}

/**
 * Country names an English publisher's name may hold (The Japan Times, Lesotho Times, Mexico News Daily): every
 * country's English name (Intl), except those that are also a US state's (Georgia) or part of one (New Jersey).
 */
let englishCountryNames: Array<[string, string]> | null = null;
const US_STATE_HOMONYMS: ReadonlySet<string> = new Set(['Georgia', 'Jersey']);

function englishCountryNamesIn(siteNames: readonly string[]): Map<string, string[]> {
  if (englishCountryNames === null) {
    englishCountryNames = [];
    try {
      const names = new Intl.DisplayNames(['en'], { type: 'region' });
      for (const code of COUNTRY_CODES) {
        const name = code === 'intl' ? undefined : names.of(code.toUpperCase());
        if (name !== undefined && /^[\p{L} ]+$/u.test(name) && !US_STATE_HOMONYMS.has(name))
          englishCountryNames.push([name, code]);
      }
    } catch {
      // no ICU names: the gazetteer's places still count
    }
  }
  const byCountry = new Map<string, string[]>();
  const text = siteNames
    .filter((n) => typeof n === 'string')
    .join(' ; ')
    .slice(0, 2000);
  if (text === '') return byCountry;
  for (const [name, code] of englishCountryNames) {
    if (!text.includes(name)) continue;
    // Whole words, as capitalised; never after "New" (New Mexico) or a compass point (South China Morning Post).
    const at = new RegExp(`(?<!\\p{L})(?<!(?:New|North|South|East|West|Central) )${name}(?!\\p{L})`, 'u');
    if (at.test(text)) byCountry.set(code, [name]);
  }
  return byCountry;
}

/**
 * The places the publisher's own name and address give (og:site_name, JSON-LD publisher, the title's last part,
 * JSON-LD addressLocality / addressRegion, the domain's name), read with the page's primary language: a reason when they are places of one country only.
 */
export function publisherPlaceReason(
  counts: PlaceNameCounts | null | undefined,
  languages: readonly string[],
  registrableDomain = '',
  siteNames: readonly string[] = [],
): CountryReason | null {
  const primary = typeof languages?.[0] === 'string' ? languages[0] : '';
  const table = placesOfLanguage(primary);
  if (table === null) return null;
  const named = placesByCountry(counts, table).byCountry;
  const inDomain = domainPlaces(registrableDomain, table);
  const english = primary.toLowerCase().split(/[-_]/)[0] === 'en';
  const countryNamed = english ? englishCountryNamesIn(Array.isArray(siteNames) ? siteNames : []) : new Map();
  const countries = new Set([...named.keys(), ...inDomain.keys(), ...countryNamed.keys()]);
  if (countries.size !== 1) return null;
  const [country] = [...countries] as [string];
  const sources = [
    ...(named.has(country) ? [`its name or address names ${listed(named.get(country)!.places)}`] : []),
    ...(inDomain.has(country)
      ? [`its domain ${registrableDomain} names ${inDomain.get(country)!.join(', ')}`]
      : []),
    ...(countryNamed.has(country) ? [`its name names ${countryNamed.get(country)!.join(', ')}`] : []),
  ];
  return {
    signal: 'publisher_place',
    country,
    evidence: `the publisher (site name, publisher, title, address or domain): ${sources.join('; ')}`,
    weight: PUBLISHER_PLACE_WEIGHT,
  };
}
