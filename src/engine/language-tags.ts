// Language tags as pages, headers, feeds and sitemaps write them (<html lang>, Content-Language, hreflang,
// <language>, news:language), kept only when they name a real language: `<meta http-equiv="Content-Language"
// content="utf-8">` is a charset put in the wrong place, and `utf` is no language.

/** The shape of a BCP 47 tag, lower-cased: a 2- or 3-letter primary language subtag, then subtags. */
const LANGUAGE_TAG = /^[a-z]{2,3}(?:-[a-z0-9]{1,8})*$/;
/**
 * Longer than any tag a site means (RFC 5646 §4.4.1 asks for 35 characters at least): a 100 KB "tag" is junk,
 * and checking it would cost the whole string.
 */
const MAX_TAG_LENGTH = 64;
/**
 * Codes of ISO 639 that say nothing about which language: undetermined, uncoded, multiple, no linguistic
 * content. ICU names two of them (`mul`, `zxx`), so they are refused by name.
 */
const NOT_A_LANGUAGE: ReadonlySet<string> = new Set(['und', 'mis', 'mul', 'zxx']);

/**
 * ICU's English names of languages, `fallback: 'none'`: undefined for a code it does not know, which is how an
 * unknown primary subtag (`utf`, `iso`, `qaa`) is told from a language (`en`, `fil`, `haw`, `yue`). Node 20 ships
 * the full ICU data; its ISO 639 list covers the languages news is published in (obscure ISO 639-3 codes it lacks
 * are left unknown, which is the safe side: a fact unknown, never a false one).
 */
const NAMES = new Intl.DisplayNames(['en'], { type: 'language', fallback: 'none' });
/** Primary subtags already judged: at most 26² + 26³ keys, since only 2- and 3-letter ones are asked. */
const known = new Map<string, boolean>();

function isLanguage(primary: string): boolean {
  let answer = known.get(primary);
  if (answer === undefined) {
    answer = !NOT_A_LANGUAGE.has(primary) && NAMES.of(primary) !== undefined;
    known.set(primary, answer);
  }
  return answer;
}

/**
 * A BCP 47 tag lower-cased with `_` read as `-`; null when it is not one: a shape other than a language tag's,
 * a tag the platform's BCP 47 parser refuses (`Intl.getCanonicalLocales`: `en-gb-oed`, `zh-yue`), or a primary
 * subtag that is no known ISO 639 language. The tag is kept as written (`iw` stays `iw`), not canonicalised.
 */
export function normaliseLanguageTag(value: string | null | undefined): string | null {
  if (typeof value !== 'string' || value.length > MAX_TAG_LENGTH * 2) return null;
  const tag = value.trim().toLowerCase().replace(/_/g, '-');
  if (tag.length > MAX_TAG_LENGTH || !LANGUAGE_TAG.test(tag)) return null;
  if (!isLanguage(tag.split('-', 1)[0]!)) return null;
  return parsesAsLocale(tag) ? tag : null;
}

/**
 * Tags the platform's parser was asked about: the same few dozen come back on every page, feed item and
 * sitemap entry, and the parser (an exception for each refusal) is the costly part of the check.
 */
const parsed = new Map<string, boolean>();
const MAX_PARSED = 4096;

function parsesAsLocale(tag: string): boolean {
  let answer = parsed.get(tag);
  if (answer === undefined) {
    try {
      Intl.getCanonicalLocales(tag);
      answer = true;
    } catch {
      answer = false;
    }
    if (parsed.size < MAX_PARSED) parsed.set(tag, answer);
  }
  return answer;
}

/** A Content-Language value (header or meta) may list several tags, comma-separated. */
export function languageList(value: string | null | undefined): string[] {
  if (typeof value !== 'string') return [];
  const tags = value.split(',').map((part) => normaliseLanguageTag(part));
  return [...new Set(tags.filter((t): t is string => t !== null))];
}
