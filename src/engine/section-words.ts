// Which news section an anchor text names ("Politik" → politics, "国际新闻" → world), from page-vocabulary.ts.
// Short anchors only: a headline that mentions "sport" is not a section link.
import { CJK, CORE_SECTIONS, OTHER_SECTIONS, UNSPACED } from './page-vocabulary.js';
import { menuItem } from './site-menus.js';

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
/** A CJK anchor longer than this is a headline: "国际新闻" is a menu item, a sentence about the world is not. */
const MAX_CJK_CHARS = 8;
/**
 * The same bound for Thai, Lao, Khmer and Myanmar, whose syllable takes two to four code units where a CJK one takes
 * one: "ข่าวต่างประเทศ" (foreign news) is 14.
 */
const MAX_UNSPACED_CHARS = 24;
/**
 * A word's letters: a token is made of letters, their combining marks (Indic vowel signs and viramas, Thai tone marks:
 * without them "राजनीति" falls apart), digits, and the joiners Persian and Sinhala write inside words.
 */
const TOKEN_SEPARATOR = /[^\p{L}\p{M}\p{N}\p{Join_Control}.']+/u;

/**
 * Drop the accents Latin, Greek and Cyrillic letters take (and Arabic vowel signs, and the joiners): those marks
 * belong to no script of their own ("Inherited"), where an Indic or Thai vowel sign is part of the letter and stays.
 */
function stripAccents(text: string): string {
  return text
    .normalize('NFD')
    .replace(/\p{Script=Inherited}+/gu, '')
    .normalize('NFC');
}

interface Entry {
  section: string;
  core: boolean;
}

const WORDS = new Map<string, Entry>();
const CJK_WORDS: Array<[string, Entry]> = [];
const UNSPACED_WORDS: Array<[string, Entry]> = [];
for (const [table, core] of [
  [CORE_SECTIONS, true],
  [OTHER_SECTIONS, false],
] as const) {
  for (const [section, words] of Object.entries(table)) {
    for (const word of words) {
      const entry = { section, core };
      const lower = word.toLowerCase();
      // The first table to claim a word keeps it ("it" is technology only; "national" is national only). A short word
      // keeps its accents: Catalan "Món" is the world desk, "Mon" a calendar's Monday.
      const bare = stripAccents(lower);
      for (const form of bare.length < MIN_TOKEN_CHARS ? [lower] : [lower, bare])
        if (!WORDS.has(form)) WORDS.set(form, entry);
      if (CJK.test(word)) CJK_WORDS.push([word, entry]);
      else if (UNSPACED.test(word)) UNSPACED_WORDS.push([word, entry]);
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
 * A region picker's item with its language's or region's code in brackets ("Deutschland (DE)", "Global (EN)",
 * "Schweiz (de-CH)"): a consultancy's country sites, not a newsroom's national and world desks. Read after menuItem
 * has trimmed the closing bracket. No news page of the labelled sets has a desk so written (session 25).
 */
const LOCALE_CODE = /\s\((?:[a-z]{2})(?:[-_][a-z]{2})?\)?$/u;

/**
 * A site's privacy or cookie policy ("Política de privacidad", "Politique de confidentialité", "Polityka prywatności",
 * "Privatumo politika", "Политика конфиденциальности", "سياسة الخصوصية", "Πολιτική απορρήτου"): its "policy" word is
 * the politics section's in half of the world's languages, and every site has one, so it must never count as a news
 * desk.
 */
// biome-ignore format: a word list reads better packed than one word a line
const SITE_POLICY = new RegExp(
  `(?<!\\p{L})(?:${[
    'privac\\p{L}*', 'privat\\p{L}*', 'prywatn\\p{L}*', 'confidentialit\\p{L}*', 'riservatezza', 'cookies?',
    'datenschutz\\p{L}*', 'gdpr', 'rgpd', 'rodo', 'конфиденциальн\\p{L}*', 'конфіденційн\\p{L}*',
    'поверителност\\p{L}*', 'приватност\\p{L}*', 'απορρ\\p{L}*', 'الخصوصية', 'خصوصية', 'خصوصی', 'حریم', 'رازداری',
    'კონფიდენციალურ\\p{L}*', 'գաղտնիության', 'zasebnost\\p{L}*', 'soukrom\\p{L}*', 'súkrom\\p{L}*',
    'adatvédelm\\p{L}*', 'gizlilik\\p{L}*', 'tietosuoj\\p{L}*', 'privātum\\p{L}*', 'privaatsus\\p{L}*',
    'confidențialit\\p{L}*',
  ].join('|')})(?!\\p{L})`,
  'u',
);

/**
 * An anchor in the first person ("Weather & my mood", "Meine Nachrichten", "Mijn nieuws") is a writer's own topic or a
 * reader's account page, never a news desk.
 */
const FIRST_PERSON = /(?<!\p{L})(?:my|mein|meine|meinem|meinen|meiner|mijn|мой|моя|мои|моё)(?!\p{L})/u;

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
  const text = menuItem(anchor);
  if (
    text === '' ||
    text.length > MAX_ANCHOR_CHARS ||
    LANGUAGE_NAME.test(text) ||
    LOCALE_CODE.test(text) ||
    SITE_POLICY.test(text) ||
    FIRST_PERSON.test(text)
  )
    return null;
  const whole = WORDS.get(text) ?? WORDS.get(stripAccents(text));
  if (whole !== undefined) return { ...whole, word: text };
  // Scripts written without spaces between words: the section word may sit inside the anchor ("国际新闻",
  // "ข่าวการเมือง": news + politics).
  if (CJK.test(text)) return text.length > MAX_CJK_CHARS ? null : wordInside(text, CJK_WORDS);
  if (UNSPACED.test(text)) return text.length > MAX_UNSPACED_CHARS ? null : wordInside(text, UNSPACED_WORDS);
  const tokens = text.split(TOKEN_SEPARATOR).filter((t) => t !== '');
  if (tokens.length > MAX_ANCHOR_TOKENS) return null;
  // Each item of a list ("Tourism, travel & tech", "Politics and society") on its own: a desk's word names the desk
  // with at most one other word beside it ("US politics", "Health check"); inside a longer name ("Walt Disney World",
  // "Global Tibet Movement", "Global mobility services") it names something else.
  for (const item of text.split(LIST_SEPARATOR)) {
    let found: Entry | undefined;
    let unknown = 0;
    for (const token of item.split(TOKEN_SEPARATOR)) {
      if (token.length < MIN_TOKEN_CHARS) continue;
      const entry = WORDS.get(token) ?? WORDS.get(stripAccents(token));
      if (entry !== undefined) found ??= entry;
      else unknown++;
    }
    if (found !== undefined && unknown <= MAX_OTHER_WORDS) return { ...found, word: text };
  }
  return null;
}

/** What joins the items of a menu anchor that lists several topics: punctuation, or "and" in the menus' languages. */
const LIST_SEPARATOR = /\s*[,&/+|]\s*|\s+(?:and|und|y|et|e|i|и|och|og|en|ve|és|a)\s+/u;
/** Words of four letters or more, not desks' words themselves, that may stand beside a desk's word in one item. */
const MAX_OTHER_WORDS = 1;

function wordInside(text: string, words: ReadonlyArray<[string, Entry]>): SectionMatch | null {
  for (const [word, entry] of words) if (text.includes(word)) return { ...entry, word: text };
  return null;
}
