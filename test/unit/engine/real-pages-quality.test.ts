// The discovery verdicts on real pages nobody wrote for these rules: each page is taken as its domain's entry page
// (no feeds, no sitemap, no other page), and the news verdict, country guess and primary language are measured.
// The corpus is split by a hash of the page id: rules were tuned on the tuning part only; the hold-out part is
// reported beside it to show how much of the tuning carried over.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { registrableDomainOf } from '../../../src/domain/domains.js';
import { platformKind } from '../../../src/domain/platform-hosts.js';
import { guessCountry } from '../../../src/engine/country-guess.js';
import { sourceLanguages } from '../../../src/engine/languages.js';
import { judgeNews, type NewsVerdictValue } from '../../../src/engine/news-verdict.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';
import { readPageSignals } from '../../../src/engine/page-signals.js';
import { detectTitlesLanguage } from '../../../src/engine/title-language.js';
import { loadRealPages, type RealPage } from '../../support/real-pages.js';

/** One page in three goes to the hold-out part, by the first byte of the SHA-1 of its id. */
function isHoldOut(id: string): boolean {
  return createHash('sha1').update(id).digest()[0]! % 3 === 0;
}

interface Judged {
  page: RealPage;
  verdict: NewsVerdictValue;
  score: number;
  country: string;
  language: string | null;
  platform: boolean;
}

function judge(page: RealPage): Judged {
  const url = new URL(page.url);
  const registrableDomain = registrableDomainOf(url.hostname) ?? url.hostname;
  const facts = readPageFacts(page.html, page.url);
  const news = judgeNews({
    host: url.hostname,
    registrableDomain,
    homepage: facts,
    articles: [],
    sitemap: null,
    feeds: [],
    now: new Date('2026-11-26T00:00:00Z'),
  });
  const declared = sourceLanguages({
    page: readPageSignals(page.html),
    contentLanguage: undefined,
    feeds: [],
    sitemap: null,
  });
  // Nothing declared: the title and the headlines of the page's article links, as languages.ts does with feed titles.
  const detected =
    declared.length === 0
      ? detectTitlesLanguage([facts.title ?? '', ...facts.headlines].filter((t) => t !== ''))
      : null;
  const languages = declared.length > 0 ? declared : detected === null ? [] : [{ code: detected.code }];
  const country = guessCountry({
    host: url.hostname,
    registrableDomain,
    htmlLang: facts.html_lang,
    contentLanguage: facts.content_language,
    hreflang: facts.hreflang.map((h) => h.lang),
    languages,
    ogLocale: facts.og_locale,
    pageTimes: facts.page_times,
    addressCountries: facts.address_countries,
    externalLinks: facts.links.filter((l) => !l.internal).map((l) => l.url),
  });
  return {
    page,
    verdict: news.verdict,
    score: news.score,
    country: country.code,
    language: languages[0]?.code.split('-')[0] ?? null,
    platform: platformKind(registrableDomain) !== null,
  };
}

interface Figures {
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

function figures(judged: Judged[]): Figures {
  const judgedNews = judged.filter((j) => j.verdict === 'news');
  const truePositives = judgedNews.filter((j) => j.page.labels.news).length;
  const actualNews = judged.filter((j) => j.page.labels.news).length;
  const withCountry = judged.filter((j) => j.page.labels.country !== null);
  const countryRight = withCountry.filter((j) => j.country === j.page.labels.country).length;
  const languageRight = judged.filter((j) => j.language === j.page.labels.language.split('-')[0]).length;
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

function confusionByKind(judged: Judged[]): string {
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

const pages = loadRealPages();
const judged = pages.map(judge);
const tuning = judged.filter((j) => !isHoldOut(j.page.id));
const holdOut = judged.filter((j) => isHoldOut(j.page.id));

describe('discovery verdicts on the real-page corpus (each page as its domain entry page)', () => {
  it('prints the figures and the per-kind confusion', () => {
    const report = (name: string, part: Judged[]) => `${name}: ${JSON.stringify(figures(part))}`;
    console.log(
      [
        report('tuning', tuning),
        report('hold-out', holdOut),
        report('all', judged),
        'per kind (all pages):',
        confusionByKind(judged),
        // Page-level misses are listed for the tuning part only: the hold-out part is never looked into.
        'misjudged news (tuning):',
        ...tuning
          .filter((j) => (j.verdict === 'news') !== j.page.labels.news)
          .map((j) => `  ${j.page.id} ${j.page.labels.kind} → ${j.verdict} ${j.score}`),
        'wrong country (tuning):',
        ...tuning
          .filter((j) => j.page.labels.country !== null && j.country !== j.page.labels.country)
          .map((j) => `  ${j.page.id} ${j.page.labels.country} → ${j.country}`),
        'wrong language (tuning):',
        ...tuning
          .filter((j) => j.language !== j.page.labels.language.split('-')[0])
          .map((j) => `  ${j.page.id} ${j.page.labels.language} → ${j.language}`),
      ].join('\n'),
    );
    expect(pages.length).toBeGreaterThan(100);
  });

  // "maybe" counts as not news for precision and as a miss for recall: only a news verdict is a claim.
  // The floors are the targets where the part reaches them (precision 0.95, recall 0.90, country 0.85) and just
  // under the level reached where it does not (docs/discovery.md): measured precision 0.959 / 0.943, recall
  // 0.922 / 0.902, country accuracy 0.888 / 0.772 (tuning / hold-out). The hold-out precision and country
  // accuracy are below the targets.
  for (const [name, part, precisionFloor, recallFloor, countryFloor] of [
    ['tuning', tuning, 0.95, 0.9, 0.85],
    ['hold-out', holdOut, 0.94, 0.9, 0.77],
  ] as const) {
    it(`${name}: news precision ≥ ${precisionFloor}, recall ≥ ${recallFloor}`, () => {
      const f = figures(part);
      expect(f.precision).toBeGreaterThanOrEqual(precisionFloor);
      expect(f.recall).toBeGreaterThanOrEqual(recallFloor);
    });

    // A language alone never names a country, so a .com page that says only "en" and carries no offset, address,
    // locale or country-coded links is intl. Where a country IS named, it must be right 90% of the time
    // (measured: 0.971 tuning, 0.922 hold-out).
    it(`${name}: a named country is right ≥ 90% of the time; ≥ ${countryFloor} of labelled pages right`, () => {
      const f = figures(part);
      expect(f.countryPrecision).toBeGreaterThanOrEqual(0.9);
      expect(f.countryAccuracy).toBeGreaterThanOrEqual(countryFloor);
    });

    it(`${name}: primary language right on ≥ 90% of the pages`, () => {
      expect(figures(part).languageAccuracy).toBeGreaterThanOrEqual(0.9);
    });
  }

  it('never judges a platform host news', () => {
    const platformsAsNews = judged.filter((j) => j.platform && j.verdict === 'news').map((j) => j.page.id);
    expect(platformsAsNews).toEqual([]);
  });
});
