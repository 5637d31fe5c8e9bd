// Judging the real-page corpus (test/fixtures/real-pages) as discovery would, and the figures over any part of it:
// the tuning / hold-out split of the quality test and a 5-fold view (bench/real-pages-folds.ts) share this code.
import { createHash } from 'node:crypto';
import { registrableDomainOf } from '../../src/domain/domains.js';
import { platformKind } from '../../src/domain/platform-hosts.js';
import { type CountryGuess, type CountryInput, guessCountry } from '../../src/engine/country-guess.js';
import { sourceLanguages } from '../../src/engine/languages.js';
import {
  judgeNews,
  type NewsInput,
  type NewsVerdict,
  type NewsVerdictValue,
} from '../../src/engine/news-verdict.js';
import { type PageFacts, readPageFacts } from '../../src/engine/page-facts.js';
import { readPageSignals } from '../../src/engine/page-signals.js';
import { pageCountrySignals } from '../../src/engine/source-verdicts.js';
import { type RealPage, readRealPagesManifest } from './real-pages.js';

/** One page in three goes to the hold-out part, by the first byte of the SHA-1 of its id. */
export function isHoldOut(id: string): boolean {
  return createHash('sha1').update(id).digest()[0]! % 3 === 0;
}

/**
 * The second hold-out set (real-pages-fresh) is split in two by the first byte of the SHA-256 of the page id: rules
 * may be tuned on the misses of its tuning half; the other half is read once, after the rules are frozen.
 */
export function isFreshHoldOut(id: string): boolean {
  return createHash('sha256').update(id).digest()[0]! % 2 === 1;
}

/** A later set's tuning half and hold-out half (isFreshHoldOut). */
export function freshHalves(judged: readonly Judged[]): { tuning: Judged[]; holdOut: Judged[] } {
  return {
    tuning: judged.filter((j) => !isFreshHoldOut(j.page.id)),
    holdOut: judged.filter((j) => isFreshHoldOut(j.page.id)),
  };
}

export const FOLDS = 5;

/** The fold (0…FOLDS−1) of a page: bytes 1–4 of the SHA-1 of its id, so folds cut across the hold-out split. */
export function foldOf(id: string): number {
  return createHash('sha1').update(id).digest().readUInt32BE(1) % FOLDS;
}

export interface Judged {
  page: RealPage;
  verdict: NewsVerdictValue;
  score: number;
  country: string;
  language: string | null;
  platform: boolean;
  news: NewsVerdict;
  countryGuess: CountryGuess;
  /** What guessCountry was given, to re-run it with a signal left out. */
  countryInput: CountryInput;
}

/** The news verdict's input for a real page read as its domain's entry page alone: no feeds, no sitemap, no other page. */
export function newsInputOf(page: RealPage, facts: PageFacts): NewsInput {
  const url = new URL(page.url);
  return {
    host: url.hostname,
    registrableDomain: registrableDomainOf(url.hostname) ?? url.hostname,
    homepage: facts,
    articles: [],
    sitemap: null,
    feeds: [],
    now: new Date('2026-11-26T00:00:00Z'),
  };
}

export function judge(page: RealPage): Judged {
  const url = new URL(page.url);
  const registrableDomain = registrableDomainOf(url.hostname) ?? url.hostname;
  const facts = readPageFacts(page.html, page.url);
  const news = judgeNews(newsInputOf(page, facts));
  // Nothing declared: the title and the headlines of the page's article links, as a contract run detects them.
  const languages = sourceLanguages({
    page: readPageSignals(page.html),
    contentLanguage: undefined,
    feeds: [],
    sitemap: null,
    pageTitles: [facts.title ?? '', ...facts.headlines],
    pageText: facts.text_sample,
  });
  const countryInput: CountryInput = {
    ...pageCountrySignals(facts),
    host: url.hostname,
    registrableDomain,
    languages,
  };
  const country = guessCountry(countryInput);
  return {
    page,
    verdict: news.verdict,
    score: news.score,
    country: country.code,
    language: languages[0]?.code.split('-')[0] ?? null,
    platform: platformKind(registrableDomain) !== null,
    news,
    countryGuess: country,
    countryInput,
  };
}

export interface Figures {
  pages: number;
  precision: number;
  recall: number;
  maybe: number;
  countryAccuracy: number;
  countryPages: number;
  /** Right among the pages where the guess names a country (not intl), and how many pages that is. */
  countryPrecision: number;
  countryNamed: number;
  languageAccuracy: number;
}

export function figures(judged: Judged[]): Figures {
  const judgedNews = judged.filter((j) => j.verdict === 'news');
  const truePositives = judgedNews.filter((j) => j.page.labels.news).length;
  const actualNews = judged.filter((j) => j.page.labels.news).length;
  const withCountry = judged.filter((j) => j.page.labels.country !== null);
  const countryRight = withCountry.filter((j) => j.country === j.page.labels.country).length;
  const languageRight = judged.filter((j) => j.language === j.page.labels.language.split(/[-_]/)[0]).length;
  const ratio = (a: number, b: number) => (b === 0 ? 1 : Math.round((a / b) * 1000) / 1000);
  return {
    pages: judged.length,
    precision: ratio(truePositives, judgedNews.length),
    recall: ratio(truePositives, actualNews),
    maybe: judged.filter((j) => j.verdict === 'maybe').length,
    countryAccuracy: ratio(countryRight, withCountry.length),
    countryPages: withCountry.length,
    countryPrecision: ratio(countryRight, withCountry.filter((j) => j.country !== 'intl').length),
    countryNamed: withCountry.filter((j) => j.country !== 'intl').length,
    languageAccuracy: ratio(languageRight, judged.length),
  };
}

export type FoldMetric = 'precision' | 'recall' | 'countryAccuracy' | 'countryPrecision' | 'languageAccuracy';
const FOLD_METRICS: FoldMetric[] = [
  'precision',
  'recall',
  'countryAccuracy',
  'countryPrecision',
  'languageAccuracy',
];

/** The figures of each of the FOLDS folds, and per metric their mean and minimum. */
export function foldFigures(judged: Judged[]): {
  folds: Figures[];
  mean: Record<FoldMetric, number>;
  min: Record<FoldMetric, number>;
} {
  const folds = Array.from({ length: FOLDS }, (_, k) =>
    figures(judged.filter((j) => foldOf(j.page.id) === k)),
  );
  const round = (v: number) => Math.round(v * 1000) / 1000;
  const mean = {} as Record<FoldMetric, number>;
  const min = {} as Record<FoldMetric, number>;
  for (const metric of FOLD_METRICS) {
    const values = folds.map((f) => f[metric]);
    mean[metric] = round(values.reduce((a, b) => a + b, 0) / values.length);
    min[metric] = round(Math.min(...values));
  }
  return { folds, mean, min };
}

export function confusionByKind(judged: Judged[]): string {
  const rows = new Map<string, Record<NewsVerdictValue, number>>();
  for (const j of judged) {
    const row = rows.get(j.page.labels.kind) ?? { news: 0, maybe: 0, not_news: 0 };
    row[j.verdict] += 1;
    rows.set(j.page.labels.kind, row);
  }
  return [...rows]
    .sort((a, b) => a[0].localeCompare(b[0]))
    .map(([kind, r]) => `  ${kind.padEnd(14)} news ${r.news}  maybe ${r.maybe}  not_news ${r.not_news}`)
    .join('\n');
}

/**
 * How a later set keeps to its own publishers: the registrable domains it shares with the sets in `earlierDirs`
 * (undefined: the main corpus), and those it holds more than once. Both empty for a set built as SOURCES.md says.
 */
export function publisherOverlap(
  judged: readonly Judged[],
  earlierDirs: ReadonlyArray<string | undefined>,
): { sharedWithEarlier: string[]; repeated: string[] } {
  const earlier = new Set(
    earlierDirs.flatMap((dir) => readRealPagesManifest(dir).pages.map((p) => p.registrable_domain)),
  );
  const domains = judged.map((j) => j.page.labels.registrable_domain);
  return {
    sharedWithEarlier: domains.filter((d) => earlier.has(d)),
    repeated: domains.filter((d, i) => domains.indexOf(d) !== i),
  };
}
