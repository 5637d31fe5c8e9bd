import { describe, expect, it } from 'vitest';
import { judgeNews, type NewsInput } from '../../../src/engine/news-verdict.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';
import {
  generatorKind,
  newsroomName,
  newsSelfDescription,
  publicBodyName,
  siteNameOf,
} from '../../../src/engine/site-kind-signals.js';

function input(host: string, html: string): NewsInput {
  return {
    host,
    registrableDomain: host,
    homepage: readPageFacts(html, `https://${host}/`),
    articles: [],
    sitemap: null,
    feeds: [],
    now: new Date('2026-11-26T12:00:00Z'),
  };
}

/**
 * 20 dated links, two sections and a byline: news from the page alone (article_links_some + sections_two + bylines;
 * without the byline a front page's layout alone stays maybe, layout_only_front).
 */
const LISTING = `<nav><a href="/politics">Politics</a><a href="/world">World</a></nav><p class="byline">By Ann Lee</p>${Array.from(
  { length: 20 },
  (_, i) => `<a href="/2026/11/${10 + (i % 15)}/a-story-about-topic-${i}">Story ${i} headline</a>`,
).join('')}`;
const signals = (v: ReturnType<typeof judgeNews>) => v.reasons.map((r) => r.signal);

describe('site kind signals', () => {
  it('reads the generator meta and sorts what made the site', () => {
    expect(
      readPageFacts('<meta name="generator" content="MediaWiki 1.35.0">', 'https://w.example/').generator,
    ).toEqual(['MediaWiki 1.35.0']);
    expect(generatorKind(['MediaWiki 1.35.0'])).toEqual({ kind: 'wiki', generator: 'MediaWiki 1.35.0' });
    expect(generatorKind(['Docusaurus v3.1'])?.kind).toBe('docs');
    expect(generatorKind(['Sphinx 7.2.6'])?.kind).toBe('docs');
    expect(generatorKind(['Hugo 0.120.0'])?.kind).toBe('blog');
    expect(generatorKind(['Government Site Builder'])?.kind).toBe('public_body');
    for (const cms of [
      'InterRed V15.4.1',
      'fCMS by fidion GmbH, Wuerzburg',
      'Tempest - www.saymedia.com',
      'Escenic',
    ])
      expect(generatorKind([cms])?.kind, cms).toBe('newsroom');
    for (const neutral of ['WordPress 6.5', 'Drupal 10', 'TYPO3 CMS', 'Ghost 5.0', 'Joomla!'])
      expect(generatorKind([neutral]), neutral).toBeNull();
    expect(generatorKind(null as unknown as string[])).toBeNull();
  });

  it('counts a wiki engine and a documentation tool against news', () => {
    const plain = judgeNews(input('wiki.example', LISTING));
    expect(plain.verdict).toBe('news');
    const wiki = judgeNews(
      input('wiki.example', `<meta name="generator" content="MediaWiki 1.41">${LISTING}`),
    );
    expect(signals(wiki)).toContain('wiki_generator');
    expect(wiki.verdict).not.toBe('news');
    const docs = judgeNews(input('docs.example', `<meta name="generator" content="mkdocs-1.5.3">${LISTING}`));
    expect(signals(docs)).toContain('docs_generator');
    expect(docs.verdict).not.toBe('news');
    const blog = judgeNews(input('blog.example', `<meta name="generator" content="Jekyll v4.3">${LISTING}`));
    expect(blog.reasons.find((r) => r.signal === 'blog_generator')?.weight).toBe(-0.7);
    expect(blog.score).toBeLessThan(plain.score);
  });

  it('finds the site name in og:site_name or the last part of the title', () => {
    expect(siteNameOf('Umweltbundesamt', 'x')).toBe('Umweltbundesamt');
    expect(siteNameOf(null, 'Arbeitsmarkt 2022 - Bundesagentur für Arbeit')).toBe('Bundesagentur für Arbeit');
    // A title without a separator is a headline, not a name.
    expect(siteNameOf(null, 'Ministry of Health warns of flu')).toBeNull();
  });

  it('counts a site named after a public body, or built with a government CMS, against news', () => {
    for (const name of [
      'Umweltbundesamt',
      'Ministry of Defence',
      'Stadt Stuttgart',
      'Ministère de la Culture',
      'Site internet de la ville de Corbeil-Essonnes',
      'Comune di Bologna',
      'Ayuntamiento de Madrid',
      'Prefeitura de São Paulo',
      'Gemeente Utrecht',
      'Urząd Miasta Krakowa',
      'Leeds City Council',
    ])
      expect(publicBodyName(name, null), name).toBe(name);
    // From a title, as a town's site writes it (corbeil-essonnes.fr, test/fixtures/real-pages-tenth).
    expect(publicBodyName(null, 'Corbeil-Essonnes – Site internet de la ville de Corbeil-Essonnes')).toBe(
      'Site internet de la ville de Corbeil-Essonnes',
    );
    for (const name of [
      'news.ORF.at',
      'Anadolu Agency',
      'Orange County Register',
      'The Daily Ministry Times',
      'Le Journal de la Ville',
      'Council Bluffs Nonpareil',
    ])
      expect(publicBodyName(name, null), name).toBe(name === 'The Daily Ministry Times' ? name : null);
    const named = judgeNews(
      input('umwelt.example', `<meta property="og:site_name" content="Umweltbundesamt">${LISTING}`),
    );
    expect(signals(named)).toContain('public_body_site');
    expect(named.verdict).not.toBe('news');
    const cms = judgeNews(
      input('zoll.example', `<meta name="generator" content="Government Site Builder">${LISTING}`),
    );
    expect(cms.reasons.find((r) => r.signal === 'public_body_site')?.evidence).toContain(
      'Government Site Builder',
    );
    expect(cms.verdict).not.toBe('news');
    // A .gov host already says so: counted once.
    const gov = judgeNews(
      input('agency.gov', `<meta property="og:site_name" content="Department of Energy">${LISTING}`),
    );
    expect(signals(gov).filter((s) => s.startsWith('public_body'))).toEqual(['public_body_host']);
  });

  it('counts a newspaper word in the domain or the site name weakly for news', () => {
    expect(newsroomName('ilanganews.co.za', null, null)).toContain('"news" in ilanganews.co.za');
    expect(newsroomName('boersen-zeitung.de', null, null)).toContain('zeitung');
    expect(newsroomName('example.com', 'The Daily Courier', null)).toContain('Daily');
    expect(newsroomName('example.com', null, 'A headline - Seattle Times')).toContain('Times');
    // Whole words only in names, and no name in a headline without a separator.
    for (const [domain, site, title] of [
      ['postlight.com', 'Postlight — Digital Strategy', null],
      ['wordpress.com', 'Literaturgefluester', null],
      ['example.com', null, 'Breaking news about the times'],
    ] as const)
      expect(newsroomName(domain, site, title), domain).toBeNull();
    // Newspaper words in other languages and scripts, agencies named in their own language; compounds without spaces.
    for (const [domain, site, title] of [
      ['ria.ru', 'РИА Новости', null],
      ['example.ua', 'Інформаційне агентство Укрінформ', null],
      ['hibya.com', 'Hibya Haber Ajansı', null],
      ['example.id', 'Berita Satu', null],
      ['asahi.com', '朝日新聞デジタル', null],
      ['yna.co.kr', '연합뉴스', null],
      ['chosun.com', null, '정치 | 조선일보'],
      ['khaosod.co.th', 'ข่าวสด', null],
      ['prothomalo.com', null, 'প্রথম আলো - বাংলা সংবাদ'],
      ['example.rs', 'Novosti - Vesti', null],
      ['novosti.rs', null, null],
      ['dagens-nyheder.dk', null, null],
    ] as const)
      expect(newsroomName(domain, site, title), `${domain} ${site ?? title}`).not.toBeNull();
    // Not a newspaper: a haberdasher, an investment firm, a city of the Russian Far East, a research institute, a
    // university's bulletin.
    for (const [domain, site, title] of [
      ['haberdashery.example', null, null],
      ['investimenti.example', null, null],
      ['khabarovsk.ru', 'Правительство Хабаровского края', null],
      ['fhi.mpg.de', 'Fritz-Haber-Institut der Max-Planck-Gesellschaft', null],
      ['vestnik.example', 'Вестник Московского университета', null],
    ] as const)
      expect(newsroomName(domain, site, title), domain).toBeNull();
    const html =
      '<meta property="og:type" content="article"><meta property="article:published_time" content="2026-11-25T08:00:00Z">';
    const named = judgeNews(input('dailynews.example', html));
    expect(named.reasons.find((r) => r.signal === 'newsroom_name')?.weight).toBe(0.5);
    expect(named.score).toBeGreaterThan(judgeNews(input('acme.example', html)).score);
  });
});

describe('hosted blog services', () => {
  const post = (assets: string) => `<head>${assets}
    <script type="application/ld+json">{"@context":"https://schema.org","@type":"NewsArticle","headline":"On gardens",
    "datePublished":"2026-11-20T08:00:00Z","author":{"@type":"Person","name":"Ann Lee"}}</script></head>
    <body><p class="byline">By Ann Lee</p><p>Text</p></body>`;

  it.each([
    ['<script src="https://substackcdn.com/bundle/main.2817.js"></script>', 'Substack'],
    ['<link rel="stylesheet" href="https://substackcdn.com/bundle/theme/main.css">', 'Substack'],
    ['<script src="https://assets.over-blog-kiwi.com/b/blog/v2023/build/main.js"></script>', 'Over-blog'],
    [
      '<link rel="stylesheet" href="https://www.blogger.com/static/v1/widgets/2975350028-css_bundle_v2.css">',
      'Blogger',
    ],
  ])('knows %s as a hosted blog service’s own asset', (assets, name) => {
    expect(readPageFacts(post(assets), 'https://gardens.example/p/on-gardens').hosted_blog).toBe(name);
  });

  it("counts a newsletter template's NewsArticle at 0 and the service as a blog's, with the evidence", () => {
    const hosted = judgeNews(
      input('gardens.example', post('<script src="https://substackcdn.com/bundle/main.js"></script>')),
    );
    const schema = hosted.reasons.find((r) => r.signal === 'news_schema');
    expect(schema?.weight).toBe(0);
    expect(schema?.evidence).toContain("Substack's template declares it on every post");
    expect(hosted.reasons.find((r) => r.signal === 'blog_generator')?.evidence).toContain('Substack');
    // The same post on a site of its own keeps its markup's weight.
    const own = judgeNews(input('gardens.example', post('')));
    expect(own.reasons.find((r) => r.signal === 'news_schema')?.weight).toBe(2);
    expect(hosted.score).toBeLessThan(own.score);
  });

  it("does not read a newsroom embedding a newsletter's sign-up box, or a link to a blog, as a hosted blog", () => {
    for (const html of [
      '<script src="https://substack.com/embedjs/embed.js"></script>',
      '<a href="https://substackcdn.com/bundle/x.js">file</a><img src="https://substackcdn.com/image/fetch/a.png">',
      '<script src="https://www.blogger.com/feeds/123/posts/default?alt=json"></script>',
    ])
      expect(readPageFacts(html, 'https://paper.example/').hosted_blog, html).toBeNull();
  });
});

describe("a front page's own description", () => {
  it.each([
    ['Últimas noticias de Puebla y México', null],
    [null, 'Nachrichten aus Berlin, Brandenburg und der Welt'],
    ['Новости Республики Коми', null],
    ['Yahoo! JAPAN', 'ニュース、天気、メール'],
    ['Prothom Alo', 'বাংলা সংবাদ'],
    // Latvian and Lithuanian (la.lv, f-1.lt), Estonian, Albanian, Icelandic, Irish, Welsh.
    ['LA.LV | Ziņu portāls Latvijai', null],
    [null, 'Viskas apie „Formulę-1“ lietuvių kalba. Naujienos, straipsniai, nuotraukos'],
    ['Eesti uudised', null],
    ['Lajme nga Kosova', null],
    ['Fréttir dagsins', null],
    ['Nuacht as Gaeilge', null],
    ['Newyddion Cymru', null],
    // Languages of the Caucasus, Central and South Asia, the Horn and West Africa (no labelled page yet).
    ['ახალი ამბები საქართველოდან', null],
    ['Լուրեր Հայաստանից', null],
    ['Son xəbərlər', null],
    ['Тәулік жаңалықтары', null],
    ['Ташкент - Yangiliklar', null],
    ['తాజా తెలుగు వార్తలు', null],
    ['தமிழ் செய்திகள்', null],
    ['ਪੰਜਾਬੀ ਖ਼ਬਰਾਂ', null],
    ['ताज्या बातम्या', null],
    ['ព័ត៌មានជាតិ', null],
    ['Labarai daga Najeriya', null],
  ])('reads news in the title %s or the description %s', (title, description) => {
    expect(newsSelfDescription(title, description)).not.toBeNull();
  });

  it.each([
    ['Menú diario y comida casera', 'Restaurante en Sevilla'],
    ['Votre partenaire au quotidien', 'Actualités de notre entreprise et de nos produits'],
    ['Journal of Applied Physics', null],
    ['Daily deals on shoes', null],
    ['Sin haber visto nada', null],
  ])('reads no news in the title %s or the description %s', (title, description) => {
    expect(newsSelfDescription(title, description)).toBeNull();
  });

  it('weighs it only on the front page, as a newsroom sign, with the words as evidence', () => {
    const html =
      '<title>Diario de Xalapa - Noticias de Veracruz</title>' +
      Array.from(
        { length: 20 },
        (_, i) => `<a href="/local/story-about-the-city-council-vote-${i}">Story ${i}</a>`,
      ).join('');
    const front = judgeNews(input('xalapa.example', html));
    const reason = front.reasons.find((r) => r.signal === 'news_self_description');
    expect(reason?.weight).toBe(0.5);
    expect(reason?.evidence).toContain('"Noticias" in the front page\'s title');
    expect(front.reasons.map((r) => r.signal)).not.toContain('no_newsroom_sign');
    const article = judgeNews({
      ...input('xalapa.example', html),
      homepage: readPageFacts(html, 'https://xalapa.example/local/a-story'),
    });
    expect(article.reasons.map((r) => r.signal)).not.toContain('news_self_description');
  });

  it('reads the first of the meta description and og:description', () => {
    const html =
      '<meta name="description" content="Local news"><meta property="og:description" content="Other">';
    expect(readPageFacts(html, 'https://x.example/').description).toBe('Local news');
    expect(
      readPageFacts('<meta property="og:description" content="Og text">', 'https://x.example/').description,
    ).toBe('Og text');
  });
});
