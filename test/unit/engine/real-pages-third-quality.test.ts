// The news verdict on the third set (test/fixtures/real-pages-third): pages of four public corpora neither earlier set
// draws on, from publishers neither holds, a third of them not news, labelled from the publisher's identity before the
// engine ran on them. Each page is taken as its domain's entry page, as in real-pages-quality.test.ts.
import { describe, expect, it } from 'vitest';
import { FRESH_PAGES_DIR, loadRealPages, THIRD_PAGES_DIR } from '../../support/real-pages.js';
import { confusionByKind, figures, judge, publisherOverlap } from '../../support/real-pages-eval.js';

const judged = loadRealPages(THIRD_PAGES_DIR).map(judge);

describe('discovery verdicts on the third set', () => {
  it('prints the figures', () => {
    console.log(`third: ${JSON.stringify(figures(judged))}\n${confusionByKind(judged)}`);
    expect(judged.length).toBeGreaterThanOrEqual(150);
    expect(judged.filter((j) => !j.page.labels.news).length / judged.length).toBeGreaterThanOrEqual(0.3);
  });

  it('holds no publisher of the earlier sets', () => {
    expect(publisherOverlap(judged, [undefined, FRESH_PAGES_DIR]).sharedWithEarlier).toEqual([]);
  });

  // Read blind once with the rules of news round 3: precision 0.939, recall 0.911 (docs/discovery.md). The rules
  // changed after that on the earlier sets' tuning halves only (no_newsroom_sign, the news line on the weights' grid);
  // re-read after: 0.948 / 0.901. News round 5 (chosen on the tuning halves: its tuning half among them) read 0.959 /
  // 0.921, its hold-out half unchanged at 0.932 / 0.911. The floors are that level.
  it('news precision ≥ 0.95, recall ≥ 0.92', () => {
    const f = figures(judged);
    expect(f.precision).toBeGreaterThanOrEqual(0.95);
    expect(f.recall).toBeGreaterThanOrEqual(0.92);
  });

  // Country, read blind with country round 2's rules: 0.881 of 101 labelled (0.908 where named); country round 3
  // (publisher place, JSON-LD telephones, one clock time), chosen on the earlier sets' tuning halves, left it at 0.881;
  // country round 4 (the gazetteer's 63 more entries) 0.901.
  it('country guess right on ≥ 0.9 of the pages with a known country', () => {
    expect(figures(judged).countryAccuracy).toBeGreaterThanOrEqual(0.9);
  });

  // Language: 0.931 before the running text was read (2026-11-27 02:27), 0.969 after, 0.987 since a lone template
  // <html lang> the text contradicts comes second (06:21; docs/discovery.md, "A template's language tag").
  it('primary language right on ≥ 0.98 of the pages', () => {
    expect(figures(judged).languageAccuracy).toBeGreaterThanOrEqual(0.98);
  });
});
