// Where the publisher says it is, in its own small print: the telephone numbers it gives (their international
// calling code, or a North American area code) and the registrations a country's law makes a publisher print (a
// VAT or company number in that country's format, a press registration, China's ICP licence). These name the
// organisation's country even on a `.com` page whose language is shared by many countries, which is where the
// language rule (a language alone never decides) leaves the guess `intl`. Pure; any input is accepted.
import type { CountryGuess } from '../domain/seed-facts.js';

type CountryReason = CountryGuess['reasons'][number];

export interface IdentityMarkers {
  /** Telephone numbers by the country their calling code (or NANP area code) names, with how many. */
  phones: Record<string, number>;
  /** The first registration of each country the text prints, as found (the reason's evidence). */
  registrations: Record<string, string>;
}

export function emptyIdentityMarkers(): IdentityMarkers {
  return { phones: {}, registrations: {} };
}

// ITU country calling codes (E.164). The codes are prefix-free, so the first one to match a number's leading
// digits is its code. +1 is the North American Numbering Plan, resolved by area code below.
// biome-ignore format: a table reads better packed
const CALLING_CODES: Readonly<Record<string, string>> = {
  7: 'ru', 20: 'eg', 27: 'za', 30: 'gr', 31: 'nl', 32: 'be', 33: 'fr', 34: 'es', 36: 'hu', 39: 'it', 40: 'ro',
  41: 'ch', 43: 'at', 44: 'gb', 45: 'dk', 46: 'se', 47: 'no', 48: 'pl', 49: 'de', 51: 'pe', 52: 'mx', 53: 'cu',
  54: 'ar', 55: 'br', 56: 'cl', 57: 'co', 58: 've', 60: 'my', 61: 'au', 62: 'id', 63: 'ph', 64: 'nz', 65: 'sg',
  66: 'th', 81: 'jp', 82: 'kr', 84: 'vn', 86: 'cn', 90: 'tr', 91: 'in', 92: 'pk', 93: 'af', 94: 'lk', 95: 'mm',
  98: 'ir', 211: 'ss', 212: 'ma', 213: 'dz', 216: 'tn', 218: 'ly', 220: 'gm', 221: 'sn', 223: 'ml', 225: 'ci',
  226: 'bf', 227: 'ne', 228: 'tg', 229: 'bj', 230: 'mu', 231: 'lr', 232: 'sl', 233: 'gh', 234: 'ng', 235: 'td',
  236: 'cf', 237: 'cm', 241: 'ga', 242: 'cg', 243: 'cd', 244: 'ao', 248: 'sc', 249: 'sd', 250: 'rw', 251: 'et',
  252: 'so', 253: 'dj', 254: 'ke', 255: 'tz', 256: 'ug', 257: 'bi', 258: 'mz', 260: 'zm', 261: 'mg', 263: 'zw',
  264: 'na', 265: 'mw', 266: 'ls', 267: 'bw', 268: 'sz', 291: 'er', 297: 'aw', 298: 'fo', 299: 'gl', 350: 'gi',
  351: 'pt', 352: 'lu', 353: 'ie', 354: 'is', 355: 'al', 356: 'mt', 357: 'cy', 358: 'fi', 359: 'bg', 370: 'lt',
  371: 'lv', 372: 'ee', 373: 'md', 374: 'am', 375: 'by', 376: 'ad', 377: 'mc', 378: 'sm', 380: 'ua', 381: 'rs',
  382: 'me', 385: 'hr', 386: 'si', 387: 'ba', 389: 'mk', 420: 'cz', 421: 'sk', 423: 'li', 501: 'bz', 502: 'gt',
  503: 'sv', 504: 'hn', 505: 'ni', 506: 'cr', 507: 'pa', 509: 'ht', 591: 'bo', 592: 'gy', 593: 'ec', 595: 'py',
  597: 'sr', 598: 'uy', 852: 'hk', 853: 'mo', 855: 'kh', 856: 'la', 880: 'bd', 886: 'tw', 960: 'mv', 961: 'lb',
  962: 'jo', 963: 'sy', 964: 'iq', 965: 'kw', 966: 'sa', 967: 'ye', 968: 'om', 970: 'ps', 971: 'ae', 972: 'il',
  973: 'bh', 974: 'qa', 975: 'bt', 976: 'mn', 977: 'np', 992: 'tj', 993: 'tm', 994: 'az', 995: 'ge', 996: 'kg',
  998: 'uz',
};

// North American area codes outside the United States (Canada, and the territories and Caribbean countries that
// share +1); toll-free codes name no country. Every other area code is taken as the United States.
// biome-ignore format: a table reads better packed
const NANP_AREAS: Readonly<Record<string, string>> = {
  204: 'ca', 226: 'ca', 236: 'ca', 249: 'ca', 250: 'ca', 263: 'ca', 289: 'ca', 306: 'ca', 343: 'ca', 354: 'ca',
  365: 'ca', 367: 'ca', 368: 'ca', 382: 'ca', 403: 'ca', 416: 'ca', 418: 'ca', 428: 'ca', 431: 'ca', 437: 'ca',
  438: 'ca', 450: 'ca', 460: 'ca', 468: 'ca', 474: 'ca', 506: 'ca', 514: 'ca', 519: 'ca', 548: 'ca', 579: 'ca',
  581: 'ca', 584: 'ca', 587: 'ca', 604: 'ca', 613: 'ca', 639: 'ca', 647: 'ca', 672: 'ca', 683: 'ca', 705: 'ca',
  709: 'ca', 742: 'ca', 753: 'ca', 778: 'ca', 780: 'ca', 782: 'ca', 807: 'ca', 819: 'ca', 825: 'ca', 867: 'ca',
  873: 'ca', 879: 'ca', 902: 'ca', 905: 'ca', 787: 'pr', 939: 'pr', 876: 'jm', 658: 'jm', 868: 'tt', 246: 'bb',
  242: 'bs', 441: 'bm', 345: 'ky', 809: 'do', 829: 'do', 849: 'do', 284: 'vg', 340: 'vi', 671: 'gu', 670: 'mp',
  684: 'as', 264: 'ai', 268: 'ag', 473: 'gd', 664: 'ms', 721: 'sx', 758: 'lc', 767: 'dm', 784: 'vc', 869: 'kn',
  649: 'tc',
};
const TOLL_FREE = new Set(['800', '833', '844', '855', '866', '877', '888']);

/**
 * An international number: + or 00, then digits spaced the ways people write them (+43 1 514 14, +49 (0)30 12345,
 * 0041-44-123 45 67). One character class, so no input can make it backtrack; the digits are counted after.
 */
const INTERNATIONAL = /(?<![\d+])(?:\+|\b00)\s?(\d[\d\s./()-]{6,24}\d)(?!\d)/g;
/** A national trunk prefix written in brackets after the code: +49 (0)30 … is +49 30 …. */
const TRUNK_ZERO = /\(0\)/;
/** A North American number written the national way: (416) 555-0123, 1-416-555-0123, 416-555-0123. */
const NANP_NATIONAL = /(?<![\d+-])(?:1[\s.-])?\(?([2-9]\d\d)\)?[\s.-]\d{3}[\s.-]\d{4}(?![\d-])/g;

function countryOfInternational(digits: string): string | null {
  if (digits.startsWith('1')) return countryOfArea(digits.slice(1, 4));
  for (const length of [1, 2, 3]) {
    const code = CALLING_CODES[digits.slice(0, length)];
    if (code !== undefined) return code === 'ru' && /^7[67]/.test(digits) ? 'kz' : code;
  }
  return null;
}

function countryOfArea(area: string): string | null {
  if (TOLL_FREE.has(area) || !/^[2-9]\d\d$/.test(area)) return null;
  return NANP_AREAS[area] ?? 'us';
}

/** A registration a country's law makes a publisher print, in that country's own format. */
// biome-ignore format: one registration per line
const REGISTRATIONS: ReadonlyArray<[RegExp, string, string]> = [
  [/\bATU\s?\d{8}\b/, 'at', 'an Austrian VAT number'],
  [/\b(?:USt\.?-?Id(?:Nr|-Nr)?\.?|Umsatzsteuer-Identifikationsnummer|UID|VAT(?:\sID|\sNo\.?|\snumber)?)\s*:?\s*DE\s?\d{9}\b/i, 'de', 'a German VAT number'],
  [/\bCHE[-\s]?\d{3}\.\d{3}\.\d{3}\b/, 'ch', 'a Swiss company number (CHE-…)'],
  [/\b(?:P\.\s?IVA|Partita\s+IVA|P\.IVA)\s*:?\s*(?:IT\s?)?\d{11}\b/i, 'it', 'an Italian VAT number (Partita IVA)'],
  [/\b(?:C\.?I\.?F\.?|N\.?I\.?F\.?)\s*:?\s*[ABCDEFGHJNPQRSUVW]-?\d{7}[0-9A-J]\b/, 'es', 'a Spanish tax number (CIF/NIF)'],
  [/\bSIRE[NT]\s*:?\s*\d{3}\s?\d{3}\s?\d{3}/, 'fr', 'a French company number (SIREN/SIRET)'],
  [/\bCNPJ\s*:?\s*\d{2}\.?\d{3}\.?\d{3}\/?\d{4}-?\d{2}/, 'br', 'a Brazilian company number (CNPJ)'],
  [/\bCUIT\s*:?\s*\d{2}-?\d{8}-?\d\b/, 'ar', 'an Argentine tax number (CUIT)'],
  [/\bA\.?B\.?N\.?\s*:?\s*\d{2}\s?\d{3}\s?\d{3}\s?\d{3}\b/, 'au', 'an Australian Business Number'],
  [/\bNZBN\b/, 'nz', 'a New Zealand Business Number'],
  [/\bCIN\s*:?\s*[LU]\d{5}[A-Z]{2}\d{4}[A-Z]{3}\d{6}\b/, 'in', 'an Indian company number (CIN)'],
  [/\bregistered in (?:england|scotland|wales|northern ireland)\b/i, 'gb', 'a company registered in the United Kingdom'],
  [/\bregistered in (?:the republic of )?ireland\b/i, 'ie', 'a company registered in Ireland'],
  [/\bKvK(?:-nummer|\s?nr\.?|\snumber)?\s*:?\s*\d{8}\b/i, 'nl', 'a Dutch Chamber of Commerce number (KvK)'],
  [/\bCVR(?:-nr\.?|\snr\.?)?\s*:?\s*\d{8}\b/, 'dk', 'a Danish company number (CVR)'],
  [/\bansvarshavende\s+redakt(?:ø|o)r/i, 'dk', 'a responsible editor under Danish media law'],
  [/\borganisasjonsnummer\b|\bansvarlig\s+redakt(?:ø|o)r\b/i, 'no', 'a Norwegian organisation number or responsible editor'],
  [/\borganisationsnummer\b|\bansvarig\s+utgivare\b/i, 'se', 'a Swedish organisation number or responsible publisher'],
  [/\bY-tunnus\b/, 'fi', 'a Finnish business ID (Y-tunnus)'],
  [/\b(?:NIP|KRS|REGON)\s*:?\s*\d{3}-?\d{2,3}-?\d{2}-?\d{2,3}\b/, 'pl', 'a Polish company number (NIP/KRS/REGON)'],
  [/\bMERS[İI]S\s+(?:No|Numaras)/i, 'tr', 'a Turkish company number (MERSİS)'],
  [/ФС\s?№?\s?77\s?-\s?\d{5}|\bОГРН\s*:?\s*\d{13}\b/u, 'ru', 'a Russian media registration or company number (ФС 77 / ОГРН)'],
  [/ЄДРПОУ/u, 'ua', 'a Ukrainian company number (ЄДРПОУ)'],
  [/\p{Script=Han}ICP[备證证]\s?\d{5,}|ICP证\s?\p{Script=Han}?\s?\d{5,}|\p{Script=Han}公网安备\s?\d{8,}/u, 'cn', 'a Chinese ICP licence or public-security filing'],
  [/사업자\s?등록\s?번호|등록번호\s*:?\s*(?:서울|경기|부산|인천)\s?(?:아|다)\s?\d{5}/u, 'kr', 'a Korean business or press registration number'],
];

const MAX_PHONES = 200;

/** The telephone numbers and registrations the text prints (see the module comment). */
export function readIdentityMarkers(text: string): IdentityMarkers {
  const markers = emptyIdentityMarkers();
  if (typeof text !== 'string' || text === '') return markers;
  const add = (country: string | null) => {
    if (country !== null) markers.phones[country] = (markers.phones[country] ?? 0) + 1;
  };
  let seen = 0;
  for (const match of text.matchAll(INTERNATIONAL)) {
    const digits = match[1]!.replace(TRUNK_ZERO, '').replace(/\D/g, '');
    if (digits.length >= 8 && digits.length <= 15) add(countryOfInternational(digits));
    if (++seen >= MAX_PHONES) break;
  }
  // The international numbers are blanked first: the tail of +7 727 123 4567 reads like a North American number.
  const national = seen === 0 ? text : text.replace(INTERNATIONAL, ' ');
  for (const match of national.matchAll(NANP_NATIONAL)) {
    add(countryOfArea(match[1]!));
    if (++seen >= MAX_PHONES) break;
  }
  for (const [pattern, country, what] of REGISTRATIONS) {
    if (markers.registrations[country] !== undefined) continue;
    const found = pattern.exec(text);
    if (found !== null) markers.registrations[country] = `${what}: "${found[0].slice(0, 60)}"`;
  }
  return markers;
}

/** A printed registration: about as strong as a stated address, but short of a ccTLD's or a chosen region's say. */
export const REGISTRATION_WEIGHT = 1.5;
/** Telephone numbers: weak alone, but more than a language's default region (en → us) says. */
export const PHONE_WEIGHT = 1.25;
export const MANY_PHONES = 3;
export const MANY_PHONES_WEIGHT = 1.5;
/** The share of the numbers one country must hold. */
export const PHONE_SHARE = 2 / 3;

/** The identity markers as country reasons: one per printed registration, one for the numbers' country. */
export function identityCountryReasons(
  markers: Partial<IdentityMarkers> | null | undefined,
): CountryReason[] {
  if (markers === null || typeof markers !== 'object') return [];
  const reasons: CountryReason[] = [];
  const registrations = Object.entries(markers.registrations ?? {});
  // Registrations of several countries (a group printing each subsidiary) name none of them.
  if (registrations.length === 1) {
    const [country, evidence] = registrations[0]!;
    reasons.push({ signal: 'registration', country, evidence, weight: REGISTRATION_WEIGHT });
  }
  const phones = Object.entries(markers.phones ?? {}).filter(([, n]) => typeof n === 'number' && n > 0);
  const total = phones.reduce((sum, [, n]) => sum + n, 0);
  const top = phones.sort((a, b) => b[1] - a[1])[0];
  if (top !== undefined && top[1] >= PHONE_SHARE * total)
    reasons.push({
      signal: 'phone_numbers',
      country: top[0],
      evidence: `${top[1]} of ${total} telephone numbers with the calling code of ${top[0]}`,
      weight: top[1] >= MANY_PHONES ? MANY_PHONES_WEIGHT : PHONE_WEIGHT,
    });
  return reasons;
}
