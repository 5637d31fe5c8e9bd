// The news verdict, country guess and language on the seventeenth set (test/fixtures/real-pages-seventeenth): 198 site
// roots, every one left in the October 2020 exercise that fetched 1,000 links shared on Twitter (GeorgeMarche/
// project-portfolio, which the tenth and eleventh sets chose from), of a publisher no earlier set holds — empty shells,
// an error page, a challenge page and four pages of unclear kind left out. So it is what following shared links finds:
// 23 news fronts (dailies in Aberdeen, Delhi, Guam and South Africa, US television stations, Indian and Nigerian news
// sites, trade news of higher education, groceries, pharma production and consulting, Swiss police reports, a German
// local site on the Costa Brava, an Indonesian magazine, New Scientist, Inter Press Service) among 175 homepages of
// companies, people, charities, associations and public bodies. Labelled before the engine ran on them, and committed
// before the first reading (b690168). Split into tuning / hold-out halves by isFreshHoldOut.
//
// Read blind 2026-11-29 07:24 UTC (src as 95bc332): news precision 0.731 (19 of 26: a university research centre, the
// Tibetan government in exile's news-heavy front, PwC Romania, a Spanish smart-card company whose description ends
// "Noticias Kalysis", Martha Stewart's recipes-and-crafts front, a press-release site named "Valenzuela Post" and an
// association's blog of reposted press articles read news), recall 0.826 (19 of 23: HealthWire, Wonkhe and the
// European Supermarket Magazine held at maybe, no newsroom sign on their fronts; the Costa Brava site, German under
// `lang="es"`, not news); 19 of the 175 maybe; country 0.750 of 20 labelled (Guam's Pacific Daily News read us, a
// Nigerian site us, the Irish grocery-trade magazine and the Costa Brava site intl, the Indonesian magazine intl under
// its English reading); language 0.980 of 198 (four pages whose words contradict their `<html lang>`).
// docs/discovery.md, "The seventeenth set". Since a front dating its stories hours apart counts as a newsroom's
// (frequent_front, the same day, checked on every set's pages): HealthWire reads news; and since "Projects", "Current
// projects" and "Our team" count as an organisation's menu: the research centre is not news. Precision 0.769 (20 of
// 26), recall 0.870 (20 of 23). The floors sit a little under that, as floors, not targets: one more page read news
// wrongly gives 0.741 (< 0.75), one news front lost 0.826 (< 0.84), one country miss 0.700 (< 0.74), one more language
// miss 0.975 (< 0.976).
// 2026-11-29 (session 24): a recipe site's menu and a company's menu read (recipe_menu, company_menu): Martha Stewart's
// front not news, PwC Romania maybe, Kalysis not news. Precision 0.870 (20 of 23), floor 0.85: one more page read news
// wrongly gives 0.833.

import { describe, expect, it } from 'vitest';
import { describeEntrySetQuality } from '../../support/entry-set-quality.js';
import { SEVENTEENTH_PAGES_DIR } from '../../support/real-pages.js';

const judged = describeEntrySetQuality({
  name: 'seventeenth',
  title: 'discovery verdicts on the seventeenth set (shared links: 23 news fronts among 175 other homepages)',
  dir: SEVENTEENTH_PAGES_DIR,
  minPages: 198,
  minNotNewsShare: 0.85,
  floors: { precision: 0.85, recall: 0.84, country: 0.74, language: 0.976 },
});

describe('the seventeenth set: what shared links find beside news', () => {
  it('reads no shop, platform or reference site as news, and most other homepages as not news', () => {
    const kinds = new Set(['shop', 'platform', 'reference']);
    expect(
      judged.filter((j) => kinds.has(j.page.labels.kind) && j.verdict === 'news').map((j) => j.page.id),
    ).toEqual([]);
    const others = judged.filter((j) => !j.page.labels.news);
    expect(others.length).toBeGreaterThanOrEqual(175);
    // 149 of 175 at the blind reading: a fall of a few pages into maybe or news fails here.
    expect(others.filter((j) => j.verdict === 'not_news').length / others.length).toBeGreaterThanOrEqual(
      0.82,
    );
  });
});
