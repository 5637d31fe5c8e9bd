// Malay or Indonesian: ELD knows Malay only, so the text's own words split the two (src/engine/malay-indonesian.ts).
// Indonesian: Lingua's test sentences 501–700; Malay: Malaysian prose and headlines (test/fixtures/languages/malay).
import { describe, expect, it } from 'vitest';
import { malayOrIndonesian } from '../../../src/engine/malay-indonesian.js';
import { detectTextLanguage, detectTitlesLanguage } from '../../../src/engine/title-language.js';
import { languageFixtureLines, linguaRuns, linguaSentences, runsOf } from '../../support/lingua-sentences.js';

const MALAY = {
  prose: languageFixtureLines('malay', 'iium-confessions.txt'),
  headlines: languageFixtureLines('malay', 'news-headlines.txt'),
};

describe('Malay or Indonesian', () => {
  it('reads Indonesian running text as id, where ELD alone says ms', () => {
    const found = linguaRuns('id', 20).map((text) => detectTextLanguage(text)?.code);
    expect(found).toHaveLength(10);
    expect(found.filter((code) => code === 'id').length).toBeGreaterThanOrEqual(9);
  });

  it('reads Indonesian titles as id', () => {
    const found = runsOf(linguaSentences('id'), 20).map((titles) => detectTitlesLanguage(titles)?.code);
    expect(found.filter((code) => code === 'id').length).toBeGreaterThanOrEqual(9);
  });

  it.each(Object.entries(MALAY))('keeps Malaysian %s as ms', (_, lines) => {
    const runs = runsOf(lines, 20);
    expect(runs).toHaveLength(10);
    expect(runs.map((run) => detectTextLanguage(run.join(' '))?.code).filter((c) => c !== 'ms')).toEqual([]);
    expect(
      runs.map((run) => detectTitlesLanguage(run)?.code).filter((c) => c !== 'ms').length,
    ).toBeLessThanOrEqual(1);
  });

  it('decides by the words each standard spells its own way, and leaves a tie undecided', () => {
    expect(malayOrIndonesian('Dia berkata bahawa wang itu hilang selepas mesyuarat pada bulan Ogos')).toBe(
      'ms',
    );
    expect(malayOrIndonesian('Dia mengatakan bahwa uang itu hilang setelah rapat pada bulan Agustus')).toBe(
      'id',
    );
    expect(malayOrIndonesian('Kualiti dan aktiviti universiti')).toBe('ms');
    expect(malayOrIndonesian('Kualitas dan aktivitas universitas')).toBe('id');
    expect(malayOrIndonesian('Saya makan nasi di rumah')).toBeNull();
    expect(malayOrIndonesian('')).toBeNull();
  });

  it('changes no other language ELD reads', () => {
    for (const code of ['en', 'nl', 'tl', 'pt'])
      for (const text of linguaRuns(code, 20)) expect(detectTextLanguage(text)?.code).not.toBe('id');
  });
});
