// Seeded mutations of real documents for the page-content fuzzer: the ways real pages, feeds and sitemaps break
// (cut short anywhere, broken percent escapes, bad bytes, absurd sizes and depths, lying charsets). Deterministic:
// the same seed gives the same cases, so a failure names a case that can be run again.

/** mulberry32: a small, fast, well-mixed 32-bit PRNG; enough for test inputs, and no dependency. */
export class Random {
  private state: number;
  constructor(seed: number) {
    this.state = seed >>> 0;
  }
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** An integer in [0, n). */
  int(n: number): number {
    return Math.floor(this.next() * n);
  }
  pick<T>(items: readonly T[]): T {
    return items[this.int(items.length)]!;
  }
  chance(p: number): boolean {
    return this.next() < p;
  }
}

export interface Mutation {
  name: string;
  /** Mutations that build megabytes: the fuzzer runs fewer of them. */
  heavy?: boolean;
  apply(doc: Buffer, r: Random): Buffer;
}

/** Bytes kept one-to-one through a string (latin1), so regex edits never re-encode what they do not touch. */
const text = (doc: Buffer): string => doc.toString('latin1');
const bytes = (s: string): Buffer => Buffer.from(s, 'latin1');
/** A UTF-8 string as the one-char-per-byte form `text` works in. */
const utf8 = (s: string): string => Buffer.from(s, 'utf8').toString('latin1');

function positionsOf(doc: Buffer, test: (byte: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < doc.length; i++) if (test(doc[i]!)) out.push(i);
  return out;
}

/** Inserts `piece` after the head opens (or the root element opens), else at a random place. */
function insertEarly(doc: Buffer, piece: string, r: Random): Buffer {
  const s = text(doc);
  const head = /<head[^>]*>|<html[^>]*>|<(urlset|sitemapindex|channel|feed|rss)[^>]*>/i.exec(s);
  const at = head ? head.index + head[0].length : r.int(s.length + 1);
  return bytes(s.slice(0, at) + piece + s.slice(at));
}

function insertAnywhere(doc: Buffer, piece: Buffer, r: Random): Buffer {
  const at = r.int(doc.length + 1);
  return Buffer.concat([doc.subarray(0, at), piece, doc.subarray(at)]);
}

function cutAfter(doc: Buffer, positions: number[], r: Random, span: number): Buffer {
  if (positions.length === 0) return doc.subarray(0, r.int(doc.length + 1));
  const at = r.pick(positions) + 1 + r.int(span);
  return doc.subarray(0, Math.min(doc.length, at));
}

export const CUT_ESCAPES = [
  '%E2%8',
  '%',
  '%zz',
  '%E2%82',
  '%C3',
  '%%',
  '%u00e9',
  '%F0%9F%98',
  '%8',
  '%ED%A0%80',
];
export const BAD_BASES = [
  'http://[::1',
  '%%',
  'javascript:alert(1)',
  'http://exa mple.com/',
  '//',
  'http://',
  ':',
  'data:text/html,x',
  'feed:',
  'http://a:b:c/',
  'http://%zz/',
  '\u0000',
];
export const LANGUAGE_JUNK = [
  'utf-8',
  'text/html; charset=utf-8',
  'iso-8859-1',
  'html',
  'text',
  '',
  ',,,,',
  'en,'.repeat(5000),
  'x'.repeat(100_000),
  'de_DE',
  'EN-us',
  '*',
  'zh-yue',
  'i-klingon',
  'und',
  'x-default',
  '\u0000en',
  'en-',
  'a-b-c-d-e-f-g-h-i-j-k-l-m-n-o-p-q-r-s-t',
  'qaa-zzzzzzzz',
];
const INVALID_UTF8 = [
  [0x80],
  [0xbf],
  [0xc0, 0xaf],
  [0xc1],
  [0xf5],
  [0xff],
  [0xfe],
  [0xed, 0xa0, 0x80],
  [0xf0, 0x9f],
  [0xe2, 0x82],
];
const JSON_LD = [
  '{"@context": ',
  '['.repeat(100_000),
  '{"a":'.repeat(20_000),
  'not json at all </script',
  '{"@type":"NewsArticle","headline":"\\ud800","inLanguage":"utf-8"}',
];
const NESTED = [
  'div',
  'a href="/rss.xml"',
  'svg',
  'title',
  'url',
  'sitemap',
  'item',
  'entry',
  'loc',
  'news:news',
];
const DECLARED = [
  '<meta charset="shift_jis">',
  '<meta http-equiv="Content-Type" content="text/html; charset=windows-1252">',
  '<meta charset="utf-16">',
  '<meta charset="x-no-such-charset">',
  '<meta charset="iso-2022-kr">',
  '<?xml version="1.0" encoding="utf-16"?>',
  '<?xml version="1.0" encoding="replacement"?>',
  '<?xml version="1.0" encoding="gb18030"?>',
];

export const MUTATIONS: readonly Mutation[] = [
  { name: 'truncate at a random byte', apply: (d, r) => d.subarray(0, r.int(d.length + 1)) },
  {
    name: 'truncate mid-tag',
    apply: (d, r) =>
      cutAfter(
        d,
        positionsOf(d, (b) => b === 0x3c),
        r,
        8,
      ),
  },
  {
    name: 'truncate mid-entity',
    apply: (d, r) =>
      cutAfter(
        d,
        positionsOf(d, (b) => b === 0x26),
        r,
        4,
      ),
  },
  {
    name: 'truncate mid-UTF-8 sequence',
    apply: (d, r) => {
      const leads = positionsOf(d, (b) => b >= 0xc0);
      const doc = leads.length > 0 ? d : insertAnywhere(d, Buffer.from('é€😀'), r);
      return cutAfter(
        doc,
        positionsOf(doc, (b) => b >= 0xc0),
        r,
        1,
      );
    },
  },
  {
    name: 'cut percent escapes in hrefs and locations',
    apply: (d, r) => {
      const s = text(d).replace(
        /((?:href|src)\s*=\s*["']?[^"'\s>]*)|(<(?:loc|link|guid|id)>[^<]*)/gi,
        (whole) => (r.chance(0.5) ? whole + r.pick(CUT_ESCAPES) : whole),
      );
      const esc = r.pick(CUT_ESCAPES);
      const links =
        `<link rel="alternate" type="application/rss+xml" title="RSS ${esc}" href="/feed/news${esc}.xml">` +
        `<link rel="alternate" href="/comments/feed${esc}"><a href="/rss/${esc}">RSS ${esc}</a><a href="feed${esc}">Feeds</a>`;
      return insertEarly(bytes(s), links, r);
    },
  },
  {
    name: 'invalid UTF-8 bytes',
    apply: (d, r) => {
      let doc = d;
      for (let i = 0, n = 1 + r.int(8); i < n; i++)
        doc = insertAnywhere(doc, Buffer.from(r.pick(INVALID_UTF8)), r);
      return doc;
    },
  },
  {
    name: 'NUL bytes, in the title too',
    apply: (d, r) => {
      let doc = bytes(text(d).replace(/<title([^>]*)>/i, '<title$1>\u0000A\u0000B\u0001'));
      for (let i = 0, n = 1 + r.int(6); i < n; i++) doc = insertAnywhere(doc, Buffer.from([0]), r);
      return doc;
    },
  },
  {
    name: 'an attribute of 1 MB',
    heavy: true,
    apply: (d, r) => {
      const big = r.pick(['a', '%', '&amp;', 'é', ' ']).repeat(1024 * 1024);
      const tag = r.pick([
        `<meta name="description" content="${big}">`,
        `<a href="/feed/${big}">RSS</a>`,
        `<link rel="alternate" type="application/rss+xml" href="/${big}">`,
        `<html lang="${big}">`,
        `<link rel="alternate" hreflang="${big}" href="/x">`,
        `<xhtml:link rel="alternate" hreflang="${big}" href="/x"/>`,
      ]);
      return insertEarly(d, utf8(tag), r);
    },
  },
  {
    name: '10,000 nested tags',
    heavy: true,
    apply: (d, r) => {
      const open = r.pick(NESTED);
      const name = open.split(' ')[0]!;
      const closed = r.chance(0.5) ? `</${name}>`.repeat(10_000) : '';
      return insertEarly(d, `<${open}>`.repeat(10_000) + closed, r);
    },
  },
  {
    name: 'a <base href> that is not a URL',
    apply: (d, r) => insertEarly(d, utf8(`<base href="${r.pick(BAD_BASES)}">`), r),
  },
  {
    name: 'content-language junk',
    apply: (d, r) => {
      const junk = utf8(r.pick(LANGUAGE_JUNK));
      const piece = r.pick([
        `<meta http-equiv="Content-Language" content="${junk}">`,
        `<link rel="alternate" hreflang="${junk}" href="/x">`,
        `<xhtml:link rel="alternate" hreflang="${junk}" href="/x"/>`,
        `<language>${junk}</language>`,
        `<news:language>${junk}</news:language>`,
      ]);
      return bytes(
        insertEarly(d, piece, r)
          .toString('latin1')
          .replace(/<html([^>]*)>/i, `<html lang="${junk}"$1>`),
      );
    },
  },
  {
    name: 'a huge number of links',
    heavy: true,
    apply: (d, r) => {
      const n = 20_000;
      const links = Array.from({ length: n }, (_, i) =>
        i % 2 === 0
          ? `<link rel="alternate" type="application/rss+xml" href="/f/${i}.xml">`
          : `<a href="/rss/${i}${r.chance(0.1) ? '%E2%8' : ''}">RSS ${i}</a>`,
      ).join('');
      return insertEarly(d, links, r);
    },
  },
  {
    name: 'JSON-LD that is not JSON or is deeply nested',
    apply: (d, r) => insertEarly(d, `<script type="application/ld+json">${r.pick(JSON_LD)}</script>`, r),
  },
  {
    name: 'byte-order marks',
    apply: (d, r) => {
      const asText = d.toString('utf8');
      switch (r.int(5)) {
        case 0:
          return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), d]);
        case 1:
          return Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(asText, 'utf16le')]);
        case 2:
          return Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(asText, 'utf16le').swap16()]);
        case 3:
          return Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf, 0xef, 0xbb, 0xbf]), d]);
        default:
          return insertAnywhere(d, Buffer.from([0xef, 0xbb, 0xbf]), r);
      }
    },
  },
  {
    name: 'mixed charsets',
    apply: (d, r) => {
      const declared = insertEarly(d, r.pick(DECLARED), r);
      // A Latin-1 and a Shift_JIS-looking run inside what is otherwise UTF-8.
      return insertAnywhere(declared, Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x20, 0x82, 0xa0, 0x93, 0xfa]), r);
    },
  },
  {
    name: 'an emoji title long enough to be cut',
    apply: (d, r) => {
      const title = `${'x'.repeat(r.int(3))}${'😀'.repeat(400)}`;
      const s = text(d);
      // Every title a page, feed or news sitemap has: <title>, <news:title>, <atom:title>.
      return /<(\w+:)?title[^>]*>/i.test(s)
        ? bytes(s.replace(/<((?:\w+:)?title)([^>]*)>/gi, `<$1$2>${utf8(title)}`))
        : insertEarly(d, utf8(`<title>${title}</title>`), r);
    },
  },
  {
    name: 'entities that are not characters',
    apply: (d, r) =>
      insertEarly(d, '<title>&#0;&#xD800;&#x110000;&#99999999999;&amp&lt;&unknown;&#x;</title>', r),
  },
  {
    name: 'random byte flips',
    apply: (d, r) => {
      const doc = Buffer.from(d);
      for (let i = 0, n = 1 + r.int(16); i < n && doc.length > 0; i++) doc[r.int(doc.length)] = r.int(256);
      return doc;
    },
  },
];

/**
 * One to three light mutations of `doc`; with `heavy`, one heavy mutation (megabytes: a 1 MB attribute, 10,000
 * nested tags, 20,000 links) and up to two light ones. Returns the bytes and what was done.
 */
export function mutate(doc: Buffer, r: Random, heavy: boolean): { bytes: Buffer; steps: string[] } {
  const light = MUTATIONS.filter((m) => !m.heavy);
  const steps: Mutation[] = heavy ? [r.pick(MUTATIONS.filter((m) => m.heavy))] : [r.pick(light)];
  for (let i = 0, n = r.int(3); i < n; i++) steps.splice(r.int(steps.length + 1), 0, r.pick(light));
  let out = doc;
  for (const m of steps) out = m.apply(out, r);
  return { bytes: out, steps: steps.map((m) => m.name) };
}
