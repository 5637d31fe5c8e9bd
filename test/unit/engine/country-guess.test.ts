import { describe, expect, it } from 'vitest';
import { type CountryInput, guessCountry } from '../../../src/engine/country-guess.js';

function input(host: string, extra: Partial<CountryInput> = {}): CountryInput {
  return {
    host,
    registrableDomain: host.replace(/^www\./, ''),
    htmlLang: null,
    contentLanguage: [],
    hreflang: [],
    languages: [],
    ...extra,
  };
}

describe('guessCountry', () => {
  it('reads a country-code TLD through the public suffix list', () => {
    expect(guessCountry(input('www.bbc.co.uk')).code).toBe('gb');
    expect(guessCountry(input('www.abc.net.au')).code).toBe('au');
    expect(guessCountry(input('zeitung.de')).code).toBe('de');
    expect(guessCountry(input('news.uk')).code).toBe('gb');
    expect(guessCountry(input('zeitung.de')).reasons[0]).toEqual({
      signal: 'cctld',
      country: 'de',
      evidence: 'zeitung.de ends in .de',
      weight: 3,
    });
  });

  it('never counts a generic TLD, nor a ccTLD sold as generic, alone', () => {
    for (const host of ['news.com', 'news.org', 'radio.fm', 'startup.io', 'video.tv', 'brand.co', 'about.me'])
      expect(guessCountry(input(host)), host).toEqual({ code: 'intl', confidence: 0, reasons: [] });
    expect(guessCountry(input('diario.com.co')).code).toBe('co');
  });

  it('reads regions of html lang, Content-Language and a single hreflang region', () => {
    expect(guessCountry(input('news.com', { htmlLang: 'de-AT' })).code).toBe('at');
    expect(guessCountry(input('news.com', { contentLanguage: ['en-IE'] })).code).toBe('ie');
    expect(guessCountry(input('news.com', { hreflang: ['fr-BE', 'fr'] })).code).toBe('be');
  });

  it('counts a language default region (en-US) and a spelling region (en-GB) weakly', () => {
    const us = guessCountry(input('news.com', { htmlLang: 'en-US' }));
    expect(us.code).toBe('us');
    expect(us.reasons[0]!.weight).toBe(1);
    expect(guessCountry(input('news.co.za', { htmlLang: 'en-GB' })).code).toBe('za');
  });

  it('lets a language spoken mainly in one country support a guess, but not a shared one', () => {
    expect(guessCountry(input('news.com', { languages: [{ code: 'ja' }] })).code).toBe('jp');
    expect(guessCountry(input('news.com', { languages: [{ code: 'ko' }] })).code).toBe('kr');
    for (const code of ['en', 'es', 'fr', 'ar', 'pt', 'de', 'ru', 'zh'])
      expect(guessCountry(input('news.com', { languages: [{ code }] })).code, code).toBe('intl');
  });

  it('returns intl when strong signals disagree', () => {
    const guess = guessCountry(input('zeitung.de', { htmlLang: 'de-AT' }));
    expect(guess.code).toBe('intl');
    expect(guess.reasons.map((r) => r.country)).toEqual(['de', 'at']);
  });

  it('returns intl for a site with alternates for many countries', () => {
    expect(guessCountry(input('brand.com', { hreflang: ['en-us', 'en-gb', 'de-de', 'fr-fr'] })).code).toBe(
      'intl',
    );
  });

  it('weighs the countries of citing seeds', () => {
    expect(guessCountry(input('news.com', { citing: { ke: 4 } })).code).toBe('ke');
    const agreeing = guessCountry(input('zeitung.de', { citing: { de: 3 } }));
    expect(agreeing.code).toBe('de');
    expect(agreeing.confidence).toBe(1);
    expect(guessCountry(input('news.com', { citing: { us: 1, gb: 1, fr: 1 } })).code).toBe('intl');
  });

  it('gives more confidence to agreeing signals than to a lone weak one', () => {
    const weak = guessCountry(input('news.com', { languages: [{ code: 'pl' }] }));
    const strong = guessCountry(input('news.pl', { languages: [{ code: 'pl' }], htmlLang: 'pl-PL' }));
    expect(weak.code).toBe('pl');
    expect(strong.confidence).toBeGreaterThan(weak.confidence);
  });
});
