import { describe, expect, it } from 'vitest';
import { parseSitemapDate, SitemapAggregator } from '../../../src/engine/sitemap-aggregates.js';
import {
  createSitemapReader,
  readSitemapText,
  type SitemapFileSummary,
  type SitemapPage,
} from '../../../src/engine/sitemap-reader.js';
import { hash64, UrlHashSet } from '../../../src/engine/url-hash-set.js';

function collect(text: string | Buffer, chunk = Number.POSITIVE_INFINITY) {
  const pages: SitemapPage[] = [];
  const children: string[] = [];
  const reader = createSitemapReader({ page: (p) => pages.push(p), child: (c) => children.push(c) });
  const bytes = Buffer.isBuffer(text) ? text : Buffer.from(text, 'utf8');
  const step = Math.min(chunk, bytes.length || 1);
  for (let at = 0; at < bytes.length; at += step) reader.write(bytes.subarray(at, at + step));
  const summary: SitemapFileSummary = reader.end();
  return { pages, locs: pages.map((p) => p.loc), children, summary };
}

const urls = (n: number, from = 0) =>
  Array.from({ length: n }, (_, i) => `<url><loc>https://a.example/page_${from + i}.html</loc></url>`).join(
    '\n',
  );

describe('the streaming sitemap reader', () => {
  it('keeps every whole entry of a urlset that never closes', () => {
    const { locs, summary } = collect(
      `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls(50)}`,
    );
    expect(locs).toHaveLength(50);
    expect(summary).toMatchObject({ kind: 'urlset', complete: false });
  });

  it('drops the entry a cut file leaves inside its <loc>', () => {
    const cut = `<urlset>${urls(49)}<url><loc>https://a.example/page_`;
    const { locs } = collect(cut);
    expect(locs).toHaveLength(49);
    expect(locs.at(-1)).toBe('https://a.example/page_48.html');
  });

  it('reads the same whatever the chunk boundaries, multi-byte characters included', () => {
    const doc = `<?xml version="1.0" encoding="UTF-8"?><urlset xmlns:news="http://www.google.com/schemas/sitemap-news/0.9">
      <url><loc>https://a.example/caf\u00e9/\u65e5\u672c</loc><lastmod>2024-05-01</lastmod>
      <news:news><news:publication><news:name>Le Caf\u00e9</news:name><news:language>fr</news:language></news:publication>
      <news:publication_date>2024-05-01T10:00:00+02:00</news:publication_date><news:title> Un  titre &amp; plus </news:title></news:news>
      <xhtml:link rel="alternate" hreflang="en" href="https://a.example/en"/></url></urlset>`;
    const whole = collect(doc);
    const byByte = collect(doc, 1);
    expect(byByte.pages).toEqual(whole.pages);
    expect(whole.pages).toEqual([
      {
        loc: 'https://a.example/caf\u00e9/\u65e5\u672c',
        lastmod: '2024-05-01',
        news: {
          name: 'Le Caf\u00e9',
          language: 'fr',
          publication_date: '2024-05-01T10:00:00+02:00',
          title: 'Un titre & plus',
        },
        hreflang: ['en'],
      },
    ]);
    expect(whole.summary.news).toBe(true);
  });

  it('refuses a document that declares entities, and expands none', () => {
    const laughs = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
      <urlset><url><loc>https://a.example/&lol2;</loc></url></urlset>`;
    expect(collect(laughs)).toMatchObject({ locs: [], summary: { kind: 'refused' } });
    // Without declarations, an unknown entity is left as written (never expanded, never fetched).
    const external = `<!DOCTYPE urlset SYSTEM "http://evil.example/x.dtd"><urlset><url><loc>https://a.example/&ext;</loc></url></urlset>`;
    expect(collect(external).locs).toEqual(['https://a.example/&ext;']);
  });

  it('decodes by the BOM or the XML declaration', () => {
    const latin1 = Buffer.from(
      '<?xml version="1.0" encoding="ISO-8859-1"?><urlset><url><loc>https://a.example/caf\u00e9</loc></url></urlset>',
      'latin1',
    );
    expect(collect(latin1).locs).toEqual(['https://a.example/caf\u00e9']);
    const utf16 = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('<urlset><url><loc>https://a.example/\u00fc</loc></url></urlset>', 'utf16le'),
    ]);
    expect(collect(utf16).locs).toEqual(['https://a.example/\u00fc']);
  });

  it('reads plain text line by line, skipping what is no URL', () => {
    const text = `\uFEFFhttps://a.example/1\r\n  https://a.example/2  \nnot a url\n\n${'x'.repeat(20_000)}\nhttps://a.example/3`;
    const { locs, summary } = collect(text, 7);
    expect(locs).toEqual(['https://a.example/1', 'https://a.example/2', 'https://a.example/3']);
    expect(summary.kind).toBe('text');
    expect(collect('Not found\n').summary.kind).toBe('unknown');
  });

  it('stops at an HTML page and calls it no sitemap', () => {
    const reader = createSitemapReader({ page() {}, child() {} });
    reader.write(Buffer.from('<!doctype html><html><body><url><loc>https://a.example/</loc></url>'));
    expect(reader.done).toBe(true);
    expect(reader.end()).toMatchObject({ kind: 'unknown', entries: 0 });
  });

  it('takes child locations however an index writes them, and no <loc> of an image', () => {
    const index = `<sitemapindex><sitemap><loc>https://a.example/1.xml</loc><loc>https://a.example/2.xml</loc></sitemap>
      <sitemap>  https://a.example/3.xml  </sitemap><sitemap><lastmod>2024-01-01</lastmod></sitemap></sitemapindex>`;
    expect(collect(index)).toMatchObject({
      children: ['https://a.example/1.xml', 'https://a.example/2.xml', 'https://a.example/3.xml'],
      summary: { kind: 'index', children: 3 },
    });
    const images =
      '<urlset><url><loc>https://a.example/p</loc><image:image><image:loc>https://a.example/i.jpg</image:loc></image:image></url></urlset>';
    expect(collect(images).locs).toEqual(['https://a.example/p']);
  });

  it('counts <url> entries for the string helper, as before', () => {
    expect(readSitemapText('<urlset><url><loc>x</loc></url><url/></urlset>')).toMatchObject({
      kind: 'urlset',
      entries: 2,
    });
  });
});

describe('sitemap dates', () => {
  it.each([
    ['2024', '2024-01-01T00:00:00.000Z'],
    ['2024-05', '2024-05-01T00:00:00.000Z'],
    ['2024-05-06', '2024-05-06T00:00:00.000Z'],
    ['2024-05-06T07:08+02:00', '2024-05-06T05:08:00.000Z'],
    ['2024-05-06T07:08:09.5Z', '2024-05-06T07:08:09.500Z'],
    ['2024-05-06 07:08:09', '2024-05-06T07:08:09.000Z'],
    ['2024-05-06T07:08:09-0130', '2024-05-06T08:38:09.000Z'],
    ['Thu, 05 Jan 2017 13:34:51 +0100', '2017-01-05T12:34:51.000Z'],
    ['Mon, 06 Sep 2010 00:01:00 GMT', '2010-09-06T00:01:00.000Z'],
  ])('%s → %s', (text, iso) => {
    expect(new Date(parseSitemapDate(text)!).toISOString()).toBe(iso);
  });

  it.each(['', 'yesterday', '05 Jan 17 13:34:55', '2024-13-01'])('%j is no date', (text) => {
    expect(parseSitemapDate(text)).toBeNull();
  });
});

describe('SitemapAggregator', () => {
  const NOW = new Date('2025-03-10T12:00:00Z');
  const page = (loc: string, extra: Partial<SitemapPage> = {}): SitemapPage => ({
    loc,
    lastmod: null,
    news: null,
    hreflang: [],
    ...extra,
  });
  const news = (date: string, language = 'en', title = 't') => ({
    publication_date: date,
    title,
    language,
    name: 'Daily',
  });

  it('counts distinct valid URLs; a fragment is the same page', () => {
    const agg = new SitemapAggregator({ now: NOW, newsWindowDays: 2 });
    for (const loc of [
      'https://a/1',
      'https://a/1',
      'https://a/1#top',
      'https://a/2',
      '/relative',
      'ftp://a/x',
      'https://a/ b',
    ])
      agg.add(page(loc));
    expect(agg.snapshot()).toMatchObject({ entries: 7, invalid: 3, distinct: 2 });
  });

  it('measures lastmod and news dates against now, and only once per URL', () => {
    const agg = new SitemapAggregator({ now: NOW, newsWindowDays: 2 });
    agg.add(page('https://a/1', { lastmod: '2025-03-09', news: news('2025-03-09T10:00:00Z') }));
    agg.add(page('https://a/1', { lastmod: '2025-03-10', news: news('2025-03-10T10:00:00Z') }));
    agg.add(page('https://a/2', { lastmod: '2025-02-01', news: news('2025-03-05T10:00:00Z', 'de', 'u') }));
    agg.add(page('https://a/3', { lastmod: '2030-01-01', news: news('2030-01-01', 'DE', 'v') }));
    agg.add(page('https://a/4', { lastmod: 'soon' }));
    const s = agg.snapshot();
    expect(s.lastmod).toEqual({
      count: 2,
      newest: '2025-03-09T00:00:00.000Z',
      oldest: '2025-02-01T00:00:00.000Z',
      last_7d: 1,
      future: 1,
    });
    expect(s.news).toEqual({
      url_count: 3,
      newest_publication_date: '2025-03-09T10:00:00.000Z',
      oldest_publication_date: '2025-03-05T10:00:00.000Z',
      published_last_7d: 2,
      window_days: 2,
      published_in_window: 1,
      future: 1,
      languages: { de: 2, en: 1 },
      publications: { Daily: 3 },
      sample_titles: ['t', 'u', 'v'],
    });
  });

  it('keeps its count tables and title samples bounded', () => {
    const agg = new SitemapAggregator({ now: NOW, newsWindowDays: 2 });
    for (let i = 0; i < 100; i += 1) {
      const lang = `l${String.fromCharCode(97 + (i % 26))}${String.fromCharCode(97 + Math.floor(i / 26))}`;
      agg.add(
        page(`https://a/${i}`, {
          news: news('2025-03-10', lang, `title ${i}`),
          hreflang: [lang, 'not a language!'],
        }),
      );
    }
    const s = agg.snapshot();
    expect(Object.keys(s.news.languages)).toHaveLength(33);
    expect(s.news.languages['*']).toBe(100 - 32);
    expect(Object.keys(s.hreflang).length).toBeLessThanOrEqual(65);
    expect(s.hreflang['*']).toBeGreaterThanOrEqual(100);
    expect(s.news.sample_titles).toHaveLength(5);
  });
});

describe('UrlHashSet', () => {
  it('counts exactly through many growths and answers membership', () => {
    const set = new UrlHashSet(16);
    for (let i = 0; i < 200_000; i += 1)
      expect(set.add(`https://www.example.com/news/article-${i}`)).toBe(true);
    for (let i = 0; i < 200_000; i += 7)
      expect(set.add(`https://www.example.com/news/article-${i}`)).toBe(false);
    expect(set.size).toBe(200_000);
    expect(set.has('https://www.example.com/news/article-199999')).toBe(true);
    expect(set.has('https://www.example.com/news/article-200000')).toBe(false);
    // Two 32-bit words a slot, at most 75 % full.
    expect(set.bytes).toBeLessThanOrEqual(8 * 2 * (200_000 / 0.75));
  });

  it('hashes deterministically and tells near strings apart', () => {
    expect(hash64('https://a/1')).toEqual(hash64('https://a/1'));
    expect(hash64('https://a/1')).not.toEqual(hash64('https://a/2'));
    expect(hash64('ab')).not.toEqual(hash64('ba'));
  });
});
