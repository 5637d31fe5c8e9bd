// Bytes that are not what they claim: a JSON body with a byte sequence that is not UTF-8 is a 400 naming
// the offset (never stored as U+FFFD), and a body declared in another charset is a 415 — on the buffered
// JSON parser and on the streamed dataset upload alike.
import { describe, expect, it } from 'vitest';
import { firstInvalidUtf8 } from '../../src/http/body-encoding.js';
import { expectJson, expectProblem, inject, useHostileSeedbed } from '../support/api-helpers.js';

const ROUTES = [
  {
    url: '/api/v1/seeds',
    body: (name: string) => `{"domain":"enc.gov.sg","country":"sg","category":"news","name":"${name}"}`,
  },
  {
    url: '/api/v1/datasets',
    body: (name: string) =>
      `{"meta":{"country":"sg","category":"enc","date":"2026-01-01"},"records":[{"raw_url":"https://a.gov.sg/","x_name":"${name}"}]}`,
  },
];

/** The body with `bad` bytes spliced in where the name goes. */
function withBytes(text: string, bad: number[]): Buffer {
  const [before, after] = text.split('@@');
  return Buffer.concat([Buffer.from(before as string), Buffer.from(bad), Buffer.from(after as string)]);
}

const INVALID: Array<[string, number[]]> = [
  ['a lone 0xFF', [0xff]],
  ['a continuation byte with no lead', [0x80]],
  ['a truncated 3-byte sequence', [0xe2, 0x82]],
  ['an overlong "/"', [0xc0, 0xaf]],
  ['an encoded surrogate', [0xed, 0xa0, 0x80]],
  ['a code point past U+10FFFF', [0xf4, 0x90, 0x80, 0x80]],
  ['Latin-1 é', [0xe9]],
];

describe('body encoding', () => {
  const t = useHostileSeedbed();

  for (const route of ROUTES) {
    describe(`POST ${route.url}`, () => {
      for (const [what, bytes] of INVALID) {
        it(`${what} is a 400 invalid_utf8 naming the byte offset`, async () => {
          const payload = withBytes(route.body('ab@@cd'), bytes);
          const offset = payload.indexOf(Buffer.from('ab')) + 2;
          const body = expectProblem(
            await inject(t.app, {
              method: 'POST',
              url: route.url,
              headers: { 'content-type': 'application/json' },
              payload,
            }),
            400,
            'invalid_utf8',
          );
          expect(body.detail).toContain(`byte ${offset}`);
        });
      }

      for (const charset of ['utf-16le', 'UTF-16', 'iso-8859-1', 'windows-1252', '"shift_jis"']) {
        it(`charset=${charset} is a 415 unsupported_charset naming it`, async () => {
          const body = expectProblem(
            await inject(t.app, {
              method: 'POST',
              url: route.url,
              headers: { 'content-type': `application/json; charset=${charset}` },
              payload: route.body('x'),
            }),
            415,
            'unsupported_charset',
          );
          expect(body.detail.toLowerCase()).toContain(charset.replaceAll('"', '').toLowerCase());
        });
      }

      it('UTF-8 (declared in any case, or not declared) is accepted, non-ASCII kept exactly', async () => {
        for (const contentType of [
          'application/json',
          'application/json; charset=UTF-8',
          'application/json;charset="utf-8"',
        ]) {
          const response = await inject(t.app, {
            method: 'POST',
            url: route.url,
            headers: { 'content-type': contentType },
            payload: Buffer.from(route.body('Ünïcødé 🌱 Ελλάδα')),
          });
          expect(response.statusCode, response.body).toBeLessThan(500);
          expect([201, 409]).toContain(response.statusCode);
        }
      });
    });
  }

  it('a dataset with non-ASCII text is stored byte for byte as UTF-8', async () => {
    const text = 'Ünïcødé 🌱 Ελλάδα';
    const stored = expectJson(
      await inject(t.app, {
        method: 'POST',
        url: '/api/v1/datasets',
        headers: { 'content-type': 'application/json; charset=utf-8' },
        payload: Buffer.from(
          `{"meta":{"country":"sg","category":"enc","date":"2026-01-02"},"records":[{"raw_url":"https://a.gov.sg/","x_name":"${text}"}]}`,
        ),
      }),
      201,
    );
    const read = await inject(t.app, {
      method: 'GET',
      url: `/api/v1/datasets/sg/enc/2026-01-02/${stored.chunk}`,
    });
    expect(read.rawPayload.includes(Buffer.from(text, 'utf8'))).toBe(true);
    expect(read.json().records[0].x_name).toBe(text);
  });
});

describe('firstInvalidUtf8', () => {
  it('finds the first bad sequence and accepts every well-formed one', () => {
    expect(firstInvalidUtf8(Buffer.from('plain ascii'))).toBeNull();
    expect(firstInvalidUtf8(Buffer.from('é€🌱\u{10ffff}\u{d7ff}\u{e000}'))).toBeNull();
    expect(firstInvalidUtf8(Buffer.from([0x61, 0x62, 0xff]))).toBe(2);
    expect(firstInvalidUtf8(Buffer.from([0x61, 0xe2, 0x82]))).toBe(1);
    expect(firstInvalidUtf8(Buffer.from([0xe0, 0x80, 0x80]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0xf0, 0x8f, 0xbf, 0xbf]))).toBe(0);
    expect(firstInvalidUtf8(Buffer.from([0xed, 0xbf, 0xbf]))).toBe(0);
  });
});
