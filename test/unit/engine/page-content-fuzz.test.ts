// Every engine function that reads page, feed, sitemap or robots.txt content, run over real documents
// (test/support/page-corpus.ts: the fixtures, the fake internet, and test/fixtures/real-pages when present) and
// seeded mutations of them (test/support/page-mutations.ts). The rule: a web page can make a fact unknown, never
// fail a domain, so each call must return, and return a value of the declared shape.
import { describe, expect, it } from 'vitest';
import { isCountryCode } from '../../../src/domain/countries.js';
import { parseTdmRep, readAiPolicy, tdmRuleFor } from '../../../src/engine/ai-policy.js';
import { pageTitle } from '../../../src/engine/challenge.js';
import { discoverContract } from '../../../src/engine/contract-discovery.js';
import { guessCountry } from '../../../src/engine/country-guess.js';
import { placeCountryReason, readPlaceNames } from '../../../src/engine/country-place-signals.js';
import {
  absoluteUrl,
  feedLikeText,
  feedLikeUrl,
  guessedFeedUrls,
  isKnownFeedHost,
  parseHomepage,
  parsePage,
  sameSite,
} from '../../../src/engine/feed-candidates.js';
import { readFeed } from '../../../src/engine/feed-content.js';
import {
  classifyFeeds,
  type FeedEvidence,
  formatTwins,
  matchesCategory,
  siteWordsOf,
} from '../../../src/engine/feed-roles.js';
import { functionWordLanguage } from '../../../src/engine/function-word-languages.js';
import { type SourceLanguage, sourceLanguages } from '../../../src/engine/languages.js';
import { classifyAnswer } from '../../../src/engine/liveness.js';
import { readPageFacts } from '../../../src/engine/page-facts.js';
import { languageList, normaliseLanguageTag, readPageSignals } from '../../../src/engine/page-signals.js';
import { parseRobots } from '../../../src/engine/robots.js';
import { letterLanguage } from '../../../src/engine/script-languages.js';
import { SitemapAggregator } from '../../../src/engine/sitemap-aggregates.js';
import { readSitemapFile } from '../../../src/engine/sitemap-file.js';
import { createSitemapReader, type SitemapPage } from '../../../src/engine/sitemap-reader.js';
import { pageCountrySignals } from '../../../src/engine/source-verdicts.js';
import { decodeText } from '../../../src/engine/text-decoding.js';
import { detectTitlesLanguage } from '../../../src/engine/title-language.js';
import { stubFetcher } from '../../fixtures/fake-internet/stub-fetcher.js';
import { type CorpusDoc, realPages, seedCorpus, seedTitles } from '../../support/page-corpus.js';
import { CUT_ESCAPES, LANGUAGE_JUNK, mutate, Random } from '../../support/page-mutations.js';

const NOW = new Date('2025-06-15T12:00:00.000Z');
const CORPUS = seedCorpus();
const TITLES = seedTitles();
const ofKind = (...kinds: CorpusDoc['kind'][]) => CORPUS.filter((d) => kinds.includes(d.kind));
/** One case in HEAVY_EVERY carries a heavy mutation (megabytes); they cost up to a second each. */
const HEAVY_EVERY = 40;
let casesRun = 0;

/** A case: a document mutated from the seed `doc` by `steps`, for the failure message. */
interface Case {
  doc: CorpusDoc;
  bytes: Buffer;
  steps: string[];
}

interface CaseOptions {
  /** Heavy mutations allowed (one case in HEAVY_EVERY). */
  heavy?: boolean;
  /** Every document is also read as it is, once, before the mutated cases. */
  everyDoc?: boolean;
}

/**
 * Each document as it is (with `everyDoc`, however many there are: the real-page corpus adds hundreds), then
 * `mutated` cases, each a mutation of a document picked at random.
 */
function* cases(
  docs: readonly CorpusDoc[],
  mutated: number,
  seed: number,
  options: CaseOptions = {},
): Generator<Case> {
  const { heavy = true, everyDoc = true } = options;
  const r = new Random(seed);
  if (everyDoc) for (const doc of docs) yield { doc, bytes: doc.bytes, steps: [] };
  for (let i = 1; i <= mutated; i++) {
    const doc = r.pick(docs);
    yield { doc, ...mutate(doc.bytes, r, heavy && i % HEAVY_EVERY === 0) };
  }
}

/**
 * Runs every case, collecting what threw or came back ill-formed; the test fails listing one example of each
 * kind of failure (the message with its quoted value left out), so one bug does not hide the others.
 */
async function fuzz(all: Iterable<Case>, run: (c: Case) => void | Promise<void>): Promise<void> {
  const kinds = new Map<string, { count: number; example: string }>();
  for (const c of all) {
    casesRun += 1;
    try {
      await run(c);
    } catch (err) {
      const what = err instanceof Error ? `${err.name}: ${err.message}` : String(err);
      const kind = what.replace(/:\s*".*$/s, '').slice(0, 120);
      const seen = kinds.get(kind) ?? {
        count: 0,
        example: `${c.doc.name} [${c.steps.join(' → ') || 'as is'}]: ${what.slice(0, 300)}`,
      };
      seen.count += 1;
      kinds.set(kind, seen);
    }
  }
  const report = [...kinds.values()].map((k) => `${k.count} × ${k.example}`);
  expect(report).toEqual([]);
}

function fail(where: string, value: unknown): never {
  const shown = typeof value === 'string' ? JSON.stringify(value.slice(0, 80)) : typeof value;
  throw new Error(`ill-formed ${where}: ${shown}`);
}

/** Text a person reads and a database stores: well-formed UTF-16 (no lone surrogate) and no NUL. */
function checkText(value: unknown, where: string, nullable = true): void {
  if (value === null && nullable) return;
  if (typeof value !== 'string' || !value.isWellFormed() || value.includes('\u0000')) fail(where, value);
}

function checkUrl(value: unknown, where: string): void {
  if (typeof value !== 'string' || !/^https?:/.test(value) || !URL.canParse(value)) fail(where, value);
}

function checkLanguage(code: unknown, where: string): void {
  if (typeof code !== 'string' || normaliseLanguageTag(code) !== code) fail(where, code);
}

function checkCount(value: unknown, where: string): void {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 0) fail(where, value);
}

function checkDate(value: unknown, where: string): void {
  if (value !== null && (typeof value !== 'string' || Number.isNaN(Date.parse(value)))) fail(where, value);
}

function checkLanguages(list: readonly SourceLanguage[]): void {
  for (const l of list) {
    checkLanguage(l.code, 'language code');
    if (l.sources.length === 0) fail('language sources', l.sources);
  }
}

/** Languages the place names are read with: each of the gazetteer's, and none it knows. */
const PLACE_LANGUAGES = ['es', 'de', 'fr', 'pt', 'ar', 'en', 'nl', 'it', 'ru', 'zh', 'ja', '', 'x-\u0000'];

/**
 * The country guess's page reading: place names over the raw document (markup and all, so any text), then
 * readPageFacts and the guess over all it read.
 */
function checkCountryReading(html: string, c: Case): void {
  const places = readPlaceNames([html.slice(0, 200_000)]);
  for (const [name, n] of Object.entries(places)) {
    checkText(name, 'place name', false);
    checkCount(n, 'place mentions');
  }
  const language = PLACE_LANGUAGES[c.bytes.length % PLACE_LANGUAGES.length]!;
  const reason = placeCountryReason(places, [language], c.bytes.length % 2 === 0 ? places : null);
  if (reason !== null && (!isCountryCode(reason.country ?? '') || !(reason.weight > 0)))
    fail('place reason', reason);
  const facts = readPageFacts(html, c.doc.url);
  for (const [name, n] of Object.entries({ ...facts.place_names, ...facts.menu_place_names })) {
    checkText(name, 'page place name', false);
    checkCount(n, 'page place mentions');
  }
  const host = new URL(c.doc.url).hostname;
  const guess = guessCountry({
    ...pageCountrySignals(facts),
    host,
    registrableDomain: host,
    languages: facts.html_lang === null ? [] : [{ code: facts.html_lang }],
  });
  if (!isCountryCode(guess.code) || !(guess.confidence >= 0 && guess.confidence <= 1)) fail('guess', guess);
  for (const r of guess.reasons) checkText(r.evidence, 'country evidence', false);
  // The languages as a contract run reads them, running text and headlines included, and the readers of the
  // languages ELD does not know over any text (the raw document, markup and all).
  const titles = [facts.title ?? '', ...facts.headlines];
  checkLanguages(
    sourceLanguages({
      page: readPageSignals(html),
      contentLanguage: undefined,
      feeds: [],
      sitemap: null,
      pageTitles: titles,
      pageText: facts.text_sample,
    }),
  );
  for (const text of [facts.text_sample, html.slice(0, 20_000)]) {
    for (const code of [functionWordLanguage(text), letterLanguage(text)])
      if (code !== null) checkLanguage(code, 'language by words or letters');
  }
}

function pageOf(c: Case): string {
  return decodeText(c.bytes, c.doc.kind === 'html' ? 'text/html' : undefined);
}

/** Evidence for the role classifier from a page's candidates, as discoverFeeds builds it. */
function evidenceOf(page: ReturnType<typeof parsePage>): FeedEvidence[] {
  return [...page.links, ...page.anchors].map((candidate) => ({
    url: candidate.url,
    requestedUrl: candidate.url,
    source: candidate.source,
    label: candidate.label,
    announced: candidate.source === 'link',
    sameSite: sameSite(candidate.url, page.url),
    foundOn: { url: page.url, canonical: page.canonical, article: page.article },
    content: null,
  }));
}

describe('page-content fuzz', () => {
  it('reads homepages: candidates, signals, languages, challenges, AI policy', async () => {
    const robots = parseRobots('https://fuzz.test/robots.txt', 'User-agent: *\nDisallow: /private/\n');
    await fuzz(cases(ofKind('html', 'other'), 500, 1), (c) => {
      const html = pageOf(c);
      // The decoded page is the document as sent, NULs included; only what is read out of it must be clean.
      if (typeof html !== 'string' || !html.isWellFormed()) fail('decoded page', html);
      const page = parsePage(html, c.doc.url);
      checkText(page.title, 'title');
      checkText(page.siteName, 'siteName');
      checkText(page.generator, 'generator');
      if (page.canonical !== null) checkUrl(page.canonical, 'canonical');
      for (const candidate of [...page.links, ...page.anchors]) {
        checkUrl(candidate.url, 'candidate url');
        checkText(candidate.label, 'candidate label');
      }
      // parseHomepage is parsePage's smaller view: one case in four is enough to hold it to its shape.
      if (c.bytes.length % 4 === 0)
        for (const url of parseHomepage(html, c.doc.url).feedLinks) checkUrl(url, 'feed link');
      for (const url of guessedFeedUrls(new URL(c.doc.url).origin, page)) checkUrl(url, 'guessed url');
      const site = { entryUrl: c.doc.url, siteWords: siteWordsOf(page.title, page.siteName) };
      const evidence = evidenceOf(page);
      const verdicts = classifyFeeds(evidence, site, (a, b) =>
        formatTwins(evidence[a]!.url, evidence[b]!.url),
      );
      if (verdicts.length !== evidence.length || verdicts.some((v) => typeof v.reason !== 'string'))
        fail('verdicts', verdicts);
      for (const e of evidence) matchesCategory({ url: e.url, label: e.label, title: page.title }, 'news');

      const signals = readPageSignals(html);
      if (signals.html_lang !== null) checkLanguage(signals.html_lang, 'html_lang');
      for (const code of [...signals.meta_content_language, ...signals.hreflang]) checkLanguage(code, 'tag');
      const junk = new Random(c.bytes.length).pick(LANGUAGE_JUNK);
      checkLanguages(sourceLanguages({ page: signals, contentLanguage: junk, feeds: [], sitemap: null }));
      const ai = readAiPolicy({ robots, entryUrl: c.doc.url, headers: {}, page: signals, tdmrep: null });
      if (!['disallowed', 'reserved', 'allowed', 'unknown'].includes(ai.status)) fail('ai status', ai.status);

      checkText(pageTitle(html), 'challenge title');
      // One status per case, in turn (a challenge scan of a real page costs milliseconds): a bot wall's statuses
      // make the weak markers count too. classifyAnswer runs recogniseChallenge and quotes what matched.
      const status = [200, 403, 503][c.bytes.length % 3]!;
      const verdict = classifyAnswer(status, { server: 'cloudflare' }, c.bytes, c.doc.url);
      checkText(verdict.error_message, 'liveness message');
      if (verdict.evidence?.kind === 'challenge')
        checkText(verdict.evidence.matched, 'challenge match', false);
    });
  });

  it('reads what the country guess reads: place names, the page facts and the guess', async () => {
    // Light mutations only: readPageFacts of a page mutated to megabytes is the homepage case's to time.
    await fuzz(cases(ofKind('html'), 300, 11, { heavy: false }), (c) => checkCountryReading(pageOf(c), c));
  });

  it('reads feeds and classifies them by their content', async () => {
    const feeds = ofKind('feed', 'sitemap', 'html');
    await fuzz(cases(feeds, 600, 2), (c) => {
      const content = readFeed(c.bytes, NOW, c.doc.kind === 'feed' ? 'application/xml' : undefined);
      if (content === null) return;
      if (!['rss', 'atom', 'rdf', 'json'].includes(content.type)) fail('feed type', content.type);
      checkText(content.title, 'feed title');
      if (content.language !== null) checkLanguage(content.language, 'feed language');
      for (const n of [content.item_count, content.items_last_7d, content.dated_items])
        checkCount(n, 'count');
      checkDate(content.newest_item_at, 'newest_item_at');
      checkDate(content.oldest_item_at, 'oldest_item_at');
      for (const t of content.item_titles) checkText(t, 'item title', false);
      const evidence: FeedEvidence = {
        url: c.doc.url,
        requestedUrl: `${c.doc.url}feed${CUT_ESCAPES[c.bytes.length % CUT_ESCAPES.length]}`,
        source: 'link',
        label: content.title,
        announced: true,
        sameSite: true,
        foundOn: { url: c.doc.url, canonical: content.homeLink, article: true },
        content,
      };
      classifyFeeds(
        [evidence, { ...evidence, url: content.homeLink ?? c.doc.url }],
        {
          entryUrl: c.doc.url,
          siteWords: new Set(),
        },
        () => true,
      );
      const discovered = {
        ...content,
        url: c.doc.url,
        role: 'main' as const,
        source: 'link' as const,
        label: null,
        announced: true,
        same_site: true,
        role_reason: 'fuzz',
        duplicate_of: null,
      };
      checkLanguages(
        sourceLanguages({ page: null, contentLanguage: undefined, feeds: [discovered], sitemap: null }),
      );
    });
  });

  it('reads sitemap files whole and as a stream cut at random places', async () => {
    const docs = ofKind('sitemap', 'feed', 'html', 'other');
    const r = new Random(30);
    await fuzz(cases(docs, 500, 3), async (c) => {
      const pages: SitemapPage[] = [];
      const children: string[] = [];
      const events = { page: (p: SitemapPage) => pages.push(p), child: (loc: string) => children.push(loc) };
      const budget = {
        maxBytes: 5 * 1024 * 1024,
        limitedBy: 'file' as const,
        timeUp: () => false,
        keepBytes: 1024,
      };
      const read = await readSitemapFile(c.bytes, events, budget);
      checkCount(read.bytes, 'bytes');
      const kinds = ['urlset', 'index', 'feed', 'text', 'unknown', 'refused'];
      if (!kinds.includes(read.summary.kind)) fail('kind', read.summary.kind);

      // The same bytes in chunks of random sizes: a chunk may end inside a tag, an entity or a character.
      const streamed = createSitemapReader({ page() {}, child() {} });
      for (let at = 0; at < c.bytes.length && !streamed.done; ) {
        const size = 1 + r.int(r.chance(0.5) ? 8 : 4096);
        streamed.write(c.bytes.subarray(at, at + size));
        at += size;
      }
      const summary = streamed.end();
      if (!kinds.includes(summary.kind)) fail('streamed kind', summary.kind);

      const aggregator = new SitemapAggregator({ now: NOW, newsWindowDays: 2 });
      for (const p of pages) aggregator.add(p);
      const aggregates = aggregator.snapshot();
      for (const t of aggregates.news.sample_titles) checkText(t, 'news title', false);
      checkDate(aggregates.lastmod.newest, 'lastmod');
      checkLanguages(
        sourceLanguages({ page: null, contentLanguage: undefined, feeds: [], sitemap: aggregates }),
      );
    });
  });

  it('parses robots.txt files and answers for any URL', async () => {
    const urls = [
      'https://fuzz.test/',
      'https://fuzz.test/private/x',
      'https://fuzz.test/a%E2%8',
      'https://fuzz.test/%zz?q=%',
    ];
    await fuzz(cases(ofKind('robots', 'other', 'html'), 400, 4), (c) => {
      const policy = parseRobots('https://fuzz.test/robots.txt', c.bytes);
      if (policy.crawl_delay !== null && !(Number.isFinite(policy.crawl_delay) && policy.crawl_delay >= 0))
        fail('crawl_delay', policy.crawl_delay);
      for (const url of policy.sitemap_urls) checkUrl(url, 'sitemap url');
      for (const url of urls) {
        if (typeof policy.allowed(url) !== 'boolean') fail('allowed', url);
        policy.decideFor('GPTBot', url);
      }
    });
  });

  it('reads URLs with broken escapes, bad bases and junk', async () => {
    const r = new Random(5);
    const hrefs = CORPUS.filter((d) => d.kind === 'html')
      .flatMap((d) =>
        [...d.bytes.toString('latin1').matchAll(/href\s*=\s*["']([^"']{1,300})/gi)].map((m) => m[1]!),
      )
      .slice(0, 400);
    const docs: CorpusDoc[] = hrefs.map((href, i) => ({
      name: `href #${i}`,
      kind: 'other',
      bytes: Buffer.from(href, 'latin1'),
      url: 'https://fuzz.test/',
    }));
    // No heavy mutations here: a 1 MB href reaches these functions through parsePage in the homepage cases.
    await fuzz(cases(docs, 1000, 6, { heavy: false }), (c) => {
      const raw =
        c.bytes.toString(r.chance(0.5) ? 'utf8' : 'latin1') + (r.chance(0.5) ? r.pick(CUT_ESCAPES) : '');
      const absolute = absoluteUrl(
        raw,
        r.pick(['https://fuzz.test/a/b', 'http://[::1]/', 'https://xn--nxasmq6b.test/']),
      );
      if (absolute !== null) checkUrl(absolute, 'absolute url');
      const url = absolute ?? `https://fuzz.test/${raw}`;
      feedLikeUrl(url);
      feedLikeUrl(raw);
      feedLikeText(raw);
      sameSite(url, raw);
      isKnownFeedHost(raw);
      formatTwins(url, raw);
      // A label is at most 300 characters once read off a page (clean in feed-candidates.ts).
      matchesCategory({ url, label: raw.slice(0, 300), title: null }, 'news');
      tdmRuleFor([{ location: raw, reservation: true, policy: null }], absolute ?? 'https://fuzz.test/');
    });
  });

  it('reads language tags, titles and tdmrep.json files', async () => {
    const r = new Random(7);
    const junk = [...LANGUAGE_JUNK, ...TITLES.slice(0, 50)];
    const docs = junk.map(
      (s, i): CorpusDoc => ({
        name: `text #${i}`,
        kind: 'other',
        bytes: Buffer.from(s),
        url: 'https://fuzz.test/',
      }),
    );
    docs.push({
      name: 'tdmrep',
      kind: 'other',
      bytes: Buffer.from('[{"location":"/","tdm-reservation":1,"tdm-policy":"https://fuzz.test/p"}]'),
      url: 'https://fuzz.test/',
    });
    await fuzz(cases(docs, 450, 8), (c) => {
      const s = c.bytes.toString('utf8');
      const tag = normaliseLanguageTag(s);
      if (tag !== null) checkLanguage(tag, 'tag');
      for (const code of languageList(s)) checkLanguage(code, 'listed tag');
      const titles = Array.from({ length: 5 }, () => (r.chance(0.5) ? s : r.pick(TITLES)));
      const detected = detectTitlesLanguage(titles);
      if (detected !== null) checkLanguage(detected.code, 'detected');
      const rules = parseTdmRep(s);
      if (rules !== null) for (const rule of rules) tdmRuleFor([rule], 'https://fuzz.test/a/b');
    });
  });

  it('still makes a draft from a mutated site (homepage, robots.txt, sitemap and feed)', async () => {
    const pages = ofKind('html').filter((d) => !d.name.startsWith('fake-internet: challenge'));
    const feeds = ofKind('feed');
    const sitemaps = ofKind('sitemap');
    const robots = ofKind('robots');
    const r = new Random(9);
    await fuzz(cases(pages, 60, 10, { everyDoc: false }), async (c) => {
      const site = 'https://fuzz.test';
      const html = Buffer.concat([
        c.bytes,
        Buffer.from('<link rel="alternate" type="application/rss+xml" href="/feed%E2%8">'),
      ]);
      const fetcher = stubFetcher({
        [`${site}/robots.txt`]: { status: 200, body: mutate(r.pick(robots).bytes, r, false).bytes },
        [`${site}/`]: {
          status: 200,
          body: html,
          headers: { 'content-type': 'text/html', 'content-language': r.pick(LANGUAGE_JUNK) },
        },
        [`${site}/sitemap.xml`]: { status: 200, body: mutate(r.pick(sitemaps).bytes, r, false).bytes },
        [`${site}/feed`]: { status: 200, body: mutate(r.pick(feeds).bytes, r, false).bytes },
      });
      const input = {
        domainId: 'other:intl:fuzz.test',
        registrableDomain: 'fuzz.test',
        country: 'intl',
        category: 'news',
      };
      const found = await discoverContract(fetcher, input, { now: () => NOW });
      if (found.draft === null && found.liveness.state !== 'blocked') fail('draft', found.reason);
      if (found.draft !== null) {
        checkText(found.draft.name, 'draft name');
        checkLanguages(found.draft.languages);
      }
    });
  });

  it('ran a few thousand cases', () => {
    // The real-page corpus (test/fixtures/real-pages) adds its own documents when it is there.
    console.log(`page-content fuzz: ${casesRun} cases, ${realPages().length} real pages`);
    expect(casesRun).toBeGreaterThanOrEqual(4000 + realPages().length);
  });
});
