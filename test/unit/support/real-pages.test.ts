import { describe, expect, it } from 'vitest';
import {
  FRESH_PAGES_DIR,
  loadRealPages,
  readRealPagesManifest,
  realPageExists,
} from '../../support/real-pages.js';

const KINDS = [
  'news',
  'recipe',
  'shop',
  'docs',
  'company',
  'personal_blog',
  'reference',
  'government',
  'platform',
  'other',
];

describe('real-pages fixture manifest', () => {
  const { pages } = readRealPagesManifest();

  it('has at least 300 pages with unique ids, every file present', () => {
    expect(pages.length).toBeGreaterThanOrEqual(300);
    expect(new Set(pages.map((p) => p.id)).size).toBe(pages.length);
    const missing = pages.filter((p) => !realPageExists(p.id)).map((p) => p.id);
    expect(missing).toEqual([]);
  });

  it('labels are well formed and news is true exactly for kind news', () => {
    for (const p of pages) {
      expect(KINDS).toContain(p.kind);
      expect(p.news).toBe(p.kind === 'news');
      expect(p.language).toMatch(/^[a-z]{2}$/);
      if (p.country !== null) expect(p.country).toMatch(/^[a-z]{2}$/);
      expect(['homepage', 'article', 'section', 'other']).toContain(p.page_type);
    }
  });

  it('has news pages in at least 10 languages and each required non-news kind', () => {
    const newsLanguages = new Set(pages.filter((p) => p.news).map((p) => p.language));
    expect(newsLanguages.size).toBeGreaterThanOrEqual(10);
    const nonNewsKinds = new Set(pages.filter((p) => !p.news).map((p) => p.kind));
    for (const kind of ['recipe', 'shop', 'docs', 'company', 'personal_blog'])
      expect(nonNewsKinds).toContain(kind);
  });

  it('every url parses and its host ends with the registrable domain', () => {
    for (const p of pages) {
      const host = new URL(p.url).hostname.toLowerCase();
      expect(
        host === p.registrable_domain || host.endsWith(`.${p.registrable_domain}`),
        `${p.id} ${p.url}`,
      ).toBe(true);
    }
  });

  it('loads and decodes every page', () => {
    const loaded = loadRealPages();
    expect(loaded.length).toBe(pages.length);
    for (const page of loaded) expect(page.html.length, page.id).toBeGreaterThan(1000);
  });
});

describe('the second hold-out set (real-pages-fresh)', () => {
  const { pages } = readRealPagesManifest(FRESH_PAGES_DIR);
  const mainDomains = new Set(readRealPagesManifest().pages.map((p) => p.registrable_domain));

  it('has unique ids, every file present, and says how each page was labelled', () => {
    expect(pages.length).toBeGreaterThanOrEqual(100);
    expect(new Set(pages.map((p) => p.id)).size).toBe(pages.length);
    expect(pages.filter((p) => !realPageExists(p.id, FRESH_PAGES_DIR)).map((p) => p.id)).toEqual([]);
    for (const p of pages) {
      expect(KINDS).toContain(p.kind);
      expect(p.news).toBe(p.kind === 'news');
      if (p.country !== null) expect(p.country).toMatch(/^[a-z]{2}$/);
      expect(p.labelled_by, p.id).toMatch(/\w/);
      const host = new URL(p.url).hostname.toLowerCase();
      expect(host === p.registrable_domain || host.endsWith(`.${p.registrable_domain}`), p.id).toBe(true);
    }
  });

  it('shares no publisher with the main corpus', () => {
    expect(pages.filter((p) => mainDomains.has(p.registrable_domain)).map((p) => p.id)).toEqual([]);
  });

  it('loads and decodes every page', () => {
    for (const page of loadRealPages(FRESH_PAGES_DIR))
      expect(page.html.length, page.id).toBeGreaterThan(1000);
  });
});
