import { describe, expect, it } from 'vitest';
import { readFeed } from '../../../src/engine/feed-content.js';
import { sourceLanguages } from '../../../src/engine/languages.js';
import { languageList, normaliseLanguageTag, readPageSignals } from '../../../src/engine/page-signals.js';
import { SitemapAggregator } from '../../../src/engine/sitemap-aggregates.js';

describe('normaliseLanguageTag', () => {
  it.each([
    ['en', 'en'],
    ['de-AT', 'de-at'],
    ['zh-Hant-TW', 'zh-hant-tw'],
    ['sr_Latn', 'sr-latn'],
    ['pt-BR', 'pt-br'],
    ['es-419', 'es-419'],
    // Three-letter ISO 639 codes of languages people publish in.
    ['fil', 'fil'],
    ['haw', 'haw'],
    ['yue', 'yue'],
    ['gsw', 'gsw'],
    // Deprecated codes are still languages; they are kept as written, not canonicalised.
    ['iw', 'iw'],
  ])('keeps the language %j as %j', (value, tag) => {
    expect(normaliseLanguageTag(value)).toBe(tag);
  });

  it.each([
    // A charset, a MIME type or a word where a language tag belongs: the shape is a tag's, the language is none.
    'utf-8',
    'utf',
    'text',
    'html',
    'iso',
    'iso-8859-1',
    'text/html; charset=utf-8',
    // Codes that name no language, and private-use ones.
    'und',
    'mul',
    'zxx',
    'mis',
    'qaa',
    // Tags ICU's BCP 47 parser refuses (an extlang, a grandfathered tag).
    'zh-yue',
    'en-gb-oed',
    'x-default',
    '',
    'en-',
    `en-${'a'.repeat(100)}`,
    'x'.repeat(100_000),
  ])('refuses %j', (value) => {
    expect(normaliseLanguageTag(value)).toBeNull();
  });

  it('keeps only the real languages of a Content-Language list', () => {
    expect(languageList('utf-8, de, EN-us,de')).toEqual(['de', 'en-us']);
    expect(languageList('text/html; charset=utf-8')).toEqual([]);
  });
});

describe('a Content-Language that is not a language', () => {
  it('is no language in the page, the header, a feed or a news sitemap', () => {
    const page = readPageSignals(
      '<html lang="utf-8"><head><meta http-equiv="Content-Language" content="utf-8">' +
        '<link rel="alternate" hreflang="html" href="/x"></head></html>',
    );
    expect(page).toMatchObject({ html_lang: null, meta_content_language: [], hreflang: [] });
    const feed = readFeed(
      Buffer.from(
        '<rss version="2.0"><channel><title>T</title><link>https://a.test/</link><language>utf-8</language></channel></rss>',
      ),
      null,
    );
    expect(feed?.language).toBeNull();
    const sitemap = new SitemapAggregator({ now: new Date(0), newsWindowDays: 2 });
    sitemap.add({
      loc: 'https://a.test/story',
      lastmod: null,
      news: { publication_date: null, title: null, language: 'iso', name: null },
      hreflang: ['text'],
    });
    const languages = sourceLanguages({
      page,
      contentLanguage: 'utf-8',
      feeds: [],
      sitemap: sitemap.snapshot(),
    });
    expect(languages).toEqual([]);
  });

  it('does not hide the real language beside it', () => {
    const languages = sourceLanguages({
      page: readPageSignals(
        '<html lang="fr"><head><meta http-equiv="Content-Language" content="utf-8"></head>',
      ),
      contentLanguage: 'utf-8, fr',
      feeds: [],
      sitemap: null,
    });
    expect(languages).toEqual([{ code: 'fr', sources: ['html_lang', 'content_language'] }]);
  });
});
