// The news verdict on the third set (test/fixtures/real-pages-third): pages of four public corpora neither earlier set
// draws on, from publishers neither holds, a third of them not news, labelled from the publisher's identity before the
// engine ran on them. Each page is taken as its domain's entry page, as in real-pages-quality.test.ts.
import { describe, expect, it } from 'vitest';
import { loadRealPages, THIRD_PAGES_DIR } from '../../support/real-pages.js';
import { confusionByKind, figures, judge } from '../../support/real-pages-eval.js';

const judged = loadRealPages(THIRD_PAGES_DIR).map(judge);

describe('discovery verdicts on the third set', () => {
  it('prints the figures', () => {
    console.log(`third: ${JSON.stringify(figures(judged))}\n${confusionByKind(judged)}`);
    expect(judged.length).toBeGreaterThanOrEqual(150);
    expect(judged.filter((j) => !j.page.labels.news).length / judged.length).toBeGreaterThanOrEqual(0.3);
  });
});
