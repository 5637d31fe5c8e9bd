// The discovery verdicts on real pages nobody wrote for these rules: each page is taken as its domain's entry page
// (no feeds, no sitemap, no other page), and the news verdict, country guess and primary language are measured.
// The corpus is split by a hash of the page id: rules were tuned on the tuning part only; the hold-out part is
// reported beside it to show how much of the tuning carried over.
import { describe, expect, it } from 'vitest';
import { loadRealPages } from '../../support/real-pages.js';
import {
  confusionByKind,
  FOLDS,
  figures,
  foldFigures,
  isHoldOut,
  type Judged,
  judge,
} from '../../support/real-pages-eval.js';

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
        `${FOLDS}-fold: ${JSON.stringify(foldFigures(judged))}`,
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
  // The floors are just under the level reached (docs/discovery.md): measured precision 0.988 / 1.000, recall
  // 0.933 / 0.946 (2026-11-26, after no_newsroom_sign and the news line on the weights' grid), country accuracy
  // 0.984 / 0.859 (tuning / hold-out, after the publisher-place, structured-telephone and one-clock-time signals:
  // the hold-out reaches the 0.85 target, 79 of 92 pages).
  for (const [name, part, precisionFloor, recallFloor, countryFloor] of [
    ['tuning', tuning, 0.98, 0.93, 0.98],
    ['hold-out', holdOut, 0.99, 0.94, 0.85],
  ] as const) {
    it(`${name}: news precision ≥ ${precisionFloor}, recall ≥ ${recallFloor}`, () => {
      const f = figures(part);
      expect(f.precision).toBeGreaterThanOrEqual(precisionFloor);
      expect(f.recall).toBeGreaterThanOrEqual(recallFloor);
    });

    // A language alone never names a country, so a .com page that says only "en" and carries no offset, address,
    // locale or country-coded links is intl. Where a country IS named, it must be right 90% of the time
    // (measured: 0.984 tuning, 0.929 hold-out).
    it(`${name}: a named country is right ≥ 90% of the time; ≥ ${countryFloor} of labelled pages right`, () => {
      const f = figures(part);
      expect(f.countryPrecision).toBeGreaterThanOrEqual(0.9);
      expect(f.countryAccuracy).toBeGreaterThanOrEqual(countryFloor);
    });

    // 0.958 / 0.941 before the running text was read, 0.979 / 0.963 after; 0.990 / 0.978 once Zulu, Xhosa and
    // Swahili were read from their commonest words (function-word-languages.ts).
    it(`${name}: primary language right on ≥ 97% of the pages`, () => {
      expect(figures(part).languageAccuracy).toBeGreaterThanOrEqual(0.97);
    });
  }

  // Five folds by hash of the page id, to see past the luck of one split: measured mean precision 0.993, recall
  // 0.937, country 0.943; the worst fold 0.981 / 0.912 / 0.918.
  it(`${FOLDS}-fold: mean and worst fold above their floors`, () => {
    const { mean, min } = foldFigures(judged);
    expect(mean.precision).toBeGreaterThanOrEqual(0.99);
    expect(mean.recall).toBeGreaterThanOrEqual(0.93);
    expect(mean.countryAccuracy).toBeGreaterThanOrEqual(0.94);
    expect(min.precision).toBeGreaterThanOrEqual(0.98);
    expect(min.recall).toBeGreaterThanOrEqual(0.91);
    expect(min.countryAccuracy).toBeGreaterThanOrEqual(0.91);
  });

  it('never judges a platform host news', () => {
    const platformsAsNews = judged.filter((j) => j.platform && j.verdict === 'news').map((j) => j.page.id);
    expect(platformsAsNews).toEqual([]);
  });
});
