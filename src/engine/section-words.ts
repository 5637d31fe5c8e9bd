// Which news section an anchor text names ("Politik" → politics, "国际新闻" → world), from page-vocabulary.ts.
// Short anchors only: a headline that mentions "sport" is not a section link.
import { CJK, CORE_SECTIONS, OTHER_SECTIONS } from './page-vocabulary.js';

export interface SectionMatch {
  section: string;
  core: boolean;
  /** The anchor text as found, for evidence. */
  word: string;
}

/** Anchors longer than this are headlines or sentences, not menu items. */
const MAX_ANCHOR_CHARS = 40;
const MAX_ANCHOR_TOKENS = 3;
/** A token this short only counts when it is the whole anchor ("UK", "IT"): "about us" is not a section. */
const MIN_TOKEN_CHARS = 4;

function stripAccents(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{M}+/gu, '')
    .normalize('NFC');
}

interface Entry {
  section: string;
  core: boolean;
}

const WORDS = new Map<string, Entry>();
const CJK_WORDS: Array<[string, Entry]> = [];
for (const [table, core] of [
  [CORE_SECTIONS, true],
  [OTHER_SECTIONS, false],
] as const) {
  for (const [section, words] of Object.entries(table)) {
    for (const word of words) {
      const entry = { section, core };
      const lower = word.toLowerCase();
      // The first table to claim a word keeps it ("it" is technology only; "national" is national only).
      for (const form of [lower, stripAccents(lower)]) if (!WORDS.has(form)) WORDS.set(form, entry);
      if (CJK.test(word)) CJK_WORDS.push([word, entry]);
    }
  }
}

/**
 * Language names as a language or region picker writes them ("Global English", "Deutsch", "Español (México)"): an
 * anchor naming a language picks an edition, it is not a news desk, however its other words read.
 */
const LANGUAGE_NAME =
  /(?<!\p{L})(?:english|deutsch|français|francais|español|espanol|italiano|português|portugues|nederlands|svenska|dansk|norsk|suomi|polski|čeština|türkçe|русский|日本語|中文|한국어)(?!\p{L})/u;

/**
 * A site's privacy or cookie policy ("Política de privacidad", "Politique de confidentialité", "Polityka prywatności",
 * "Privatumo politika"): its "policy" word is the politics section's in half of Europe's languages, and every site has
 * one, so it must never count as a news desk.
 */
const SITE_POLICY =
  /(?<!\p{L})(?:privac\p{L}*|privat\p{L}*|prywatn\p{L}*|confidentialit\p{L}*|riservatezza|cookies?|datenschutz\p{L}*|gdpr|rgpd|rodo)(?!\p{L})/u;

/**
 * Anchors already read: menus, author links and "Home" repeat on every page of a site and across sites, and the
 * reading (case, punctuation, accents, tokens) costs more than the look-up. Answers are frozen: callers share them.
 */
const answers = new Map<string, Readonly<SectionMatch> | null>();
const MAX_ANSWERS = 20_000;

/** The section an anchor text names, or null. */
export function sectionOfAnchor(anchor: string): Readonly<SectionMatch> | null {
  let answer = answers.get(anchor);
  if (answer === undefined) {
    const found = readAnchor(anchor);
    answer = found === null ? null : Object.freeze(found);
    if (answers.size >= MAX_ANSWERS) answers.clear();
    answers.set(anchor, answer);
  }
  return answer;
}

function readAnchor(anchor: string): SectionMatch | null {
  const text = anchor
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/^[\s\p{P}\p{S}]+|[\s\p{P}\p{S}]+$/gu, '')
    .trim();
  if (text === '' || text.length > MAX_ANCHOR_CHARS || LANGUAGE_NAME.test(text) || SITE_POLICY.test(text))
    return null;
  const whole = WORDS.get(text) ?? WORDS.get(stripAccents(text));
  if (whole !== undefined) return { ...whole, word: text };
  if (CJK.test(text)) {
    if (text.length > 8) return null;
    for (const [word, entry] of CJK_WORDS) if (text.includes(word)) return { ...entry, word: text };
    return null;
  }
  const tokens = text.split(/[^\p{L}\p{N}.']+/u).filter((t) => t !== '');
  if (tokens.length > MAX_ANCHOR_TOKENS) return null;
  for (const token of tokens) {
    if (token.length < MIN_TOKEN_CHARS) continue;
    const entry = WORDS.get(token) ?? WORDS.get(stripAccents(token));
    if (entry !== undefined) return { ...entry, word: text };
  }
  return null;
}
