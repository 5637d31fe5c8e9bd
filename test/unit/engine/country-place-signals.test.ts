import { describe, expect, it } from 'vitest';
import { isCountryCode } from '../../../src/domain/countries.js';
import { allPlaceNames, PLACE_NAMES_AS_OF, placesOfLanguage } from '../../../src/domain/place-names.js';
import table from '../../../src/domain/place-names.json' with { type: 'json' };
import { type CountryInput, guessCountry } from '../../../src/engine/country-guess.js';
import {
  MIN_PLACES,
  PLACE_WEIGHT,
  PUBLISHER_PLACE_WEIGHT,
  placeCountryReason,
  publisherPlaceReason,
  readPlaceNames,
} from '../../../src/engine/country-place-signals.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';

function onDotCom(text: string, language: string, extra: Partial<CountryInput> = {}): CountryInput {
  return {
    host: 'diario.com',
    registrableDomain: 'diario.com',
    htmlLang: language,
    contentLanguage: [],
    hreflang: [],
    languages: [{ code: language }],
    placeNames: readPlaceNames([text]),
    ...extra,
  };
}

describe('the gazetteer', () => {
  it('is dated, and keyed by languages and country codes', () => {
    expect(PLACE_NAMES_AS_OF).toMatch(/^\d{4}-\d\d-\d\d$/);
    const languages = table.languages as Record<string, Record<string, unknown>>;
    for (const [language, countries] of Object.entries(languages)) {
      expect(language).toMatch(/^[a-z]{2}$/);
      for (const country of Object.keys(countries))
        expect(isCountryCode(country) && country !== 'intl', `${language}: ${country}`).toBe(true);
    }
  });

  it('drops a name listed under two countries, keeps one listed twice for the same country', () => {
    // Bundesrat is Germany's and Switzerland's; Lausanne is Swiss in German and in French.
    expect(placesOfLanguage('de')!.has('Bundesrat')).toBe(false);
    expect(allPlaceNames().has('Bundesrat')).toBe(false);
    expect(placesOfLanguage('de')!.get('Lausanne')?.country).toBe('ch');
    expect(placesOfLanguage('fr')!.get('Lausanne')?.country).toBe('ch');
    const countryOf = new Map<string, string>();
    for (const language of Object.keys(table.languages))
      for (const [name, place] of placesOfLanguage(language)!) {
        expect(countryOf.get(name) ?? place.country, name).toBe(place.country);
        countryOf.set(name, place.country);
      }
  });

  it('every name starts with a capital or an uncased letter (the reader skips lower-case words)', () => {
    for (const name of allPlaceNames()) expect(/^[\p{Lu}\p{Lt}\p{Lo}]/u.test(name), name).toBe(true);
  });

  it('answers by the primary subtag, and null for a language it lacks', () => {
    expect(placesOfLanguage('es-MX')!.get('Monterrey')).toEqual({
      country: 'mx',
      place: 'Monterrey',
      countryName: false,
    });
    expect(placesOfLanguage('ja')).toBeNull();
    expect(placesOfLanguage('')).toBeNull();
  });
});

describe('reading place names', () => {
  it('matches whole words as written, the longest name first', () => {
    expect(readPlaceNames(['Unfall in Wien; Wiener Neustadt und Graz. Wiens Bürgermeister, wien'])).toEqual({
      Wien: 1,
      'Wiener Neustadt': 1,
      Graz: 1,
    });
    expect(readPlaceNames(['Baden-Württemberg, Nordrhein-Westfalen und NRW'])).toEqual({
      'Baden-Württemberg': 1,
      'Nordrhein-Westfalen': 1,
      NRW: 1,
    });
    // A capital inside a word starts no name.
    expect(readPlaceNames(['xBerlin iLima'])).toEqual({});
  });

  it('reads menus set in capitals, but never a lower-cased name', () => {
    expect(readPlaceNames(['VENEZUELA | CARACAS | BUENOS AIRES | lima'])).toEqual({
      Venezuela: 1,
      Caracas: 1,
      'Buenos Aires': 1,
    });
  });

  it('reads Arabic names behind their proclitics and Chinese names inside a run of characters', () => {
    expect(readPlaceNames(['انفجار ببيروت ووبيروت والبقاع'])).toEqual({ بيروت: 2, البقاع: 1 });
    expect(readPlaceNames(['记者来到北京和上海，Top15中国'])).toEqual({ 北京: 1, 上海: 1, 中国: 1 });
  });

  it('reads Nepali names with the postposition written onto them, never a longer word', () => {
    // काठमाडौंमा "in Kathmandu", पोखराबाट "from Pokhara", ललितपुरको "of Lalitpur"; काठमाडौंपुर is another word.
    expect(readPlaceNames(['काठमाडौंमा वर्षा, पोखराबाट उडान, ललितपुरको बैठक, काठमाडौंपुर'])).toEqual({
      काठमाडौं: 1,
      पोखरा: 1,
      ललितपुर: 1,
    });
  });

  it('accepts anything and keeps its counts bounded', () => {
    expect(readPlaceNames([])).toEqual({});
    expect(readPlaceNames(null as unknown as string[])).toEqual({});
    expect(readPlaceNames([42 as unknown as string, '', '\uD800Wien'])).toEqual({ Wien: 1 });
    const many = readPlaceNames(['Wien '.repeat(5000)]);
    expect(many['Wien']).toBeLessThanOrEqual(1000);
  });

  it('is read by readPageFacts from the title and the visible text, not from scripts', () => {
    const html = `<html lang="es"><title>Noticias de Monterrey</title><body>
      <nav><a href="/jalisco">Jalisco</a> <a href="/puebla">Puebla</a></nav>
      <script>var city = "Tijuana";</script><p>Lluvias en Monterrey y Oaxaca.</p></body></html>`;
    expect(readPageFacts(html, 'https://diario.com/').place_names).toEqual({
      Monterrey: 2,
      Jalisco: 1,
      Puebla: 1,
      Oaxaca: 1,
    });
  });
});

describe('the place-name reason', () => {
  it(`needs ${MIN_PLACES} places of one country, spellings of one place counting once`, () => {
    expect(placeCountryReason(readPlaceNames(['Wien, Wiener Polizei, Graz']), ['de'])).toBeNull();
    const reason = placeCountryReason(readPlaceNames(['Wien, Graz, Linz und Wiener Polizei']), ['de']);
    expect(reason).toMatchObject({ signal: 'place_names', country: 'at', weight: PLACE_WEIGHT });
    expect(reason!.evidence).toContain('3 places of at named (Wien, Graz, Linz)');
  });

  it('names nobody when one country does not hold two thirds of the mentions', () => {
    const text = 'Wien, Graz, Linz, Berlin, München, Köln';
    expect(placeCountryReason(readPlaceNames([text]), ['de'])).toBeNull();
    expect(placeCountryReason(readPlaceNames([`${text}, Wien, Graz, Linz, Wien`]), ['de'])?.country).toBe(
      'at',
    );
  });

  it("reads the page's language only: a German page full of Madrid names no Spanish-speaking country", () => {
    const names = readPlaceNames(['Madrid, Sevilla, Bilbao, Valencia']);
    expect(placeCountryReason(names, ['es'])?.country).toBe('es');
    expect(placeCountryReason(names, ['de'])).toBeNull();
    expect(placeCountryReason(names, [])).toBeNull();
    expect(placeCountryReason(null, ['es'])).toBeNull();
    expect(placeCountryReason({ Madrid: Number.NaN, Sevilla: -1 }, ['es'])).toBeNull();
  });
});

describe('places in the menus', () => {
  it('name a country when they are of that country only, from two places (a section and its city)', () => {
    const text = readPlaceNames(['Golf von Nordamerika: Texas, Florida, Miami']);
    expect(placeCountryReason(text, ['de'], readPlaceNames(['Wien', 'Österreich']))).toMatchObject({
      country: 'at',
      evidence: 'its menus name places of at only (Wien, Österreich)',
    });
    expect(placeCountryReason(text, ['de'], readPlaceNames(['Wien', 'Wiener']))).toBeNull();
    expect(placeCountryReason(text, ['de'], readPlaceNames(['Wien', 'Graz', 'Berlin']))).toBeNull();
  });

  it('name a country from one of its places twice in the menus, with another of its places in the text', () => {
    const menus = readPlaceNames(['Venezuela', 'Mundo', 'Venezuela']);
    expect(placeCountryReason(readPlaceNames(['Protesta en Caracas']), ['es'], menus)).toMatchObject({
      country: 've',
      evidence: 'its menus name Venezuela 2 times and no other country; with its text Venezuela, Caracas',
    });
    const oregon = readPlaceNames(['Oregon', 'Sports', 'Oregon']);
    expect(
      placeCountryReason(readPlaceNames(['Rain in Portland, California dry']), ['en'], oregon),
    ).toMatchObject({ country: 'us' });
    // The place alone (a story about it), or once: nothing.
    expect(placeCountryReason(readPlaceNames(['Venezuela hoy']), ['es'], menus)).toBeNull();
    expect(placeCountryReason(readPlaceNames(['Caracas']), ['es'], readPlaceNames(['Venezuela']))).toBeNull();
  });

  it('leave out British names US newsrooms write for their own counties and towns', () => {
    const nj = readPlaceNames(['Essex, Somerset and Sussex counties; Manchester, N.H.; Kensington']);
    expect(nj).toEqual({});
  });

  it('are read by readPageFacts from nav, header and menu-class links', () => {
    const html = `<html lang="de"><body><nav><a href="/wien">Wien</a><a href="/at">Österreich</a></nav>
      <div class="menu"><a href="/graz">Graz</a></div><p><a href="/x">Berlin</a></p></body></html>`;
    expect(readPageFacts(html, 'https://zeitung.com/').menu_place_names).toEqual({
      Wien: 1,
      Österreich: 1,
      Graz: 1,
    });
  });
});

describe('places in the country guess', () => {
  const mexican = 'Lluvias en Monterrey; Jalisco y Puebla en alerta; Monterrey otra vez';

  it('decide a .com page that declares only its language', () => {
    expect(guessCountry(onDotCom('', 'es')).code).toBe('intl');
    const guess = guessCountry(onDotCom(mexican, 'es'));
    expect(guess.code).toBe('mx');
    expect(guess.reasons.map((r) => r.signal)).toEqual(['place_names']);
  });

  it('decide a Nepali .com page by its Nepali places, where the language alone names nobody (India and Nepal)', () => {
    const nepali =
      'काठमाडौंमा बैठक बस्यो । पोखराबाट आएका प्रतिनिधि र विराटनगरका व्यापारी सहभागी थिए । काठमाडौंको मौसम सफा छ ।';
    expect(guessCountry(onDotCom('', 'ne')).code).toBe('intl');
    const guess = guessCountry(onDotCom(nepali, 'ne'));
    expect(guess.code).toBe('np');
    expect(guess.reasons.map((r) => r.signal)).toEqual(['place_names']);
  });

  it('decide a Malay .com page by its Malaysian places (Malay is spoken in Malaysia, Singapore and Brunei)', () => {
    const malay =
      'Banjir di Kelantan dan Terengganu; Menteri Besar Selangor berkata di Shah Alam bahawa bantuan dihantar.';
    expect(guessCountry(onDotCom(malay, 'ms')).code).toBe('my');
  });

  it.each([
    // Greek: Greece and Cyprus, genitives as newsrooms write them ("Δήμος Κοζάνης").
    [
      'el',
      'Συλλαλητήριο στην Πτολεμαΐδα· ο Δήμος Κοζάνης και η Περιφέρεια Δυτικής Μακεδονίας απαντούν',
      'gr',
    ],
    ['el', 'Κίνηση στη Λεμεσό και την Πάφο· νέα μέτρα στη Λευκωσία και τη Λάρνακα', 'cy'],
    // Bengali: Bangladesh and India's West Bengal (a local front's menu: Chattogram and the hill districts).
    ['bn', 'প্রচ্ছদ চট্টগ্রাম জাতীয় বিদেশ কক্সবাজার বান্দরবান রাঙ্গামাটি খাগড়াছড়ি', 'bd'],
    ['bn', 'কলকাতা শহরে বৃষ্টি; হাওড়া ও শিলিগুড়িতে সতর্কতা, দার্জিলিং পাহাড়ে তুষারপাত', 'in'],
    // Persian: Iran and Afghanistan.
    ['fa', 'انفجار در کابل؛ هرات و قندهار آرام است. وزیر در ننگرهار', 'af'],
    ['fa', 'هوای تهران آلوده است؛ مشهد و اصفهان و شیراز هم', 'ir'],
  ])('decide a %s .com page by its places, where the language alone names nobody: %s', (language, text, country) => {
    expect(guessCountry(onDotCom('', language)).code).toBe('intl');
    expect(guessCountry(onDotCom(text, language)).code).toBe(country);
  });

  it("outweigh the language's default region, never a ccTLD", () => {
    expect(guessCountry(onDotCom(mexican, 'es-ES')).code).toBe('mx');
    const onDotEs = onDotCom(mexican, 'es', { host: 'diario.es', registrableDomain: 'diario.es' });
    expect(guessCountry(onDotEs).code).toBe('es');
  });
});

describe("places in the publisher's name", () => {
  it("are read by readPageFacts from og:site_name, the JSON-LD publisher and address, the title's last part", () => {
    const titled = '<html lang="en"><title>Police with holiday spirit | Dallas Morning News</title></html>';
    expect(readPageFacts(titled, 'https://dallasnews.com/').publisher_place_names).toEqual({ Dallas: 1 });
    // A title of one part is a headline: the places it names are the story's.
    const headline = '<html lang="en"><title>Storm hits Dallas</title></html>';
    expect(readPageFacts(headline, 'https://news.com/').publisher_place_names).toEqual({});
    const meta = `<html lang="fr"><meta property="og:site_name" content="La Presse de Tunisie">
      <script type="application/ld+json">{"@type":"NewsArticle","publisher":{"@type":"Organization","name":"La Presse de Tunisie"}}</script></html>`;
    expect(readPageFacts(meta, 'https://lapresse.com/').publisher_place_names).toEqual({ Tunisie: 1 });
    const address = `<html lang="en"><script type="application/ld+json">{"@type":"NewsMediaOrganization","name":"Herald",
      "address":{"@type":"PostalAddress","addressLocality":"Houston","addressRegion":"Texas"}}</script></html>`;
    expect(readPageFacts(address, 'https://herald.com/').publisher_place_names).toEqual({
      Houston: 1,
      Texas: 1,
    });
  });

  it("name a country when all their places are of one country, read with the page's language", () => {
    expect(publisherPlaceReason(readPlaceNames(['The Seattle Times']), ['en'])).toEqual({
      signal: 'publisher_place',
      country: 'us',
      evidence:
        'the publisher (site name, publisher, title, address or domain): its name or address names Seattle',
      weight: PUBLISHER_PLACE_WEIGHT,
    });
    expect(publisherPlaceReason(readPlaceNames(['Berliner Zeitung']), ['de'])?.country).toBe('de');
    expect(publisherPlaceReason(readPlaceNames(['Toronto to Sydney Weekly']), ['en'])).toBeNull();
    expect(publisherPlaceReason(readPlaceNames(['Berliner Zeitung']), ['es'])).toBeNull();
    expect(publisherPlaceReason(null, ['en'])).toBeNull();
  });

  it("name a country from the domain's name beginning or ending with a place of five letters or more", () => {
    expect(publisherPlaceReason(null, ['en'], 'dallasnews.com')?.evidence).toBe(
      'the publisher (site name, publisher, title, address or domain): its domain dallasnews.com names Dallas',
    );
    expect(publisherPlaceReason(null, ['en'], 'thenewyorker.com')?.country).toBe('us');
    expect(publisherPlaceReason(null, ['de'], 'braunschweiger-zeitung.de')?.country).toBe('de');
    // A place inside the name, or a short one, is not read; nor a domain and a site name of two countries.
    expect(publisherPlaceReason(null, ['en'], 'newsdallasweekly.com')).toBeNull();
    expect(publisherPlaceReason(null, ['en'], 'lagosnews.com')?.country).toBe('ng');
    expect(publisherPlaceReason(readPlaceNames(['Toronto Star']), ['en'], 'dallasnews.com')).toBeNull();
  });

  it("name a country from its English name in an English publisher's name, not after New or a compass point", () => {
    const named = (siteName: string, language = 'en') =>
      publisherPlaceReason(null, [language], 'paper.com', [siteName])?.country ?? null;
    expect(named('Lesotho Times')).toBe('ls');
    expect(named('Mexico News Daily')).toBe('mx');
    expect(publisherPlaceReason(null, ['en'], 'paper.com', ['The Japan Times'])?.evidence).toBe(
      'the publisher (site name, publisher, title, address or domain): its name names Japan',
    );
    expect(named('New Mexico Political Report')).toBeNull();
    expect(named('South China Morning Post')).toBeNull();
    expect(named('Georgia Public Broadcasting')).toBeNull();
    expect(named('Japanese Times')).toBeNull();
    // English names on an English page only; with a place of another country, nothing.
    expect(named('Mexico News Daily', 'es')).toBeNull();
    expect(
      publisherPlaceReason(readPlaceNames(['Houston']), ['en'], 'paper.com', ['Mexico News']),
    ).toBeNull();
  });

  it("decide a .com page with nothing else, outweigh a language's default region, never a ccTLD", () => {
    const named = (host: string, htmlLang: string) =>
      guessCountry({
        host,
        registrableDomain: host,
        htmlLang,
        contentLanguage: [],
        hreflang: [],
        languages: [{ code: htmlLang }],
        publisherPlaceNames: readPlaceNames(['Houston Chronicle']),
      }).code;
    expect(named('chron.com', 'en')).toBe('us');
    expect(named('chron.com', 'en-GB')).toBe('us');
    expect(named('chron.co.uk', 'en')).toBe('gb');
  });
});
