// Languages ELD has no model for, told by their letters: the scripts of Sinhala, Khmer, Burmese and Dhivehi (ELD
// answers nothing for them), and the letters only Kazakh, only Macedonian and Mongolian add to the Cyrillic alphabet
// (ELD reads Kazakh as Ukrainian, Macedonian as Serbian or Bulgarian, Mongolian as Belarusian, Russian or Ukrainian),
// and the letters Pashto adds to the Arabic script (ELD reads Pashto as Persian). Thresholds checked on Lingua's test
// sentences (test/fixtures/languages/lingua-sentences/SOURCES.md).

const LETTER = /[\p{L}\p{M}]/u;
const ALL_BUT_ASCII_LETTERS = /[^a-zA-Z]+/g;
const ASCII = /[^\u0080-\uffff]+/g;

/** Letters (with their combining marks) fewer than this say nothing. */
export const MIN_LETTERS = 40;

/** Scripts used by one language each, in news: the share of the letters they must make up. */
const SCRIPTS: ReadonlyArray<readonly [code: string, from: number, to: number]> = [
  ['si', 0x0d80, 0x0dff],
  ['km', 0x1780, 0x17ff],
  ['my', 0x1000, 0x109f],
  ['dv', 0x0780, 0x07bf],
];
const SCRIPT_SHARE = 0.5;

/** Kazakh's own letters (ә ғ қ ұ): 4–12 % of a Kazakh text's Cyrillic letters, none in Russian, Ukrainian… */
const KAZAKH = new Set('әғқұӘҒҚҰ');
const KAZAKH_SHARE = 0.01;
/** Macedonian's own letters (ѓ ќ ѕ): rarer (≈ 0.05–1 %), so two of them, and no Kazakh letter. */
const MACEDONIAN = new Set('ѓќѕЃЌЅ');
const MACEDONIAN_MIN = 2;
/**
 * Mongolian's own letters beside Russian's (ө ү), which ELD reads as Belarusian, Russian or Ukrainian: about 3–6 % of
 * a Mongolian text's Cyrillic letters. Kazakh, Kyrgyz and Tatar write them too, with ң or Kazakh's letters beside them,
 * which Mongolian does not: a text with any of those is not read here.
 */
const MONGOLIAN = new Set('өүӨҮ');
const NOT_MONGOLIAN = new Set('ңҢ');
const MONGOLIAN_SHARE = 0.01;
/**
 * Pashto's own letters in the Arabic script (ټ ډ ړ ږ ښ ګ ڼ ې ۍ ځ څ; Urdu's ٹ ڈ ڑ are other code points), which ELD
 * reads as Persian: several in every Pashto sentence, none in Persian, Arabic or Urdu. Uyghur writes ې too, beside ۆ ۈ ۋ,
 * which Pashto does not: a text with those is not read here.
 */
const PASHTO = new Set('ټډړږښګڼېۍځڅ');
const NOT_PASHTO = new Set('ۆۈۋ');
const PASHTO_SHARE = 0.01;

/** The language `text`'s letters make it, among the eight above; null for any other text. */
export function letterLanguage(text: string): string | null {
  if (typeof text !== 'string') return null;
  // Every letter that could decide is outside ASCII and must be half of all letters: a text with more ASCII letters
  // than non-ASCII characters (nearly every Latin-script page) is none of these, known in two native passes.
  if (text.replace(ALL_BUT_ASCII_LETTERS, '').length > text.replace(ASCII, '').length) return null;
  let letters = 0;
  let cyrillic = 0;
  let kazakh = 0;
  let macedonian = 0;
  let mongolian = 0;
  let notMongolian = 0;
  let arabicScript = 0;
  let pashto = 0;
  let notPashto = 0;
  const inScript = new Array<number>(SCRIPTS.length).fill(0);
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    // ASCII first, without a regular expression: most text samples are mostly ASCII.
    if (code < 0x80) {
      if ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) letters += 1;
      continue;
    }
    if (!LETTER.test(char)) continue;
    letters += 1;
    if (code >= 0x0400 && code <= 0x04ff) {
      cyrillic += 1;
      if (KAZAKH.has(char)) kazakh += 1;
      else if (MACEDONIAN.has(char)) macedonian += 1;
      else if (MONGOLIAN.has(char)) mongolian += 1;
      else if (NOT_MONGOLIAN.has(char)) notMongolian += 1;
      continue;
    }
    if (code >= 0x0600 && code <= 0x06ff) {
      arabicScript += 1;
      if (PASHTO.has(char)) pashto += 1;
      else if (NOT_PASHTO.has(char)) notPashto += 1;
      continue;
    }
    for (let i = 0; i < SCRIPTS.length; i += 1) {
      const [, from, to] = SCRIPTS[i]!;
      if (code >= from && code <= to) inScript[i]! += 1;
    }
  }
  if (letters < MIN_LETTERS) return null;
  for (let i = 0; i < SCRIPTS.length; i += 1)
    if (inScript[i]! / letters >= SCRIPT_SHARE) return SCRIPTS[i]![0];
  if (arabicScript / letters >= SCRIPT_SHARE)
    return notPashto === 0 && pashto / arabicScript >= PASHTO_SHARE ? 'ps' : null;
  if (cyrillic / letters < SCRIPT_SHARE) return null;
  if (kazakh / cyrillic >= KAZAKH_SHARE) return 'kk';
  if (kazakh === 0 && notMongolian === 0 && mongolian / cyrillic >= MONGOLIAN_SHARE) return 'mn';
  return kazakh === 0 && macedonian >= MACEDONIAN_MIN ? 'mk' : null;
}

/** The codes read here. */
export const LETTER_LANGUAGES: readonly string[] = [...SCRIPTS.map(([code]) => code), 'kk', 'mk', 'mn', 'ps'];

/** Han ideographs (the unified block and extension A), kana (hiragana, katakana) and Hangul (syllables and jamo). */
const HAN = /[\u3400-\u4dbf\u4e00-\u9fff]/u;
const KANA = /[\u3040-\u30ff]/u;
const HANGUL = /[\uac00-\ud7af\u1100-\u11ff\u3130-\u318f]/u;
/**
 * Japanese running text writes its particles in kana: a third or more of its CJK letters. Chinese brand names borrow
 * a stray の, and a Japanese name or two turns up in Chinese news: a few per cent at most.
 */
const JAPANESE_KANA_SHARE = 0.15;
const CHINESE_KANA_SHARE = 0.03;

/**
 * Chinese, Japanese or Korean told by their scripts, where ELD hesitates between Chinese and Japanese over text that is
 * mostly Han ideographs: Hangul makes half the CJK letters → ko; kana a sixth or more → ja; Han with (almost) no kana →
 * zh. Null unless CJK letters are at least MIN_LETTERS and half of all letters, or between the kana shares.
 */
export function cjkLanguage(text: string): 'zh' | 'ja' | 'ko' | null {
  if (typeof text !== 'string') return null;
  let letters = 0;
  let han = 0;
  let kana = 0;
  let hangul = 0;
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (code < 0x80) {
      if ((code | 0x20) >= 0x61 && (code | 0x20) <= 0x7a) letters += 1;
      continue;
    }
    if (code < 0x1100) {
      if (LETTER.test(char)) letters += 1;
      continue;
    }
    if (HAN.test(char)) han += 1;
    else if (KANA.test(char)) kana += 1;
    else if (HANGUL.test(char)) hangul += 1;
    else if (LETTER.test(char)) letters += 1;
  }
  const cjk = han + kana + hangul;
  letters += cjk;
  if (cjk < MIN_LETTERS || cjk / letters < SCRIPT_SHARE) return null;
  if (hangul / cjk >= SCRIPT_SHARE) return 'ko';
  if (kana / cjk >= JAPANESE_KANA_SHARE) return 'ja';
  return kana / cjk <= CHINESE_KANA_SHARE && han / cjk >= SCRIPT_SHARE ? 'zh' : null;
}
