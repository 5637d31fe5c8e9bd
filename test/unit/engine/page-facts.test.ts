import { describe, expect, it } from 'vitest';
import { readPageFacts, TEXT_SAMPLE_CHARS } from '../../../src/engine/page-facts.js';

const URL = 'https://www.news.example/';

describe('readPageFacts', () => {
  it('reads the head: title, languages, hreflang, og and article meta', () => {
    const facts = readPageFacts(
      `<html lang="de-AT"><head><title> Die Zeitung </title>
       <meta http-equiv="Content-Language" content="de-AT, en">
       <link rel="alternate" hreflang="en-GB" href="/en/">
       <meta property="og:type" content="article"><meta property="og:site_name" content="Die Zeitung">
       <meta property="article:published_time" content="2024-05-12T10:00:00Z">
       <meta name="author" content="Anna Muster"></head><body></body></html>`,
      URL,
    );
    expect(facts.title).toBe('Die Zeitung');
    expect(facts.html_lang).toBe('de-at');
    expect(facts.content_language).toEqual(['de-at', 'en']);
    expect(facts.hreflang).toEqual([{ lang: 'en-gb', url: 'https://www.news.example/en/' }]);
    expect(facts.og_type).toBe('article');
    expect(facts.og_site_name).toBe('Die Zeitung');
    expect(facts.published_time).toBe('2024-05-12T10:00:00Z');
    expect(facts.bylines).toContain('Anna Muster');
  });

  it('reads JSON-LD as data: @graph, type lists, publishers; malformed blocks are skipped', () => {
    const facts = readPageFacts(
      `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[
         {"@type":["NewsArticle","Article"],"datePublished":"2024-05-12","publisher":{"@type":"NewsMediaOrganization","name":"Daily Example"}},
         {"@type":"http://schema.org/WebPage"}]}</script>
       <script type="application/ld+json">{ this is not json</script>
       <script type="application/ld+json">[{"@type":"Recipe"}]</script>`,
      URL,
    );
    expect(facts.schema_types).toEqual([
      'NewsArticle',
      'Article',
      'NewsMediaOrganization',
      'WebPage',
      'Recipe',
    ]);
    expect(facts.publisher_names).toEqual(['Daily Example']);
    expect(facts.published_time).toBe('2024-05-12');
  });

  it('reads a JSON-LD block whose strings hold raw line breaks and tabs, as search engines do', () => {
    // As kuchynalidla.sk writes its recipe's ingredients (test/fixtures/real-pages-ninth): CR, LF and a tab inside
    // a string, which JSON forbids.
    const facts = readPageFacts(
      '<script type="application/ld+json">{"@context":"https://schema.org","@type":"Recipe",' +
        '"name":"Špízy","recipeIngredient":"Suroviny\r\r\n\r\r\nŠpízy\t200 g",' +
        '"datePublished":"2019-06-01"}</script>',
      URL,
    );
    expect(facts.schema_types).toEqual(['Recipe']);
    expect(facts.published_time).toBe('2019-06-01');
  });

  it('does not read a paywall CreativeWork+Product as a shop product', () => {
    const facts = readPageFacts(
      `<script type="application/ld+json">{"@type":"NewsArticle","isPartOf":{"@type":["CreativeWork","Product"]}}</script>`,
      URL,
    );
    expect(facts.schema_types).toEqual(['NewsArticle', 'CreativeWork']);
  });

  it('counts article links, keeps links absolute without fragments, and tells internal from external', () => {
    const facts = readPageFacts(
      `<a href="/2024/05/12/council-votes-budget#top">Council votes the budget for next year</a>
       <a href="https://news.example/world/story-12345678">World story</a>
       <a href="/about">About</a>
       <a href="https://other.example/2024/05/12/other-story">Elsewhere</a>
       <a href="javascript:void(0)">Menu</a><a href="http://[bad">Bad</a>`,
      URL,
    );
    expect(facts.links.map((l) => [l.url, l.internal])).toEqual([
      ['https://www.news.example/2024/05/12/council-votes-budget', true],
      ['https://news.example/world/story-12345678', true],
      ['https://www.news.example/about', true],
      ['https://other.example/2024/05/12/other-story', false],
    ]);
    expect(facts.article_links).toBe(2);
    expect(facts.other_internal_links).toBe(1);
    expect(facts.headlines).toEqual(['Council votes the budget for next year']);
  });

  it('resolves the links after a <base href> against it, the links before it against the page', () => {
    const facts = readPageFacts(
      `<head><link rel="alternate" hreflang="fr" href="fr/"><base href="https://www.news.example/edition/">
       <base href="https://ignored.example/"></head>
       <body><a href="2024/05/12/council-votes-budget">Council votes the budget</a>
       <a href="../about">About</a><a href="//other.example/x">Elsewhere</a></body>`,
      'https://www.news.example/a/b/page.html',
    );
    expect(facts.hreflang).toEqual([{ lang: 'fr', url: 'https://www.news.example/a/b/fr/' }]);
    expect(facts.links.map((l) => [l.url, l.internal])).toEqual([
      ['https://www.news.example/edition/2024/05/12/council-votes-budget', true],
      ['https://www.news.example/about', true],
      ['https://other.example/x', false],
    ]);
  });

  it('keeps the page as the base when <base href> is empty or unreadable', () => {
    const facts = readPageFacts(
      '<base href=""><base href="http://[bad"><a href="story-12345678">A story</a>',
      URL,
    );
    expect(facts.links.map((l) => l.url)).toEqual(['https://www.news.example/story-12345678']);
  });
  it('finds section navigation words in many languages, in menus and shallow links', () => {
    const facts = readPageFacts(
      `<nav><a href="/a">Politik</a><a href="/b">Wirtschaft</a><a href="/c">Sport</a></nav>
       <div class="main-menu"><a href="/x/y/z/w">国际</a></div>
       <a href="/deep/path/to/a/page">Économie</a><a href="/contact">Contact us</a>`,
      URL,
    );
    expect(Object.keys(facts.sections).sort()).toEqual(['economy', 'politics', 'sport', 'world']);
    expect(facts.sections['politics']).toEqual({ word: 'politik', core: true });
    // A politics desk's own beats name the section too.
    const beats = readPageFacts(
      `<nav><a href="/congress">Congress</a><a href="/2026">Elections</a></nav>`,
      URL,
    );
    expect(beats.sections['politics']).toEqual({ word: 'congress', core: true });
  });

  it('collects shop, recipe and parked signals', () => {
    const shop = readPageFacts(
      `<meta property="og:type" content="product"><meta property="product:price:amount" content="9.99">
       <button>Add to cart</button><a href="/cart">Cart</a>`,
      URL,
    );
    expect(shop.shop_signals).toEqual([
      'og:type product',
      'meta product:price:amount',
      'cart text: add to cart',
      'cart link: /cart',
    ]);
    const recipe = readPageFacts(
      `<div class="wprm-recipe-container">Ingredients … Prep Time 10 min</div>`,
      URL,
    );
    expect(recipe.recipe_signals).toEqual([
      'class wprm-recipe-container',
      'text "ingredients"',
      'text "prep time"',
    ]);
    const parked = readPageFacts(
      `<h1>This domain is for sale!</h1><a href="https://sedo.com/x">Buy</a>`,
      URL,
    );
    expect(parked.parked_signals).toEqual(['link to sedo.com', 'text "domain is for sale"']);
  });

  it('keeps a stretch of the running text from a fifth of the way in, whole words, scripts and styles left out', () => {
    const words = Array.from({ length: 3000 }, (_, i) => `word${i}`);
    const html = `<html><body><nav>Home News Sport</nav><script>var x = "code";</script><p>${words.join(' \n ')}</p></body></html>`;
    const sample = readPageFacts(html, 'https://example.com/').text_sample;
    expect(sample.length).toBeLessThanOrEqual(TEXT_SAMPLE_CHARS);
    expect(sample.length).toBeGreaterThan(TEXT_SAMPLE_CHARS - 20);
    expect(sample).not.toMatch(/Home|code|\s\s/);
    const first = Number(/^word(\d+)/.exec(sample)?.[1]);
    expect(first).toBeGreaterThan(400);
    expect(sample.split(' ').every((w) => /^word\d+$/.test(w))).toBe(true);
    // A short page: all of its text.
    expect(readPageFacts('<p>Kurzer   Text</p>', 'https://example.com/').text_sample).toBe('Kurzer Text');
  });

  it('keeps a word whole across character references, and parts words at tags', () => {
    // htmlparser2 hands the text over in pieces at every reference; itmedia.co.jp writes its Japanese that way.
    const facts = readPageFacts(
      '<p>Caf&eacute; in Z&uuml;rich</p><p>&#x6700;&#x65B0;&#x306E;SSD</p><p>one</p><p>two<br>three</p>',
      'https://example.com/',
    );
    expect(facts.text_sample).toBe('Café in Zürich 最新のSSD one two three');
  });

  it('finds bylines by rel=author, class names and "By" lines', () => {
    const facts = readPageFacts(
      `<a rel="author" href="/people/jane">Jane Doe</a><span class="c-byline">Max Muster</span><p>By John Smith</p>`,
      URL,
    );
    expect(facts.bylines).toEqual(['Jane Doe', 'Max Muster', 'By John Smith']);
  });

  it('takes a listing\'s "By Category" filter for no byline (tibet.net\'s front offers "By Content Type")', () => {
    const facts = readPageFacts(
      `<ul><li>By Category</li><li>By Content Type</li><li>By Date</li></ul><p>By Tenzin Dolma</p>`,
      URL,
    );
    expect(facts.bylines).toEqual(['By Tenzin Dolma']);
  });

  it("takes a recipe site's, a shop's or a vendor's filters and a shop's door hardware for no byline", () => {
    // Session 25: recipe sites' "By Course", a dealer's "By Brand", tractorsupply.com's "Door Hangers" (Dutch "door" = by).
    const facts = readPageFacts(
      `<ul><li>By Course</li><li>By Ingredient</li><li>By Brand</li><li>By Price</li><li>By Function</li>
      <li>By The Numbers</li><li>Door Hangers</li><li>Door Knobs</li><li>Door Pulls</li></ul>
      <p>By Priceline Staff</p><p>Door Jan Jansen</p><p>Door Redactie</p>`,
      URL,
    );
    expect(facts.bylines).toEqual(['By Priceline Staff', 'Door Jan Jansen', 'Door Redactie']);
  });

  it("takes neither a commenter's name nor a comment form's name field for a byline", () => {
    const facts = readPageFacts(
      `<span class="author">Max Muster</span><cite class="comment-author">Happy Reader</cite>
       <p class="comment-form-author"><label>Nama (wajib)</label></p>`,
      URL,
    );
    expect(facts.bylines).toEqual(['Max Muster']);
  });

  it('does not take a language picker for section navigation', () => {
    const facts = readPageFacts(
      `<nav><a href="/en">Global English</a><a href="/de">Deutsch</a><a href="/technology">Technology</a></nav>`,
      URL,
    );
    expect(Object.keys(facts.sections)).toEqual(['technology']);
  });

  it("does not take a privacy or cookie policy's link for the politics section, in any language", () => {
    const facts = readPageFacts(
      `<footer><a href="/p1">Política de privacidad</a><a href="/p2">Politique de confidentialité</a>
       <a href="/p3">Polityka prywatności</a><a href="/p4">Privatumo politika</a><a href="/p5">Politika privatnosti</a>
       <a href="/p6">Cookie policy</a><a href="/p7">Politica cookie</a></footer>
       <nav><a href="/politik">Politik</a></nav>`,
      URL,
    );
    expect(facts.sections).toEqual({ politics: { word: 'politik', core: true } });
  });

  it('reads og:locale, publication and modification times and the address the page states', () => {
    const facts = readPageFacts(
      `<meta property="og:locale" content="de_AT"><meta property="article:published_time" content="2024-05-12T08:00:00+02:00">
      <meta property="article:modified_time" content="2024-05-12T09:00:00+02:00"><meta name="geo.region" content="AT-9">
      <time datetime="2024-05-11T10:00:00+02:00">gestern</time><span itemprop="dateModified" content="2024-05-13"></span>
      <script type="application/ld+json">{"@type":"NewsArticle","dateModified":"2024-05-12T10:00:00+02:00",
        "publisher":{"@type":"Organization","address":{"@type":"PostalAddress","addressCountry":{"name":"Austria"}}}}</script>`,
      URL,
    );
    expect(facts.og_locale).toBe('de_AT');
    expect(facts.page_times).toEqual([
      '2024-05-12T08:00:00+02:00',
      '2024-05-12T09:00:00+02:00',
      '2024-05-11T10:00:00+02:00',
      '2024-05-13',
      '2024-05-12T10:00:00+02:00',
    ]);
    expect(facts.address_countries).toEqual(['AT', 'Austria']);
  });

  it("reads newsroom publishing meta, but not Yoast's article:section", () => {
    const facts = readPageFacts(
      `<meta name="news_keywords" content="a, b"><meta name="cXenseParse:pageclass" content="article">
      <meta name="parsely-title" content="x"><meta name="sailthru.date" content="2024"><meta property="article:section" content="Food">`,
      URL,
    );
    expect(facts.publisher_meta).toEqual(['news_keywords', 'cxenseparse', 'parsely', 'sailthru']);
  });

  it('reads meta written with value= instead of content= and og:article: keys', () => {
    const facts = readPageFacts(
      `<meta value="article" name="og:type"><meta value="2016-12-14T06:02:15Z" name="og:article:published_time">`,
      URL,
    );
    expect(facts.og_type).toBe('article');
    expect(facts.published_time).toBe('2016-12-14T06:02:15Z');
  });

  it('never throws on broken input and stays bounded on a 2 MB page', () => {
    for (const html of [
      '',
      '<',
      '<a href="%E0%A4%A">x</a>',
      `<a href="${'x'.repeat(100_000)}">`,
      '<<<>>>"\'',
      '<div'.repeat(10_000),
    ])
      expect(() => readPageFacts(html, 'not a url')).not.toThrow();
    const links = Array.from(
      { length: 20_000 },
      (_, i) => `<a href="/2024/05/12/story-number-${i}">Story ${i}</a>`,
    ).join('');
    const started = Date.now();
    const facts = readPageFacts(`<html>${links.padEnd(2_000_000, ' ')}</html>`, URL);
    expect(facts.links.length).toBe(400);
    expect(facts.article_links).toBe(5000);
    expect(Date.now() - started).toBeLessThan(5000);
  });
});
