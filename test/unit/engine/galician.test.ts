// Galician, Spanish or Portuguese: ELD knows Spanish and Portuguese only, so the text's own words tell Galician from
// them (src/engine/galician.ts). Galician: news sentences (test/fixtures/languages/galician); Spanish and Portuguese:
// Lingua's test sentences 501–700.
import { describe, expect, it } from 'vitest';
import { galicianOver, withGalician } from '../../../src/engine/galician.js';
import { detectTextLanguage, detectTitlesLanguage } from '../../../src/engine/title-language.js';
import { languageFixtureLines, linguaRuns, linguaSentences, runsOf } from '../../support/lingua-sentences.js';

// The word lists were written before any of these lines was read with them and not changed after; lines 1–200 of
// Praza are kept out of the test all the same (the file's first half, as for the other languages).
const GALICIAN = {
  praza: languageFixtureLines('galician', 'praza.txt').slice(200),
  'Nós Diario': languageFixtureLines('galician', 'nos-diario.txt'),
};

describe('Galician, Spanish or Portuguese', () => {
  it.each(
    Object.entries(GALICIAN),
  )('reads Galician from %s as gl, where ELD alone says es or pt', (_, lines) => {
    const runs = runsOf(lines, 20);
    expect(runs).toHaveLength(10);
    expect(runs.map((run) => detectTextLanguage(run.join(' '))?.code).filter((c) => c !== 'gl')).toEqual([]);
    const short = runsOf(lines, 5).map((run) => detectTextLanguage(run.join(' '))?.code);
    expect(short.filter((c) => c === 'gl').length).toBeGreaterThanOrEqual(32);
  });

  it.each(['es', 'pt'])('keeps %s itself, in runs of 20 and of 5, as text and as titles', (code) => {
    for (const size of [20, 5]) {
      const runs = runsOf(linguaSentences(code), size);
      const text = runs.map((run) => detectTextLanguage(run.join(' '))?.code);
      expect(text.filter((c) => c === 'gl')).toEqual([]);
      expect(runs.map((run) => detectTitlesLanguage(run)?.code).filter((c) => c === 'gl')).toEqual([]);
    }
    expect(linguaSentences(code).filter((line) => galicianOver(code, line) !== null)).toEqual([]);
  });

  it("decides by each language's own words, and needs a few of Galician's", () => {
    expect(galicianOver('es', 'Non hai unha solución, e tamén xa o dixo cando chegou')).toBe('gl');
    expect(galicianOver('es', 'No hay una solución, y también ya lo dijo cuando llegó')).toBeNull();
    expect(galicianOver('pt', 'Não há uma solução, e também já o disse quando chegou')).toBeNull();
    expect(galicianOver('es', 'El presidente de la Xunta visitó Vigo, non')).toBeNull();
    expect(galicianOver('fr', 'Non hai unha solución, tamén xa')).toBeNull();
    expect(withGalician('pt', 'Non hai unha solución e tamén xa o dixo')).toBe('gl');
    expect(withGalician('en', 'Non hai unha solución e tamén xa o dixo')).toBe('en');
  });

  it('changes no other language ELD reads', () => {
    for (const code of ['en', 'fr', 'id', 'tl', 'de'])
      for (const text of linguaRuns(code, 20)) expect(detectTextLanguage(text)?.code).not.toBe('gl');
  });
});
