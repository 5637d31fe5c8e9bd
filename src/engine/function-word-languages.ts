// Languages ELD does not know, read from their commonest words. ELD (title-language.ts) knows 60 languages; a
// Zulu, Xhosa, Swahili, Afrikaans, Somali, Irish or Welsh page read by it comes out as some other language, or as
// English when a theme's `lang="en"` is all the page declares. These seven are read here first, from running text:
// each has a list of short, frequent words no other language in the test set uses as often (chosen on Lingua's test
// sentences, test/fixtures/languages/lingua-sentences/SOURCES.md). Only long text is read: a title or a banner is too
// short.

/** Fewer words than this are too few to count on (a page's text sample holds a few hundred). */
export const MIN_WORDS = 30;
/** The share of the words the winning list must make up: the Nguni languages' lists cover about 8 % of their text. */
export const MIN_SHARE = 0.03;
/** Distinct words of the list that must occur: one word repeated (a name, "die" in Dutch) proves nothing. */
export const MIN_DISTINCT = 4;

// biome-ignore format: word lists read better packed
const WORDS: ReadonlyArray<readonly [string, ReadonlySet<string>]> = [
  ['zu', new Set(['ukuthi', 'futhi', 'kanye', 'lokhu', 'noma', 'lapho', 'ngoba', 'kusho', 'kufanele', 'lokho',
    'phansi', 'kukhona', 'njengoba', 'manje', 'bese', 'lezi', 'kusukela', 'abaningi'])],
  ['xh', new Set(['ukuba', 'emva', 'okanye', 'kwaye', 'eli', 'nto', 'ezi', 'kunye', 'kuba', 'enye', 'abo',
    'kufuneka', 'umntu', 'aba', 'esi', 'apho', 'eyona', 'baya', 'apha', 'utshilo', 'akukho', 'ukuya', 'kokuba',
    'ixesha', 'ziya', 'yaye', 'oko', 'kakuhle', 'oku'])],
  ['sw', new Set(['katika', 'za', 'cha', 'kama', 'kuwa', 'mwaka', 'zaidi', 'yake', 'hivyo', 'pia', 'nchini', 'hii',
    'baada', 'ndani', 'miaka', 'jina', 'hata', 'iko', 'kutoka', 'vya', 'lakini', 'mji', 'idadi', 'ilikuwa',
    'kwanza', 'kuna', 'nchi', 'eneo', 'ambayo', 'wakati', 'wake', 'pamoja', 'kwenye', 'moja', 'hadi', 'nyingi',
    'alikuwa', 'kwamba', 'kazi', 'hali', 'baadaye', 'kati', 'hili', 'lake', 'sana', 'juu', 'kila', 'hiyo', 'watu'])],
  ['af', new Set(['nie', 'wat', 'ek', 'vir', 'word', 'ons', 'sy', 'sal', 'oor', 'deur', 'hierdie', 'hulle', 'hy',
    'jou', 'jy', 'ander', 'toe', 'wees', 'baie', 'mense', 'soos', 'net', 'dis', 'nou', 'waar', 'wil', 'sou', 'maak',
    'sê', 'kom', 'hom', 'laat', 'julle', 'egter', 'elke', 'teen', 'weet'])],
  ['so', new Set(['oo', 'iyo', 'ah', 'ee', 'waa', 'waxaa', 'uu', 'waxay', 'soo', 'mid', 'aad', 'waxa', 'wuxuu',
    'ayaa', 'badan', 'kale', 'loo', 'laga', 'ugu', 'wax', 'tahay', 'ahaa', 'leh', 'yahay', 'sida', 'kala', 'ahaan',
    'marka', 'waxaana', 'inuu', 'kii', 'dib', 'loogu', 'inta', 'ilaa', 'guud', 'yar', 'ayuu', 'isla', 'yihiin',
    'waana', 'markii', 'weyn', 'isku', 'laakiin', 'sare'])],
  ['ga', new Set(['agus', 'ag', 'bhí', 'sé', 'ina', 'sin', 'chun', 'atá', 'nó', 'bhliain', 'leis', 'raibh', 'ann',
    'faoi', 'tá', 'eile', 'réir', 'féin', 'mór', 'siad', 'amach', 'chuid', 'nua', 'cuid', 'duine', 'nuair', 'iad',
    'maith', 'chéad', 'chuir', 'chur', 'dul', 'aige', 'gach', 'bíonn', 'daoine', 'aon', 'measc', 'chuaigh', 'chomh',
    'níos', 'cé', 'gur', 'ón', 'bhfuil', 'faoin'])],
  ['cy', new Set(['yn', 'ei', 'mae', 'yr', 'ac', 'gan', 'oedd', 'gyda', 'mewn', 'yw', 'wedi', 'eu', 'bu', 'gyfer',
    'ond', 'fod', 'ôl', 'ym', 'neu', 'hyn', 'hyd', 'dyma', 'hefyd', 'cael', 'eraill', 'daeth', 'bod', 'yng', 'ceir',
    'ef', 'roedd', 'sydd', 'cyn', 'ystod', 'oed', 'pan', 'wrth', 'dros', 'erbyn', 'ail', 'hynny', 'cyntaf', 'gael',
    'gwaith', 'newydd', 'rhan', 'flwyddyn', 'sef', 'rhai', 'iddo', 'byd', 'nifer'])],
];

/** The codes read here, for the callers that must know a reading of ELD's cannot be one of them. */
export const FUNCTION_WORD_LANGUAGES: readonly string[] = WORDS.map(([code]) => code);

/** Each listed word with the index of its language (no word is on two lists). */
const LANGUAGE_OF = new Map<string, number>(
  WORDS.flatMap(([, list], i) => [...list].map((w) => [w, i] as const)),
);

/**
 * Between words: white space, ASCII punctuation, digits and the typographic dashes and quotes. A plain character
 * class, not Unicode property classes: it splits a text sample in a third of the time, and every listed word is
 * letters only.
 */
const BETWEEN_WORDS = /[\s!-@[-`{-~\u00a0-\u00bf\u2010-\u206f]+/;

/**
 * The language of `text` when its words make it one of these seven: the list with the largest share of the words,
 * at least MIN_SHARE with MIN_DISTINCT different words, and twice the runner-up's share. Null otherwise (most text).
 */
export function functionWordLanguage(text: string): string | null {
  if (typeof text !== 'string') return null;
  const hits = new Array<number>(WORDS.length).fill(0);
  const seen = WORDS.map(() => new Set<string>());
  let words = 0;
  for (const word of text.toLowerCase().split(BETWEEN_WORDS)) {
    if (word === '') continue;
    words += 1;
    const language = LANGUAGE_OF.get(word);
    if (language === undefined) continue;
    hits[language]! += 1;
    seen[language]!.add(word);
  }
  if (words < MIN_WORDS) return null;
  let best = -1;
  let bestShare = 0;
  let runnerUp = 0;
  for (let i = 0; i < WORDS.length; i += 1) {
    const share = seen[i]!.size >= MIN_DISTINCT ? hits[i]! / words : 0;
    if (share > bestShare) {
      runnerUp = bestShare;
      bestShare = share;
      best = i;
    } else if (share > runnerUp) runnerUp = share;
  }
  return best >= 0 && bestShare >= MIN_SHARE && bestShare >= 2 * runnerUp ? WORDS[best]![0] : null;
}
