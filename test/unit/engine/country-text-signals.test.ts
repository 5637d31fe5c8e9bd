import { describe, expect, it } from 'vitest';
import { type CountryInput, guessCountry } from '../../../src/engine/country-guess.js';
import { readTextMarkers, textCountryReasons } from '../../../src/engine/country-text-signals.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';

function input(host: string, text: string, extra: Partial<CountryInput> = {}): CountryInput {
  return {
    host,
    registrableDomain: host,
    htmlLang: 'en',
    contentLanguage: [],
    hreflang: [],
    languages: [{ code: 'en' }],
    textMarkers: readTextMarkers(text),
    ...extra,
  };
}

const US_TEXT =
  'The center of the neighborhood changed color. My favorite theater opened a new program. Updated 10:14 AM EDT.';

describe('country hints of the visible text', () => {
  it('names the United States from American spellings on an English page, not from Commonwealth ones', () => {
    const guess = guessCountry(
      input('news.com', 'The center of the neighborhood changed color, my favorite.'),
    );
    expect(guess.code).toBe('us');
    expect(guess.reasons.map((r) => r.signal)).toEqual(['us_spelling']);
    expect(guessCountry(input('news.com', 'The centre of the neighbourhood changed colour.')).code).toBe(
      'intl',
    );
    // Mixed (Canadian, or a British page quoting an American name): nothing.
    expect(guessCountry(input('news.com', 'The color of the centre, the colour of the center.')).code).toBe(
      'intl',
    );
    // Another language: spellings are not read.
    const german = input('zeitung.com', 'center color favorite', {
      htmlLang: 'de',
      languages: [{ code: 'de' }],
    });
    expect(guessCountry(german).code).toBe('intl');
  });

  it('reads the time zone written after clock times', () => {
    const markers = readTextMarkers('Published 9:30 a.m. ET, updated 10:14 AM EDT; kickoff 7pm AEST');
    expect(markers.time_zones).toEqual({ ET: 1, EDT: 1, AEST: 1 });
    const us = guessCountry(input('news.com', 'Posted 9:30 a.m. ET, updated 10:14 AM EDT'));
    expect(us.code).toBe('us');
    expect(us.reasons[0]!.signal).toBe('text_time_zone');
    expect(guessCountry(input('news.com', 'Updated 14:05 BST; first published 09:10 BST')).code).toBe('gb');
    // A zone without a clock time (a word, an acronym) is not read.
    expect(readTextMarkers('PT Barnum and the ET movie; IST is a word').time_zones).toEqual({});
  });

  it('reads one clock time in a zone as a weak hint, which decides only where nothing else speaks', () => {
    const one = guessCountry(input('news.com', 'December 29, 2014 4:08 pm EST'));
    expect(one.code).toBe('us');
    expect(one.reasons).toEqual([
      { signal: 'text_time_zone', country: 'us', evidence: 'one clock time in EST', weight: 0.5 },
    ]);
    // A British spelling standard outweighs it; a ccTLD too.
    expect(guessCountry(input('news.com', 'Kickoff 7pm PDT', { htmlLang: 'en-GB' })).code).toBe('gb');
    expect(guessCountry(input('thelocal.se', 'Kickoff 7pm PDT')).code).toBe('se');
    // Two zones of two countries, once each: no country holds two thirds.
    expect(guessCountry(input('news.com', 'at 7pm AEST, 10:00 BST')).code).toBe('intl');
  });

  it('reads the currency of quoted amounts, only signs that belong to one country', () => {
    expect(guessCountry(input('news.com', 'Tickets cost £25, or £40 at the door')).code).toBe('gb');
    expect(guessCountry(input('news.com', 'A ₹500 note and ₹2,000 more')).code).toBe('in');
    expect(guessCountry(input('news.com', 'C$40 or C$55 in Toronto')).code).toBe('ca');
    // A letter before a dollar sign makes another one: US$ is not Singapore's S$, CA$ not Australia's A$.
    expect(guessCountry(input('news.com', 'US$25 and US$ 40 abroad')).code).not.toBe('sg');
    expect(guessCountry(input('news.com', 'CA$40 or CA$ 55 in Toronto')).code).toBe('ca');
    // Dollars and euros are shared by many countries.
    expect(guessCountry(input('news.com', '$25 and $40, €10 and 20 €')).code).toBe('intl');
    // Two currencies, neither holding two thirds: nothing.
    expect(guessCountry(input('news.com', '£25, £40, ₹500, ₹2,000')).code).toBe('intl');
  });

  it('reads euro amounts through the language: a country only where one euro country writes it', () => {
    const pt = { htmlLang: 'pt', languages: [{ code: 'pt' }] };
    // As almedina.net, a Portuguese bookshop on a .net (test/fixtures/real-pages-ninth), quotes its prices.
    const shop = input('almedina.net', 'Preço 18,90 € · Portes grátis acima de 15€ · PVP €22,00', pt);
    const guess = guessCountry(shop);
    expect(guess.code).toBe('pt');
    expect(guess.reasons.find((r) => r.signal === 'text_currency')?.evidence).toContain(
      'in euros on a page in pt',
    );
    expect(
      guessCountry(input('tienda.com', '12,99 € y 20 €', { htmlLang: 'es', languages: [{ code: 'es' }] }))
        .code,
    ).toBe('es');
    // Several euro countries write German, French, Dutch or English: nobody.
    for (const code of ['de', 'fr', 'nl', 'en'])
      expect(
        guessCountry(input('laden.com', '12,99 € und 20 €', { htmlLang: code, languages: [{ code }] })).code,
      ).toBe('intl');
    // Reais beside a few euros stay Brazil's.
    expect(guessCountry(input('loja.com', 'R$ 49,90, R$ 99 e R$ 120, ou €20', pt)).code).toBe('br');
  });

  it('counts a US state-privacy notice', () => {
    const guess = guessCountry(input('news.com', 'About us · Do Not Sell or Share My Personal Information'));
    expect(guess.code).toBe('us');
    expect(guess.reasons.map((r) => r.signal)).toEqual(['us_privacy_notice']);
    expect(guessCountry(input('news.com', 'Your Privacy Choices')).code).toBe('us');
  });

  it('lets any strong signal win over the text: a ccTLD, a chosen region', () => {
    expect(guessCountry(input('news.co.uk', US_TEXT)).code).toBe('gb');
    expect(guessCountry(input('news.com', US_TEXT, { htmlLang: 'en-CA' })).code).toBe('ca');
  });

  it('reads the markers from a page and never throws on odd input', () => {
    const facts = readPageFacts(
      `<html lang="en"><body><p>${US_TEXT} Prices from £5 and £9.</p><script>var x = "colour colour";</script></body></html>`,
      'https://news.example.com/',
    );
    expect(facts.text_markers.us_spellings).toBeGreaterThanOrEqual(5);
    expect(facts.text_markers.gb_spellings).toBe(0);
    expect(facts.text_markers.currencies).toEqual({ gb: 2 });
    for (const odd of [null, undefined, 42, {}, { time_zones: null, currencies: 'x' }] as unknown[])
      expect(() => textCountryReasons(odd as never, ['en'])).not.toThrow();
    expect(readTextMarkers(undefined as unknown as string).us_spellings).toBe(0);
  });
});

describe('script and conventions of the text', () => {
  it('names China for a Chinese page set in Simplified characters, nobody for Traditional ones', () => {
    // 这, 们 and 国 are Simplified-only; 是, 我, 家, 的 are shared and 闻 is not in the list.
    const simplified = '这是我们国家的新闻。'.repeat(7);
    const zh = { htmlLang: 'zh', languages: [{ code: 'zh' }] };
    expect(readTextMarkers(simplified)).toMatchObject({ simplified_han: 21, traditional_han: 0 });
    const guess = guessCountry(input('xinwen.com', simplified, zh));
    expect(guess.code).toBe('cn');
    expect(guess.reasons.map((r) => r.signal)).toEqual(['simplified_chinese']);
    expect(guessCountry(input('xinwen.com', '這是我們國家的新聞。'.repeat(7), zh)).code).toBe('intl');
    // Too few characters, or a mix of both scripts: nothing.
    expect(guessCountry(input('xinwen.com', '这是我们国家的新闻。', zh)).code).toBe('intl');
    expect(guessCountry(input('xinwen.com', `${simplified}${'這們說國會'.repeat(2)}`, zh)).code).toBe('intl');
  });

  it('names the United States from temperatures in Fahrenheit and AP state abbreviations, on English pages', () => {
    const weather = guessCountry(input('news.com', 'Highs near 95°F today, lows of 70 °F tonight.'));
    expect(weather.code).toBe('us');
    expect(weather.reasons.map((r) => r.signal)).toEqual(['fahrenheit']);
    const datelines = guessCountry(input('news.com', 'FRESNO, Calif. (AP) — A man from Camden, N.J., said.'));
    expect(datelines.reasons.map((r) => r.signal)).toEqual(['us_state_abbreviations']);
    expect(datelines.code).toBe('us');
    // One mention, Celsius, or a word that only looks like an abbreviation: nothing.
    expect(guessCountry(input('news.com', 'Highs near 35°C, 95°F in Fresno.')).code).toBe('intl');
    expect(
      guessCountry(input('news.com', 'Fresno, Calif. is hot; Calif.ornia, Cal. and CA are not.')).code,
    ).toBe('intl');
    const german = { htmlLang: 'de', languages: [{ code: 'de' }] };
    expect(guessCountry(input('zeitung.com', '95°F und 80°F', german)).code).toBe('intl');
    // No language known (no tag, too few titles to detect one): the English patterns are still read.
    const unknown = { htmlLang: null, languages: [] };
    expect(guessCountry(input('news.com', 'Highs near 95°F, lows of 70°F.', unknown)).code).toBe('us');
    expect(guessCountry(input('news.com', 'The center changed color.', unknown)).code).toBe('us');
  });
});
