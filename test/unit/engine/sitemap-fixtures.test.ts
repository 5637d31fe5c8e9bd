// Published sitemap fixtures of crawler-commons and advertools (test/fixtures/sitemaps/), read by the streaming
// reader and the aggregates, one loop over cases.json.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  isPageUrl,
  type SitemapAggregates,
  SitemapAggregator,
} from '../../../src/engine/sitemap-aggregates.js';
import { readSitemapFile } from '../../../src/engine/sitemap-file.js';

interface Case {
  file: string;
  source_test: string;
  kind: string;
  gzip?: boolean;
  complete?: boolean;
  news?: boolean;
  pages?: string[];
  page_count?: number;
  children?: string[];
  child_count?: number;
  first_child?: string;
  lastmod?: Partial<SitemapAggregates['lastmod']>;
  news_aggregates?: Partial<SitemapAggregates['news']>;
  hreflang?: Record<string, number>;
}

const DIR = new URL('../../fixtures/sitemaps/', import.meta.url);
const manifest = JSON.parse(readFileSync(new URL('cases.json', DIR), 'utf8')) as {
  now: string;
  cases: Case[];
};

async function read(file: string) {
  const aggregator = new SitemapAggregator({ now: new Date(manifest.now), newsWindowDays: 2 });
  const pages: string[] = [];
  const children: string[] = [];
  const result = await readSitemapFile(
    readFileSync(new URL(file, DIR)),
    {
      page(page) {
        aggregator.add(page);
        const key = page.loc.split('#')[0]!;
        if (isPageUrl(page.loc) && !pages.includes(key)) pages.push(key);
      },
      child: (loc) => children.push(loc),
    },
    { maxBytes: 50 * 1024 * 1024, limitedBy: 'file', timeUp: () => false, keepBytes: 0 },
  );
  return { result, pages, children, aggregates: aggregator.snapshot() };
}

describe('published sitemap fixtures', () => {
  it('has cases to run', () => {
    expect(manifest.cases.length).toBeGreaterThan(30);
  });

  it.each(manifest.cases.map((c) => [c.file, c] as const))('%s', async (_file, c) => {
    const { result, pages, children, aggregates } = await read(c.file);
    expect(result.summary.kind).toBe(c.kind);
    if (c.gzip !== undefined) expect(result.gzip).toBe(c.gzip);
    if (c.complete !== undefined) expect(result.summary.complete).toBe(c.complete);
    expect(result.summary.news).toBe(c.news ?? false);
    if (c.pages !== undefined) expect(pages).toEqual(c.pages);
    expect(aggregates.distinct).toBe(c.page_count ?? c.pages?.length ?? 0);
    if (c.children !== undefined) expect(children).toEqual(c.children);
    if (c.child_count !== undefined) expect(children).toHaveLength(c.child_count);
    if (c.first_child !== undefined) expect(children[0]).toBe(c.first_child);
    if (c.children === undefined && c.child_count === undefined) expect(children).toEqual([]);
    if (c.lastmod !== undefined) expect(aggregates.lastmod).toMatchObject(c.lastmod);
    if (c.news_aggregates !== undefined) expect(aggregates.news).toMatchObject(c.news_aggregates);
    if (c.hreflang !== undefined) expect(aggregates.hreflang).toEqual(c.hreflang);
  });
});
