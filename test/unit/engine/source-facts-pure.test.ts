import { describe, expect, it } from 'vitest';
import { parseTdmRep, readAiPolicy, tdmLocationMatches, tdmRuleFor } from '../../../src/engine/ai-policy.js';
import type { DiscoveredFeed } from '../../../src/engine/feeds.js';
import { cadenceFor, cronFor, type Freshness, measureFreshness } from '../../../src/engine/freshness.js';
import {
  languageIndex,
  MIN_TEXT_OVER_TEMPLATE_CHARS,
  sourceLanguages,
} from '../../../src/engine/languages.js';
import { readPageSignals } from '../../../src/engine/page-signals.js';
import { parseRobots } from '../../../src/engine/robots.js';
import { linguaRuns } from '../../support/lingua-sentences.js';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const HOUR = 3600 * 1000;

/** The languages of a page with no feed and no sitemap: its head, its running text and its headlines. */
function languagesOfPage(html: string, pageText: string, pageTitles: string[] = []) {
  return sourceLanguages({
    page: readPageSignals(html),
    contentLanguage: undefined,
    feeds: [],
    sitemap: null,
    pageText,
    pageTitles,
  });
}

function feed(overrides: Partial<DiscoveredFeed>): DiscoveredFeed {
  return {
    url: 'https://a.example/feed',
    type: 'rss',
    title: 'A',
    role: 'main',
    item_count: 0,
    newest_item_at: null,
    language: null,
    oldest_item_at: null,
    items_last_7d: 0,
    dated_items: 0,
    item_titles: [],
    item_links: [],
    source: 'link',
    label: null,
    announced: true,
    same_site: true,
    role_reason: 'test',
    duplicate_of: null,
    ...overrides,
  };
}
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

describe('measureFreshness', () => {
  it('counts a comments feed never, and a duplicate never', () => {
    const fresh = measureFreshness({
      feeds: [
        feed({ role: 'comments', newest_item_at: ago(HOUR), oldest_item_at: ago(2 * HOUR), dated_items: 50 }),
        feed({
          duplicate_of: 'x',
          newest_item_at: ago(HOUR),
          oldest_item_at: ago(2 * HOUR),
          dated_items: 50,
        }),
      ],
      news: null,
      now: NOW,
    });
    expect(fresh).toMatchObject({ newest_item_at: null, items_per_day: null, stale: null, based_on: null });
  });

  it('takes the busiest source rather than adding overlapping ones', () => {
    const fresh = measureFreshness({
      feeds: [
        feed({
          newest_item_at: ago(HOUR),
          oldest_item_at: ago(10 * 24 * HOUR),
          items_last_7d: 14,
          dated_items: 20,
        }),
        feed({
          url: 'https://a.example/other',
          newest_item_at: ago(2 * HOUR),
          oldest_item_at: ago(10 * 24 * HOUR),
          items_last_7d: 7,
          dated_items: 10,
        }),
      ],
      news: null,
      now: NOW,
    });
    expect(fresh).toMatchObject({ items_last_7d: 14, items_per_day: 2, newest_item_at: ago(HOUR) });
  });

  it('section feeds stand in when there is no main feed', () => {
    const fresh = measureFreshness({
      feeds: [
        feed({ role: 'section', newest_item_at: ago(HOUR), oldest_item_at: ago(HOUR), dated_items: 1 }),
      ],
      news: null,
      now: NOW,
    });
    // One item an hour ago: the span is at least an hour, so the rate is bounded (24 a day), never infinite.
    expect(fresh.items_per_day).toBe(24);
  });
});

describe('the schedule table', () => {
  const at = (items_per_day: number | null, stale: boolean | null = false): Freshness => ({
    newest_item_at: null,
    items_last_7d: 0,
    items_per_day,
    measured_at: NOW.toISOString(),
    stale,
    based_on: 'feed',
  });

  it.each([
    [100, '15 minutes'],
    [24, '15 minutes'],
    [23.9, 'hour'],
    [2, 'hour'],
    [1, '6 hours'],
    [0.5, '6 hours'],
    [0.14, 'day'],
    [0, 'day'],
  ] as const)('%s items a day → every %s', (rate, every) => {
    expect(cadenceFor(at(rate), true)).toBe(every);
    expect(cadenceFor(at(rate), false)).toBe(every);
  });

  it('stale → weekly; no rate → hourly for a feed, daily otherwise', () => {
    expect(cadenceFor(at(50, true), true)).toBe('week');
    expect(cadenceFor(at(null, null), true)).toBe('hour');
    expect(cadenceFor(null, false)).toBe('day');
  });

  it('spreads by the domain hash and writes valid five-field crons', () => {
    expect(cronFor('a.example', '15 minutes')).toMatch(/^(\d+),(\d+),(\d+),(\d+) \* \* \* \*$/);
    const [m0, m1] = cronFor('a.example', '15 minutes').split(' ')[0]!.split(',').map(Number);
    expect(m1! - m0!).toBe(15);
    expect(cronFor('a.example', '6 hours')).toMatch(/^\d+ \d+,\d+,\d+,\d+ \* \* \*$/);
    expect(cronFor('a.example', 'week')).toMatch(/^\d+ \d+ \* \* [0-6]$/);
    const hours = new Set(
      ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h'].map((x) => cronFor(`${x}.example`, 'day')),
    );
    expect(hours.size).toBeGreaterThan(1);
  });
});

describe('page signals', () => {
  it('reads the head: lang, content-language, hreflang, robots and TDM meta; not the body', () => {
    const html = `<!doctype html><html lang="pt_BR"><head>
      <meta http-equiv="Content-Language" content="pt-BR, en">
      <link rel="alternate" hreflang="es" href="/es/"><link rel="alternate" hreflang="x-default" href="/">
      <meta name="robots" content="index, NoAI"><meta name="tdm-reservation" content=" 1 ">
      <meta property="og:locale" content="pt_BR"><meta property="og:locale" content="en_US">
      </head><body><meta name="robots" content="noimageai"><link rel="alternate" hreflang="de" href="/de/"></body></html>`;
    expect(readPageSignals(html)).toEqual({
      html_lang: 'pt-br',
      meta_content_language: ['pt-br', 'en'],
      hreflang: ['es'],
      og_locale: 'pt-br',
      robots_directives: ['index', 'noai'],
      tdm_reservation: '1',
      tdm_policy: null,
    });
  });

  it('a lang that is not a language tag is no language', () => {
    expect(readPageSignals('<html lang="{{ locale }}"><head></head></html>').html_lang).toBeNull();
  });
});

describe('languages', () => {
  const page = readPageSignals('<html lang="en"><head></head></html>');
  it('declared languages win over detection, and the titles are not read', () => {
    const found = sourceLanguages({
      page,
      contentLanguage: undefined,
      feeds: [
        feed({ item_titles: ['Правительство объявило о новой программе', 'Учёные обнаружили новый вид'] }),
      ],
      sitemap: null,
    });
    expect(found).toEqual([{ code: 'en', sources: ['html_lang'] }]);
  });

  it("takes Open Graph's locale where <html lang> is missing, over hreflang alternates; beside a lang, not at all", () => {
    // As spartoo.pt writes its head (test/fixtures/real-pages-ninth): no lang, og:locale pt_PT, alternates first in French.
    const shop = `<html><head><meta property="og:locale" content="pt_PT">
      <link rel="alternate" hreflang="fr" href="https://www.spartoo.com/"><link rel="alternate" hreflang="es-es" href="https://www.spartoo.es/">
      </head></html>`;
    expect(languagesOfPage(shop, '')).toEqual([
      { code: 'pt-pt', sources: ['og_locale'] },
      { code: 'fr', sources: ['hreflang'] },
      { code: 'es-es', sources: ['hreflang'] },
    ]);
    // Beside a lang, a theme's default may be either one: the lang stands, and the words settle a template's English.
    const paper = '<html lang="en"><head><meta property="og:locale" content="es_MX"></head></html>';
    expect(languagesOfPage(paper, '')).toEqual([{ code: 'en', sources: ['html_lang'] }]);
    // Alone, it is a template's declaration like a lone lang: Spanish words override its English.
    const spanish =
      'El gobierno municipal anunció este martes un nuevo programa de apoyo para las familias afectadas por las lluvias ' +
      'de la semana pasada, que dejaron daños en varias colonias de la ciudad y en los caminos de las comunidades rurales. ' +
      'Las autoridades informaron que los apoyos se entregarán a partir del próximo lunes en las oficinas del ayuntamiento.';
    const template = '<html><head><meta property="og:locale" content="en_US"></head></html>';
    expect(spanish.repeat(4).length).toBeGreaterThanOrEqual(MIN_TEXT_OVER_TEMPLATE_CHARS);
    expect(languagesOfPage(template, spanish.repeat(4))[0]).toMatchObject({
      code: 'es',
      sources: ['detected'],
    });
  });

  it('too few titles, or titles that disagree, detect nothing', () => {
    const none = readPageSignals('<html><head></head></html>');
    const two = sourceLanguages({
      page: none,
      contentLanguage: undefined,
      feeds: [
        feed({ item_titles: ['Правительство объявило о программе', 'Учёные обнаружили новый вид рыб'] }),
      ],
      sitemap: null,
    });
    expect(two).toEqual([]);
    const mixed = sourceLanguages({
      page: none,
      contentLanguage: undefined,
      feeds: [
        feed({
          item_titles: [
            'Правительство объявило о новой программе поддержки',
            'Le gouvernement annonce une nouvelle réforme des retraites',
            'Die Regierung kündigt eine neue Rentenreform an',
            '政府が新しい経済対策を発表しました',
          ],
        }),
      ],
      sitemap: null,
    });
    expect(mixed).toEqual([]);
  });

  it("without feed or sitemap titles that tell, the homepage's title and headlines are detected", () => {
    const none = readPageSignals('<html><head></head></html>');
    const pageTitles = [
      'Главные новости дня и последние события',
      'Правительство объявило о новой программе поддержки',
      'Учёные обнаружили новый вид глубоководных рыб',
      'В городе открылась выставка современного искусства',
    ];
    expect(
      sourceLanguages({ page: none, contentLanguage: undefined, feeds: [], sitemap: null, pageTitles }),
    ).toEqual([{ code: 'ru', sources: ['detected'], confidence: 1 }]);
    // Feed titles that tell come first; the page's are read only when they do not.
    const french = feed({
      item_titles: [
        'Le gouvernement annonce une nouvelle réforme des retraites',
        'Les chercheurs découvrent une nouvelle espèce de poisson',
        'La ville ouvre une exposition consacrée à l’art moderne',
      ],
    });
    expect(
      sourceLanguages({
        page: none,
        contentLanguage: undefined,
        feeds: [french],
        sitemap: null,
        pageTitles,
      })[0]?.code,
    ).toBe('fr');
    // A declared language still wins over both.
    expect(
      sourceLanguages({
        page: readPageSignals('<html lang="en"><head></head></html>'),
        contentLanguage: undefined,
        feeds: [],
        sitemap: null,
        pageTitles,
      }),
    ).toEqual([{ code: 'en', sources: ['html_lang'] }]);
  });

  it("last, a stretch of the homepage's running text: only when titles and headlines do not tell, and long enough", () => {
    const none = readPageSignals('<html><head></head></html>');
    const pageText =
      'Die Stadtverwaltung hat am Dienstag neue Pläne für den Ausbau des öffentlichen Nahverkehrs vorgestellt. ' +
      'Demnach sollen bis zum Jahr 2030 drei neue Straßenbahnlinien entstehen, die vor allem die Außenbezirke ' +
      'besser mit der Innenstadt verbinden. Die Kosten werden auf rund 400 Millionen Euro geschätzt.';
    const read = (input: { pageText: string; pageTitles?: string[] }) =>
      sourceLanguages({ page: none, contentLanguage: undefined, feeds: [], sitemap: null, ...input });
    expect(read({ pageText })).toEqual([{ code: 'de', sources: ['detected'], confidence: 0.6 }]);
    // Two headlines are too few to tell: the text decides.
    expect(read({ pageText, pageTitles: ['Breaking news today', 'Weather for the weekend'] })[0]?.code).toBe(
      'de',
    );
    // Headlines that tell come first.
    const pageTitles = [
      'Government announces a new pension reform plan',
      'Scientists discover a new species of deep sea fish',
      'The city opens an exhibition of modern art',
    ];
    expect(read({ pageText, pageTitles })[0]?.code).toBe('en');
    // A cookie banner's worth of text says nothing.
    expect(read({ pageText: 'Wir verwenden Cookies. Akzeptieren' })).toEqual([]);
  });

  it('reads the title and the running text together when neither is enough alone (a front of a few words)', () => {
    const none = readPageSignals('<html><head></head></html>');
    const read = (pageTitles: string[], pageText: string) =>
      sourceLanguages({
        page: none,
        contentLanguage: undefined,
        feeds: [],
        sitemap: null,
        pageTitles,
        pageText,
      });
    // A single title is too few headlines and the text too short to read, but they are one page's words
    // (the sixteenth set's zostream.com: a long English title over a footer of links).
    const title =
      'ZoStream - apps for bringing out the best in people - Our goal is to help people build meaningful relationships';
    expect(read([title], 'help • privacy policy • terms of use')).toEqual([
      { code: 'en', sources: ['detected'], confidence: expect.any(Number) },
    ]);
    // Together still short (a name and a banner): nothing.
    expect(read(['Privat24'], 'Akzeptieren')).toEqual([]);
  });

  it("puts the page's words before a lone template <html lang> they contradict, and only then", () => {
    const german =
      'Die Stadtverwaltung hat am Dienstag neue Pläne für den Ausbau des öffentlichen Nahverkehrs vorgestellt. ' +
      'Demnach sollen bis zum Jahr 2030 drei neue Straßenbahnlinien entstehen, die vor allem die Außenbezirke ' +
      'besser mit der Innenstadt verbinden. Die Kosten werden auf rund 400 Millionen Euro geschätzt. ';
    const read = languagesOfPage;
    const template = '<html lang="en-US"><head></head></html>';
    const long = german.repeat(4);
    expect(read(template, long)).toEqual([
      { code: 'de', sources: ['detected'], confidence: 0.6 },
      { code: 'en-us', sources: ['html_lang'] },
    ]);
    // Short text alone does not overrule the tag; headlines that read the same do.
    expect(read(template, german)[0]?.code).toBe('en-us');
    const headlines = [
      'Neue Straßenbahnlinien für die Stadt',
      'Der Haushalt für das nächste Jahr steht',
      'Wetter: Am Wochenende wird es kalt',
    ];
    expect(read(template, german, headlines)[0]?.code).toBe('de');
    // Headlines in the declared language keep it; a tag other than English needs them to agree with the text.
    expect(
      read(template, long, [
        'Government announces a new pension plan',
        'Scientists find a new deep sea fish',
        'The city opens a new art museum',
      ])[0]?.code,
    ).toBe('en-us');
    expect(read('<html lang="fr"><head></head></html>', long)[0]?.code).toBe('fr');
    // Eight or more headlines agreeing on another language outvote a template's English, whatever the text sample
    // read; three do not.
    const spanish = [
      'El gobierno presenta un nuevo plan de pensiones',
      'Las lluvias provocan inundaciones en el norte del país',
      'El banco central mantiene los tipos de interés',
      'Científicos descubren una nueva especie de pez',
      'El ayuntamiento aprueba el presupuesto de la biblioteca',
      'El equipo local gana el campeonato nacional',
      'Suben los precios de la vivienda en la capital',
      'Miles de personas celebran la fiesta del pueblo',
    ];
    const english =
      'The council met on Tuesday to discuss the new budget for the coming year and its plans. '.repeat(12);
    expect(read(template, english, spanish)[0]).toMatchObject({ code: 'es', sources: ['detected'] });
    expect(read(template, english, spanish.slice(0, 3))[0]?.code).toBe('en-us');
    expect(read('<html lang="de"><head></head></html>', english, spanish)[0]?.code).toBe('de');
    // A second declaration, or a language ELD confuses with the declared one, keeps the declaration.
    expect(
      read('<html lang="en"><head><meta http-equiv="Content-Language" content="en"></head></html>', long)[0]
        ?.code,
    ).toBe('en');
    const danish =
      'Regeringen har i dag fremlagt en ny plan for den offentlige transport i hovedstaden. '.repeat(15);
    expect(read('<html lang="nb"><head></head></html>', danish)[0]?.code).toBe('nb');
  });

  it("settles a pair ELD cannot tell apart from the page's Open Graph locale, where the words override a template's tag", () => {
    // Indonesian with none of the words either language spells its own way: ELD reads Malay (tempo.co's shape).
    const words =
      'Pemerintah daerah mengumumkan rencana pembangunan jalan baru di kawasan utara kota. Warga menyambut baik rencana tersebut dan berharap pembangunan segera dimulai tahun depan. '.repeat(
        8,
      );
    const read = (head: string) =>
      languagesOfPage(`<html lang="en"><head>${head}</head></html>`, words)[0]?.code;
    expect(read('<meta property="og:locale" content="id_ID">')).toBe('id');
    expect(read('')).toBe('ms');
    // A locale of another language says nothing of the pair.
    expect(read('<meta property="og:locale" content="en_US">')).toBe('ms');
  });

  it('reads text in another script than English over a template’s English however short, and close pairs by the text', () => {
    const read = (html: string, pageText: string, pageTitles: string[] = []) =>
      languagesOfPage(html, pageText, pageTitles)[0]?.code;
    const template = '<html lang="en-us"><head></head></html>';
    // A Thai front under a theme's lang="en-us", some 300 characters of it (joylada.com's shape): the script decides.
    const thai = 'นิยายแปลสุดฮิต อัปเดท 7 วันล่าสุด เพิ่มเติม ข้ามกาลบันดาลรัก หอหมื่นอักษร ชายาเคียงหทัย เรียนออนไลน์ '.repeat(
      3,
    );
    expect(thai.length).toBeLessThan(1000);
    expect(read(template, thai)).toBe('th');
    // Latin-script text that short still does not overrule the tag.
    const german =
      'Die Stadtverwaltung hat am Dienstag neue Pläne für den Ausbau des Nahverkehrs vorgestellt. '.repeat(3);
    expect(read(template, german)).toBe('en-us');
    // Headlines read as Malay, the text (which spells Indonesian's own words) as Indonesian: a close pair agrees, and
    // the longer text tells it apart (metrotvnews.com's shape).
    const indonesian =
      'Presiden mengatakan vaksinasi bisa dimulai bulan depan karena vaksin sudah tiba. Menurut Menteri Kesehatan, polisi akan membantu distribusi ke seluruh provinsi. Masyarakat diminta tetap mematuhi protokol kesehatan. '.repeat(
        3,
      );
    const headlines = [
      'Kerajaan umum bantuan baharu untuk rakyat',
      'Hujan lebat banjir di beberapa kawasan',
      'Pasukan negeri menang perlawanan akhir',
    ];
    expect(read('<html lang="en"><head></head></html>', indonesian, headlines)).toBe('id');
  });

  it('puts first the hreflang alternate the words read as, when alternates are all a page declares', () => {
    const alternates =
      '<html><head><link rel="alternate" hreflang="en" href="https://x.example/en/">' +
      '<link rel="alternate" hreflang="uk" href="https://x.example/uk/">' +
      '<link rel="alternate" hreflang="ru" href="https://x.example/"></head></html>';
    const russian = linguaRuns('ru', 20)[0] as string;
    const read = (html: string, text: string) => languagesOfPage(html, text).map((l) => l.code);
    expect(read(alternates, russian)).toEqual(['ru', 'en', 'uk']);
    expect(languagesOfPage(alternates, russian)[0]?.sources).toEqual(['hreflang', 'detected']);
    // Words in none of the alternates, or a lang beside them, leave the order as declared.
    expect(read(alternates, linguaRuns('de', 20)[0] as string)).toEqual(['en', 'uk', 'ru']);
    expect(read(alternates.replace('<html>', '<html lang="en">'), russian)[0]).toBe('en');
  });

  it('reads the languages ELD does not know from their words, over a template’s English and with nothing declared', () => {
    // Twenty of Lingua's test sentences each (test/fixtures/languages/lingua-sentences/SOURCES.md).
    const text = (code: string) => linguaRuns(code, 20)[0] as string;
    const read = (html: string, pageText: string, pageTitles: string[] = []) =>
      languagesOfPage(html, pageText, pageTitles)[0]?.code;
    // A theme's lang="en" with its own en-ZA alternate, over a Zulu paper (isolezwe.co.za's shape).
    const template =
      '<html lang="en"><head><link rel="alternate" hreflang="en-za" href="https://x.example/"></head></html>';
    expect(read(template, text('zu'))).toBe('zu');
    expect(read(template, text('xh'))).toBe('xh');
    // Nothing declared: the words come before titles ELD would read as another language.
    expect(
      read('<html><head></head></html>', text('sw'), [
        'Watu 18 wanaswa kwa makosa',
        'Serikali yatangaza mpango',
        'Timu yashinda',
      ]),
    ).toBe('sw');
    expect(read('<html><head></head></html>', text('af'))).toBe('af');
    // A second language declared, or a declaration from outside the template, keeps the declaration.
    expect(
      read(
        '<html lang="en"><head><link rel="alternate" hreflang="fr" href="https://x.example/fr"></head></html>',
        text('zu'),
      ),
    ).toBe('en');
    expect(
      read(
        '<html lang="en"><head><meta http-equiv="Content-Language" content="en"></head></html>',
        text('zu'),
      ),
    ).toBe('en');
  });

  it('indexes each code and its primary subtag for the list filter', () => {
    expect(
      languageIndex([
        { code: 'fr-ca', sources: ['html_lang'] },
        { code: 'en', sources: ['feed'] },
      ]),
    ).toBe(',en,fr,fr-ca,');
    expect(languageIndex([])).toBeNull();
  });
});

describe('TDMRep', () => {
  it('parses rules, ignoring entries without a location', () => {
    const rules = parseTdmRep(
      '\uFEFF[{"location":"/a/*","tdm-reservation":1,"tdm-policy":"https://x/p"},{"tdm-reservation":1},{"location":"/","tdm-reservation":"0"}]',
    );
    expect(rules).toEqual([
      { location: '/a/*', reservation: true, policy: 'https://x/p' },
      { location: '/', reservation: false, policy: null },
    ]);
    expect(parseTdmRep('{"location":"/"}')).toBeNull();
    expect(parseTdmRep('<html>')).toBeNull();
  });

  it.each([
    ['/', '/', true],
    ['/', '/news/x', true],
    ['/news/*', '/news/x', true],
    ['/news/*', '/sport/x', false],
    ['*.pdf$', '/a/b.pdf', true],
    ['*.pdf$', '/a/b.pdf.html', false],
    ['news', '/news/x', true],
  ])('location %j matches %j: %s', (location, path, expected) => {
    expect(tdmLocationMatches(location, path)).toBe(expected);
  });

  it('matches a location too long for a RegExp, and one with a `$` inside, without throwing', () => {
    // Found by the page-content fuzzer: a 50 KB location made `new RegExp` throw "too large", failing the domain.
    const long = `/${'a'.repeat(50_000)}`;
    expect(tdmLocationMatches(long, '/')).toBe(false);
    expect(tdmLocationMatches(long, long)).toBe(true);
    expect(tdmLocationMatches(`/${'*a'.repeat(5_000)}$`, `/${'a'.repeat(4_000)}b`)).toBe(false);
    expect(tdmLocationMatches('/a$b', '/a$b/c')).toBe(true);
  });

  it('the first matching rule speaks for a URL', () => {
    const rules = parseTdmRep(
      '[{"location":"/free/*","tdm-reservation":0},{"location":"/","tdm-reservation":1}]',
    )!;
    expect(tdmRuleFor(rules, 'https://a.example/free/x')?.reservation).toBe(false);
    expect(tdmRuleFor(rules, 'https://a.example/')?.reservation).toBe(true);
  });
});

describe('readAiPolicy', () => {
  const entryUrl = 'https://a.example/';
  const base = { entryUrl, headers: {}, page: null, tdmrep: null };

  it('a robots.txt that keeps everyone out keeps the AI crawlers out too', () => {
    const robots = parseRobots('https://a.example/robots.txt', 'User-agent: *\nDisallow: /\n');
    const ai = readAiPolicy({ ...base, robots });
    expect(ai.status).toBe('disallowed');
    expect(ai.allowed_agents).toEqual([]);
    expect(ai.named).toEqual([]);
  });

  it('an agent disallowed only below the entry path is allowed on it', () => {
    const robots = parseRobots('https://a.example/robots.txt', 'User-agent: GPTBot\nDisallow: /archive/\n');
    const ai = readAiPolicy({ ...base, robots });
    expect(ai.disallowed_agents).toEqual([]);
    expect(ai.named).toEqual([{ agent: 'GPTBot', allowed: true, line: null }]);
  });

  it('X-Robots-Tag with a bot name still counts, and tdm-reservation 0 says rights are not reserved', () => {
    const robots = parseRobots('https://a.example/robots.txt', '');
    const ai = readAiPolicy({
      ...base,
      robots,
      headers: { 'x-robots-tag': 'otherbot: noimageai, noarchive', 'tdm-reservation': '0' },
    });
    expect(ai).toMatchObject({ noai: false, noimageai: true, tdm_reservation: false, tdm_source: 'header' });
    expect(ai.status).toBe('allowed');
  });
});
