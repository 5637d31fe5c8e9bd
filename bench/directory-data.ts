// The directory bench's data: a million-seed directory made up line by line, never held whole. Every choice is a
// hash of the seed's number (or of its seed id, for the facts), so a run is repeatable and the facts pass can
// find each seed's facts again from its id alone.
import type { SeedFacts } from '../src/services/seed-repository/rows.js';

/** 32-bit integer hash (splitmix-like) of a number and a salt, as a fraction in [0, 1). */
export function fraction(n: number, salt: number): number {
  let x = (n ^ Math.imul(salt, 0x9e3779b1)) >>> 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b) >>> 0;
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35) >>> 0;
  return ((x ^ (x >>> 16)) >>> 0) / 4294967296;
}

/** The same for a string (FNV-1a first). */
export function fractionOf(text: string, salt: number): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return fraction(h, salt);
}

/**
 * 60 countries, each with the suffix its sites are registered under and the language they mostly write in. The
 * first ones weigh most (Zipf, exponent 1): the US has about a fifth of the seeds, the last countries a few
 * thousand in a million.
 */
const COUNTRIES: ReadonlyArray<readonly [country: string, suffix: string, language: string]> = [
  ['us', 'com', 'en'],
  ['de', 'de', 'de'],
  ['gb', 'co.uk', 'en'],
  ['fr', 'fr', 'fr'],
  ['in', 'in', 'en'],
  ['br', 'com.br', 'pt-br'],
  ['jp', 'jp', 'ja'],
  ['it', 'it', 'it'],
  ['es', 'es', 'es'],
  ['ca', 'ca', 'en'],
  ['au', 'com.au', 'en'],
  ['mx', 'com.mx', 'es'],
  ['nl', 'nl', 'nl'],
  ['pl', 'pl', 'pl'],
  ['ru', 'ru', 'ru'],
  ['kr', 'co.kr', 'ko'],
  ['tr', 'com.tr', 'tr'],
  ['se', 'se', 'sv'],
  ['ch', 'ch', 'de'],
  ['be', 'be', 'nl'],
  ['at', 'at', 'de'],
  ['ar', 'com.ar', 'es'],
  ['za', 'co.za', 'en'],
  ['ng', 'com.ng', 'en'],
  ['id', 'co.id', 'id'],
  ['ph', 'com.ph', 'en'],
  ['no', 'no', 'no'],
  ['dk', 'dk', 'da'],
  ['fi', 'fi', 'fi'],
  ['pt', 'pt', 'pt'],
  ['gr', 'gr', 'el'],
  ['cz', 'cz', 'cs'],
  ['ro', 'ro', 'ro'],
  ['hu', 'hu', 'hu'],
  ['ie', 'ie', 'en'],
  ['nz', 'co.nz', 'en'],
  ['cl', 'cl', 'es'],
  ['co', 'com.co', 'es'],
  ['pe', 'com.pe', 'es'],
  ['eg', 'com.eg', 'ar'],
  ['sa', 'com.sa', 'ar'],
  ['ae', 'ae', 'ar'],
  ['il', 'co.il', 'he'],
  ['ke', 'co.ke', 'en'],
  ['ua', 'com.ua', 'uk'],
  ['vn', 'vn', 'vi'],
  ['th', 'co.th', 'th'],
  ['my', 'com.my', 'ms'],
  ['sg', 'com.sg', 'en'],
  ['pk', 'com.pk', 'ur'],
  ['bd', 'com.bd', 'bn'],
  ['sk', 'sk', 'sk'],
  ['bg', 'bg', 'bg'],
  ['hr', 'hr', 'hr'],
  ['rs', 'rs', 'sr'],
  ['lt', 'lt', 'lt'],
  ['lv', 'lv', 'lv'],
  ['ee', 'ee', 'et'],
  ['is', 'is', 'is'],
  ['lu', 'lu', 'fr'],
];

const CUMULATIVE = (() => {
  const weights = COUNTRIES.map((_, rank) => 1 / (rank + 1));
  const sum = weights.reduce((a, b) => a + b, 0);
  let running = 0;
  return weights.map((w) => {
    running += w / sum;
    return running;
  });
})();

function countryAt(u: number): (typeof COUNTRIES)[number] {
  const index = CUMULATIVE.findIndex((c) => u < c);
  return COUNTRIES[index === -1 ? COUNTRIES.length - 1 : index] as (typeof COUNTRIES)[number];
}

/** Categories and their shares: mostly news. */
const CATEGORIES: ReadonlyArray<readonly [string, number]> = [
  ['news', 0.6],
  ['policy', 0.1],
  ['announcement', 0.08],
  ['data', 0.06],
  ['research', 0.05],
  ['guide', 0.04],
  ['opinion', 0.04],
  ['alert', 0.03],
];

function categoryAt(u: number): string {
  let running = 0;
  for (const [category, share] of CATEGORIES) {
    running += share;
    if (u < running) return category;
  }
  return 'news';
}

/** Seed number `i` as `POST /seeds/import` takes it: what a person's file of sources holds. */
export function seedLine(i: number): string {
  const [country, suffix] = countryAt(fraction(i, 1));
  const category = categoryAt(fraction(i, 2));
  const host = `source${i}.${suffix}`;
  const rss = fraction(i, 3) < 0.7;
  return `${JSON.stringify({
    domain: host,
    country,
    category,
    name: `Source ${i}`,
    entry_url: `https://${host}/`,
    fetch: rss
      ? { type: 'rss', urls: [`https://${host}/feed`, `https://${host}/${category}/feed`] }
      : { type: 'sitemap', urls: [`https://${host}/sitemap.xml`] },
    schedule: `${i % 60} * * * *`,
  })}\n`;
}

/** The first seed line's country that has the given rank (0: the largest), for the filters the bench times. */
export const countryOfRank = (rank: number): string => (COUNTRIES[rank] as (typeof COUNTRIES)[number])[0];

/** The main language of a country's sites. */
export function languageOf(country: string): string {
  return COUNTRIES.find(([c]) => c === country)?.[2] ?? 'en';
}

/**
 * What the discovery and re-check workers would have found about a seed by the time the directory is a million
 * strong: about a third promoted, 40 % judged (news, maybe, not_news), 70 % with languages, half with a rate.
 */
export function factsOf(seedId: string, country: string, at: string): { active: boolean; facts: SeedFacts } {
  const u = (salt: number) => fractionOf(seedId, salt);
  const facts: SeedFacts = { feeds: [], sitemap: null };
  const judged = u(11);
  if (judged < 0.4) {
    const verdict = judged < 0.25 ? 'news' : judged < 0.33 ? 'maybe' : 'not_news';
    const score = verdict === 'news' ? 0.8 : verdict === 'maybe' ? 0.5 : 0.1;
    facts.news = {
      verdict,
      score,
      reasons: [{ signal: 'news_sitemap', weight: score, evidence: 'sitemap_news.xml' }],
    };
  }
  if (u(12) < 0.7) {
    const main = languageOf(country);
    facts.languages =
      u(13) < 0.15
        ? [
            { code: main, sources: ['html_lang'] },
            { code: 'en', sources: ['hreflang'] },
          ]
        : [{ code: main, sources: ['html_lang', 'feed'] }];
  }
  if (u(14) < 0.5) {
    const rate = Math.round(u(15) * 2000) / 10;
    facts.freshness = {
      newest_item_at: at,
      items_last_7d: Math.round(rate * 7),
      items_per_day: rate,
      measured_at: at,
      stale: u(16) < 0.2,
      based_on: 'feed',
    };
  }
  return { active: u(17) < 1 / 3, facts };
}

const CANDIDATE_STATES = ['new', 'qualified', 'rejected', 'accepted'] as const;

/** Candidate number `i` as a row of the candidates table (they have no bulk-create API: see directory.ts). */
export function candidateRow(i: number, at: string) {
  const [country, suffix, language] = countryAt(fraction(i, 21));
  const s = fraction(i, 22);
  const state = CANDIDATE_STATES[s < 0.5 ? 0 : s < 0.85 ? 1 : s < 0.95 ? 2 : 3] as string;
  const checked = state !== 'new';
  const v = fraction(i, 23);
  const verdict = !checked ? null : v < 0.5 ? 'news' : v < 0.75 ? 'maybe' : 'not_news';
  const score = verdict === null ? null : Math.round(fraction(i, 24) * 1000) / 1000;
  return {
    domain: `candidate${i}.${suffix}`,
    state,
    country,
    news:
      verdict === null
        ? null
        : JSON.stringify({
            verdict,
            score,
            reasons: [{ signal: 'jsonld_type', weight: 0.4, evidence: 'NewsArticle' }],
          }),
    news_verdict: verdict,
    score,
    country_guess: null,
    languages: checked ? JSON.stringify([{ code: language, sources: ['html_lang'] }]) : '[]',
    citations: 1 + Math.floor(fraction(i, 25) * 20),
    feeds_found: checked ? Math.floor(fraction(i, 26) * 4) : null,
    sitemap: checked ? JSON.stringify({ exists: true, news: v < 0.3 }) : null,
    robots_allowed: checked ? 1 : null,
    alive: checked ? 1 : null,
    qualification: null,
    sources: '["bench"]',
    first_seen_at: at,
    last_checked_at: checked ? at : null,
    reject_reason: state === 'rejected' ? 'not news' : null,
    decided_by: state === 'rejected' || state === 'accepted' ? 'bench' : null,
    decided_at: state === 'rejected' || state === 'accepted' ? at : null,
  };
}
