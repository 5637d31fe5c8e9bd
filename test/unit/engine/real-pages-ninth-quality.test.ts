// The news verdict, country guess and language on the ninth set (test/fixtures/real-pages-ninth): the traps the mission
// names, of publishers none of the earlier sets holds — 46 shop pages in 19 languages (product pages of 35 shops and
// marketplaces, 6 category listings, 4 shop homepages, a supermarket's recipe page), 14 recipe pages in 10 languages
// other than English, 4 classifieds/auction/price-comparison pages, and 19 news pages in 11 languages other than English
// and German (18 articles, 1 front) so that recall is read too — saved by a product-extraction benchmark, a date
// extractor's evaluation pages, a recipe parser's fixtures and a pagination dataset, labelled from the publisher's
// identity before the engine ran on them. Most pages are not entry pages (product pages, articles); each is taken as its
// domain's entry page alone, as in the other quality tests: a crawl that lands on a shop's product page must not call
// the shop news, and a news story must still read as news. Read blind once as a whole; split into tuning / hold-out
// halves by isFreshHoldOut (bench/real-pages-folds.ts lists the tuning half's misses only).
//
// Read blind once, 2026-11-27 18:46 UTC (load average 1.4), with the engine of commit 79f1a0e (labels committed in
// 4c0c383, no engine change since), 83 pages with 19 labelled news: news precision 0.850 (17 of 20), recall 0.895
// (17 of 19), 4 maybe; country 0.921 of 76 labelled (0.972 where named); language 0.940. Judged news though not news:
// one shop page of 46 (tmon.co.kr) and two recipe pages of 14 (briceletbaklava.ch, kuchynalidla.sk); docs/discovery.md
// gives every miss with its reasons. The floors sit a little under that reading, as floors, not targets: one more page
// judged news wrongly takes precision to 0.810, one news page lost takes recall to 0.842, one more country miss 0.908,
// one more language miss 0.928; so each floor catches any single change for the worse, and the shop and recipe ceilings
// catch one more shop or recipe page read as news.
//
// Since 2026-11-27 evening a JSON-LD block with raw line breaks inside its strings is read (src/engine/json-ld.ts: a
// parser fix found through kuchynalidla.sk, a hold-out page, and checked with its own case in page-facts.test.ts):
// that recipe page reads not_news, so precision is 0.895 (17 of 19) and one recipe page reads news; the floors and the
// recipe ceiling moved up with it (precision ≥ 0.86, recipe pages read news ≤ 1). Then a "most viewed" box beside a cart
// stopped counting as a newsroom's most-read list (chosen on the tuning half's tmon.co.kr, news → maybe): precision
// 0.944 (17 of 18), no shop page read news, so the shop ceiling is 0 and the precision floor 0.9.

import { describe, expect, it } from 'vitest';
import { loadRealPages, NINTH_PAGES_DIR, setsBefore } from '../../support/real-pages.js';
import {
  confusionByKind,
  figures,
  freshHalves,
  judge,
  publisherOverlap,
} from '../../support/real-pages-eval.js';

const judged = loadRealPages(NINTH_PAGES_DIR).map(judge);
const ofKind = (kind: string) => judged.filter((j) => j.page.labels.kind === kind);

describe('discovery verdicts on the ninth set (shops, recipes in other languages, news beyond en/de)', () => {
  it('prints the figures', () => {
    const { tuning, holdOut } = freshHalves(judged);
    console.log(
      `ninth: ${JSON.stringify(figures(judged))}\ntuning: ${JSON.stringify(figures(tuning))}\nhold-out: ${JSON.stringify(figures(holdOut))}\n${confusionByKind(judged)}`,
    );
    expect(judged.length).toBeGreaterThanOrEqual(83);
    expect(tuning.length).toBeGreaterThan(0);
    expect(holdOut.length).toBeGreaterThan(0);
    expect(judged.filter((j) => !j.page.labels.news).length / judged.length).toBeGreaterThanOrEqual(0.75);
    expect(ofKind('shop').length).toBeGreaterThanOrEqual(46);
    expect(ofKind('recipe').length).toBeGreaterThanOrEqual(14);
  });

  it('holds news only in languages other than English and German, and recipes only in languages other than English', () => {
    expect(ofKind('news').filter((j) => ['en', 'de'].includes(j.page.labels.language))).toEqual([]);
    expect(ofKind('recipe').filter((j) => j.page.labels.language === 'en')).toEqual([]);
  });

  it('holds no publisher of the earlier sets, and one page per publisher', () => {
    expect(publisherOverlap(judged, setsBefore(NINTH_PAGES_DIR))).toEqual({
      sharedWithEarlier: [],
      repeated: [],
    });
  });

  it('labels news exactly for kind news', () => {
    expect(judged.filter((j) => j.page.labels.news !== (j.page.labels.kind === 'news'))).toEqual([]);
  });

  it('news precision ≥ 0.9, recall ≥ 0.84', () => {
    const f = figures(judged);
    expect(f.precision).toBeGreaterThanOrEqual(0.9);
    expect(f.recall).toBeGreaterThanOrEqual(0.84);
  });

  it('judges none of the shop pages and at most 1 of the recipe pages news', () => {
    expect(ofKind('shop').filter((j) => j.verdict === 'news')).toEqual([]);
    expect(ofKind('recipe').filter((j) => j.verdict === 'news').length).toBeLessThanOrEqual(1);
  });

  it('country guess right on ≥ 0.91 of the pages with a known country', () => {
    expect(figures(judged).countryAccuracy).toBeGreaterThanOrEqual(0.91);
  });

  it('primary language right on ≥ 0.93 of the pages', () => {
    expect(figures(judged).languageAccuracy).toBeGreaterThanOrEqual(0.93);
  });
});
