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
  it.each([
    ['www.lorient-agglo.bzh', 'fr'],
    ['www.ara.cat', 'es'],
    ['www.deia.eus', 'es'],
    ['news.berlin', 'de'],
    ['paper.scot', 'gb'],
    ['journal.quebec', 'ca'],
    ['shimbun.tokyo', 'jp'],
  ])('reads the geographic TLD of %s as %s, a region or city of one country', (host, country) => {
    expect(guessCountry(input(host)).code).toBe(country);
    expect(guessCountry(input(host)).reasons[0]?.signal).toBe('cctld');
  });

  it('reads no country in a brand TLD, nor Los Angeles in .la (the code of Laos, sold as a generic one)', () => {
    expect(guessCountry(input('shop.kiwi')).code).toBe('intl');
    expect(guessCountry(input('news.la')).code).not.toBe('us');
  });

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

  it('reads the internationalised country-code TLDs, as hosts carry them and in their own script', () => {
    const cases: Array<[string, string]> = [
      ['xn--80aesfpebagmfblc0a.xn--p1ai', 'ru'], // стопкоронавирус.рф, a page of the sixth real-page set
      ['пример.рф', 'ru'],
      ['news.xn--j1amh', 'ua'], // .укр
      ['news.xn--fiqs8s', 'cn'], // .中国
      ['news.xn--j6w193g', 'hk'], // .香港
      ['news.xn--3e0b707e', 'kr'], // .한국
      ['news.xn--h2brj9c', 'in'], // .भारत
      ['news.xn--mgberp4a5d4ar', 'sa'], // .السعودية
      ['news.xn--wgbh1c', 'eg'], // .مصر
    ];
    for (const [host, code] of cases) expect(guessCountry(input(host)).code, host).toBe(code);
    // The European Union's .ею is no country's.
    expect(guessCountry(input('news.xn--e1a4c')).code).toBe('intl');
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

  it("takes no region from a tag in another language than the source writes in: a template's, not the newsroom's", () => {
    // WordPress's en-US over a Bengali front page (a page of the seventh real-page set).
    const bengali = guessCountry(
      input('newschittagong24.com', { htmlLang: 'en-US', languages: [{ code: 'bn' }] }),
    );
    expect(bengali.reasons.map((r) => r.signal)).not.toContain('html_lang_likely_region');
    expect(bengali.code).not.toBe('us');
    const austrian = guessCountry(input('news.com', { htmlLang: 'de-AT', languages: [{ code: 'de' }] }));
    expect(austrian.code).toBe('at');
    expect(
      guessCountry(input('news.com', { contentLanguage: ['en-IE'], languages: [{ code: 'en' }] })).code,
    ).toBe('ie');
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

  it('reads the UTC offset of page times with the language, only where one country holds most of its speakers', () => {
    const en = guessCountry(
      input('news.com', { languages: [{ code: 'en' }], pageTimes: ['2024-05-12T08:00:00-05:00'] }),
    );
    expect(en.code).toBe('us');
    expect(en.reasons[0]).toMatchObject({ signal: 'published_offset', country: 'us', weight: 1.5 });
    const india = { languages: [{ code: 'en' }], pageTimes: ['2024-05-12 08:00:00+0530'] };
    expect(guessCountry(input('news.com', india)).code).toBe('in');
    const spain = { languages: [{ code: 'es' }], pageTimes: ['2024-05-12T08:00:00+02:00'] };
    expect(guessCountry(input('diario.com', spain)).code).toBe('es');
    // German at +02:00 is Germany, Austria or Switzerland; UTC says nothing; no language, no guess.
    const german = { languages: [{ code: 'de' }], pageTimes: ['2024-05-12T08:00:00+02:00'] };
    expect(guessCountry(input('zeitung.com', german)).code).toBe('intl');
    expect(
      guessCountry(input('news.com', { languages: [{ code: 'en' }], pageTimes: ['2024-05-12T08:00:00Z'] }))
        .code,
    ).toBe('intl');
    expect(guessCountry(input('news.com', { pageTimes: ['2024-05-12T08:00:00-05:00'] })).code).toBe('intl');
  });

  it('reads the country of the address the page states, when the stated countries agree', () => {
    expect(guessCountry(input('news.com', { addressCountries: ['Austria'] })).code).toBe('at');
    expect(guessCountry(input('news.com', { addressCountries: ['US', 'USA'] })).code).toBe('us');
    expect(guessCountry(input('news.com', { addressCountries: ['DE', 'France'] })).code).toBe('intl');
    expect(
      guessCountry(input('news.com', { addressCountries: ['Atlantis', 42 as unknown as string] })).code,
    ).toBe('intl');
  });

  it('reads the region of og:locale where the language is spoken and no language tag said it already', () => {
    const at = guessCountry(input('news.com', { ogLocale: 'de_AT' }));
    expect(at.code).toBe('at');
    expect(at.reasons[0]!.weight).toBe(1);
    expect(guessCountry(input('news.com', { ogLocale: 'en_US' })).reasons[0]!.weight).toBe(0.5);
    expect(guessCountry(input('news.com', { ogLocale: 'es_LA' })).code).toBe('intl');
    const repeated = guessCountry(input('news.com', { htmlLang: 'de-AT', ogLocale: 'de_AT' }));
    expect(repeated.reasons.map((r) => r.signal)).toEqual(['html_lang_region']);
  });

  it('reads the country most external links point to by their country-code TLD', () => {
    const links = (hosts: string[]) => hosts.map((h) => `https://${h}/x`);
    const ar = ['a.com.ar', 'b.com.ar', 'c.ar', 'd.gob.ar', 'e.com.ar', 'f.com'];
    expect(guessCountry(input('diario.com', { externalLinks: links(ar) })).code).toBe('ar');
    const mixed = ['a.de', 'b.de', 'c.fr', 'd.fr', 'e.it'];
    expect(guessCountry(input('news.com', { externalLinks: links(mixed) })).code).toBe('intl');
    expect(
      guessCountry(input('news.com', { externalLinks: links(['a.io', 'b.tv', 'c.me', 'd.co', 'e.fm']) }))
        .code,
    ).toBe('intl');
  });

  it('lets one strong signal win over weak ones for another country (ccTLD over en-US and a US offset)', () => {
    const guess = guessCountry(
      input('news.ca', {
        htmlLang: 'en-US',
        languages: [{ code: 'en' }],
        pageTimes: ['2024-05-12T08:00:00-04:00'],
      }),
    );
    expect(guess.code).toBe('ca');
  });
});
