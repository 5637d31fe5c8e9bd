// readHomepage tokenises a page once for three readers; it must return exactly what each reader returns on its
// own pass, on every real page of the corpus and on every homepage the fake internet serves.
import { describe, expect, it } from 'vitest';
import { parseHomepage, parsePage } from '../../../src/engine/feed-candidates.js';
import { readHomepage } from '../../../src/engine/homepage-read.js';
import { probeLiveness } from '../../../src/engine/liveness.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';
import { readPageSignals } from '../../../src/engine/page-signals.js';
import { decodeText } from '../../../src/engine/text-decoding.js';
import { discoveryWeb } from '../../fixtures/fake-internet/discovery-web.js';
import {
  CHALLENGE_SITES,
  PLAIN_HTTP_SITES,
  SITEMAP_SITES,
  SITES,
} from '../../fixtures/fake-internet/index.js';
import { useFakeInternet } from '../../fixtures/fake-internet/use-fake-internet.js';
import { REAL_PAGES_DIR, seedCorpus } from '../../support/page-corpus.js';
import { loadRealPages } from '../../support/real-pages.js';

interface Page {
  name: string;
  url: string;
  html: string;
}

/** Equal as values and as the JSON they are stored as (key order included). */
function expectSame(actual: unknown, expected: unknown, what: string): void {
  expect(actual, what).toStrictEqual(expected);
  expect(JSON.stringify(actual), what).toBe(JSON.stringify(expected));
}

function expectOnePassMatches(page: Page): void {
  const read = readHomepage(page.html, page.url);
  expectSame(read.page, parsePage(page.html, page.url), `${page.name}: parsePage`);
  expectSame(read.signals, readPageSignals(page.html), `${page.name}: readPageSignals`);
  expectSame(read.facts, readPageFacts(page.html, page.url), `${page.name}: readPageFacts`);
  const homepage = parseHomepage(page.html, page.url);
  expectSame({ title: read.page.title, feedLinks: read.page.links.map((l) => l.url) }, homepage, page.name);
}

/** Hosts whose homepage never ends, or ends past any page cap: nothing to compare, only time to lose. */
const NOT_PAGES: ReadonlySet<string> = new Set([SITES.hang, SITES.huge, SITES.gzipBomb, SITES.unresolvable]);

describe('readHomepage', () => {
  it('equals the three separate readers on every real page', () => {
    const pages = loadRealPages();
    expect(pages).toHaveLength(425);
    for (const p of pages) expectOnePassMatches({ name: p.id, url: p.url, html: p.html });
  });

  it('equals them on the page fixtures, the fake internet inline pages and the discovery web', () => {
    const docs = seedCorpus().filter((d) => d.kind === 'html' && !d.name.startsWith(REAL_PAGES_DIR));
    const pages: Page[] = docs.map((d) => ({ name: d.name, url: d.url, html: d.bytes.toString('utf8') }));
    for (const [url, answer] of Object.entries(discoveryWeb()))
      if (
        'body' in answer &&
        typeof answer.body === 'string' &&
        /html/.test(answer.headers?.['content-type'] ?? '')
      )
        pages.push({ name: url, url, html: answer.body });
    expect(pages.length).toBeGreaterThan(20);
    for (const page of pages) expectOnePassMatches(page);
  });

  describe('on the fake internet', () => {
    const web = useFakeInternet();

    it('equals them on every homepage a contract run would read', async () => {
      const hosts = [
        ...Object.values(SITES),
        ...Object.values(PLAIN_HTTP_SITES),
        ...Object.values(CHALLENGE_SITES),
        ...Object.values(SITEMAP_SITES),
      ].filter((host) => !NOT_PAGES.has(host));
      let read = 0;
      for (const host of new Set(hosts)) {
        const { response } = await probeLiveness(web.fetcher, host);
        if (response === null) continue;
        const html = decodeText(response.body, response.headers['content-type']);
        expectOnePassMatches({ name: host, url: response.finalUrl, html });
        read += 1;
      }
      expect(read).toBeGreaterThan(30);
    });
  });
});
