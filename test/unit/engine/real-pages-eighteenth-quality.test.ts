// The news verdict, country guess and language on the eighteenth set (test/fixtures/real-pages-eighteenth): 60
// homepages from a company-tagging tool's 2023 crawl (icustomerai/tag_identification), of publishers no earlier set
// holds — 18 news fronts (seven US local television stations, nine US dailies, La Presse and RDS in Quebec) among 42
// homepages of companies, shops, restaurants, colleges, associations and platforms. Chosen and labelled by a helper that
// read no engine code, before the engine ran on them. Split into tuning / hold-out halves by isFreshHoldOut.
//
// Read blind 2026-11-29 14:13 UTC (src as 5058466): news precision 0.783 (18 of 23: a print shop, a consultancy's
// front, a network vendor's, AARP's and TV Guide's read news), recall 1.000 (18 of 18), country 0.855 (47 of 55:
// companies' .com fronts with nothing of a country, intl), language 0.950 (three pages whose `<html lang>` contradicts
// their English text). docs/discovery.md, "The eighteenth set". The same session, after that reading: a
// region picker's "Deutschland (DE)" no national desk, a vendor's industries a company's menu, "Shop all …" and a
// customer's orders a shop's menu, fifteen or more product pages a catalogue's (product_links) — the consultancy, the
// vendor and the print shop not news. Precision 0.900 (18 of 20). Then a company's own name as a page's author is no
// byline, and a front on its layout alone stays news only under a full section menu (layout_only_front at most −1.25):
// AARP maybe, precision 0.947 (18 of 19; TV Guide reads news). The floors sit a little under that: one more page read
// news wrongly gives 0.900 (< 0.92), one news front lost 0.944 (< 0.95), one country miss 0.836 (< 0.845), one more
// language miss 0.933 (< 0.94).

import { describe, expect, it } from 'vitest';
import { describeEntrySetQuality } from '../../support/entry-set-quality.js';
import { EIGHTEENTH_PAGES_DIR } from '../../support/real-pages.js';

const judged = describeEntrySetQuality({
  name: 'eighteenth',
  title:
    'discovery verdicts on the eighteenth set (a company crawl: 18 news fronts among 42 other homepages)',
  dir: EIGHTEENTH_PAGES_DIR,
  minPages: 60,
  minNotNewsShare: 0.65,
  floors: { precision: 0.92, recall: 0.95, country: 0.845, language: 0.94 },
});

describe("the eighteenth set: companies' and shops' homepages beside news fronts", () => {
  it('reads no shop or company homepage as news', () => {
    const kinds = new Set(['shop', 'company']);
    expect(
      judged.filter((j) => kinds.has(j.page.labels.kind) && j.verdict === 'news').map((j) => j.page.id),
    ).toEqual([]);
  });
});
