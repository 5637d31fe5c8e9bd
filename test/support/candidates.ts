// Candidates for the review page's tests, made through the candidate service as discovery makes them: an imported
// list names them, a seed's links cite them, and a qualification records a verdict, a country guess and the
// contract a draft seed is built from on accept. No network: the qualification is written as the engine would.
import type { Qualification } from '../../src/domain/candidates.js';
import type { CountryGuess, NewsVerdict, SourceLanguage } from '../../src/domain/seed-facts.js';
import type { TestSeedbed } from './harness.js';

export interface CandidateSpec {
  domain: string;
  /** The country its citers are for (and the import's). */
  country: string;
  /** Seeds whose entry pages link to it. */
  citedBySeeds?: string[];
  /** Left out: the candidate stays `new` (never qualified). */
  news?: NewsVerdict;
  guess?: CountryGuess | null;
  languages?: SourceLanguage[];
}

export async function addCandidates(t: TestSeedbed, specs: readonly CandidateSpec[]): Promise<void> {
  const { candidates } = t.seedbed.services;
  const at = new Date().toISOString();
  for (const spec of specs) {
    await candidates.importList([{ line: 1, input: spec.domain, source: null }], {
      source: 'test-list',
      country: spec.country,
    });
  }
  await t.seedbed.database.transaction(async (trx) => {
    for (const spec of specs) {
      for (const seedId of spec.citedBySeeds ?? [])
        await candidates.recordOutlinks(trx, { id: seedId, country: spec.country, at }, [
          {
            domain: spec.domain,
            url: `https://${spec.domain}/story-about-${seedId.length}`,
            anchor: `${spec.domain} story`,
            found_in: 'homepage',
          },
        ]);
      if (!spec.news) continue;
      const languages = spec.languages ?? [];
      const qualification: Qualification = {
        contract: {
          name: `${spec.domain} site`,
          entry_url: `https://${spec.domain}/`,
          fetch: { type: 'rss', urls: [`https://${spec.domain}/feed`] },
          schedule: '0 */6 * * *',
          policy: { robots_url: `https://${spec.domain}/robots.txt`, robots_allowed: true, sitemap_urls: [] },
        },
        discovery: { alive: true, checked_at: at, http_status: 200, state: 'alive', error_code: null },
        facts: {
          feeds: [],
          sitemap: null,
          languages,
          news: spec.news,
          ...(spec.guess ? { country_guess: spec.guess } : {}),
        },
        checked_at: at,
      };
      await candidates.recordQualification(trx, spec.domain, {
        news: spec.news,
        country_guess: spec.guess ?? null,
        languages,
        feeds: 2,
        sitemap: { exists: true, news: spec.news.verdict === 'news' },
        robots_allowed: true,
        alive: true,
        qualification,
        checked_at: at,
      });
    }
  });
}

/** A verdict with its reasons, as judgeNews gives it. */
export function verdict(
  value: NewsVerdict['verdict'],
  score: number,
  reasons: NewsVerdict['reasons'],
): NewsVerdict {
  return { verdict: value, score, reasons };
}

/** A draft seed as a contract run writes it, with the news verdict and country guess its discovery judged. */
export async function addJudgedSeed(
  t: TestSeedbed,
  domainId: string,
  news: NewsVerdict,
  guess: CountryGuess | null,
): Promise<string> {
  const domain = domainId.split(':')[2] as string;
  const at = new Date().toISOString();
  const written = await t.seedbed.database.transaction((trx) =>
    t.seedbed.services.contractRuns.write(trx, {
      domainId,
      category: 'news',
      contract: {
        entry_url: `https://${domain}/`,
        fetch: { type: 'rss', urls: [`https://${domain}/feed`] },
        schedule: '0 */6 * * *',
        policy: { robots_allowed: true },
      },
      discovery: { alive: true, checked_at: at, http_status: 200, state: 'alive', error_code: null },
      provenance: { source: 'test' },
      facts: { feeds: [], sitemap: null, news, ...(guess ? { country_guess: guess } : {}) },
      check: null,
      author: 'test',
    }),
  );
  return written.seed_id;
}
