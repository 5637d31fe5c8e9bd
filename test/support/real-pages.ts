import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { decodeText } from '../../src/engine/text-decoding.js';

/** The folder of the test fixtures, where every labelled set has its own folder. */
const FIXTURES_DIR = join(dirname(fileURLToPath(import.meta.url)), '..', 'fixtures');

export const REAL_PAGES_DIR = join(FIXTURES_DIR, 'real-pages');
/** The second hold-out set: other corpora, other publishers, labelled before the engine ran on it (its SOURCES.md). */
export const FRESH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-fresh');
/** The third set, measured blind: four more corpora, other publishers, labelled before the engine ran (its SOURCES.md). */
export const THIRD_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-third');
/**
 * The fourth set, a whole hold-out read blind: eleven more corpora, other publishers, three fifths not news, labelled
 * before the engine ran (its SOURCES.md). Never tuned on: no tool lists its misses.
 */
export const FOURTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-fourth');
/**
 * The fifth set, read blind: five more corpora (CleanEval, Dragnet, htmltotext-benchmark, defuddle, GerapyAutoExtractor),
 * other publishers, two thirds not news, labelled before the engine ran (its SOURCES.md, which also says its licences).
 */
export const FIFTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-fifth');
/**
 * The sixth set, read blind: entry pages (homepages and a few section fronts) where the others are articles, from
 * scrapers', feed finders' and parsers' fixtures and a front-page archive, labelled before the engine ran (its SOURCES.md).
 */
export const SIXTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-sixth');
/**
 * The seventh set, read blind: entry pages again, most of them NOT news (shops, forums, classifieds, universities,
 * government, companies, personal sites) to read the homepage verdict's precision, from form- and pagination-classifier
 * datasets and link-preview, parser and minifier fixtures, labelled before the engine ran (its SOURCES.md).
 */
export const SEVENTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-seventh');
/**
 * The eighth set, read blind: entry pages of unseen publishers (portals, marketplaces, companies, projects, government,
 * a few news fronts), from a favicon finder's recorded homepages, a feed reader's, an IR toolkit's and converters' and
 * scrapers' fixtures, labelled before the engine ran (its SOURCES.md).
 */
export const EIGHTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-eighth');
/**
 * The ninth set, read blind: the traps the mission names, mostly not entry pages — shops' product pages, category
 * listings and homepages in 19 languages, recipe pages in 10 languages other than English, and news articles in 11
 * languages other than English and German — from a product-extraction benchmark, a date extractor's evaluation pages,
 * a recipe parser's and a pagination dataset's, labelled before the engine ran (its SOURCES.md).
 */
export const NINTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-ninth');
/**
 * The tenth set, read blind: news FRONT pages (newspapers, news agencies, broadcasters, local and national) in 14
 * languages, most beyond English and German, and non-news homepages for contrast (government, companies, shops,
 * personal sites), every page a site root, from a class exercise's crawl of URLs shared on Twitter (October 2020),
 * labelled before the engine ran (its SOURCES.md).
 */
export const TENTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-tenth');
/**
 * The eleventh set, read blind: entry pages (site roots) of news fronts in ten languages — Spanish, Russian,
 * Indonesian, Italian, French, Filipino, Chinese, Polish, Bulgarian, English, trade dailies among them — and, for
 * contrast, non-news homepages in 22 languages (a party, universities, government, companies, shops, personal blogs,
 * platforms), from a class exercise's crawl (2020) and two classifiers' datasets (2014–2016), labelled before the engine
 * ran (its SOURCES.md).
 */
export const ELEVENTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-eleventh');
/**
 * The twelfth set, read blind: site roots of a 2021 crawl kept by a study of JavaScript obfuscators — news fronts in 13
 * languages (Russian, Vietnamese, Spanish, Arabic, Indonesian, German, Turkish, Latvian, Chinese…) and, for contrast,
 * non-news homepages in 15 (Chinese, Japanese and Russian platforms, shops, companies, a content farm, a gossip blog),
 * labelled before the engine ran (its SOURCES.md).
 */
export const TWELFTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-twelfth');
/**
 * The thirteenth set, read blind: the rest of that crawl's site roots and three of a German front-page archive — 16
 * news fronts (mostly English trade, sports, music and technology news) and, for contrast, 23 non-news homepages that
 * resemble news fronts (a webmail portal, an aggregator, a content farm, satire, blogs, listing portals), labelled
 * before the engine ran (its SOURCES.md).
 */
export const THIRTEENTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-thirteenth');
/**
 * The fourteenth set, read blind: six site roots in languages no earlier set had a front in — a Hebrew daily's and a
 * Korean game-news site's fronts and, for contrast, two Korean portals, an Israeli bank and a Japanese weather
 * service — labelled before the engine ran (its SOURCES.md says why it is small).
 */
export const FOURTEENTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-fourteenth');
/**
 * The fifteenth set, read blind: nine 2018 site roots read as text from a crawl too large to fetch — news fronts in
 * Persian, Norwegian, Greek, Korean and Thai and, for contrast, a Persian classifieds platform, a Korean bank, an
 * Israeli shop and a Thai community site — labelled before the engine ran (its SOURCES.md says how they were copied).
 */
export const FIFTEENTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-fifteenth');
/**
 * The sixteenth set, read blind: 91 site roots, the rest of the 2021 crawl the twelfth and thirteenth sets drew on —
 * six news fronts (Vietnamese, Slovenian, a US regional daily) and 85 non-news homepages as such a crawl finds them
 * (shops, banks and companies, marketplaces, tools, games, guides) — labelled before the engine ran.
 */
export const SIXTEENTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-sixteenth');
/**
 * The seventeenth set, read blind: 198 site roots, every one left in the October 2020 Twitter-links exercise the tenth
 * and eleventh sets chose from — 23 news fronts among 175 homepages of companies, people, charities, associations and
 * public bodies, as following shared links finds them — labelled before the engine ran.
 */
export const SEVENTEENTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-seventeenth');
/**
 * The eighteenth set, read blind: 60 homepages from a company-tagging tool's 2023 crawl — 18 news fronts (US local
 * television stations and dailies, two Quebec fronts) among 42 homepages of companies, shops, restaurants, colleges,
 * associations and platforms — labelled before the engine ran (its SOURCES.md).
 */
export const EIGHTEENTH_PAGES_DIR = join(FIXTURES_DIR, 'real-pages-eighteenth');

/** Every labelled set, in the order they were built: a set's publishers are none of the sets before it. */
export const REAL_PAGE_SET_DIRS: readonly string[] = [
  REAL_PAGES_DIR,
  FRESH_PAGES_DIR,
  THIRD_PAGES_DIR,
  FOURTH_PAGES_DIR,
  FIFTH_PAGES_DIR,
  SIXTH_PAGES_DIR,
  SEVENTH_PAGES_DIR,
  EIGHTH_PAGES_DIR,
  NINTH_PAGES_DIR,
  TENTH_PAGES_DIR,
  ELEVENTH_PAGES_DIR,
  TWELFTH_PAGES_DIR,
  THIRTEENTH_PAGES_DIR,
  FOURTEENTH_PAGES_DIR,
  FIFTEENTH_PAGES_DIR,
  SIXTEENTH_PAGES_DIR,
  SEVENTEENTH_PAGES_DIR,
  EIGHTEENTH_PAGES_DIR,
];

/** The sets built before the one in `dir`. */
export function setsBefore(dir: string): string[] {
  const at = REAL_PAGE_SET_DIRS.indexOf(dir);
  if (at < 0) throw new Error(`${dir} is not a labelled set of REAL_PAGE_SET_DIRS`);
  return REAL_PAGE_SET_DIRS.slice(0, at);
}

export type RealPageKind =
  | 'news'
  | 'recipe'
  | 'shop'
  | 'docs'
  | 'company'
  | 'personal_blog'
  | 'reference'
  | 'government'
  | 'platform'
  | 'other';

export type RealPageType = 'homepage' | 'article' | 'section' | 'other';

export interface RealPageEntry {
  id: string;
  url: string;
  registrable_domain: string;
  kind: RealPageKind;
  news: boolean;
  country: string | null;
  language: string;
  page_type: RealPageType;
  truncated?: boolean;
  /** How the labels were set (the second hold-out set writes it per page). */
  labelled_by?: string;
  source: { repo: string; path: string; commit: string; license: string };
}

export interface RealPageManifest {
  about: string;
  pages: RealPageEntry[];
}

export interface RealPage {
  id: string;
  url: string;
  html: string;
  labels: {
    news: boolean;
    kind: RealPageKind;
    country: string | null;
    language: string;
    page_type: RealPageType;
    registrable_domain: string;
  };
}

export function readRealPagesManifest(dir = REAL_PAGES_DIR): RealPageManifest {
  return JSON.parse(readFileSync(join(dir, 'manifest.json'), 'utf8')) as RealPageManifest;
}

export function realPageFile(id: string, dir = REAL_PAGES_DIR): string {
  return join(dir, `${id}.html.gz`);
}

export function realPageExists(id: string, dir = REAL_PAGES_DIR): boolean {
  return existsSync(realPageFile(id, dir));
}

/** The charset a page declares in a meta tag (first 8 KiB), if any. */
export function declaredCharset(bytes: Buffer): string | null {
  const head = bytes.subarray(0, 8192).toString('latin1');
  const direct = /<meta[^>]+charset\s*=\s*["']?\s*([A-Za-z0-9._:-]+)/i.exec(head);
  return direct?.[1]?.toLowerCase() ?? null;
}

/** A page's text as the service reads a body that came without a Content-Type charset (the engine's own decoding). */
export function decodeHtml(bytes: Buffer): string {
  return decodeText(bytes);
}

/** A page's bytes as published (the fixture file unzipped). */
export function realPageBytes(id: string, dir = REAL_PAGES_DIR): Buffer {
  return gunzipSync(readFileSync(realPageFile(id, dir)));
}

export function loadRealPages(dir = REAL_PAGES_DIR): RealPage[] {
  return readRealPagesManifest(dir).pages.map((entry) => realPageOf(entry, realPageBytes(entry.id, dir)));
}

/** A manifest entry and its bytes as the quality tests read them. */
export function realPageOf(entry: RealPageEntry, bytes: Buffer): RealPage {
  return {
    id: entry.id,
    url: entry.url,
    html: decodeHtml(bytes),
    labels: {
      news: entry.news,
      kind: entry.kind,
      country: entry.country,
      language: entry.language,
      page_type: entry.page_type,
      registrable_domain: entry.registrable_domain,
    },
  };
}
