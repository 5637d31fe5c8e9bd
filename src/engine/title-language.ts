// The language of a source's item titles, when nothing declares one: each title is detected on its own (ELD, a
// pure-JS n-gram detector) and the language most of them agree on is kept. See docs/collection.md for the choice.
// Running text is read for the languages ELD does not know first (their letters, their commonest words).
import { eld } from 'eld/small';
import { FUNCTION_WORD_LANGUAGES, functionWordLanguage } from './function-word-languages.js';
import { withGalician } from './galician.js';
import { withIndonesian } from './malay-indonesian.js';
import { withNepali } from './nepali.js';
import { cjkLanguage, LETTER_LANGUAGES, letterLanguage } from './script-languages.js';
import { withSerbian } from './serbian-croatian.js';

/** Fewer titles than this say too little: a name or two in another language would decide. */
export const MIN_TITLES = 3;
/** The share of detected titles the winner needs. */
export const MIN_AGREEMENT = 0.6;

/** One title's language (ISO 639-1), or null when the detector cannot tell. */
export function detectTitle(title: string): string | null {
  const text = title.trim();
  if (text === '') return null;
  const result = eld.detect(text);
  return result.language === '' ? null : result.language;
}

/**
 * The language most titles are in, with the share that agreed and how many titles that is; null when too few titles
 * or no clear winner.
 */
export function detectTitlesLanguage(
  titles: readonly string[],
): { code: string; confidence: number; agreeing: number } | null {
  const counts = new Map<string, number>();
  let detected = 0;
  for (const title of new Set(titles)) {
    const code = detectTitle(title);
    if (code === null) continue;
    detected += 1;
    counts.set(code, (counts.get(code) ?? 0) + 1);
  }
  if (detected < MIN_TITLES) return null;
  const [code, count] = [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))[0]!;
  const share = count / detected;
  if (share < MIN_AGREEMENT) return null;
  return {
    code: withNeighbours(code, titles.join(' ')),
    confidence: Math.round(share * 100) / 100,
    agreeing: count,
  };
}

/**
 * ELD's reading with the languages it does not know split from the neighbour it reads them as, by their own words:
 * Indonesian from Malay (malay-indonesian.ts), Nepali from Hindi and Marathi (nepali.ts), Galician from Spanish and
 * Portuguese (galician.ts).
 */
function withNeighbours(code: string, text: string): string {
  return withSerbian(withGalician(withNepali(withIndonesian(code, text), text), text), text);
}

/** A text sample shorter than this says too little (a cookie banner, a name); 120 characters hold a dozen Chinese headlines. */
export const MIN_TEXT_CHARS = 120;

/** The languages ELD does not know that are read from their letters or their commonest words. */
export const UNKNOWN_TO_ELD: ReadonlySet<string> = new Set([...LETTER_LANGUAGES, ...FUNCTION_WORD_LANGUAGES]);

/**
 * Running text in one of the languages ELD does not know, or null: by its letters (script-languages.ts) or its
 * commonest words (function-word-languages.ts).
 */
export function detectUnknownToEld(text: string): { code: string; confidence: number } | null {
  if (typeof text !== 'string' || text.trim().length < MIN_TEXT_CHARS) return null;
  const code = letterLanguage(text) ?? functionWordLanguage(text);
  return code === null ? null : { code, confidence: MIN_AGREEMENT };
}

/**
 * The language of a stretch of running text: one of the languages ELD does not know when its letters or commonest
 * words say so (detectUnknownToEld), Chinese, Japanese or Korean by their scripts (cjkLanguage), else ELD's reading
 * when it finds it reliable (its best score well ahead of the next); null for short or mixed text. The confidence is
 * set at MIN_AGREEMENT: one reading, not titles that agree.
 */
export function detectTextLanguage(text: string): { code: string; confidence: number } | null {
  if (typeof text !== 'string' || text.trim().length < MIN_TEXT_CHARS) return null;
  const byWords = detectUnknownToEld(text);
  if (byWords !== null) return byWords;
  // ELD weighs Chinese against Japanese over Han ideographs and often finds neither reliable; the kana decide.
  const byScript = cjkLanguage(text);
  if (byScript !== null) return { code: byScript, confidence: MIN_AGREEMENT };
  const result = eld.detect(text);
  if (result.language === '' || !result.isReliable()) return null;
  return { code: withNeighbours(result.language, text), confidence: MIN_AGREEMENT };
}
