// Published feed-finder cases, kept as data (test/fixtures/feeds/, sources in SOURCES.md): for each page, the
// feed candidates it announces and the role each gets before any feed is fetched, and the feed a person picks.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parsePage, sameSite } from '../../../src/engine/feed-candidates.js';
import {
  classifyFeeds,
  type FeedEvidence,
  formatTwins,
  siteWordsOf,
} from '../../../src/engine/feed-roles.js';
import { decodeText } from '../../../src/engine/text-decoding.js';

interface FixtureCase {
  name: string;
  source: string;
  url: string;
  /** Inline HTML, or `page`: a file under test/fixtures/feeds/. */
  html?: string;
  page?: string;
  encoding?: 'utf-16le';
  links: string[];
  labels?: Array<string | null>;
  anchors?: string[];
  roles: Record<string, string>;
  pick: string | null;
}

const DIR = new URL('../../fixtures/feeds/', import.meta.url);
const load = (file: string): FixtureCase[] =>
  (JSON.parse(readFileSync(new URL(file, DIR), 'utf8')) as { cases: FixtureCase[] }).cases;
const CASES = [...load('snippets.json'), ...load('pages.json')];

function htmlOf(c: FixtureCase): string {
  if (c.page !== undefined) return readFileSync(new URL(c.page, DIR), 'utf8');
  if (c.encoding === 'utf-16le') return decodeText(Buffer.from(`\uFEFF${c.html}`, 'utf16le'));
  return c.html!;
}

describe('feed-finder fixtures', () => {
  it('covers every source named in SOURCES.md', () => {
    const sources = readFileSync(new URL('SOURCES.md', DIR), 'utf8');
    for (const source of new Set(CASES.map((c) => c.source))) expect(sources).toContain(`\`${source}\``);
    expect(CASES.length).toBeGreaterThan(80);
  });

  it.each(CASES.map((c) => [c.name, c] as const))('%s', (_name, c) => {
    const page = parsePage(htmlOf(c), c.url);
    expect(page.links.map((l) => l.url)).toEqual(c.links);
    if (c.labels) expect(page.links.map((l) => l.label)).toEqual(c.labels);
    if (c.anchors) expect(page.anchors.map((a) => a.url)).toEqual(c.anchors);

    // Before anything is fetched: roles from link titles, URL shapes and the page itself.
    const foundOn = { url: page.url, canonical: page.canonical, article: page.article };
    const evidence: FeedEvidence[] = page.links.map((l) => ({
      url: l.url,
      requestedUrl: l.url,
      source: l.source,
      label: l.label,
      announced: true,
      sameSite: sameSite(l.url, c.url),
      foundOn,
      content: null,
    }));
    const site = {
      entryUrl: c.url,
      siteWords: siteWordsOf(page.title, page.siteName, new URL(c.url).hostname),
    };
    const verdicts = classifyFeeds(evidence, site, (a, b) => formatTwins(evidence[a]!.url, evidence[b]!.url));
    expect(Object.fromEntries(evidence.map((e, i) => [e.url, verdicts[i]!.role]))).toEqual(c.roles);
    expect(evidence.find((_e, i) => verdicts[i]!.primary)?.url ?? null).toBe(c.pick);
  });
});
