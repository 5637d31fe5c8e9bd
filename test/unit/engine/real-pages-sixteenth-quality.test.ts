// The news verdict, country guess and language on the sixteenth set (test/fixtures/real-pages-sixteenth): 91 site
// roots, the rest of the August 2021 crawl the twelfth and thirteenth sets drew on (rayngan999/Obfuscation-Automation),
// every page of it with a site-root canonical or og:url link, of a publisher no earlier set holds, restorable in its
// declared UTF-8 — pornography, piracy, an empty page and three of unclear kind left out. So it is what such a crawl finds:
// six news fronts (Báo Tin tức, Dân Việt, CafeBiz and GenK from Vietnam, the Slovenian business daily Finance, The
// News & Observer of Raleigh) among 85 homepages of shops, banks, companies, marketplaces, tools, games and guides.
// Labelled before the engine ran on them. Split into tuning / hold-out halves by isFreshHoldOut (48 / 43 pages).
//
// Read blind 2026-11-29 04:44 UTC (load ≈ 1.3, src as 844d01a): news precision 0.750 (6 of 8: a parenting magazine's
// front, parents.com, and an online-course site's, study.com, read news), recall 1.000 (6 of 6), 18 maybe; country
// 1.000 of 6 labelled; language 0.978 of 91 (two pages with almost no words read as no language). docs/discovery.md,
// "The sixteenth set". Since the title and the text are read together when neither tells alone (languages.ts),
// zostream.com reads English: language 0.989. The floors sit a little under that, as floors, not targets: one more
// page read news wrongly gives 0.667 (< 0.7), one news front lost 0.833 (< 0.9), one country miss 0.833 (< 0.9), one
// more language miss 0.978 (< 0.98).
// 2026-11-29 (session 24): recall 0.833 (5 of 6) and its floor 0.8 — finance.si had read news on its privacy-policy
// link ("Politika zasebnosti") taken for a politics desk; the link is no desk (section-words.ts), and without it the
// front shows story links and a byline only (maybe). A second lost front gives 0.667 (< 0.8). The same session a
// school's or course seller's menu counts against (school_menu): study.com maybe, precision 0.833 (5 of 6), floor
// 0.8 — one page read news wrongly again gives 0.714.

// 2026-11-29 (session 25): layout_only_front at most −1.25 — Parents' front maybe. Precision 1.000 (5 of 5), floor 0.9:
// one page read news wrongly gives 0.833.
import { describe, expect, it } from 'vitest';
import { describeEntrySetQuality } from '../../support/entry-set-quality.js';
import { SIXTEENTH_PAGES_DIR } from '../../support/real-pages.js';

const judged = describeEntrySetQuality({
  name: 'sixteenth',
  title: 'discovery verdicts on the sixteenth set (a 2021 crawl: six news fronts among 85 other homepages)',
  dir: SIXTEENTH_PAGES_DIR,
  minPages: 91,
  minNotNewsShare: 0.9,
  floors: { precision: 0.9, recall: 0.8, country: 0.9, language: 0.98 },
  minNewsFronts: 6,
});

describe('the sixteenth set: what a crawl finds beside news', () => {
  it('reads no shop, bank, company, marketplace, reference site or blog as news', () => {
    const kinds = new Set(['shop', 'company', 'platform', 'reference', 'personal_blog']);
    const wrong = judged.filter((j) => kinds.has(j.page.labels.kind) && j.verdict === 'news');
    expect(wrong.map((j) => j.page.id)).toEqual([]);
    expect(judged.filter((j) => kinds.has(j.page.labels.kind)).length).toBeGreaterThanOrEqual(60);
  });
});
