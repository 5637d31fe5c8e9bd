// A push scanner for one JSON object whose `records` array may be far larger than memory should hold: bytes
// go in chunk by chunk; each top-level member and each element of `records` comes out parsed, one at a time.
// Only one member or element is ever buffered, so a 60 MB dataset costs the size of its largest record.
import { ValidationError } from './errors.js';

export type ScanErrorKind = 'empty' | 'invalid_json' | 'invalid_utf8';

/** Bytes that are not one JSON object: `offset` is where in the body the problem was seen. */
export class JsonScanError extends Error {
  constructor(
    readonly kind: ScanErrorKind,
    message: string,
    readonly offset: number,
  ) {
    super(message);
    this.name = 'JsonScanError';
  }
}

export interface ScanHandlers {
  /** A top-level member, parsed (`records` too when it is not an array). */
  member(key: string, value: unknown): void;
  /** A top-level `records` array begins (its elements follow through `record`). */
  recordsBegin(): void;
  /** One element of a top-level `records` array, parsed. */
  record(value: unknown, index: number): void;
  /** Where `bytes` fail strict UTF-8 decoding, relative to their start (null when unknown). */
  invalidUtf8At(bytes: Uint8Array): number | null;
}

export interface DatasetScanner {
  write(chunk: Uint8Array): void;
  /** Completes the document; throws when it ended early or was not an object. */
  end(): void;
}

/** A document that is not an object is buffered up to this many bytes, to tell bad JSON from a wrong type. */
const MAX_NON_OBJECT_BYTES = 1024 * 1024;
/** No number or literal is this long; a longer run is garbage, refused before it is buffered. */
const MAX_SCALAR_BYTES = 4096;

const BOM = [0xef, 0xbb, 0xbf];
const isSpace = (b: number) => b === 0x20 || b === 0x0a || b === 0x0d || b === 0x09;
const isDelimiter = (b: number) => isSpace(b) || b === 0x2c || b === 0x7d || b === 0x5d;
const SCALAR_START = new Set([...'-0123456789tfn'].map((c) => c.charCodeAt(0)));

type State =
  | 'top'
  | 'key-or-end'
  | 'key-start'
  | 'key'
  | 'colon'
  | 'value-start'
  | 'value'
  | 'comma-or-end'
  | 'element-or-end'
  | 'element-start'
  | 'element'
  | 'element-comma-or-end'
  | 'after'
  | 'non-object';

export function createDatasetScanner(handlers: ScanHandlers): DatasetScanner {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let state: State = 'top';
  let base = 0; // offset of the current chunk in the body
  let key = '';
  let index = 0;
  let bom = 0;
  const seen = new Set<string>();
  // The value being captured: its parts (views of the chunks), where it started and how it nests.
  let parts: Uint8Array[] = [];
  let captured = 0;
  let start = 0;
  let kind: 'container' | 'scalar' = 'container';
  let depth = 0;
  let inString = false;
  let escaped = false;

  const fail = (message: string, at: number): never => {
    throw new JsonScanError('invalid_json', `the body is not valid JSON: ${message} at byte ${at}`, at);
  };

  function begin(b: number, at: number) {
    parts = [];
    captured = 0;
    start = at;
    depth = 0;
    inString = false;
    escaped = false;
    if (b === 0x7b || b === 0x5b || b === 0x22) kind = 'container';
    else if (SCALAR_START.has(b)) kind = 'scalar';
    else fail(`unexpected character ${JSON.stringify(String.fromCharCode(b))}`, at);
  }

  /** Scans from i; the end of the value (exclusive) when it completes in this chunk, else -1. */
  function scan(chunk: Uint8Array, i: number): number {
    if (kind === 'scalar') {
      for (let j = i; j < chunk.length; j++) if (isDelimiter(chunk[j] as number)) return j;
      return -1;
    }
    for (let j = i; j < chunk.length; j++) {
      const b = chunk[j] as number;
      if (inString) {
        if (escaped) escaped = false;
        else if (b === 0x5c) escaped = true;
        else if (b === 0x22) {
          inString = false;
          if (depth === 0) return j + 1;
        }
      } else if (b === 0x22) inString = true;
      else if (b === 0x7b || b === 0x5b) depth++;
      else if (b === 0x7d || b === 0x5d) {
        depth--;
        if (depth <= 0) return j + 1;
      }
    }
    return -1;
  }

  function take(chunk: Uint8Array, from: number, to: number) {
    parts.push(chunk.subarray(from, to));
    captured += to - from;
    if (kind === 'scalar' && captured > MAX_SCALAR_BYTES) fail('a value runs on without end', start);
  }

  function parse(where: string): unknown {
    const bytes = parts.length === 1 ? (parts[0] as Uint8Array) : Buffer.concat(parts);
    parts = [];
    let text: string;
    try {
      text = decoder.decode(bytes);
    } catch {
      const at = start + (handlers.invalidUtf8At(bytes) ?? 0);
      throw new JsonScanError('invalid_utf8', `the body is not valid UTF-8 at byte ${at}`, at);
    }
    try {
      return JSON.parse(text);
    } catch (error) {
      return fail(`${(error as Error).message} (in ${where})`, start);
    }
  }

  function write(chunk: Uint8Array): void {
    let i = 0;
    while (i < chunk.length) {
      const b = chunk[i] as number;
      const at = base + i;
      switch (state) {
        case 'top':
          // A byte order mark may open the body (RFC 8259 §8.1 lets a parser ignore it).
          if (at === bom && at < 3 && b === BOM[at]) {
            bom++;
            break;
          }
          if (bom > 0 && bom < 3) fail('an incomplete byte order mark', at);
          if (isSpace(b)) break;
          if (b === 0x7b) state = 'key-or-end';
          else {
            state = 'non-object';
            kind = 'container';
            parts = [];
            captured = 0;
            start = at;
            continue;
          }
          break;
        case 'non-object':
          take(chunk, i, chunk.length);
          if (captured > MAX_NON_OBJECT_BYTES) throw ValidationError.field('body', 'expected an object');
          i = chunk.length;
          continue;
        case 'key-or-end':
        case 'key-start':
          if (isSpace(b)) break;
          if (b === 0x7d && state === 'key-or-end') state = 'after';
          else if (b === 0x22) {
            begin(b, at);
            state = 'key';
            continue;
          } else fail('expected a member name in double quotes', at);
          break;
        case 'key':
        case 'value':
        case 'element': {
          const end = scan(chunk, i);
          take(chunk, i, end < 0 ? chunk.length : end);
          if (end < 0) {
            i = chunk.length;
            continue;
          }
          i = end;
          if (state === 'key') {
            key = parse('a member name') as string;
            if (seen.has(key)) throw ValidationError.field(`body.${key}`, 'appears more than once');
            seen.add(key);
            state = 'colon';
          } else if (state === 'value') {
            handlers.member(key, parse(`body.${key}`));
            state = 'comma-or-end';
          } else {
            handlers.record(parse(`body.records.${index}`), index);
            index++;
            state = 'element-comma-or-end';
          }
          continue;
        }
        case 'colon':
          if (isSpace(b)) break;
          if (b !== 0x3a) fail('expected ":" after a member name', at);
          state = 'value-start';
          break;
        case 'value-start':
          if (isSpace(b)) break;
          if (key === 'records' && b === 0x5b) {
            handlers.recordsBegin();
            state = 'element-or-end';
            break;
          }
          begin(b, at);
          state = 'value';
          continue;
        case 'comma-or-end':
          if (isSpace(b)) break;
          if (b === 0x2c) state = 'key-start';
          else if (b === 0x7d) state = 'after';
          else fail('expected "," or "}"', at);
          break;
        case 'element-or-end':
        case 'element-start':
          if (isSpace(b)) break;
          if (b === 0x5d && state === 'element-or-end') {
            state = 'comma-or-end';
            break;
          }
          begin(b, at);
          state = 'element';
          continue;
        case 'element-comma-or-end':
          if (isSpace(b)) break;
          if (b === 0x2c) state = 'element-start';
          else if (b === 0x5d) state = 'comma-or-end';
          else fail('expected "," or "]" in records', at);
          break;
        case 'after':
          if (!isSpace(b)) fail('unexpected data after the end of the document', at);
          break;
      }
      i++;
    }
    base += chunk.length;
  }

  function end(): void {
    if (state === 'after') return;
    if (state === 'top') throw new JsonScanError('empty', 'the body is empty; send a JSON document', base);
    if (state === 'non-object') {
      const value = parse('body');
      const type = Array.isArray(value) ? 'array' : value === null ? 'null' : typeof value;
      throw ValidationError.field('body', `Invalid input: expected object, received ${type}`);
    }
    fail('the document ends early', base);
  }

  return { write, end };
}
