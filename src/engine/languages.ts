// The languages a source publishes in, each with where it was read: <html lang>, Content-Language, hreflang
// alternates, feed <language>, news:language; detected from item titles only when none of them says, and from the
// homepage's own title and headlines when the items tell nothing either (a site without feeds or news sitemap), and
// last from a stretch of the homepage's running text.

import type { LanguageSource, SourceLanguage } from '../domain/seed-facts.js';
import type { DiscoveredFeed } from './feeds.js';
import { languageList, normaliseLanguageTag } from './language-tags.js';
import type { PageSignals } from './page-signals.js';
import type { SitemapAggregates } from './sitemap-aggregates.js';
import {
  detectTextLanguage,
  detectTitlesLanguage,
  detectUnknownToEld,
  UNKNOWN_TO_ELD,
} from './title-language.js';

export type { LanguageSource, SourceLanguage };

type TitlesReading = NonNullable<ReturnType<typeof detectTitlesLanguage>>;

/** How much a source says about the site's own language: hreflang names alternates, not this page's. */
const WEIGHT: Record<LanguageSource, number> = {
  html_lang: 3,
  feed: 3,
  news_sitemap: 3,
  content_language: 2,
  og_locale: 2,
  hreflang: 1,
  sitemap_hreflang: 1,
  detected: 1,
};
/** Languages kept per source: a site with 60 hreflang alternates is multilingual, not 60 facts. */
export const MAX_LANGUAGES = 20;

export interface LanguageInput {
  page: PageSignals | null;
  /** The homepage's Content-Language header. */
  contentLanguage: string | undefined;
  feeds: readonly DiscoveredFeed[];
  sitemap: SitemapAggregates | null;
  /** The homepage's <title> and the headlines of its article links (PageFacts), detected last. */
  pageTitles?: readonly string[];
  /** A stretch of the homepage's visible text (PageFacts.text_sample): when even the headlines do not tell. */
  pageText?: string;
}

/**
 * Every declared language with its sources, strongest first (weight of its sources, then first seen). When none
 * is declared, the language of the main feeds' (and news sitemap's) titles, when enough of them agree; when they
 * do not tell, that of the homepage's title and headlines (what the real-page figures of docs/discovery.md read).
 */
export function sourceLanguages(input: LanguageInput): SourceLanguage[] {
  const found = new Map<string, Set<LanguageSource>>();
  const add = (code: string | null, source: LanguageSource) => {
    if (code === null) return;
    const known = found.get(code) ?? new Set<LanguageSource>();
    known.add(source);
    found.set(code, known);
  };
  const page = input.page;
  add(page?.html_lang ?? null, 'html_lang');
  for (const code of languageList(input.contentLanguage)) add(code, 'content_language');
  for (const code of page?.meta_content_language ?? []) add(code, 'content_language');
  for (const code of page?.hreflang ?? []) add(code, 'hreflang');
  // Open Graph's locale stands in for a missing `<html lang>` only: beside one, a theme often writes both from one
  // setting, and where they differ one of them is a default (`lang="en"` over a Mexican paper's `es_MX`), which the
  // template check below settles from the page's words.
  if (page !== null && page.html_lang === null) add(page.og_locale ?? null, 'og_locale');
  // Comments and per-article feeds carry readers' words, not the publisher's language declaration.
  const content = input.feeds.filter((f) => f.role === 'main' || f.role === 'section');
  for (const feed of content) add(normaliseLanguageTag(feed.language), 'feed');
  for (const code of Object.keys(input.sitemap?.news.languages ?? {}))
    add(normaliseLanguageTag(code), 'news_sitemap');
  for (const code of Object.keys(input.sitemap?.hreflang ?? {}))
    add(normaliseLanguageTag(code), 'sitemap_hreflang');

  const declared = [...found.entries()]
    .map(([code, sources], order) => ({
      code,
      sources: [...sources],
      score: [...sources].reduce((sum, s) => sum + WEIGHT[s], 0),
      order,
    }))
    .sort((a, b) => b.score - a.score || a.order - b.order)
    .slice(0, MAX_LANGUAGES)
    .map(({ code, sources }) => ({ code, sources }));
  const titles = [...content.flatMap((f) => f.item_titles), ...(input.sitemap?.news.sample_titles ?? [])];
  const pageTitles = (input.pageTitles ?? []).filter((t) => t !== '');
  // Read once, when first asked for: ELD over each title is the dearest reading here.
  let titlesRead: TitlesReading | null | undefined;
  const titlesLanguage = () => {
    titlesRead ??= detectTitlesLanguage(titles) ?? detectTitlesLanguage(pageTitles);
    return titlesRead;
  };
  if (declared.length > 0) {
    const overriding = templateLanguageOverridden(declared, {
      titlesLanguage,
      titleTexts: [...titles, ...pageTitles],
      pageText: input.pageText ?? '',
    });
    if (overriding === null) return ownAlternateFirst(declared, input.pageText ?? '');
    // Open Graph's locale, set aside beside `<html lang>` above, settles a pair ELD cannot tell apart in the words it
    // read (Indonesian read as Malay under a theme's `lang="en"` and `og:locale` id_ID).
    const ogLocale = page?.og_locale ?? null;
    const code =
      ogLocale !== null && close(primary(ogLocale), primary(overriding.code))
        ? primary(ogLocale)
        : overriding.code;
    return [{ code, sources: ['detected'], confidence: overriding.confidence }, ...declared];
  }

  // Text in a language ELD does not know comes first: ELD would read its titles as some other language. Last, the
  // title, headlines and text as one text: a front of a few words has too few headlines for the titles' vote and
  // too little text for a reading of its own, yet together they are one page's words (docs/discovery.md).
  const pageText = input.pageText ?? '';
  const detected =
    detectUnknownToEld(pageText) ??
    titlesLanguage() ??
    detectTextLanguage(pageText) ??
    (pageTitles.length > 0 ? detectTextLanguage([...pageTitles, pageText].join('\n')) : null);
  return detected === null
    ? []
    : [{ code: detected.code, sources: ['detected'], confidence: detected.confidence }];
}

/**
 * A page that declares its language only among hreflang alternates (no `<html lang>`, no header): the alternates name
 * every edition, this one among them, in an order that says nothing; the one its running text reads as goes first
 * (factor.ua lists en, uk, ru and is the Russian edition).
 */
function ownAlternateFirst(declared: SourceLanguage[], pageText: string): SourceLanguage[] {
  const alternatesOnly = declared.every((d) =>
    d.sources.every((s) => s === 'hreflang' || s === 'sitemap_hreflang'),
  );
  if (declared.length < 2 || !alternatesOnly) return declared;
  const text = detectTextLanguage(pageText);
  const own = text === null ? -1 : declared.findIndex((d) => primary(d.code) === primary(text.code));
  if (own <= 0) return declared;
  const first = declared[own]!;
  return [{ ...first, sources: [...first.sources, 'detected'] }, ...declared.filter((_, i) => i !== own)];
}

/** Headlines that outvote a template's English on their own: this many, agreeing this clearly. */
export const MANY_TITLES = 8;
export const CLEAR_AGREEMENT = 0.8;

/** Text at least this long, read as one language, is the page's own words, not a banner or a name. */
export const MIN_TEXT_OVER_TEMPLATE_CHARS = 1000;

/** Languages ELD tells apart poorly: a reading of one over a declaration of another in the group proves nothing. */
const CLOSE_LANGUAGES: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['id', 'ms']),
  new Set(['ne', 'hi']),
  new Set(['ne', 'mr']),
  new Set(['bs', 'hr', 'sr']),
  new Set(['no', 'nb', 'nn', 'da']),
  new Set(['cs', 'sk']),
  new Set(['es', 'gl', 'ca', 'pt']),
];
const primary = (code: string) => code.split('-')[0]!;
const close = (a: string, b: string) =>
  a === b || CLOSE_LANGUAGES.some((group) => group.has(a) && group.has(b));

/**
 * A lone `<html lang>` that the page's words contradict: a theme's hard-coded tag (WordPress themes and site
 * templates ship `lang="en"`/`en-US`) over an Albanian, Gujarati or Russian site. Only when nothing else declares a
 * language, the running text reads reliably as another one that ELD does not confuse with it, and either the titles
 * and headlines read the same, or none could be read, the tag is English and the text is long. Over an English tag,
 * MANY_TITLES headlines agreeing on another language decide alone; a language ELD does not know, read from the text,
 * decides alone too (its titles cannot agree). Real pages: 12 of 1,008 fixed, none broken (docs/discovery.md, "A
 * template's language tag" and "Languages ELD does not know").
 */
function templateLanguageOverridden(
  declared: readonly SourceLanguage[],
  read: {
    titlesLanguage: () => TitlesReading | null;
    /** The titles and headlines titlesLanguage reads, for the one-pass look before it. */
    titleTexts: readonly string[];
    pageText: string;
  },
): { code: string; confidence: number } | null {
  const { titlesLanguage, pageText } = read;
  const only = templateDeclaration(declared);
  if (only === null) return null;
  // Many headlines agreeing on a language other than a template's English: the headlines are the site's own words,
  // whatever stretch of the page the text sample fell on (hatawtabloid.com: Tagalog headlines, an English sample).
  // Title by title only when all of them read together as another language: most English-tagged pages are English,
  // and one reading of the lot costs a fraction of one a title.
  if (primary(only.code) === 'en' && titlesReadTogetherAsOther(read.titleTexts, 'en')) {
    const titles = titlesLanguage();
    if (
      titles !== null &&
      titles.agreeing >= MANY_TITLES &&
      titles.confidence >= CLEAR_AGREEMENT &&
      !close(primary(titles.code), 'en')
    )
      return titles;
  }
  const text = detectTextLanguage(pageText);
  if (text === null || close(primary(text.code), primary(only.code))) return null;
  // A language ELD does not know: its titles cannot agree (ELD reads them as another), so the words decide alone.
  if (UNKNOWN_TO_ELD.has(text.code)) return text;
  const titles = titlesLanguage();
  // Titles and text of a close pair agree: the longer text's reading tells the pair apart better.
  if (titles !== null) return close(primary(titles.code), primary(text.code)) ? text : null;
  if (primary(only.code) !== 'en') return null;
  // Text in another script than English's is no stray banner, however short (a Thai front under `lang="en-us"`).
  return pageText.trim().length >= MIN_TEXT_OVER_TEMPLATE_CHARS || NOT_LATIN.has(primary(text.code))
    ? text
    : null;
}

/** Languages written in a script other than the Latin alphabet (Serbian, written in both, is not here). */
const NOT_LATIN: ReadonlySet<string> = new Set(
  'ar fa ur ps he yi ru uk be bg mk kk ky mn el hy ka am ti hi mr ne bn pa gu or ta te kn ml si th lo km my dv zh ja ko'.split(
    ' ',
  ),
);

/** At least MANY_TITLES distinct titles, read as one text, reliably in a language not close to `code`. */
function titlesReadTogetherAsOther(titleTexts: readonly string[], code: string): boolean {
  const distinct = [...new Set(titleTexts)];
  if (distinct.length < MANY_TITLES) return false;
  const together = detectTextLanguage(distinct.join('. '));
  return together !== null && !close(primary(together.code), code);
}

/**
 * The one language a page declares in its template alone: `<html lang>` or Open Graph's `og:locale` (themes write both
 * from one setting), and at most hreflang alternates of the same language (`lang="en"` with `hreflang="en-za"`, a
 * theme's pair); null when anything else declares or two languages are.
 */
function templateDeclaration(declared: readonly SourceLanguage[]): SourceLanguage | null {
  const tag = declared.find((d) => d.sources.includes('html_lang') || d.sources.includes('og_locale'));
  if (tag === undefined) return null;
  const templateOnly = declared.every(
    (d) => primary(d.code) === primary(tag.code) && d.sources.every((s) => TEMPLATE_SOURCES.has(s)),
  );
  // A tag that is also its own hreflang alternate was set with care, not left at a theme's default.
  return templateOnly && tag.sources.every((s) => s === 'html_lang' || s === 'og_locale') ? tag : null;
}

const TEMPLATE_SOURCES: ReadonlySet<LanguageSource> = new Set(['html_lang', 'og_locale', 'hreflang']);

/** The column a language filter reads: every code and its primary subtag, comma-wrapped (`,fr,fr-ca,`). */
export function languageIndex(languages: readonly SourceLanguage[]): string | null {
  if (languages.length === 0) return null;
  const codes = new Set<string>();
  for (const { code } of languages) {
    codes.add(code);
    codes.add(code.split('-')[0]!);
  }
  return `,${[...codes].sort().join(',')},`;
}
