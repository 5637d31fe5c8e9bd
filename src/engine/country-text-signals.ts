// Country hints in a page's visible text, for pages whose host and language tags say nothing (an English .com):
// the currency of the prices it quotes (£, ₹, C$…), the time zone written after its clock times ("10:14 a.m. EDT"),
// a US state-privacy notice ("Do Not Sell or Share My Personal Information") and American spellings (color,
// center, favorite) where no Commonwealth spelling appears. Each is weak (country-guess.ts lets any strong signal
// win over them). Pure; any input is accepted, nothing throws.
import type { CountryGuess } from '../domain/seed-facts.js';
import {
  emptyIdentityMarkers,
  type IdentityMarkers,
  identityCountryReasons,
  readIdentityMarkers,
} from './country-identity-signals.js';

type CountryReason = CountryGuess['reasons'][number];

export interface TextMarkers {
  /** American-only and Commonwealth-only spellings counted in the text (color / colour, center / centre…). */
  us_spellings: number;
  gb_spellings: number;
  /** Time-zone abbreviations written after a clock time, with how many times. */
  time_zones: Record<string, number>;
  /** Amounts by the country their currency sign names (£ → gb, ₹ → in), with how many. */
  currencies: Record<string, number>;
  /** A link or notice required by US state privacy laws (CCPA and its successors). */
  us_privacy_notice: boolean;
  /** Telephone numbers and printed registrations (country-identity-signals.ts). */
  identity: IdentityMarkers;
  /** Characters written only in Simplified, and only in Traditional Chinese (absent from facts read before them). */
  simplified_han?: number;
  traditional_han?: number;
  /** Temperatures in degrees Fahrenheit, and AP-style US state abbreviations (Calif., N.Y.), counted. */
  fahrenheit?: number;
  us_state_abbreviations?: number;
}

export function emptyTextMarkers(): TextMarkers {
  return {
    us_spellings: 0,
    gb_spellings: 0,
    time_zones: {},
    currencies: {},
    us_privacy_notice: false,
    identity: emptyIdentityMarkers(),
    simplified_han: 0,
    traditional_han: 0,
    fahrenheit: 0,
    us_state_abbreviations: 0,
  };
}

/** Spellings of one standard only: the other standard never writes them (Canadian writes "colour" and "-ize"). */
const US_SPELLING =
  /\b(?:colors?|colored|favorites?|honors?|honored|labor|neighbors?|neighborhoods?|behaviors?|humor|flavors?|centers?|centered|theaters?|liters?|fibers?|defense|offense|catalog|traveled|traveling|traveler|jewelry|gray|pajamas|aluminum|program(?:s|med|ming)?)\b/gi;
const GB_SPELLING =
  /\b(?:colours?|coloured|favourites?|honours?|honoured|labour|neighbours?|neighbourhoods?|behaviours?|humour|flavours?|centres?|centred|theatres?|litres?|fibres?|defence|offence|catalogue|travelled|travelling|traveller|jewellery|grey|pyjamas|aluminium|programmes?)\b/gi;

/** Abbreviations written after a clock time, and the country that uses them most (by GDP among their users). */
// biome-ignore format: a table reads better packed
const ZONE_COUNTRIES: Readonly<Record<string, string>> = {
  ET: 'us', EST: 'us', EDT: 'us', CT: 'us', CDT: 'us', MT: 'us', MST: 'us', MDT: 'us', PT: 'us', PST: 'us',
  PDT: 'us', AKST: 'us', AKDT: 'us', HST: 'us', BST: 'gb', AEST: 'au', AEDT: 'au', ACST: 'au', ACDT: 'au',
  AWST: 'au', NZST: 'nz', NZDT: 'nz', IST: 'in', SAST: 'za', HKT: 'hk', SGT: 'sg', PHT: 'ph', MYT: 'my',
  JST: 'jp', KST: 'kr', WIB: 'id', PKT: 'pk', MSK: 'ru',
};
const CLOCK_ZONE =
  /\b\d{1,2}(?:[:.]\d\d\s*(?:[aApP]\.?[mM]\.?)?|\s*[aApP]\.?[mM]\.?)\s+(ET|EST|EDT|CT|CDT|MT|MST|MDT|PT|PST|PDT|AKST|AKDT|HST|BST|AEST|AEDT|ACST|ACDT|AWST|NZST|NZDT|IST|SAST|HKT|SGT|PHT|MYT|JST|KST|WIB|PKT|MSK)\b/g;

/**
 * Currency signs (before or after an amount) that belong to one country; $, ¥ and kr are shared, € is read apart
 * (EURO). A space may follow a sign (`R$ 49,90`, Brazil's usual way); no letter may come before one (`US$`
 * is not Singapore's `S$`, `CA$` not Australia's `A$`).
 */
const CURRENCY_BEFORE: Array<[RegExp, string]> = [
  [/(?<![A-Za-z])(?:C\$|CA\$|CAD)\s?\d/g, 'ca'],
  [/(?<![A-Za-z])(?:A\$|AU\$|AUD)\s?\d/g, 'au'],
  [/(?<![A-Za-z])(?:NZ\$|NZD)\s?\d/g, 'nz'],
  [/(?<![A-Za-z])(?:HK\$|HKD)\s?\d/g, 'hk'],
  [/(?<![A-Za-z])(?:S\$|SGD)\s?\d/g, 'sg'],
  [/(?<![A-Za-z])(?:R\$|BRL)\s?\d/g, 'br'],
  [/(?:£|GBP\s?)\s?\d/g, 'gb'],
  [/(?:₹|INR\s?)\s?\d/g, 'in'],
  [/(?:₦|NGN\s?)\s?\d/g, 'ng'],
  [/₱\s?\d/g, 'ph'],
  [/(?:₩|KRW\s?)\s?\d/g, 'kr'],
  [/(?:₺|TRY\s?)\s?\d/g, 'tr'],
  [/(?:₴|UAH\s?)\s?\d/g, 'ua'],
  [/(?:₽|RUB\s?)\s?\d/g, 'ru'],
  [/(?:RM|MYR\s)\s?\d/g, 'my'],
  [/CHF\s?\d/g, 'ch'],
];
/**
 * The euro is shared by twenty countries, so its amounts are counted apart (this key) and name a country only through
 * the page's language, where exactly one euro country writes it (EURO_COUNTRY_OF_LANGUAGE).
 */
export const EURO = 'eur';
const EURO_AMOUNTS: RegExp[] = [/(?:€|EUR\s?)\s?\d/g, /\d\s?(?:€|EUR(?!\p{L}))/gu];
/**
 * The one euro-area country whose language this is (primary subtag), for the languages only one of them writes: a
 * Portuguese page quoting euros is Portugal's (Brazil pays in reais), a Spanish or Galician one Spain's. Left out: the
 * languages several euro countries write (de, fr, nl, el, en, ca), and Swedish (Finland's, but Sweden's own writers quote
 * euros abroad).
 */
// biome-ignore format: a table reads better packed
const EURO_COUNTRY_OF_LANGUAGE: Readonly<Record<string, string>> = {
  pt: 'pt', es: 'es', gl: 'es', it: 'it', fi: 'fi', et: 'ee', lv: 'lv', lt: 'lt', sk: 'sk', sl: 'si', mt: 'mt',
  hr: 'hr', ga: 'ie', lb: 'lu',
};
const CURRENCY_AFTER: Array<[RegExp, string]> = [
  [/\d\s?(?:zł|PLN)(?!\p{L})/gu, 'pl'],
  [/\d\s?(?:Kč|CZK)(?!\p{L})/gu, 'cz'],
  [/\d\s?(?:₺|TL)(?!\p{L})/gu, 'tr'],
  [/\d\s?(?:₽|руб\.)/gu, 'ru'],
  [/\d\s?(?:₴|грн)/gu, 'ua'],
  [/\d\s?CHF(?!\p{L})/gu, 'ch'],
];

const US_PRIVACY =
  /do not sell or share my personal information|do not sell my (?:personal )?info|your (?:california )?privacy choices|california notice at collection|notice of right to opt[- ]out/i;

const MAX_TEXT = 200_000;

function count(text: string, pattern: RegExp): number {
  let n = 0;
  for (const _ of text.matchAll(pattern)) if (++n >= 1000) break;
  return n;
}

/** What the visible text says about a country (see the module comment). */
export function readTextMarkers(text: string): TextMarkers {
  const markers = emptyTextMarkers();
  if (typeof text !== 'string' || text === '') return markers;
  const source = text.slice(0, MAX_TEXT);
  markers.us_spellings = count(source, US_SPELLING);
  markers.gb_spellings = count(source, GB_SPELLING);
  let zones = 0;
  for (const match of source.matchAll(CLOCK_ZONE)) {
    const zone = match[1]!;
    markers.time_zones[zone] = (markers.time_zones[zone] ?? 0) + 1;
    if (++zones >= 200) break;
  }
  for (const [pattern, code] of [...CURRENCY_BEFORE, ...CURRENCY_AFTER]) {
    const n = count(source, pattern);
    if (n > 0) markers.currencies[code] = (markers.currencies[code] ?? 0) + n;
  }
  const euros = EURO_AMOUNTS.reduce((n, pattern) => n + count(source, pattern), 0);
  if (euros > 0) markers.currencies[EURO] = euros;
  markers.us_privacy_notice = US_PRIVACY.test(source);
  markers.identity = readIdentityMarkers(source);
  markers.simplified_han = count(source, SIMPLIFIED_ONLY);
  markers.traditional_han = count(source, TRADITIONAL_ONLY);
  markers.fahrenheit = count(source, FAHRENHEIT);
  markers.us_state_abbreviations = count(source, AP_STATE);
  return markers;
}

/**
 * Common characters whose Simplified and Traditional forms differ (这/這, 国/國, 说/說…): the script a Chinese page is
 * set in. Simplified is written in mainland China and by far smaller readerships in Singapore and Malaysia, so it
 * names China; Traditional is split between Taiwan and Hong Kong and names neither.
 */
const SIMPLIFIED_ONLY =
  /[这们说国会时来对发为经过还动进学实现关长开问间东两应电车马门见书产业从个样报网华区亿]/gu;
const TRADITIONAL_ONLY =
  /[這們說國會時來對發為經過還動進學實現關長開問間東兩應電車馬門見書產業從個樣報網華區億]/gu;
/** Temperatures in °F: only the United States (and a few small states around it) measure weather so. */
const FAHRENHEIT = /\d\s?°\s?F\b|\bdegrees Fahrenheit\b/g;
/**
 * The state abbreviations of the AP Stylebook, which US newsrooms write after a town (Fresno, Calif.; Camden, N.J.);
 * Canadian Press abbreviates provinces instead, and other English newsrooms write states out.
 */
const AP_STATE =
  /(?<![\w.])(?:Ala|Ariz|Ark|Calif|Colo|Conn|Fla|Ga|Ill|Kan|Ky|Md|Mass|Mich|Minn|Miss|Mont|Neb|Nev|Okla|Ore|Pa|Tenn|Va|Vt|Wash|Wis|Wyo|N\.[HJMYCD]|S\.[CD]|R\.I|W\.Va)\.(?=[\s,)])/g;

/** Simplified-only characters a Chinese page needs, and how many times more than Traditional-only ones. */
export const MIN_SCRIPT_CHARS = 20;
export const SCRIPT_RATIO = 10;

/** Each marker's weight: all are weak, so a ccTLD, a chosen region or an address always wins over them. */
export const TEXT_WEIGHTS = {
  us_spelling: 0.5,
  time_zone: 1,
  /**
   * A single clock time in a zone: mostly the story's own timestamp ("December 29, 2014 4:08 pm EST"), so the zone
   * the newsroom works in, but once it may be a match or broadcast time abroad — it decides only where nothing else
   * speaks.
   */
  one_time_zone: 0.5,
  currency: 1,
  us_privacy_notice: 0.5,
  simplified_chinese: 1,
  fahrenheit: 1,
  us_state_abbreviations: 1,
} as const;
/** American spellings needed, and how many times more of them than Commonwealth ones. */
export const MIN_US_SPELLINGS = 2;
export const US_SPELLING_RATIO = 5;
/** Amounts or clock times needed, and the share one country must hold of them. */
export const MIN_TEXT_MARKS = 2;
export const TEXT_MARK_SHARE = 2 / 3;

function topCountry(
  counts: Record<string, number>,
  countryOf: (key: string) => string | undefined,
): [string, number, number] | null {
  const byCountry = new Map<string, number>();
  let total = 0;
  for (const [key, n] of Object.entries(counts ?? {})) {
    const country = countryOf(key);
    if (country === undefined || typeof n !== 'number' || !(n > 0)) continue;
    byCountry.set(country, (byCountry.get(country) ?? 0) + n);
    total += n;
  }
  const top = [...byCountry].sort((a, b) => b[1] - a[1])[0];
  return top === undefined ? null : [top[0], top[1], total];
}

/**
 * The text markers as country reasons. Spellings count for English only; American spelling names the United
 * States (Commonwealth spelling is shared by too many countries to name one).
 */
export function textCountryReasons(
  markers: TextMarkers | null | undefined,
  languages: readonly string[],
): CountryReason[] {
  if (markers === null || typeof markers !== 'object') return [];
  const reasons: CountryReason[] = [];
  // The spelling, temperature and state-abbreviation patterns are English words: they are read on an English page
  // and on one whose language is unknown (no tag, too few titles to detect it), never on another language's page.
  const primary = (languages[0] ?? '').toLowerCase().split(/[-_]/)[0];
  const english = primary === 'en' || primary === '';
  const us = Number(markers.us_spellings) || 0;
  const gb = Number(markers.gb_spellings) || 0;
  if (english && us >= MIN_US_SPELLINGS && gb * US_SPELLING_RATIO <= us)
    reasons.push({
      signal: 'us_spelling',
      country: 'us',
      evidence: `${us} American spellings (color, center…), ${gb} Commonwealth ones`,
      weight: TEXT_WEIGHTS.us_spelling,
    });
  const zone = topCountry(markers.time_zones, (key) => ZONE_COUNTRIES[key]);
  if (zone !== null && zone[2] >= MIN_TEXT_MARKS && zone[1] >= TEXT_MARK_SHARE * zone[2])
    reasons.push({
      signal: 'text_time_zone',
      country: zone[0],
      evidence: `clock times in ${Object.keys(markers.time_zones).slice(0, 4).join(', ')} (${zone[1]} of ${zone[2]})`,
      weight: TEXT_WEIGHTS.time_zone,
    });
  else if (zone !== null && zone[2] === 1)
    reasons.push({
      signal: 'text_time_zone',
      country: zone[0],
      evidence: `one clock time in ${Object.keys(markers.time_zones).find((key) => ZONE_COUNTRIES[key] === zone[0])}`,
      weight: TEXT_WEIGHTS.one_time_zone,
    });
  // Euro amounts name the one euro country that writes the page's language, or nobody (and then count for none).
  const euroCountry = EURO_COUNTRY_OF_LANGUAGE[primary ?? ''];
  const euros = Number(markers.currencies?.[EURO]) || 0;
  const currency = topCountry(markers.currencies, (key) => (key === EURO ? euroCountry : key));
  if (currency !== null && currency[2] >= MIN_TEXT_MARKS && currency[1] >= TEXT_MARK_SHARE * currency[2])
    reasons.push({
      signal: 'text_currency',
      country: currency[0],
      evidence:
        currency[0] === euroCountry && euros > 0
          ? `${currency[1]} of ${currency[2]} amounts in euros on a page in ${primary}, which of the euro countries only ${currency[0]} writes`
          : `${currency[1]} of ${currency[2]} amounts in the currency of ${currency[0]}`,
      weight: TEXT_WEIGHTS.currency,
    });
  if (markers.us_privacy_notice === true)
    reasons.push({
      signal: 'us_privacy_notice',
      country: 'us',
      evidence:
        'a US state-privacy notice ("Do Not Sell or Share My Personal Information", "Your Privacy Choices")',
      weight: TEXT_WEIGHTS.us_privacy_notice,
    });
  const fahrenheit = Number(markers.fahrenheit) || 0;
  if (english && fahrenheit >= MIN_TEXT_MARKS)
    reasons.push({
      signal: 'fahrenheit',
      country: 'us',
      evidence: `${fahrenheit} temperatures in degrees Fahrenheit`,
      weight: TEXT_WEIGHTS.fahrenheit,
    });
  const states = Number(markers.us_state_abbreviations) || 0;
  if (english && states >= MIN_TEXT_MARKS)
    reasons.push({
      signal: 'us_state_abbreviations',
      country: 'us',
      evidence: `${states} AP-style US state abbreviations (Calif., N.Y.…)`,
      weight: TEXT_WEIGHTS.us_state_abbreviations,
    });
  const simplified = Number(markers.simplified_han) || 0;
  const traditional = Number(markers.traditional_han) || 0;
  const chinese = (languages[0] ?? '').toLowerCase().split(/[-_]/)[0] === 'zh';
  if (chinese && simplified >= MIN_SCRIPT_CHARS && traditional * SCRIPT_RATIO <= simplified)
    reasons.push({
      signal: 'simplified_chinese',
      country: 'cn',
      evidence: `set in Simplified Chinese (${simplified} Simplified-only characters, ${traditional} Traditional-only)`,
      weight: TEXT_WEIGHTS.simplified_chinese,
    });
  reasons.push(...identityCountryReasons(markers.identity));
  return reasons;
}
