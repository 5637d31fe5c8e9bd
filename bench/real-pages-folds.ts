// The news verdict, country guess and language figures on the real-page corpus: the tuning / hold-out split of
// test/unit/engine/real-pages-quality.test.ts and a 5-fold view (folds by hash of the page id) with each fold's
// figures and their mean and minimum, to see how much the figures vary with the pages drawn.
// Run: npx tsx bench/real-pages-folds.ts [--misses]   (--misses lists the tuning part's misjudged pages and reasons)
// The second hold-out set (test/fixtures/real-pages-fresh) is printed whole and by halves (isFreshHoldOut); --misses
// lists its tuning half's misjudged pages only, never its hold-out half's. The third set (test/fixtures/real-pages-third),
// read blind once, is now split the same way (isFreshHoldOut) for news round 5: printed whole and by halves, --misses
// lists its tuning half only. The fourth set (test/fixtures/real-pages-fourth), read blind twice as a whole (before and
// after news round 5), is split the same way for news round 6: --misses lists its tuning half only. The fifth set
// (test/fixtures/real-pages-fifth), read blind once as a whole, is split the same way: --misses lists its tuning half only.
// The sixth set (test/fixtures/real-pages-sixth), entry pages where the others are articles, likewise; and the seventh
// (test/fixtures/real-pages-seventh), entry pages again, most of them not news; and the eighth
// (test/fixtures/real-pages-eighth), entry pages of unseen publishers; and the ninth (test/fixtures/real-pages-ninth),
// shops' pages, recipes in other languages and news beyond English and German; and the tenth
// (test/fixtures/real-pages-tenth), news fronts in 14 languages and non-news homepages for contrast; and the eleventh
// (test/fixtures/real-pages-eleventh), entry pages again: news fronts in ten languages, non-news homepages in 22; and the
// twelfth (test/fixtures/real-pages-twelfth), site roots of a 2021 crawl: news fronts in 13 languages, platforms in Asia;
// and the thirteenth (test/fixtures/real-pages-thirteenth), the rest of that crawl: trade and sports news, look-alikes;
// and the fourteenth (test/fixtures/real-pages-fourteenth), eight entry pages in Hebrew, Korean, Japanese, Swedish
// and Greek; and the fifteenth (test/fixtures/real-pages-fifteenth), nine 2018 entry pages in Persian, Norwegian, Greek,
// Korean, Thai and Hebrew; and the sixteenth (test/fixtures/real-pages-sixteenth), the rest of the 2021 crawl: six news
// fronts among 85 shops', banks', companies', marketplaces' and tools' homepages; and the seventeenth
// (test/fixtures/real-pages-seventeenth), every site root left in the 2020 Twitter-links exercise: 23 news fronts among
// 175 homepages of companies, people, charities and public bodies; and the eighteenth
// (test/fixtures/real-pages-eighteenth), 60 homepages of a 2023 company crawl: 18 news fronts among companies', shops',
// colleges' and platforms' homepages.
// Last come every set pooled (tuning halves included, so an optimistic figure), its entry pages alone, and the
// verdicts by labelled kind: which kinds of site read news wrongly, and how many news pages stay maybe.
import {
  EIGHTEENTH_PAGES_DIR,
  EIGHTH_PAGES_DIR,
  ELEVENTH_PAGES_DIR,
  FIFTEENTH_PAGES_DIR,
  FIFTH_PAGES_DIR,
  FOURTEENTH_PAGES_DIR,
  FOURTH_PAGES_DIR,
  FRESH_PAGES_DIR,
  loadRealPages,
  NINTH_PAGES_DIR,
  SEVENTEENTH_PAGES_DIR,
  SEVENTH_PAGES_DIR,
  SIXTEENTH_PAGES_DIR,
  SIXTH_PAGES_DIR,
  TENTH_PAGES_DIR,
  THIRD_PAGES_DIR,
  THIRTEENTH_PAGES_DIR,
  TWELFTH_PAGES_DIR,
} from '../test/support/real-pages.js';
import {
  type Figures,
  FOLDS,
  figures,
  foldFigures,
  freshHalves,
  isHoldOut,
  type Judged,
  judge,
} from '../test/support/real-pages-eval.js';

const judged = loadRealPages().map(judge);
const tuning = judged.filter((j) => !isHoldOut(j.page.id));
const holdOut = judged.filter((j) => isHoldOut(j.page.id));
/** The later sets, each read whole and by its halves: its row's short name, its name in --misses, its pages. */
const laterSets = (
  [
    ['fresh', 'fresh set', FRESH_PAGES_DIR],
    ['third', 'third set', THIRD_PAGES_DIR],
    ['fourth', 'fourth set', FOURTH_PAGES_DIR],
    ['fifth', 'fifth set', FIFTH_PAGES_DIR],
    ['sixth', 'sixth set', SIXTH_PAGES_DIR],
    ['seventh', 'seventh set', SEVENTH_PAGES_DIR],
    ['eighth', 'eighth set', EIGHTH_PAGES_DIR],
    ['ninth', 'ninth set', NINTH_PAGES_DIR],
    ['tenth', 'tenth set', TENTH_PAGES_DIR],
    ['eleventh', 'eleventh set', ELEVENTH_PAGES_DIR],
    ['twelfth', 'twelfth set', TWELFTH_PAGES_DIR],
    ['thirteenth', 'thirteenth set', THIRTEENTH_PAGES_DIR],
    ['fourteenth', 'fourteenth set', FOURTEENTH_PAGES_DIR],
    ['fifteenth', 'fifteenth set', FIFTEENTH_PAGES_DIR],
    ['sixteenth', 'sixteenth set', SIXTEENTH_PAGES_DIR],
    ['seventeenth', 'seventeenth set', SEVENTEENTH_PAGES_DIR],
    ['eighteenth', 'eighteenth set', EIGHTEENTH_PAGES_DIR],
  ] as const
).map(([short, name, dir]) => {
  const all = loadRealPages(dir).map(judge);
  return { short, name, all, ...freshHalves(all) };
});

function row(name: string, f: Figures): string {
  return [
    name.padEnd(11),
    String(f.pages).padStart(4),
    `P ${f.precision.toFixed(3)}`,
    `R ${f.recall.toFixed(3)}`,
    `maybe ${String(f.maybe).padStart(2)}`,
    `country ${f.countryAccuracy.toFixed(3)} (${f.countryPages})`,
    `named ${f.countryPrecision.toFixed(3)} (${f.countryNamed})`,
    `lang ${f.languageAccuracy.toFixed(3)}`,
  ].join('  ');
}

const folds = foldFigures(judged);
const lines = [
  row('tuning', figures(tuning)),
  row('hold-out', figures(holdOut)),
  row('all', figures(judged)),
  ...laterSets.flatMap((set) => [
    row(set.short, figures(set.all)),
    row(`${set.short} tun`, figures(set.tuning)),
    row(`${set.short} h-o`, figures(set.holdOut)),
  ]),
  ...folds.folds.map((f, k) => row(`fold ${k + 1}/${FOLDS}`, f)),
  `${FOLDS}-fold mean: P ${folds.mean.precision}  R ${folds.mean.recall}  country ${folds.mean.countryAccuracy}  named ${folds.mean.countryPrecision}  lang ${folds.mean.languageAccuracy}`,
  `${FOLDS}-fold min:  P ${folds.min.precision}  R ${folds.min.recall}  country ${folds.min.countryAccuracy}  named ${folds.min.countryPrecision}  lang ${folds.min.languageAccuracy}`,
];
const pooled = [...judged, ...laterSets.flatMap((set) => set.all)];
lines.push(
  row('pooled', figures(pooled)),
  row('pooled fronts', figures(pooled.filter((j) => j.page.labels.page_type === 'homepage'))),
  ...verdictsByKind(pooled),
);

/** Per labelled kind (news pages apart): pages, and how many read news, maybe and not news. */
function verdictsByKind(pages: readonly Judged[]): string[] {
  const counts = new Map<string, { pages: number; news: number; maybe: number; not_news: number }>();
  for (const j of pages) {
    const kind = j.page.labels.news ? 'news' : `not news: ${j.page.labels.kind}`;
    const count = counts.get(kind) ?? { pages: 0, news: 0, maybe: 0, not_news: 0 };
    count.pages += 1;
    count[j.verdict] += 1;
    counts.set(kind, count);
  }
  return [...counts]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([kind, c]) =>
        `  ${kind.padEnd(26)} ${String(c.pages).padStart(4)} pages: news ${c.news}, maybe ${c.maybe}, not news ${c.not_news}`,
    );
}

/** One misjudged page with its verdict, score and every reason's weight. */
function missLine(j: Judged): string {
  return `  ${j.page.id} ${j.page.labels.kind} → ${j.verdict} ${j.score}: ${j.news.reasons.map((r) => `${r.signal} ${r.weight}`).join(', ')}`;
}

if (process.argv.includes('--misses')) {
  const tuningParts = [
    ['main corpus', tuning] as const,
    ...laterSets.map((set) => [set.name, set.tuning] as const),
  ];
  for (const [name, judged] of tuningParts) {
    lines.push(`misjudged news (${name}, tuning half):`);
    for (const j of judged.filter((j) => (j.verdict === 'news') !== j.page.labels.news))
      lines.push(missLine(j));
  }
  for (const [name, judged] of tuningParts) {
    lines.push(`wrong country (${name}, tuning half):`);
    for (const j of judged.filter(
      (j) => j.page.labels.country !== null && j.country !== j.page.labels.country,
    ))
      lines.push(
        `  ${j.page.id} ${j.page.labels.country} → ${j.country}: ${j.countryGuess.reasons.map((r) => `${r.signal} ${r.country} ${r.weight}`).join(', ')}`,
      );
  }
}
console.log(lines.join('\n'));
