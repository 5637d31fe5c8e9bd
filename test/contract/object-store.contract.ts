// The ObjectStore contract: one suite every adapter must pass (run from object-store-*.test.ts).
// A test an adapter's server cannot pass is skipped only by naming the limitation and its reason.
import { createHash } from 'node:crypto';
import { Readable } from 'node:stream';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  type ObjectBody,
  ObjectExistsError,
  type ObjectInfo,
  type ObjectStore,
} from '../../src/ports/object-store.js';

export interface ObjectStoreFixture {
  store: ObjectStore;
  cleanup(): Promise<void>;
}

/** Known limitations of the server behind an adapter: each value is the reason its test is skipped. */
export interface ObjectStoreLimitations {
  /** Concurrent create-only puts of one key may both succeed. */
  concurrentIfAbsent?: string;
  /** Listing order differs from byte order when a key continues with a byte below '/' ('x-1' vs 'x/1'). */
  byteOrderAcrossFolders?: string;
}

const UNSAFE_KEYS = ['../x', 'a/../b', '/abs', 'a//b', 'a/./b', 'a\\b', 'a\0b'];
const BIG_SIZE = 20 * 1024 * 1024 + 123; // not a multiple of any part size, so the last part is short
const PAGINATED_COUNT = 1100; // S3 pages hold at most 1000 keys

export function runObjectStoreContract(
  name: string,
  factory: () => Promise<ObjectStoreFixture>,
  limitations: ObjectStoreLimitations = {},
): void {
  describe(`ObjectStore contract: ${name}`, () => {
    let fixture: ObjectStoreFixture;
    let store: ObjectStore;

    beforeEach(async () => {
      fixture = await factory();
      store = fixture.store;
    });

    afterEach(async () => {
      await fixture.cleanup();
    });

    it('answers ping', async () => {
      await expect(store.ping()).resolves.toBeUndefined();
    });

    const bodies: Array<[kind: string, makeBody: () => ObjectBody, expected: Buffer]> = [
      ['Buffer', () => Buffer.from([0, 1, 2, 255, 254]), Buffer.from([0, 1, 2, 255, 254])],
      ['empty Buffer', () => Buffer.alloc(0), Buffer.alloc(0)],
      ['string', () => 'héllo {"a":1}\n', Buffer.from('héllo {"a":1}\n', 'utf8')],
      ['Readable', () => Readable.from([Buffer.from('ab'), Buffer.from('cd')]), Buffer.from('abcd')],
      ['empty Readable', () => Readable.from([]), Buffer.alloc(0)],
      ['async iterable', () => mixedChunks(), Buffer.from('one-two-three')],
    ];
    it.each(bodies)('round-trips a %s body', async (_kind, makeBody, expected) => {
      await store.put('round/trip.bin', makeBody());
      expect(await readAll(await store.get('round/trip.bin'))).toEqual(expected);
      expect((await store.head('round/trip.bin'))?.size).toBe(expected.length);
    });

    it('round-trips a 20 MB streamed body byte for byte', async () => {
      const sent = createHash('sha256');
      await store.put('big/raw_0001.json', Readable.from(pseudoRandomChunks(BIG_SIZE, sent)));
      const received = createHash('sha256');
      for await (const chunk of (await store.get('big/raw_0001.json')) ?? fail('missing big object')) {
        received.update(chunk as Buffer);
      }
      expect(received.digest('hex')).toBe(sent.digest('hex'));
      expect((await store.head('big/raw_0001.json'))?.size).toBe(BIG_SIZE);
    });

    it('heads an object with its key, size and last-modified date', async () => {
      await store.put('meta/a.json', '{"x":1}', { contentType: 'application/json' });
      const info = await store.head('meta/a.json');
      expect(info).toMatchObject({ key: 'meta/a.json', size: 7 });
      expect(info?.lastModified).toBeInstanceOf(Date);
      expect(Number.isNaN(info?.lastModified.getTime())).toBe(false);
    });

    it('answers null for get and head of a missing key', async () => {
      await store.put('present/a', 'a');
      expect(await store.get('present/b')).toBeNull();
      expect(await store.head('present/b')).toBeNull();
      expect(await store.get('absent/dir/a')).toBeNull();
      expect(await store.head('absent/dir/a')).toBeNull();
    });

    it('refuses a create-only put over an existing key and keeps the original', async () => {
      await store.put('raw/raw_0001.json', 'original');
      const attempts = [
        () => store.put('raw/raw_0001.json', 'replacement', { ifAbsent: true }),
        () =>
          store.put('raw/raw_0001.json', Readable.from([Buffer.from('streamed replacement')]), {
            ifAbsent: true,
          }),
      ];
      for (const attempt of attempts) {
        const error = await attempt().then(
          () => null,
          (caught: unknown) => caught,
        );
        expect(error).toBeInstanceOf(ObjectExistsError);
        expect((error as ObjectExistsError).key).toBe('raw/raw_0001.json');
      }
      expect((await readAll(await store.get('raw/raw_0001.json'))).toString()).toBe('original');
    });

    it('creates a new key with a create-only put', async () => {
      await store.put('raw/raw_0002.json', 'fresh', { ifAbsent: true });
      await store.put('raw/raw_0003.json', Readable.from([Buffer.from('fresh stream')]), { ifAbsent: true });
      expect((await readAll(await store.get('raw/raw_0002.json'))).toString()).toBe('fresh');
      expect((await readAll(await store.get('raw/raw_0003.json'))).toString()).toBe('fresh stream');
    });

    it('puts many objects into one folder at once, and more while those finish, each whole', async () => {
      // The folder store shares a folder's syncs between its puts: the first wave's, and a second wave asked for
      // while the first is still syncing, must each resolve with its object in place.
      const key = (i: number) => `raw/country=fr/raw_${String(i).padStart(4, '0')}.json`;
      const first = Array.from({ length: 24 }, (_, i) => store.put(key(i), `chunk ${i}`, { ifAbsent: true }));
      await first[0];
      const second = Array.from({ length: 24 }, (_, i) =>
        store.put(key(24 + i), `chunk ${24 + i}`, { ifAbsent: true }),
      );
      await Promise.all([...first, ...second]);
      for (let i = 0; i < 48; i++)
        expect((await readAll(await store.get(key(i)))).toString()).toBe(`chunk ${i}`);
    });

    it('overwrites without ifAbsent', async () => {
      await store.put('prod/d/domain_metadata.json', 'first version, longer');
      await store.put('prod/d/domain_metadata.json', 'second');
      expect((await readAll(await store.get('prod/d/domain_metadata.json'))).toString()).toBe('second');
      expect((await store.head('prod/d/domain_metadata.json'))?.size).toBe(6);
    });

    it(`lists ${PAGINATED_COUNT} keys under a prefix in key order, across pages`, async () => {
      const keys = Array.from(
        { length: PAGINATED_COUNT },
        (_, i) => `many/raw_${String(i).padStart(4, '0')}.json`,
      );
      // Created out of order, so a listing that follows creation order fails.
      const creationOrder = keys.map((_, i) => keys[(i * 7919) % keys.length] ?? '');
      await inPool(creationOrder, 16, (key) => store.put(key, key));
      await store.put('many-other/x', 'outside the prefix');
      await store.put('man', 'shorter than the prefix');

      const listed = await collect(store.list('many/'));
      expect(listed.map((info) => info.key)).toEqual(keys);
      expect(listed.every((info) => info.size === Buffer.byteLength(info.key))).toBe(true);
    });

    it.skipIf(limitations.byteOrderAcrossFolders !== undefined)(
      `lists in byte order when keys continue with bytes below and above '/'${skipNote(limitations.byteOrderAcrossFolders)}`,
      async () => {
        const keys = [
          'order/X',
          'order/x-1',
          'order/x.json',
          'order/x/1',
          'order/x/2',
          'order/x0',
          'order/xa',
          'order/é',
        ];
        await inPool([...keys].reverse(), 4, (key) => store.put(key, 'k'));
        expect((await collect(store.list('order/'))).map((info) => info.key)).toEqual(keys);
      },
    );

    it('treats a list prefix as a string prefix and lists nothing outside it', async () => {
      const keys = ['pre/a/1', 'pre/a/2', 'pre/ab/1', 'pre/b/1'];
      await inPool(keys, 4, (key) => store.put(key, key));
      const list = async (prefix: string) => (await collect(store.list(prefix))).map((info) => info.key);
      expect(await list('pre/a/')).toEqual(['pre/a/1', 'pre/a/2']);
      expect(await list('pre/a')).toEqual(['pre/a/1', 'pre/a/2', 'pre/ab/1']);
      expect(await list('pre/ab/')).toEqual(['pre/ab/1']);
      expect(await list('pre/a/1')).toEqual(['pre/a/1']);
      expect(await list('pre/')).toEqual(keys);
      expect(await list('')).toEqual(keys);
      expect(await list('nothing/')).toEqual([]);
    });

    it('deletes idempotently and only the named key', async () => {
      await store.put('del/a', 'a');
      await store.put('del/ab', 'ab');
      await store.delete('del/a');
      expect(await store.get('del/a')).toBeNull();
      await expect(store.delete('del/a')).resolves.toBeUndefined();
      await expect(store.delete('del/never/was')).resolves.toBeUndefined();
      expect((await readAll(await store.get('del/ab'))).toString()).toBe('ab');
    });

    it.each(
      UNSAFE_KEYS.map((key) => [JSON.stringify(key), key]),
    )('refuses the unsafe key %s on every method', async (_label, key) => {
      await expect(store.put(key, 'x')).rejects.toThrow(/unsafe object key/);
      await expect(store.put(key, 'x', { ifAbsent: true })).rejects.toThrow(/unsafe object key/);
      await expect(store.get(key)).rejects.toThrow(/unsafe object key/);
      await expect(store.head(key)).rejects.toThrow(/unsafe object key/);
      await expect(store.delete(key)).rejects.toThrow(/unsafe object key/);
      await expect(collect(store.list(`${key}/`))).rejects.toThrow(/unsafe object key/);
      expect(await collect(store.list(''))).toEqual([]);
    });

    it.skipIf(limitations.concurrentIfAbsent !== undefined)(
      `lets exactly one of several concurrent create-only puts win${skipNote(limitations.concurrentIfAbsent)}`,
      async () => {
        const contenders = Array.from({ length: 8 }, (_, i) => `writer ${i}`);
        const results = await Promise.allSettled(
          contenders.map((body) => store.put('race/raw_0001.json', body, { ifAbsent: true })),
        );
        const winners = contenders.filter((_, i) => results[i]?.status === 'fulfilled');
        expect(winners).toHaveLength(1);
        for (const result of results) {
          if (result.status === 'rejected') expect(result.reason).toBeInstanceOf(ObjectExistsError);
        }
        expect((await readAll(await store.get('race/raw_0001.json'))).toString()).toBe(winners[0]);
      },
    );
  });
}

function skipNote(reason: string | undefined): string {
  return reason === undefined ? '' : ` (skipped: ${reason})`;
}

function fail(message: string): never {
  throw new Error(message);
}

async function readAll(stream: Readable | null): Promise<Buffer> {
  if (stream === null) throw new Error('expected an object, got null');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(Buffer.from(chunk as Uint8Array));
  return Buffer.concat(chunks);
}

async function collect(items: AsyncIterable<ObjectInfo>): Promise<ObjectInfo[]> {
  const out: ObjectInfo[] = [];
  for await (const item of items) out.push(item);
  return out;
}

async function* mixedChunks(): AsyncGenerator<Uint8Array | string> {
  yield 'one';
  yield new Uint8Array(Buffer.from('-two-'));
  yield 'three';
}

/** Deterministic bytes (xorshift32) in 64 KiB chunks, hashed as they are produced: never the whole body in memory. */
function* pseudoRandomChunks(total: number, hash: ReturnType<typeof createHash>): Generator<Buffer> {
  let state = 0x9e3779b9;
  for (let sent = 0; sent < total; ) {
    const chunk = Buffer.allocUnsafe(Math.min(64 * 1024, total - sent));
    for (let i = 0; i < chunk.length; i++) {
      state ^= state << 13;
      state ^= state >>> 17;
      state ^= state << 5;
      chunk[i] = state & 0xff;
    }
    hash.update(chunk);
    sent += chunk.length;
    yield chunk;
  }
}

async function inPool<T>(
  items: readonly T[],
  concurrency: number,
  work: (item: T) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
}
