// Bytes to text for pages and feeds: a byte-order mark, then the Content-Type charset, then the document's own
// declaration (<meta charset>, <?xml encoding?>), else UTF-8. Titles of Latin-1 and UTF-16 pages stay readable, and
// so do pages whose legacy label is wrong: bytes that are valid UTF-8 with non-ASCII in them are read as UTF-8.
import { TextDecoder } from 'node:util';

/** How far into a document its own charset declaration is looked for (HTML asks for the first 1024 bytes). */
const SNIFF_BYTES = 2048;

function decoderFor(label: string | null | undefined): TextDecoder | null {
  if (!label) return null;
  try {
    return new TextDecoder(label.trim().toLowerCase());
  } catch {
    return null;
  }
}

function charsetOfContentType(contentType: string | undefined): string | null {
  const match = /charset\s*=\s*["']?([\w.:-]+)/i.exec(contentType ?? '');
  return match?.[1] ?? null;
}

function declaredCharset(head: string): string | null {
  const xml = /^\s*<\?xml[^>]*\bencoding\s*=\s*["']([\w.:-]+)["']/i.exec(head);
  if (xml) return xml[1]!;
  const meta = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(head);
  return meta?.[1] ?? null;
}

/**
 * Decodes a page or feed body. A BOM wins (it is how UTF-16 documents announce themselves), then the header,
 * then the document's own declaration; a label the platform does not know falls through to UTF-8.
 */
export function decodeText(body: Buffer, contentType?: string): string {
  if (body.length >= 3 && body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf)
    return body.subarray(3).toString('utf8');
  if (body.length >= 2 && body[0] === 0xff && body[1] === 0xfe)
    return new TextDecoder('utf-16le').decode(body);
  if (body.length >= 2 && body[0] === 0xfe && body[1] === 0xff)
    return new TextDecoder('utf-16be').decode(body);
  const fromHeader = decoderFor(charsetOfContentType(contentType));
  if (fromHeader) return decodeLabelled(body, fromHeader);
  const declared = decoderFor(declaredCharset(body.subarray(0, SNIFF_BYTES).toString('latin1')));
  // A UTF-16 declaration in bytes that were readable as ASCII is a lie (the file would have had a BOM).
  if (declared && !declared.encoding.startsWith('utf-16')) return decodeLabelled(body, declared);
  return body.toString('utf8');
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A legacy label (gb2312, iso-8859-1, shift_jis…) on bytes that are valid UTF-8 and hold non-ASCII is wrong: text in
 * a legacy encoding is almost never valid UTF-8 once it has a few accented letters or CJK characters in it, while
 * sites that moved to UTF-8 and kept their old <meta charset> (or a server default) are common. Reading such a page
 * by its label turned every word into mojibake, and with it the page's sections, language and country.
 */
function decodeLabelled(body: Buffer, decoder: TextDecoder): string {
  if (decoder.encoding === 'utf-8' || !hasNonAscii(body)) return decoder.decode(body);
  try {
    return strictUtf8.decode(body);
  } catch {
    return decoder.decode(body);
  }
}

function hasNonAscii(body: Buffer): boolean {
  for (const byte of body) if (byte > 0x7f) return true;
  return false;
}
