import { describe, expect, it } from 'vitest';
import { type CountryInput, guessCountry } from '../../../src/engine/country-guess.js';
import { identityCountryReasons, readIdentityMarkers } from '../../../src/engine/country-identity-signals.js';
import { readTextMarkers } from '../../../src/engine/country-text-signals.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';

function onDotCom(text: string, language = 'de', extra: Partial<CountryInput> = {}): CountryInput {
  return {
    host: 'zeitung.com',
    registrableDomain: 'zeitung.com',
    htmlLang: language,
    contentLanguage: [],
    hreflang: [],
    languages: [{ code: language }],
    textMarkers: readTextMarkers(text),
    ...extra,
  };
}

describe('telephone numbers', () => {
  it('reads the calling code however the number is spaced, and the trunk zero in brackets', () => {
    expect(readIdentityMarkers('Redaktion: +43 1 514 14-0, Fax +43 (0)1 514 14 99').phones).toEqual({
      at: 2,
    });
    expect(readIdentityMarkers('Tel. 0041-44-123 45 67').phones).toEqual({ ch: 1 });
    expect(readIdentityMarkers('+49 (0)30 1234567 · +49.89.12345678').phones).toEqual({ de: 2 });
    // Codes are prefix-free: 351 is Portugal, 35 is nothing, 3 is nothing.
    expect(readIdentityMarkers('Call +351 21 123 4567').phones).toEqual({ pt: 1 });
    expect(readIdentityMarkers('+7 495 123-45-67, +7 727 123 4567').phones).toEqual({ ru: 1, kz: 1 });
  });

  it('resolves North American numbers by area code, and names no country for toll-free ones', () => {
    expect(readIdentityMarkers('Newsroom (416) 555-0123').phones).toEqual({ ca: 1 });
    expect(readIdentityMarkers('Call 1-212-555-0199 or +1 787 555 0100').phones).toEqual({ us: 1, pr: 1 });
    expect(readIdentityMarkers('Subscriptions 1-800-555-0100').phones).toEqual({});
  });

  it('does not take scores, prices, percentages or short numbers for telephone numbers', () => {
    const text =
      'Won +2.5% to 1,200; 2024 results 3-1; +12 points; 00:30; price 1 000 000; ISBN 978-3-16-148410-0';
    expect(readIdentityMarkers(text).phones).toEqual({});
  });

  it('names the country holding two thirds of the numbers, weighing more when there are several', () => {
    expect(identityCountryReasons({ phones: { at: 1 }, registrations: {} })).toEqual([
      expect.objectContaining({ signal: 'phone_numbers', country: 'at', weight: 1.25 }),
    ]);
    expect(identityCountryReasons({ phones: { at: 3 }, registrations: {} })[0]?.weight).toBe(1.5);
    expect(identityCountryReasons({ phones: { at: 1, de: 1 }, registrations: {} })).toEqual([]);
  });
});

describe('telephone numbers in structured data', () => {
  it("reads the publisher's JSON-LD telephone as if printed, once when the text prints it too", () => {
    const ld = (telephone: string, text = '') =>
      readPageFacts(
        `<html lang="en"><script type="application/ld+json">{"@type":"NewsMediaOrganization","name":"Globe",
          "contactPoint":{"@type":"ContactPoint","telephone":"${telephone}"}}</script><p>${text}</p></html>`,
        'https://globe.com/',
      ).text_markers.identity.phones;
    expect(ld('+1-416-585-5000')).toEqual({ ca: 1 });
    expect(ld('+91 120 300 7222')).toEqual({ in: 1 });
    expect(ld('+91 120 300 7222', 'Call +91 120 300 7222')).toEqual({ in: 1 });
    // A national number without its calling code names nobody.
    expect(ld('0231 90590')).toEqual({});
  });
});

describe('printed registrations', () => {
  it.each([
    ['UID-Nr.: ATU12345678', 'at'],
    ['USt-IdNr.: DE 123456789', 'de'],
    ['UID: CHE-123.456.789 MWST', 'ch'],
    ['GEDI News Network S.p.A. – P.IVA 01578251009', 'it'],
    ['Unidad Editorial S.A. CIF: A-79102331', 'es'],
    ['SIRET : 123 456 789 00012', 'fr'],
    ['CNPJ: 12.345.678/0001-90', 'br'],
    ['ABN 12 345 678 901', 'au'],
    ['Registered in England and Wales No. 908396', 'gb'],
    ['KvK-nummer: 12345678', 'nl'],
    ['Ansvarlig redaktør: Kari Nordmann', 'no'],
    ['Ansvarig utgivare: Anna Svensson', 'se'],
    ['Y-tunnus 1234567-8', 'fi'],
    ['Свидетельство о регистрации СМИ Эл № ФС77-12345', 'ru'],
    ['京ICP备12345678号 京公网安备11010502012345号', 'cn'],
    ['등록번호 : 서울아01043', 'kr'],
  ])('%s names %s', (text, country) => {
    const markers = readIdentityMarkers(text);
    expect(Object.keys(markers.registrations)).toEqual([country]);
    expect(identityCountryReasons(markers)).toEqual([
      expect.objectContaining({ signal: 'registration', country, weight: 1.5 }),
    ]);
  });

  it('names none when a group prints registrations of several countries', () => {
    const markers = readIdentityMarkers('UID ATU12345678 · USt-IdNr. DE123456789');
    expect(Object.keys(markers.registrations).sort()).toEqual(['at', 'de']);
    expect(identityCountryReasons(markers)).toEqual([]);
  });
});

describe('in the country guess', () => {
  it('names the country of a .com page whose shared language alone would leave it intl', () => {
    expect(guessCountry(onDotCom('Nachrichten aus aller Welt')).code).toBe('intl');
    expect(guessCountry(onDotCom('Impressum · UID ATU12345678 · Tel. +43 1 514 14')).code).toBe('at');
  });

  it('never outweighs a country-code TLD', () => {
    const guess = guessCountry(
      onDotCom('Unser Partner in Wien: +43 1 514 14, UID ATU12345678', 'de', {
        host: 'zeitung.de',
        registrableDomain: 'zeitung.de',
      }),
    );
    expect(guess.code).toBe('de');
  });

  it('outweighs the region a language gets by default (en → us) when a number names another country', () => {
    const guess = guessCountry(onDotCom('Contact the newsroom: +266 2231 2345', 'en', { htmlLang: 'en' }));
    expect(guess.code).toBe('ls');
  });
});
