// Reads one sitemap file as its bytes arrive, never holding it whole: XML (urlset, sitemapindex, RSS 2.0, Atom,
// RDF) through htmlparser2 in XML mode, or plain text (one URL a line), reporting each page and child sitemap.
import { TextDecoder } from 'node:util';
import { Parser } from 'htmlparser2';

/** What a file turned out to be. `unknown` is not a sitemap (an HTML page, an empty body); `refused` declared entities. */
export type SitemapKind = 'urlset' | 'index' | 'feed' | 'text' | 'unknown' | 'refused';

export interface SitemapNews {
  publication_date: string | null;
  title: string | null;
  language: string | null;
  name: string | null;
}

/** One page entry as written in the file: `loc` is trimmed and entity-decoded but not validated. */
export interface SitemapPage {
  loc: string;
  lastmod: string | null;
  news: SitemapNews | null;
  /** hreflang values of the entry's `<xhtml:link rel="alternate">` elements. */
  hreflang: string[];
}

export interface SitemapReaderEvents {
  page(page: SitemapPage): void;
  child(loc: string): void;
}

export interface SitemapFileSummary {
  kind: SitemapKind;
  /** A Google News sitemap: an entry carries `<news:news>`, or the root declares the news namespace. */
  news: boolean;
  /** Page entries read whole (`<url>`, feed items, URL lines), with or without a usable location. */
  entries: number;
  children: number;
  /** The document ended before its root closed (a cut or broken file): what came before it still counts. */
  complete: boolean;
}

export interface SitemapReader {
  write(bytes: Uint8Array): void;
  end(): SitemapFileSummary;
  /** Nothing more worth reading: an HTML page, or a refused document. Stop feeding it. */
  readonly done: boolean;
}

const NEWS_NAMESPACE = 'google.com/schemas/sitemap-news/';
/** A longer text value is no URL, date or title worth keeping; capping it bounds memory on hostile files. */
const MAX_TEXT = 8 * 1024;
const URL_LINE = /^https?:\/\/\S+$/i;
const MAX_ALTERNATES = 256;

const localName = (name: string): string => {
  const colon = name.lastIndexOf(':');
  return (colon === -1 ? name : name.slice(colon + 1)).toLowerCase();
};

/** BOMs and the XML declaration pick the decoder; anything unknown is read as UTF-8 (the protocol's encoding). */
function decoderFor(head: Uint8Array): TextDecoder {
  if (head[0] === 0xff && head[1] === 0xfe) return new TextDecoder('utf-16le');
  if (head[0] === 0xfe && head[1] === 0xff) return new TextDecoder('utf-16be');
  const ascii = Buffer.from(head.subarray(0, 256)).toString('latin1');
  const label =
    /^(?:\uFEFF|\u00EF\u00BB\u00BF)?\s*<\?xml[^>]*\bencoding\s*=\s*["']([A-Za-z0-9._-]+)["']/.exec(
      ascii,
    )?.[1];
  if (label !== undefined && !/^utf-?16/i.test(label)) {
    try {
      return new TextDecoder(label.toLowerCase());
    } catch {
      // An unknown label: fall through to UTF-8.
    }
  }
  return new TextDecoder('utf-8');
}

type Field = 'loc' | 'link' | 'guid' | 'lastmod' | 'publication_date' | 'title' | 'language' | 'name';

interface Entry {
  kind: 'page' | 'child';
  /** Stack depth of the entry element itself. */
  depth: number;
  loc: string | null;
  link: string | null;
  guid: string | null;
  lastmod: string | null;
  news: SitemapNews | null;
  hreflang: string[];
  /** A `<sitemap>` may list several `<loc>`, or carry its URL as bare text. */
  locs: string[];
  text: string;
}

const DATE_FIELDS: Record<string, Field> = {
  lastmod: 'lastmod',
  pubdate: 'lastmod',
  updated: 'lastmod',
  published: 'lastmod',
  date: 'lastmod',
};

export function createSitemapReader(events: SitemapReaderEvents): SitemapReader {
  let decoder: TextDecoder | null = null;
  let mode: 'sniff' | 'xml' | 'text' = 'sniff';
  let done = false;
  let ending = false;
  let refused = false;
  let root: string | null = null;
  let rootClosed = false;
  let news = false;
  let entries = 0;
  let children = 0;
  const stack: string[] = [];
  let entry: Entry | null = null;
  let capture: { field: Field; depth: number; text: string } | null = null;
  let pending = '';
  let skippingLine = false;

  function kindOf(): SitemapKind {
    if (refused) return 'refused';
    if (mode === 'text') return entries > 0 ? 'text' : 'unknown';
    if (root === 'urlset') return 'urlset';
    if (root === 'sitemapindex') return 'index';
    if (isFeed()) return 'feed';
    // A root of another name (or none, in a cut file) still counts by what it held.
    if (root === 'html') return 'unknown';
    if (entries > 0) return 'urlset';
    return children > 0 ? 'index' : 'unknown';
  }

  const isFeed = () => root === 'rss' || root === 'rdf' || root === 'feed' || root === 'channel';

  function emitPage(e: Entry): void {
    entries += 1;
    const loc = e.loc ?? e.link ?? e.guid;
    if (loc === null || loc === '') return;
    events.page({ loc, lastmod: e.lastmod, news: e.news, hreflang: e.hreflang });
  }

  function emitChildren(e: Entry): void {
    const locs = e.locs.length > 0 ? e.locs : e.text.trim() === '' ? [] : [e.text.trim()];
    for (const loc of locs) {
      children += 1;
      events.child(loc);
    }
  }

  function assign(field: Field, raw: string): void {
    if (entry === null) return;
    const value = raw.trim();
    if (field === 'loc') {
      if (entry.kind === 'child') {
        if (value !== '') entry.locs.push(value);
      } else entry.loc ??= value;
    } else if (field === 'link') entry.link ??= value;
    else if (field === 'guid') entry.guid ??= value;
    else if (field === 'lastmod') entry.lastmod ??= value;
    else if (entry.news !== null) entry.news[field] ??= value.replace(/\s+/g, ' ');
  }

  function onOpen(name: string, attribs: Record<string, string>): void {
    if (done) return;
    const local = localName(name);
    if (root === null) {
      root = local;
      if (local === 'html') {
        done = true;
        return;
      }
      for (const value of Object.values(attribs)) if (value.includes(NEWS_NAMESPACE)) news = true;
    }
    stack.push(local);
    const depth = stack.length;
    if (entry === null) {
      const page = isFeed() ? local === 'item' || local === 'entry' : local === 'url';
      if (page || (!isFeed() && local === 'sitemap')) {
        entry = {
          kind: page ? 'page' : 'child',
          depth,
          loc: null,
          link: null,
          guid: null,
          lastmod: null,
          news: null,
          hreflang: [],
          locs: [],
          text: '',
        };
      }
      return;
    }
    if (capture !== null) return;
    const parent = stack[depth - 2];
    const direct = depth === entry.depth + 1;
    let field: Field | null = null;
    if (entry.kind === 'child') {
      if (direct && local === 'loc') field = 'loc';
    } else if (direct && local === 'loc') field = 'loc';
    else if (local === 'link') {
      if (!isFeed()) {
        const lang = attribs['hreflang'];
        const alternate = (attribs['rel'] ?? 'alternate').toLowerCase() === 'alternate';
        // A page has a few dozen language versions at most; more is a broken or hostile file.
        if (lang !== undefined && alternate && entry.hreflang.length < MAX_ALTERNATES)
          entry.hreflang.push(lang.trim());
      } else if (direct && attribs['href'] !== undefined) {
        // Atom: the entry's own page is its alternate link (rel left out means alternate).
        const rel = (attribs['rel'] ?? 'alternate').toLowerCase();
        if (rel === 'alternate' && entry.link === null) entry.link = attribs['href'].trim();
      } else if (direct) field = 'link';
    } else if (direct && local === 'guid' && isFeed()) {
      // A fallback for an item without <link>, whatever isPermaLink says: a guid that is no URL counts as invalid.
      field = 'guid';
    } else if (direct && DATE_FIELDS[local] !== undefined) field = DATE_FIELDS[local]!;
    else if (direct && local === 'news' && !isFeed()) {
      entry.news = { publication_date: null, title: null, language: null, name: null };
      news = true;
    } else if (entry.news !== null && stack[entry.depth] === 'news') {
      if (local === 'publication_date' || local === 'title') field = local;
      else if (parent === 'publication' && (local === 'language' || local === 'name')) field = local;
    }
    if (field !== null) capture = { field, depth, text: '' };
  }

  function onText(text: string): void {
    if (done || entry === null) return;
    if (capture !== null) {
      if (capture.text.length < MAX_TEXT) capture.text += text;
    } else if (entry.kind === 'child' && stack.length === entry.depth && entry.text.length < MAX_TEXT) {
      entry.text += text;
    }
  }

  function onClose(): void {
    if (done) return;
    const depth = stack.length;
    stack.pop();
    if (depth === 1) rootClosed = !ending;
    if (ending) {
      // end() closes what a cut file left open: an element still being read may hold half a URL, so only a
      // location whose own closing tag was read counts (an index child cut after its </loc>, not a <loc> cut short).
      if (entry !== null && entry.depth === depth) {
        const cut = entry;
        entry = null;
        capture = null;
        if (cut.kind === 'page' && (cut.loc ?? cut.link ?? cut.guid ?? '') !== '') emitPage(cut);
        if (cut.kind === 'child') emitChildren({ ...cut, text: '' });
      }
      return;
    }
    if (capture !== null && capture.depth === depth) {
      if (capture.text.length < MAX_TEXT) assign(capture.field, capture.text);
      capture = null;
    }
    if (entry !== null && entry.depth === depth) {
      const finished = entry;
      entry = null;
      capture = null;
      if (finished.kind === 'page') emitPage(finished);
      else emitChildren(finished);
    }
  }

  function onInstruction(name: string, data: string): void {
    if (done) return;
    const n = name.toLowerCase();
    // Entity declarations are how "billion laughs" and external-entity attacks start: refuse the document.
    if (n === '!entity' || (n === '!doctype' && /<!ENTITY/i.test(data))) {
      refused = true;
      done = true;
    }
  }

  const parser = new Parser(
    {
      onopentag: onOpen,
      ontext: onText,
      onclosetag: onClose,
      onprocessinginstruction: onInstruction,
    },
    { xmlMode: true, decodeEntities: true },
  );

  function textLine(line: string): void {
    const url = line.trim();
    if (!URL_LINE.test(url)) return;
    entries += 1;
    events.page({ loc: url, lastmod: null, news: null, hreflang: [] });
  }

  function writeText(chunk: string): void {
    const lines = (pending + chunk).split(/\r\n|\n|\r/);
    pending = lines.pop() ?? '';
    for (const line of lines) {
      if (skippingLine) skippingLine = false;
      else textLine(line);
    }
    // A line this long is no URL: drop it up to its newline instead of growing `pending` without bound.
    if (pending.length > MAX_TEXT) {
      pending = '';
      skippingLine = true;
    }
  }

  function writeString(chunk: string): void {
    if (mode === 'sniff') {
      const first = /\S/.exec(chunk);
      if (first === null) return;
      mode = chunk[first.index] === '<' ? 'xml' : 'text';
      chunk = chunk.slice(first.index);
    }
    if (mode === 'xml') parser.write(chunk);
    else writeText(chunk);
  }

  return {
    get done() {
      return done;
    },
    write(bytes: Uint8Array): void {
      if (done || bytes.length === 0) return;
      decoder ??= decoderFor(bytes);
      writeString(decoder.decode(bytes, { stream: true }));
    },
    end(): SitemapFileSummary {
      if (!done && decoder !== null) writeString(decoder.decode());
      ending = true;
      if (mode === 'xml') parser.end();
      if (mode === 'text' && !skippingLine && !refused) textLine(pending);
      const kind = kindOf();
      return { kind, news, entries, children, complete: mode !== 'xml' || rootClosed };
    },
  };
}

/** Reads a whole decompressed file at once (tests, small bodies); the streaming reader does the work. */
export function readSitemapText(
  text: string,
  events: SitemapReaderEvents = { page() {}, child() {} },
): SitemapFileSummary {
  const reader = createSitemapReader(events);
  reader.write(Buffer.from(text, 'utf8'));
  return reader.end();
}
