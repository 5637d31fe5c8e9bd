// The real documents the page-content fuzzer starts from: pages, feeds, sitemaps, robots.txt files and titles
// already kept under test/fixtures/ and in the fake internet, plus the real-page corpus under
// test/fixtures/real-pages (and a third of each later real-page set) when it is there (it is optional: every reader of it skips when the folder is missing).
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gunzipSync } from 'node:zlib';
import { CHALLENGE_VECTORS } from '../fixtures/fake-internet/challenge-pages.js';
import {
  atom,
  CHALLENGE_PAGE,
  jsonFeed,
  page,
  rss,
  sitemapIndex,
  urlset,
} from '../fixtures/fake-internet/content.js';
import { rssOf } from '../fixtures/fake-internet/feed-sites.js';

export type DocKind = 'html' | 'feed' | 'sitemap' | 'robots' | 'other';

export interface CorpusDoc {
  /** Where it came from, for a failure message: a path relative to the repository, or a fixture's name. */
  name: string;
  kind: DocKind;
  bytes: Buffer;
  /** The URL it is read as coming from (a page's base for relative links). */
  url: string;
}

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** Where the real-page corpus lives once merged; relative to the repository so the test moves with it. */
export const REAL_PAGES_DIR = 'test/fixtures/real-pages';
/** A real-page file bigger than this is read only up to it: the fuzzer is about shapes, not volume. */
const MAX_REAL_FILE = 4 * 1024 * 1024;

function files(dir: string): string[] {
  if (!existsSync(dir)) return [];
  const out: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...files(path));
    else if (entry.isFile()) out.push(path);
  }
  return out.sort();
}

/** A document's kind from its first bytes (and its name): what the fuzzer feeds it to first. */
export function sniffKind(name: string, bytes: Buffer): DocKind {
  const body = (bytes[0] === 0x1f && bytes[1] === 0x8b ? gunzipSync(bytes) : bytes)
    .subarray(0, 4096)
    .toString('latin1')
    .toLowerCase();
  if (/robots\.txt$|robots/.test(name) && !body.includes('<')) return 'robots';
  if (/<urlset|<sitemapindex/.test(body) || /sitemap/.test(name)) return 'sitemap';
  if (/<rss|<feed[\s>]|<rdf:rdf|"version"\s*:\s*"https:\/\/jsonfeed/.test(body)) return 'feed';
  if (/<html|<!doctype html|<head|<body|<title/.test(body)) return 'html';
  return 'other';
}

function fileDoc(path: string, url: string): CorpusDoc {
  const name = relative(ROOT, path);
  const bytes = readFileSync(path);
  return { name, kind: sniffKind(name, bytes), bytes, url };
}

interface RealPageEntry {
  id: string;
  url: string;
}

/** The later real-page sets: a third of each (by a hash of the page id) joins the fuzz corpus, for time. */
const LATER_REAL_PAGE_DIRS = [
  'test/fixtures/real-pages-fresh',
  'test/fixtures/real-pages-third',
  'test/fixtures/real-pages-fourth',
  'test/fixtures/real-pages-fifth',
  'test/fixtures/real-pages-sixth',
  'test/fixtures/real-pages-seventh',
  'test/fixtures/real-pages-eighth',
  'test/fixtures/real-pages-ninth',
  'test/fixtures/real-pages-tenth',
  'test/fixtures/real-pages-eleventh',
  'test/fixtures/real-pages-twelfth',
  'test/fixtures/real-pages-thirteenth',
  'test/fixtures/real-pages-fourteenth',
  'test/fixtures/real-pages-fifteenth',
  'test/fixtures/real-pages-sixteenth',
  'test/fixtures/real-pages-seventeenth',
];
const sampled = (id: string) => createHash('sha1').update(`fuzz:${id}`).digest()[0]! % 3 === 0;

/**
 * The real-page corpus: the pages the main set's manifest.json lists (`<id>.html.gz`, read as coming from the
 * entry's URL), else every file in the folder; none when the folder is missing; and a third of each later set's
 * pages (other corpora: other charsets, CMSs and languages). Gzipped files are read unzipped.
 */
export function realPages(): CorpusDoc[] {
  return [
    ...realPagesOf(REAL_PAGES_DIR, () => true),
    ...LATER_REAL_PAGE_DIRS.flatMap((dir) => realPagesOf(dir, sampled)),
  ];
}

function realPagesOf(folder: string, keep: (id: string) => boolean): CorpusDoc[] {
  const dir = join(ROOT, folder);
  if (!existsSync(dir)) return [];
  const manifest = join(dir, 'manifest.json');
  const entries: Array<{ path: string; url: string }> = existsSync(manifest)
    ? (JSON.parse(readFileSync(manifest, 'utf8')) as { pages: RealPageEntry[] }).pages
        .filter((page) => keep(page.id))
        .map((page) => ({ path: join(dir, `${page.id}.html.gz`), url: page.url }))
        .filter((entry) => existsSync(entry.path))
    : files(dir)
        .filter((path) => !/\.(md|json)$/i.test(path))
        .map((path) => ({ path, url: 'https://real-pages.test/' }));
  return entries
    .filter((entry) => statSync(entry.path).size > 0)
    .map(({ path, url }) => {
      const raw = readFileSync(path);
      const bytes = raw[0] === 0x1f && raw[1] === 0x8b ? gunzipSync(raw) : raw;
      const name = relative(ROOT, path);
      const cut = bytes.length > MAX_REAL_FILE ? bytes.subarray(0, MAX_REAL_FILE) : bytes;
      return { name, kind: sniffKind(name, cut), bytes: cut, url };
    });
}

interface FeedFixture {
  name: string;
  url: string;
  html?: string;
  page?: string;
}

function feedFixtures(): CorpusDoc[] {
  const dir = join(ROOT, 'test/fixtures/feeds');
  const docs: CorpusDoc[] = [];
  for (const file of ['snippets.json', 'pages.json']) {
    const cases = (JSON.parse(readFileSync(join(dir, file), 'utf8')) as { cases: FeedFixture[] }).cases;
    for (const c of cases) {
      const bytes = c.page !== undefined ? readFileSync(join(dir, c.page)) : Buffer.from(c.html ?? '');
      docs.push({ name: `feeds/${file}: ${c.name}`, kind: 'html', bytes, url: c.url });
    }
  }
  return docs;
}

function sitemapFixtures(): CorpusDoc[] {
  return files(join(ROOT, 'test/fixtures/sitemaps'))
    .filter((path) => !/\.(md|json)$/.test(path))
    .map((path) => fileDoc(path, 'https://sitemaps.test/'));
}

interface RobotsVector {
  robotstxt?: string;
  url?: string;
  robots_url?: string;
}

function robotsFixtures(): CorpusDoc[] {
  const raw = JSON.parse(
    readFileSync(join(ROOT, 'test/fixtures/robots/robots.vectors.json'), 'utf8'),
  ) as Record<string, unknown>;
  const seen = new Set<string>();
  const docs: CorpusDoc[] = [];
  for (const [group, value] of Object.entries(raw)) {
    if (!Array.isArray(value)) continue;
    for (const v of value as RobotsVector[]) {
      if (typeof v?.robotstxt !== 'string' || seen.has(v.robotstxt)) continue;
      seen.add(v.robotstxt);
      docs.push({
        name: `robots.vectors.json ${group} #${docs.length}`,
        kind: 'robots',
        bytes: Buffer.from(v.robotstxt),
        url: v.robots_url ?? v.url ?? 'https://robots.test/robots.txt',
      });
    }
  }
  return docs;
}

/** The fake internet's documents, built by the same helpers its servers use. */
function fakeInternet(): CorpusDoc[] {
  const base = 'https://fake.test/';
  const inline = (name: string, kind: DocKind, text: string): CorpusDoc => ({
    name: `fake-internet: ${name}`,
    kind,
    bytes: Buffer.from(text),
    url: base,
  });
  const items = Array.from({ length: 12 }, (_, i) => ({
    title: `Story ${i} über Ünïcödé — 新闻 ${i}`,
    link: `${base}story-${i}`,
    date: new Date(Date.UTC(2025, 0, 1 + i)).toISOString(),
  }));
  return [
    inline(
      'page()',
      'html',
      page('Fake Test', '<link rel="alternate" type="application/rss+xml" href="/rss.xml">'),
    ),
    inline('CHALLENGE_PAGE', 'html', CHALLENGE_PAGE),
    ...CHALLENGE_VECTORS.map((v) => inline(`challenge: ${v.name}`, 'html', v.body)),
    inline('rss()', 'feed', rss('Fake RSS', base)),
    inline('atom()', 'feed', atom('Fake Atom', base)),
    inline('jsonFeed()', 'feed', jsonFeed('Fake JSON', base)),
    inline('rssOf()', 'feed', rssOf('Fake Items', base, items)),
    inline('urlset()', 'sitemap', urlset([`${base}a`, `${base}b`], true)),
    inline('sitemapIndex()', 'sitemap', sitemapIndex([`${base}s1.xml`, `${base}s2.xml`])),
  ];
}

/** Every seed document, the real-page corpus included when present. */
export function seedCorpus(): CorpusDoc[] {
  return [...feedFixtures(), ...sitemapFixtures(), ...robotsFixtures(), ...fakeInternet(), ...realPages()];
}

/** Titles with their language (test/fixtures/languages/titles.json), flattened. */
export function seedTitles(): string[] {
  const raw = JSON.parse(readFileSync(join(ROOT, 'test/fixtures/languages/titles.json'), 'utf8')) as {
    titles: Record<string, string[]>;
  };
  return Object.values(raw.titles).flat();
}
