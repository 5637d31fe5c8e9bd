// Nepali, Hindi or Marathi: ELD knows Hindi and Marathi only, so the text's own words tell Nepali from them
// (src/engine/nepali.ts). Nepali: news prose and headlines (test/fixtures/languages/nepali); Hindi and Marathi:
// Lingua's test sentences 501–700.
import { describe, expect, it } from 'vitest';
import { countriesOfLanguage } from '../../../src/domain/language-countries.js';
import { offsetReason } from '../../../src/engine/country-page-signals.js';
import { nepaliOver, withNepali } from '../../../src/engine/nepali.js';
import { detectTextLanguage, detectTitlesLanguage } from '../../../src/engine/title-language.js';
import { languageFixtureLines, linguaRuns, linguaSentences, runsOf } from '../../support/lingua-sentences.js';

// The word lists were written before any of these lines was read with them and not changed after; lines 1–200 of
// the prose are kept out of the test all the same.
const NEPALI = {
  prose: languageFixtureLines('nepali', 'nagarik-prose.txt').slice(200),
  headlines: languageFixtureLines('nepali', 'nagarik-headlines.txt'),
};

describe('Nepali, Hindi or Marathi', () => {
  it.each(Object.entries(NEPALI))('reads Nepali %s as ne, where ELD alone says hi or mr', (_, lines) => {
    const runs = runsOf(lines, 20);
    expect(runs).toHaveLength(10);
    expect(runs.map((run) => detectTextLanguage(run.join(' '))?.code).filter((c) => c !== 'ne')).toEqual([]);
    expect(runs.map((run) => detectTitlesLanguage(run)?.code).filter((c) => c !== 'ne')).toEqual([]);
    const short = runsOf(lines, 5).map((run) => detectTextLanguage(run.join(' '))?.code);
    expect(short.filter((c) => c === 'ne').length).toBeGreaterThanOrEqual(36);
  });

  it.each(['hi', 'mr'])('keeps %s itself, in runs of 20 and of 5, as text and as titles', (code) => {
    for (const size of [20, 5]) {
      const runs = runsOf(linguaSentences(code), size);
      expect(runs.map((run) => detectTextLanguage(run.join(' '))?.code).filter((c) => c === 'ne')).toEqual(
        [],
      );
      expect(runs.map((run) => detectTitlesLanguage(run)?.code).filter((c) => c === 'ne')).toEqual([]);
    }
    expect(linguaSentences(code).filter((line) => nepaliOver(code, line) !== null)).toEqual([]);
  });

  it("decides by each language's grammar words, and leaves a tie to ELD", () => {
    expect(nepaliOver('hi', 'सरकारले नयाँ नियम लागू गरेको छ र यो पनि भएको थियो')).toBe('ne');
    expect(nepaliOver('hi', 'सरकार ने नया नियम लागू किया है और यह भी हुआ था')).toBeNull();
    expect(nepaliOver('mr', 'सरकारने नवीन नियम लागू केले आहे आणि हे पण झाले')).toBeNull();
    expect(nepaliOver('hi', 'यो है')).toBeNull();
    expect(nepaliOver('en', 'यो पनि छ')).toBeNull();
    expect(withNepali('hi', 'सरकारले नयाँ नियम लागू गरेको छ')).toBe('ne');
    expect(withNepali('en', 'सरकारले नयाँ नियम लागू गरेको छ')).toBe('en');
    expect(withNepali('hi', '')).toBe('hi');
  });

  it('changes no other language ELD reads', () => {
    for (const code of ['en', 'id', 'ms', 'bg', 'ru'])
      for (const text of linguaRuns(code, 20)) expect(detectTextLanguage(text)?.code).not.toBe('ne');
  });

  it('points to Nepal only with other evidence: no country of its own, Nepal by its UTC+05:45 times', () => {
    expect(countriesOfLanguage('ne')?.dominant).toBeNull();
    expect(countriesOfLanguage('ne')?.countries.map(([code]) => code)).toContain('np');
    const times = ['2026-01-15T10:00:00+05:45', '2026-01-15T11:30:00+05:45'];
    expect(offsetReason(times, ['ne'])?.country).toBe('np');
    expect(offsetReason(times, ['hi'])).toBeNull();
  });
});
