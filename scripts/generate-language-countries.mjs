// Generates src/domain/language-countries.json from CLDR's supplemental/territoryInfo.json: for each language,
// the countries that speak it with their share, and the one country it points to on its own (if any).
//
//   npm pack cldr-core@48.2.0 && tar xzf cldr-core-48.2.0.tgz
//   node scripts/generate-language-countries.mjs package/supplemental/territoryInfo.json 48.2.0
//
// Shares are weighted by GDP (CLDR carries each territory's GDP beside its population): who publishes on the web
// follows economies more than head counts (a Korean-language site is South Korean far more often than 66% of the
// time). Script variants (zh_Hant, sr_Latn) are merged into their language: a page's lang rarely names the script.
import { readFileSync, writeFileSync } from 'node:fs';

const [input, version] = process.argv.slice(2);
if (!input || !version) {
  console.error('usage: node scripts/generate-language-countries.mjs <supplemental/territoryInfo.json> <cldr-version>');
  process.exit(2);
}
/** Countries kept per language: the tail adds bytes, not evidence. */
const MAX_COUNTRIES = 30;
/** A language counts as one country's when that country holds this share of its speakers (GDP-weighted)… */
const DOMINANT_SHARE = 0.8;
/** …and no other country where it is official (nationally or de facto) holds this share or more. */
const OFFICIAL_ELSEWHERE = 0.02;
/** Languages with fewer (GDP-weighted) speakers than this in every country are left out: no news web to speak of. */
const MIN_LANGUAGE_WEIGHT = 1e9;

const territories = JSON.parse(readFileSync(input, 'utf8')).supplemental.territoryInfo;
// likelySubtags.json sits beside territoryInfo.json: de → de-Latn-DE. The likely region is what a CMS writes when
// nobody chose one (WordPress's English is en-US), so a tag naming it says less than one naming another region.
const likely = JSON.parse(readFileSync(input.replace(/territoryInfo\.json$/, 'likelySubtags.json'), 'utf8'))
  .supplemental.likelySubtags;
const likelyRegion = (code) => {
  const region = (likely[code] ?? '').split('-').find((part) => /^[A-Z]{2}$/.test(part));
  return region === undefined ? null : region.toLowerCase();
};
const byLanguage = new Map();
for (const [territory, info] of Object.entries(territories)) {
  const gdp = Number(info._gdp ?? 0);
  if (!/^[A-Z]{2}$/.test(territory) || territory === 'ZZ') continue;
  for (const [tag, language] of Object.entries(info.languagePopulation ?? {})) {
    const code = tag.split('_')[0].toLowerCase();
    const weight = (gdp * Number(language._populationPercent ?? 0)) / 100;
    const status = language._officialStatus ?? '';
    const official = status === 'official' || status === 'de_facto_official';
    const countries = byLanguage.get(code) ?? new Map();
    const known = countries.get(territory) ?? { weight: 0, official: false };
    countries.set(territory, { weight: known.weight + weight, official: known.official || official });
    byLanguage.set(code, countries);
  }
}

const languages = {};
for (const code of [...byLanguage.keys()].sort()) {
  const countries = [...byLanguage.get(code).entries()].sort((a, b) => b[1].weight - a[1].weight);
  const total = countries.reduce((sum, [, c]) => sum + c.weight, 0);
  if (total < MIN_LANGUAGE_WEIGHT) continue;
  const shares = countries.map(([territory, c]) => ({ territory, share: c.weight / total, official: c.official }));
  const [top, ...rest] = shares;
  const dominant =
    top.share >= DOMINANT_SHARE && !rest.some((c) => c.official && c.share >= OFFICIAL_ELSEWHERE)
      ? top.territory.toLowerCase()
      : null;
  languages[code] = {
    dominant,
    likely_region: likelyRegion(code),
    countries: shares
      .slice(0, MAX_COUNTRIES)
      .filter((c) => c.share >= 0.001)
      .map((c) => [c.territory.toLowerCase(), Math.round(c.share * 1000) / 1000]),
  };
}
const table = {
  source: `CLDR ${version} supplemental/territoryInfo.json and likelySubtags.json (cldr-core@${version})`,
  generated_by: 'scripts/generate-language-countries.mjs',
  weighting: 'speakers share x GDP',
  dominant_share: DOMINANT_SHARE,
  official_elsewhere: OFFICIAL_ELSEWHERE,
  languages,
};
writeFileSync('src/domain/language-countries.json', `${JSON.stringify(table, null, 1)}\n`);
console.log(`${Object.keys(languages).length} languages, ${Object.values(languages).filter((l) => l.dominant).length} with a dominant country`);
