import { describe, expect, it } from 'vitest';
import { countriesOfLanguage, LANGUAGE_COUNTRIES_SOURCE } from '../../../src/domain/language-countries.js';

describe('countriesOfLanguage (generated from CLDR)', () => {
  it('names the CLDR release it was generated from', () => {
    expect(LANGUAGE_COUNTRIES_SOURCE).toMatch(/CLDR 48/);
  });

  it('gives a language spoken mainly in one country its country', () => {
    expect(countriesOfLanguage('ja')?.dominant).toBe('jp');
    expect(countriesOfLanguage('ko')?.dominant).toBe('kr');
    expect(countriesOfLanguage('pl')?.dominant).toBe('pl');
    expect(countriesOfLanguage('cs')?.dominant).toBe('cz');
    expect(countriesOfLanguage('hu')?.dominant).toBe('hu');
  });

  it('gives none to a language several countries share', () => {
    for (const code of ['en', 'es', 'fr', 'ar', 'pt', 'de', 'ru', 'zh'])
      expect(countriesOfLanguage(code)?.dominant, code).toBeNull();
  });

  it('reads a tag by its primary subtag and knows the likely region', () => {
    expect(countriesOfLanguage('pt-BR')?.countries[0]?.[0]).toBe('br');
    expect(countriesOfLanguage('en')?.likely_region).toBe('us');
    expect(countriesOfLanguage('xx-nothing')).toBeNull();
  });
});
