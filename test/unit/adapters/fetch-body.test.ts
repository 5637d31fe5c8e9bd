import { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import {
  BodyDecodeError,
  BodyTooLargeError,
  readBody,
  readBodyUpTo,
} from '../../../src/adapters/fetch-body.js';

const TEXT = Buffer.from('<html>'.padEnd(10_000, 'x'));

function source(...chunks: Buffer[]): Readable {
  return Readable.from(chunks);
}

function halves(buf: Buffer): Buffer[] {
  return [buf.subarray(0, buf.length >> 1), buf.subarray(buf.length >> 1)];
}

describe('readBody', () => {
  it('passes identity bodies through', async () => {
    expect(await readBody(source(...halves(TEXT)), undefined, 1 << 20)).toEqual(TEXT);
    expect(await readBody(source(TEXT), 'identity', 1 << 20)).toEqual(TEXT);
  });

  it.each([
    ['gzip', zlib.gzipSync(TEXT)],
    ['x-gzip', zlib.gzipSync(TEXT)],
    ['deflate', zlib.deflateSync(TEXT)],
    ['deflate', zlib.deflateRawSync(TEXT)],
    ['br', zlib.brotliCompressSync(TEXT)],
    ['GZIP', zlib.gzipSync(TEXT)],
  ])('decodes %s', async (encoding, encoded) => {
    expect(await readBody(source(...halves(encoded)), encoding, 1 << 20)).toEqual(TEXT);
  });

  it('undoes stacked codings last-applied first', async () => {
    const encoded = zlib.brotliCompressSync(zlib.gzipSync(TEXT));
    expect(await readBody(source(encoded), 'gzip, br', 1 << 20)).toEqual(TEXT);
  });

  it('leaves an unknown coding as it came', async () => {
    expect(await readBody(source(TEXT), 'zstd', 1 << 20)).toEqual(TEXT);
  });

  it('stops at the cap on raw bytes', async () => {
    await expect(readBody(source(TEXT), undefined, 9_999)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(await readBody(source(TEXT), undefined, 10_000)).toHaveLength(10_000);
  });

  it('stops at the cap on decoded bytes, and stops pulling from the source', async () => {
    const chunk = zlib.gzipSync(Buffer.alloc(1 << 20));
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 1;
        // Concatenated gzip members decode as one long stream of zeros.
        this.push(pulled > 10_000 ? null : chunk);
      },
    });
    await expect(readBody(endless, 'gzip', 3 << 20)).rejects.toBeInstanceOf(BodyTooLargeError);
    expect(pulled).toBeLessThan(100);
    expect(endless.destroyed).toBe(true);
  });

  it('reports a corrupt body as a decode error', async () => {
    await expect(
      readBody(source(Buffer.from('definitely not gzip')), 'gzip', 1 << 20),
    ).rejects.toBeInstanceOf(BodyDecodeError);
  });
});

describe('readBodyUpTo with truncate', () => {
  it('cuts an identity body at the cap and says so', async () => {
    const read = await readBodyUpTo(source(...halves(TEXT)), undefined, 4_000, true);
    expect(read.truncated).toBe(true);
    expect(read.body).toEqual(TEXT.subarray(0, 4_000));
  });

  it('returns a body that fits as it is', async () => {
    expect(await readBodyUpTo(source(TEXT), undefined, 10_000, true)).toEqual({
      body: TEXT,
      truncated: false,
    });
    expect(await readBodyUpTo(source(TEXT), undefined, 10_000, false)).toEqual({
      body: TEXT,
      truncated: false,
    });
  });

  it('cuts a decoded body at the cap and stops pulling from the source', async () => {
    const chunk = zlib.gzipSync(Buffer.alloc(1 << 20, 'z'));
    let pulled = 0;
    const endless = new Readable({
      read() {
        pulled += 1;
        this.push(pulled > 10_000 ? null : chunk);
      },
    });
    const read = await readBodyUpTo(endless, 'gzip', 3 << 20, true);
    expect(read.truncated).toBe(true);
    expect(read.body).toEqual(Buffer.alloc(3 << 20, 'z'));
    expect(pulled).toBeLessThan(100);
    expect(endless.destroyed).toBe(true);
  });

  it('still fails over the cap without truncate', async () => {
    await expect(readBodyUpTo(source(TEXT), undefined, 4_000, false)).rejects.toBeInstanceOf(
      BodyTooLargeError,
    );
  });
});
