// A JSON lines body read as a stream (POST /seeds/import): line by line as the bytes arrive, each line bounded,
// the body bounded, so a body of any size costs one line (at most maxLineBytes) in memory, never the whole.
// A line that cannot be read (too long, not UTF-8, not JSON, a reserved key) is handed on as unreadable, named
// by its number, so it is answered `rejected` and the lines after it are still read; only a body over its bound
// stops the reading.
import type { Readable } from 'node:stream';
import { TextDecoder } from 'node:util';
import { ValidationError } from '../domain/errors.js';
import { linePaths } from '../domain/seed-import.js';
import type { SizedLine } from '../services/seed-import.js';
import { bodyError, firstInvalidUtf8 } from './body-encoding.js';
import { checkJsonValue } from './json-body.js';

export interface LineBounds {
  /** The whole body: past it the reading stops with a 413 (SEEDBED_MAX_IMPORT_BYTES). */
  maxBytes: number;
  /** One line: a longer one is rejected by number and skipped without being held. */
  maxLineBytes: number;
}

const NEWLINE = 0x0a;
const CARRIAGE_RETURN = 0x0d;

export function bodyTooLarge(limit: number) {
  return bodyError(413, 'FST_ERR_CTP_BODY_TOO_LARGE', `the body is larger than ${limit} bytes`);
}

/** Each non-blank line, numbered from 1 (blank lines count, and are not answered). */
export async function* readJsonLines(payload: Readable, bounds: LineBounds): AsyncGenerator<SizedLine> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let total = 0;
  let number = 0;
  let parts: Buffer[] = [];
  let size = 0;
  let tooLong = false;
  // Leaving early must not destroy the request: that would reset the socket before the answer is sent.
  for await (const chunk of payload.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > bounds.maxBytes) throw bodyTooLarge(bounds.maxBytes);
    for (let start = 0; start <= chunk.length; ) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline < 0 ? chunk.length : newline;
      if (!tooLong && end > start) {
        size += end - start;
        // Past the bound the line's bytes are dropped as they come: a 1 GB line costs nothing to skip.
        if (size > bounds.maxLineBytes) {
          tooLong = true;
          parts = [];
        } else parts.push(chunk.subarray(start, end));
      }
      if (newline < 0) break;
      number += 1;
      const line = tooLong ? overlong(number, bounds.maxLineBytes) : readLine(number, parts, size, decoder);
      parts = [];
      size = 0;
      tooLong = false;
      if (line) yield line;
      start = newline + 1;
    }
  }
  if (parts.length > 0 || tooLong) {
    number += 1;
    const line = tooLong ? overlong(number, bounds.maxLineBytes) : readLine(number, parts, size, decoder);
    if (line) yield line;
  }
}

function overlong(line: number, max: number): SizedLine {
  return { line, unreadable: `line ${line} is longer than ${max} bytes` };
}

/** The line's JSON value, or why it cannot be read; null for a blank line. */
function readLine(line: number, parts: Buffer[], size: number, decoder: TextDecoder): SizedLine | null {
  let bytes = parts.length === 1 ? (parts[0] as Buffer) : Buffer.concat(parts, size);
  if (bytes.length > 0 && bytes[bytes.length - 1] === CARRIAGE_RETURN) bytes = bytes.subarray(0, -1);
  let text: string;
  try {
    // Strict: a bad byte would otherwise be stored as U+FFFD as if it had been sent.
    text = decoder.decode(bytes);
  } catch {
    return { line, unreadable: `line ${line} is not valid UTF-8 at byte ${firstInvalidUtf8(bytes) ?? 0}` };
  }
  if (text.trim() === '') return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { line, unreadable: `line ${line} is not valid JSON: ${(error as Error).message}` };
  }
  try {
    checkJsonValue(value);
  } catch (error) {
    if (!(error instanceof ValidationError)) throw error;
    const errors = linePaths(error.errors);
    return {
      line,
      unreadable: `line ${line}: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
      errors,
    };
  }
  return { line, value, bytes: size };
}
