// The news verdict, country guess and language on the seventh set (test/fixtures/real-pages-seventh): ENTRY pages again
// (52 homepages and 4 section fronts), most of them NOT news (shops, forums, classifieds, universities, government,
// companies, personal sites), to read the homepage verdict's precision where the sixth set found it weakest; saved by
// form- and pagination-classifier datasets and link-preview, parser and minifier fixtures, from publishers none of the
// earlier sets holds, labelled from the publisher's identity before the engine ran on them. Read blind once as a whole;
// split into tuning / hold-out halves by isFreshHoldOut (bench/real-pages-folds.ts lists the tuning half's misses only).
// Each page is taken as its domain's entry page, as in real-pages-quality.test.ts, which here it really is.
import { describe, expect, it } from 'vitest';
import {
  FIFTH_PAGES_DIR,
  FOURTH_PAGES_DIR,
  FRESH_PAGES_DIR,
  loadRealPages,
  SEVENTH_PAGES_DIR,
  SIXTH_PAGES_DIR,
  THIRD_PAGES_DIR,
} from '../../support/real-pages.js';
import {
  confusionByKind,
  figures,
  freshHalves,
  judge,
  publisherOverlap,
} from '../../support/real-pages-eval.js';

const judged = loadRealPages(SEVENTH_PAGES_DIR).map(judge);

describe('discovery verdicts on the seventh set (entry pages, mostly not news)', () => {
  it('prints the figures', () => {
    const { tuning, holdOut } = freshHalves(judged);
    console.log(
      `seventh: ${JSON.stringify(figures(judged))}\ntuning: ${JSON.stringify(figures(tuning))}\nhold-out: ${JSON.stringify(figures(holdOut))}\n${confusionByKind(judged)}`,
    );
    expect(judged.length).toBeGreaterThanOrEqual(56);
    expect(tuning.length).toBeGreaterThan(0);
    expect(holdOut.length).toBeGreaterThan(0);
    expect(judged.filter((j) => !j.page.labels.news).length / judged.length).toBeGreaterThanOrEqual(0.8);
  });

  it('holds entry pages only: homepages and section fronts', () => {
    expect(judged.filter((j) => !['homepage', 'section'].includes(j.page.labels.page_type))).toEqual([]);
  });

  it('holds no publisher of the earlier sets, and one page per publisher', () => {
    expect(
      publisherOverlap(judged, [
        undefined,
        FRESH_PAGES_DIR,
        THIRD_PAGES_DIR,
        FOURTH_PAGES_DIR,
        FIFTH_PAGES_DIR,
        SIXTH_PAGES_DIR,
      ]),
    ).toEqual({ sharedWithEarlier: [], repeated: [] });
  });

  it('labels news exactly for kind news', () => {
    expect(judged.filter((j) => j.page.labels.news !== (j.page.labels.kind === 'news'))).toEqual([]);
  });

  // Read blind once, 2026-11-27 12:34 UTC (load average 5.1), with the engine of commit e9b6eb0 (labels committed in
  // f369ea0 and 6d88e90, no engine change since), on 57 pages: news precision 0.545 (6 of 11), recall 0.667 (6 of 9),
  // 18 maybe; country 0.846 of 13 labelled; language 0.982. Slashdot's page was then found to be a hand-trimmed 2 KB
  // excerpt (two stories, no head), not a saved page, and dropped: on the 56 left, precision 0.545, recall 0.750, country
  // 0.917 of 12, language 0.982 (docs/discovery.md, SOURCES.md). After the rules chosen on its tuning half and the
  // earlier sets' (organisation_menu, front_page_few_stories; 2026-11-27 afternoon): precision 0.700 (7 of 10). The
  // floors sit a little under that level, so they hold today's engine and catch a fall; they are not targets.
  it('news precision ≥ 0.68, recall ≥ 0.74', () => {
    const f = figures(judged);
    expect(f.precision).toBeGreaterThanOrEqual(0.68);
    expect(f.recall).toBeGreaterThanOrEqual(0.74);
  });

  it('country guess right on ≥ 0.9 of the pages with a known country', () => {
    expect(figures(judged).countryAccuracy).toBeGreaterThanOrEqual(0.9);
  });

  // Taobao's page (zh) reads no language: one page of 56 is 0.018.
  it('primary language right on ≥ 0.98 of the pages', () => {
    expect(figures(judged).languageAccuracy).toBeGreaterThanOrEqual(0.98);
  });
});
