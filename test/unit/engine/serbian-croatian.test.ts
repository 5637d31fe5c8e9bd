// Serbian or Croatian: ELD reads Serbian in the Latin alphabet as Croatian, so the text's own words split the two
// (src/engine/serbian-croatian.ts). Data: Lingua's test sentences 501–700 (test/fixtures/languages/lingua-sentences):
// Croatian and Bosnian as published; Serbian as published in Cyrillic and transliterated here to the Latin alphabet,
// letter for letter, as Serbian is officially written in both (the Latin text is the same text).
import { describe, expect, it } from 'vitest';
import { serbianOrCroatian } from '../../../src/engine/serbian-croatian.js';
import { detectTextLanguage } from '../../../src/engine/title-language.js';
import { linguaRuns } from '../../support/lingua-sentences.js';

// biome-ignore format: a table reads better packed
const CYRILLIC_TO_LATIN: Readonly<Record<string, string>> = {
  а: 'a', б: 'b', в: 'v', г: 'g', д: 'd', ђ: 'đ', е: 'e', ж: 'ž', з: 'z', и: 'i', ј: 'j', к: 'k', л: 'l', љ: 'lj',
  м: 'm', н: 'n', њ: 'nj', о: 'o', п: 'p', р: 'r', с: 's', т: 't', ћ: 'ć', у: 'u', ф: 'f', х: 'h', ц: 'c', ч: 'č',
  џ: 'dž', ш: 'š',
};

function toLatin(text: string): string {
  return [...text]
    .map((c) => {
      const lower = c.toLowerCase();
      const latin = CYRILLIC_TO_LATIN[lower];
      if (latin === undefined) return c;
      return c === lower ? latin : latin.charAt(0).toUpperCase() + latin.slice(1);
    })
    .join('');
}

describe('Serbian or Croatian', () => {
  const serbianLatin = linguaRuns('sr', 20).map(toLatin);

  it('reads Serbian running text in the Latin alphabet as sr, where ELD alone says hr', () => {
    expect(serbianLatin).toHaveLength(10);
    const found = serbianLatin.map((text) => detectTextLanguage(text)?.code);
    expect(found.filter((code) => code === 'sr').length).toBeGreaterThanOrEqual(8);
  });

  it.each(['hr', 'bs'])('never reads %s running text as Serbian', (code) => {
    const found = linguaRuns(code, 20).map((text) => detectTextLanguage(text)?.code);
    expect(found).toHaveLength(10);
    expect(found.filter((c) => c === 'sr')).toEqual([]);
  });

  it('decides by the reflex of old ě and each standard’s own words, and leaves a tie undecided', () => {
    expect(serbianOrCroatian('Deca su ovde uvek gledala vreme na televiziji')).toBe('sr');
    expect(serbianOrCroatian('Djeca su ovdje uvijek gledala vrijeme na televiziji')).toBe('hr');
    expect(serbianOrCroatian('Vlada je usvojila zakon o budžetu')).toBeNull();
    expect(serbianOrCroatian('Deca i djeca')).toBeNull();
  });
});
