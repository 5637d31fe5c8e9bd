// robots.txt path patterns (RFC 9309 §2.2.2–2.2.3): one canonical percent-encoding for rule patterns and URL
// paths, so equivalent spellings compare equal, and the `*` / `$` matcher over that form.

const HEX = '0123456789ABCDEF';

/** RFC 3986 unreserved characters: their percent-encoded form means the same character. */
const UNRESERVED = /[A-Za-z0-9\-._~]/;
/**
 * Characters kept as written. Reserved characters stay raw (and their escapes stay escaped): `/a%2Fb` and
 * `/a/b` are different paths. `*` and `$` are not here: raw in a URL they are literal characters, so they
 * take the escaped form a rule uses for a literal `*` or `$`.
 */
const KEPT = /[A-Za-z0-9\-._~:/?#[\]@!&'()+,;=]/;

function isHex(code: number | undefined): boolean {
  return (
    code !== undefined &&
    ((code >= 0x30 && code <= 0x39) || (code >= 0x41 && code <= 0x46) || (code >= 0x61 && code <= 0x66))
  );
}

function escapeByte(code: number): string {
  return `%${HEX[code >> 4]}${HEX[code & 0x0f]}`;
}

/**
 * Canonical form of a byte string (one char per byte, as `latin1` decoding gives): `%xx` escapes upper-cased,
 * escapes of unreserved characters decoded, and every byte that is neither kept nor an escape (non-ASCII,
 * controls, space, `"<>\^`{|}`, a stray `%`) escaped. `special` names characters that keep a pattern meaning
 * and are left raw (the rule side passes `*`, and `$` when it ends the pattern).
 */
function canonical(bytes: string, special: (char: string, index: number) => boolean): string {
  let out = '';
  for (let i = 0; i < bytes.length; i++) {
    const char = bytes[i]!;
    if (char === '%' && isHex(bytes.charCodeAt(i + 1)) && isHex(bytes.charCodeAt(i + 2))) {
      const hex = bytes.slice(i + 1, i + 3).toUpperCase();
      const decoded = String.fromCharCode(Number.parseInt(hex, 16));
      out += UNRESERVED.test(decoded) ? decoded : `%${hex}`;
      i += 2;
    } else if (special(char, i) || KEPT.test(char)) {
      out += char;
    } else {
      out += escapeByte(char.charCodeAt(0));
    }
  }
  return out;
}

/**
 * A compiled Allow/Disallow value. `text` is the canonical pattern where a raw `*` is the wildcard and a raw
 * final `$` anchors the end (a literal `*` or `$` is `%2A` / `%24` by then).
 */
export interface PathPattern {
  text: string;
  /** Octets of the canonical pattern: the longer match wins (RFC 9309 §2.2.2). */
  priority: number;
}

/** `value` is the rule's value as bytes (one char per byte). */
export function compilePattern(value: string): PathPattern {
  const text = canonical(value, (char, i) => char === '*' || (char === '$' && i === value.length - 1));
  return { text, priority: text.length };
}

/** The part of a URL that rules are matched against: path and query, in canonical form. */
export function canonicalPath(url: URL): string {
  // WHATWG URL already percent-encodes non-ASCII as UTF-8; it is the form the request is sent in.
  const raw = `${url.pathname || '/'}${url.search}`;
  return canonical(raw, () => false);
}

/**
 * Whether `pattern` matches `path` from its start. Segments between wildcards are found leftmost-first, which
 * is exact for `*`-only globs and linear in practice even for hostile patterns (no backtracking).
 */
export function matches(pattern: string, path: string): boolean {
  const anchored = pattern.endsWith('$');
  const body = anchored ? pattern.slice(0, -1) : pattern;
  const parts = body.split('*');
  const first = parts[0]!;
  if (!path.startsWith(first)) return false;
  if (parts.length === 1) return anchored ? path.length === first.length : true;
  let at = first.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const found = path.indexOf(parts[i]!, at);
    if (found < 0) return false;
    at = found + parts[i]!.length;
  }
  const last = parts[parts.length - 1]!;
  if (!anchored) return path.indexOf(last, at) >= 0;
  return path.length - last.length >= at && path.endsWith(last);
}
