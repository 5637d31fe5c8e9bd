// Percent-decoding for text that came from the web: a page's href, a feed URL, a query parameter. A link cut off
// mid-escape (`/feed%E2%8`, `/rss%`, `%zz`) is common on real pages, and decodeURIComponent throws on it.
import { TextDecoder } from 'node:util';

/** Not fatal: bytes that are not UTF-8 become U+FFFD, as a browser shows them. */
const UTF8 = new TextDecoder('utf-8');

function isHex(code: number): boolean {
  return (code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66);
}

function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x57;
}

/**
 * decodeURIComponent that never throws. Valid text decodes exactly as decodeURIComponent would; otherwise the
 * WHATWG URL Standard's percent-decode is used: a `%` not followed by two hex digits stays as written, and the
 * escaped bytes that are not UTF-8 (a sequence cut short, a lone continuation byte) become U+FFFD.
 */
export function safeDecodeURIComponent(text: string): string {
  if (!text.includes('%')) return text;
  try {
    return decodeURIComponent(text);
  } catch {
    // Falls through to the lossy decoding below.
  }
  // Percent-decoded in place over the text's UTF-8 bytes (a lone surrogate is already U+FFFD there): an escape
  // is three bytes that become one, so the output never outgrows the input.
  const bytes = Buffer.from(text, 'utf8');
  let out = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i]!;
    if (byte === 0x25 && i + 2 < bytes.length && isHex(bytes[i + 1]!) && isHex(bytes[i + 2]!)) {
      bytes[out++] = (hexValue(bytes[i + 1]!) << 4) | hexValue(bytes[i + 2]!);
      i += 2;
    } else {
      bytes[out++] = byte;
    }
  }
  return UTF8.decode(bytes.subarray(0, out));
}
