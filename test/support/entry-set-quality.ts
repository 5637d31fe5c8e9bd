// The quality suite of a set of ENTRY pages (homepages and section fronts) read blind: the sixth set and every entry
// set after it share it, each with its own floors and the history of its readings beside them (their test files).
import { describe, expect, it } from 'vitest';
import { loadRealPages, setsBefore } from './real-pages.js';
import {
  confusionByKind,
  figures,
  freshHalves,
  type Judged,
  judge,
  publisherOverlap,
} from './real-pages-eval.js';

export interface EntrySetQuality {
  /** The set's short name, as the folds bench prints it. */
  name: string;
  title: string;
  dir: string;
  minPages: number;
  /** At least this share of the pages is not news. */
  minNotNewsShare: number;
  /** Floors a little under the set's reading: they catch a fall, they are not targets. */
  floors: { precision: number; recall: number; country: number; language: number };
  /**
   * When given: the set holds at least this many news fronts, and no company's page and no page on a known platform
   * host is read news (the sets built of look-alikes: thirteenth, fourteenth).
   */
  minNewsFronts?: number;
}

/** Describes the set's suite; returns its pages as judged, for the set's own further checks. */
export function describeEntrySetQuality(set: EntrySetQuality): Judged[] {
  const judged = loadRealPages(set.dir).map(judge);
  const { precision, recall, country, language } = set.floors;

  describe(set.title, () => {
    it('prints the figures', () => {
      const { tuning, holdOut } = freshHalves(judged);
      console.log(
        `${set.name}: ${JSON.stringify(figures(judged))}\ntuning: ${JSON.stringify(figures(tuning))}\nhold-out: ${JSON.stringify(figures(holdOut))}\n${confusionByKind(judged)}`,
      );
      expect(judged.length).toBeGreaterThanOrEqual(set.minPages);
      expect(tuning.length).toBeGreaterThan(0);
      expect(holdOut.length).toBeGreaterThan(0);
      expect(judged.filter((j) => !j.page.labels.news).length / judged.length).toBeGreaterThanOrEqual(
        set.minNotNewsShare,
      );
    });

    it('holds entry pages only: homepages and section fronts', () => {
      expect(judged.filter((j) => !['homepage', 'section'].includes(j.page.labels.page_type))).toEqual([]);
    });

    it('holds no publisher of the earlier sets, and one page per publisher', () => {
      expect(publisherOverlap(judged, setsBefore(set.dir))).toEqual({ sharedWithEarlier: [], repeated: [] });
    });

    it('labels news exactly for kind news', () => {
      expect(judged.filter((j) => j.page.labels.news !== (j.page.labels.kind === 'news'))).toEqual([]);
    });

    it(`news precision ≥ ${precision}, recall ≥ ${recall}`, () => {
      const f = figures(judged);
      expect(f.precision).toBeGreaterThanOrEqual(precision);
      expect(f.recall).toBeGreaterThanOrEqual(recall);
    });

    it(`country guess right on ≥ ${country} of the pages with a known country`, () => {
      expect(figures(judged).countryAccuracy).toBeGreaterThanOrEqual(country);
    });

    it(`primary language right on ≥ ${language} of the pages`, () => {
      expect(figures(judged).languageAccuracy).toBeGreaterThanOrEqual(language);
    });

    const minNewsFronts = set.minNewsFronts;
    if (minNewsFronts !== undefined)
      it(`holds at least ${minNewsFronts} news fronts and reads no company news, and no page on a known platform host`, () => {
        expect(judged.filter((j) => j.page.labels.kind === 'news').length).toBeGreaterThanOrEqual(
          minNewsFronts,
        );
        const wrong = judged.filter(
          (j) => (j.page.labels.kind === 'company' || j.platform) && j.verdict === 'news',
        );
        expect(wrong.map((j) => j.page.id)).toEqual([]);
      });
  });
  return judged;
}
