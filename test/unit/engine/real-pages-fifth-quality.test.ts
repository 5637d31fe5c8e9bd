// The news verdict, country guess and language on the fifth set (test/fixtures/real-pages-fifth): pages of five public
// corpora none of the earlier sets draws on (CleanEval, Dragnet, htmltotext-benchmark, defuddle, GerapyAutoExtractor),
// from publishers none of them holds, two thirds of them not news (government, personal blogs, companies, platforms,
// reference, universities, NGOs), labelled from the publisher's identity before the engine ran on them. Read blind once
// as a whole; split into tuning / hold-out halves by isFreshHoldOut (bench/real-pages-folds.ts lists the tuning half's
// misses only). Each page is taken as its domain's entry page, as in real-pages-quality.test.ts.
import { describe, expect, it } from 'vitest';
import {
  FIFTH_PAGES_DIR,
  FOURTH_PAGES_DIR,
  FRESH_PAGES_DIR,
  loadRealPages,
  THIRD_PAGES_DIR,
} from '../../support/real-pages.js';
import {
  confusionByKind,
  figures,
  freshHalves,
  judge,
  publisherOverlap,
} from '../../support/real-pages-eval.js';

const judged = loadRealPages(FIFTH_PAGES_DIR).map(judge);

describe('discovery verdicts on the fifth set', () => {
  it('prints the figures', () => {
    const { tuning, holdOut } = freshHalves(judged);
    console.log(
      `fifth: ${JSON.stringify(figures(judged))}\ntuning: ${JSON.stringify(figures(tuning))}\nhold-out: ${JSON.stringify(figures(holdOut))}\n${confusionByKind(judged)}`,
    );
    expect(judged.length).toBeGreaterThanOrEqual(115);
    expect(tuning.length).toBeGreaterThan(0);
    expect(holdOut.length).toBeGreaterThan(0);
    expect(judged.filter((j) => !j.page.labels.news).length / judged.length).toBeGreaterThanOrEqual(0.6);
    const notNews = judged.filter((j) => !j.page.labels.news);
    expect(notNews.filter((j) => j.page.labels.kind === 'recipe').length / notNews.length).toBeLessThan(0.1);
  });

  it('holds no publisher of the earlier sets, and one page per publisher', () => {
    expect(publisherOverlap(judged, [undefined, FRESH_PAGES_DIR, THIRD_PAGES_DIR, FOURTH_PAGES_DIR])).toEqual(
      { sharedWithEarlier: [], repeated: [] },
    );
  });

  it('labels news exactly for kind news', () => {
    expect(judged.filter((j) => j.page.labels.news !== (j.page.labels.kind === 'news'))).toEqual([]);
  });

  // Read blind once, 2026-11-27 02:21 UTC, with the engine of commit 7f0ee0a (labels committed in 554d352): news
  // precision 0.818, recall 0.675, 23 maybe; country 0.907 of 54 labelled (0.980 where named); language 0.622
  // (docs/discovery.md, SOURCES.md). The floors are that level rounded down, so they hold today's engine and catch a
  // fall; they are not targets. After country round 4 and the running-text language (written without having seen
  // this set): country 0.926, language 0.975. company_sales_links and a politics desk's beats (chosen on the
  // tuning halves): precision 0.853, recall 0.725. A privacy policy's link no longer counts as the politics desk
  // (2026-11-27 afternoon: "Politika privatnosti" had been one of a Croatian business daily's three sections):
  // precision 0.871, recall 0.675 (27 of 40).
  it('news precision ≥ 0.85, recall ≥ 0.67', () => {
    const f = figures(judged);
    expect(f.precision).toBeGreaterThanOrEqual(0.85);
    expect(f.recall).toBeGreaterThanOrEqual(0.67);
  });

  it('country guess right on ≥ 0.92 of the pages with a known country', () => {
    expect(figures(judged).countryAccuracy).toBeGreaterThanOrEqual(0.92);
  });

  // 0.975, then 0.983 since a lone template <html lang> the text contradicts comes second (2026-11-27 06:21).
  it('primary language right on ≥ 0.98 of the pages', () => {
    expect(figures(judged).languageAccuracy).toBeGreaterThanOrEqual(0.98);
  });
});
