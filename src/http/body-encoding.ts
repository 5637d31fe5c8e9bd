// Bytes that are what they claim: a JSON body is UTF-8 (RFC 8259 §8.1). A declared charset other than UTF-8 is
// a 415 and a byte sequence that is not UTF-8 a 400 naming its offset, instead of U+FFFD stored silently.
import type { FastifyError } from 'fastify';

/** The errors the body readers raise, mapped by errors.ts like Fastify's own. */
export function bodyError(statusCode: number, code: string, message: string): FastifyError {
  return Object.assign(new Error(message), { statusCode, code, name: 'BodyError' }) as FastifyError;
}

/** Throws a 415 when the Content-Type names a charset other than UTF-8 (a missing one means UTF-8). */
export function assertUtf8Charset(contentType: string | undefined): void {
  if (!contentType) return;
  for (const param of contentType.split(';').slice(1)) {
    const eq = param.indexOf('=');
    if (eq < 0 || param.slice(0, eq).trim().toLowerCase() !== 'charset') continue;
    const charset = param
      .slice(eq + 1)
      .trim()
      .replace(/^"(.*)"$/, '$1')
      .toLowerCase();
    if (charset !== 'utf-8' && charset !== 'utf8')
      throw bodyError(
        415,
        'SEEDBED_UNSUPPORTED_CHARSET',
        `charset=${charset.slice(0, 40)} is not supported: a JSON body must be UTF-8 (send charset=utf-8 or none)`,
      );
  }
}

/** The 400 for bytes that are not UTF-8, naming where the first bad sequence starts. */
export function invalidUtf8(offset: number | null): FastifyError {
  const where = offset === null ? '' : ` at byte ${offset}`;
  return bodyError(400, 'SEEDBED_INVALID_UTF8', `the body is not valid UTF-8${where}`);
}

/** Decodes a whole body as strict UTF-8 (a leading BOM is dropped), or throws invalidUtf8. */
export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    throw invalidUtf8(firstInvalidUtf8(bytes));
  }
}

/**
 * The offset of the first byte that does not start a well-formed UTF-8 sequence (RFC 3629: no overlongs,
 * no surrogates, nothing past U+10FFFF), or null when every byte is well-formed. Only run on the error path.
 */
export function firstInvalidUtf8(bytes: Uint8Array): number | null {
  let i = 0;
  while (i < bytes.length) {
    const b = bytes[i] as number;
    if (b < 0x80) {
      i++;
      continue;
    }
    let need: number;
    let min: number;
    if (b >= 0xc2 && b <= 0xdf) [need, min] = [1, 0x80];
    else if (b >= 0xe0 && b <= 0xef) [need, min] = [2, 0x800];
    else if (b >= 0xf0 && b <= 0xf4) [need, min] = [3, 0x10000];
    else return i;
    let cp = b & (0x3f >> need);
    for (let k = 1; k <= need; k++) {
      const c = bytes[i + k];
      if (c === undefined || (c & 0xc0) !== 0x80) return i;
      cp = (cp << 6) | (c & 0x3f);
    }
    if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff)) return i;
    i += need + 1;
  }
  return null;
}
