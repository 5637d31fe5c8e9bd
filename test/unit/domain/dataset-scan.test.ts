// The dataset push scanner: whatever the chunking (one piece, byte by byte, random cuts), it yields the same
// members and records JSON.parse sees, and refuses what JSON.parse refuses, with the right kind of error.
import { describe, expect, it } from 'vitest';
import { createDatasetScanner, JsonScanError } from '../../../src/domain/dataset-scan.js';
import { ValidationError } from '../../../src/domain/errors.js';
import { firstInvalidUtf8 } from '../../../src/http/body-encoding.js';

interface Scanned {
  members: Array<[string, unknown]>;
  records: unknown[] | null;
}

function scan(bytes: Uint8Array, cuts: (length: number) => number[]): Scanned {
  const out: Scanned = { members: [], records: null };
  const scanner = createDatasetScanner({
    invalidUtf8At: firstInvalidUtf8,
    member: (key, value) => out.members.push([key, value]),
    recordsBegin: () => {
      out.records = [];
    },
    record: (value, index) => {
      expect(index).toBe(out.records?.length);
      out.records?.push(value);
    },
  });
  let from = 0;
  for (const to of [...cuts(bytes.length), bytes.length]) {
    if (to <= from) continue;
    scanner.write(bytes.subarray(from, to));
    from = to;
  }
  scanner.end();
  return out;
}

const whole = () => [];
const byteByByte = (n: number) => Array.from({ length: n }, (_, i) => i);
function randomCuts(seed: number) {
  return (n: number) => {
    let x = seed;
    const cuts: number[] = [];
    for (let at = 0; at < n; ) {
      x = (x * 1103515245 + 12345) % 2 ** 31;
      at += 1 + (x % 17);
      cuts.push(at);
    }
    return cuts;
  };
}
const CHUNKINGS = [whole, byteByByte, randomCuts(1), randomCuts(7)];

const DOCUMENTS = [
  '{}',
  '{"records":[]}',
  ' \n{ "meta" : {"country":"sg"} , "records" : [ {"raw_url":"a"} , {"raw_url":"b","x":[1,{"y":"]}"}]} ] , "z" : -1.5e3 }\r\n',
  '{"records":[1,"two",null,true,false,[],{}],"tail":"\\"quoted\\" \\\\ and \\u00e9"}',
  '{"x":"🌱 ünï","records":[{"raw_url":"https://a/\\u2028"}],"n":0}',
  '{"records":{"not":"an array"},"meta":null}',
  '\ufeff{"records":[]}',
];

describe('createDatasetScanner', () => {
  for (const text of DOCUMENTS) {
    it(`yields what JSON.parse sees: ${text.slice(0, 50)}`, () => {
      const expected = JSON.parse(text.replace(/^\ufeff/, '')) as Record<string, unknown>;
      for (const chunking of CHUNKINGS) {
        const got = scan(Buffer.from(text), chunking);
        const { records, ...rest } = expected;
        const streamed = Array.isArray(records);
        expect(Object.fromEntries(got.members)).toEqual(streamed ? rest : expected);
        expect(got.records).toEqual(streamed ? records : null);
      }
    });
  }

  const INVALID = [
    '{"country":',
    '{country: "sg"}',
    "{'a':1}",
    '{"a":1}}',
    '{"a":1,}',
    '{"records":[1,]}',
    '{"records":[1 2]}',
    '{"records":[{"a":}]}',
    '{"a" 1}',
    '{"a":tru}',
    '{"a":1} x',
    '[1,2',
    'undefined',
    '\u0000',
  ];
  for (const text of INVALID) {
    it(`refuses ${JSON.stringify(text)} as invalid JSON, however it is cut`, () => {
      for (const chunking of CHUNKINGS) {
        let error: unknown;
        try {
          scan(Buffer.from(text), chunking);
        } catch (e) {
          error = e;
        }
        expect(error, `${JSON.stringify(text)} / ${chunking.name}`).toBeInstanceOf(JsonScanError);
        expect((error as JsonScanError).kind).toBe('invalid_json');
      }
    });
  }

  it('an empty or blank body is "empty"; a valid non-object a validation error at body', () => {
    for (const text of ['', '  \n ']) {
      expect(() => scan(Buffer.from(text), whole)).toThrow(
        expect.objectContaining({ kind: 'empty' }) as unknown as Error,
      );
    }
    for (const text of ['[]', 'null', '"text"', '42', 'true', '[{"meta":{}}]']) {
      let error: unknown;
      try {
        scan(Buffer.from(text), byteByByte);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ValidationError);
      expect((error as ValidationError).errors[0]?.path).toBe('body');
    }
  });

  it('a duplicate top-level member is a validation error naming it', () => {
    expect(() => scan(Buffer.from('{"records":[],"records":[]}'), whole)).toThrow(/body.records/);
  });

  it('invalid UTF-8 inside a record is refused with its body offset', () => {
    const bytes = Buffer.concat([
      Buffer.from('{"records":[{"a":"x'),
      Buffer.from([0xc3]),
      Buffer.from('"}]}'),
    ]);
    for (const chunking of CHUNKINGS) {
      let error: unknown;
      try {
        scan(bytes, chunking);
      } catch (e) {
        error = e;
      }
      expect(error).toMatchObject({ kind: 'invalid_utf8', offset: 19 });
    }
  });

  it('holds one record at a time: a record is handed over before the next one is read', () => {
    const seen: number[] = [];
    const scanner = createDatasetScanner({
      invalidUtf8At: firstInvalidUtf8,
      member: () => undefined,
      recordsBegin: () => undefined,
      record: (_value, index) => seen.push(index),
    });
    scanner.write(Buffer.from('{"records":[{"a":1},{"a":2},{"a"'));
    expect(seen).toEqual([0, 1]);
    scanner.write(Buffer.from(':3}]}'));
    scanner.end();
    expect(seen).toEqual([0, 1, 2]);
  });
});
