// Runs the ObjectStore contract against the local-folder adapter, one fresh temp folder per test.
import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createFsObjectStore, FS_TEMP_PREFIX } from '../../src/adapters/fs-object-store.js';
import { runObjectStoreContract } from './object-store.contract.js';

runObjectStoreContract('fs', async () => {
  const root = await mkdtemp(join(tmpdir(), 'seedbed-fs-store-'));
  const store = createFsObjectStore(root);
  return {
    store,
    async cleanup() {
      await store.close();
      await rm(root, { recursive: true, force: true });
    },
  };
});

describe('the folder store', () => {
  it('writes again into folders removed behind its back (it remembers the folders it made)', async () => {
    const root = await mkdtemp(join(tmpdir(), 'seedbed-fs-store-'));
    const store = createFsObjectStore(root);
    try {
      await store.put('prod/a/one.txt', 'one');
      await store.put('prod/a/two.txt', 'two', { ifAbsent: true });
      await rm(join(root, 'prod'), { recursive: true });
      await store.put('prod/a/three.txt', 'three');
      await store.put('prod/a/four.txt', Readable.from(['four']), { ifAbsent: true });
      const keys: string[] = [];
      for await (const object of store.list('prod/')) keys.push(object.key);
      expect(keys).toEqual(['prod/a/four.txt', 'prod/a/three.txt']);
    } finally {
      await store.close();
      await rm(root, { recursive: true, force: true });
    }
  });

  it('writes in flight beside the object and leaves no temp file; a crash leftover is never listed or readable', async () => {
    const root = await mkdtemp(join(tmpdir(), 'seedbed-fs-store-'));
    const store = createFsObjectStore(root);
    try {
      await store.put('raw/sg/one.json', 'one');
      await store.put('raw/sg/two.json', Readable.from(['two']), { ifAbsent: true });
      await expect(store.put('raw/sg/two.json', 'again', { ifAbsent: true })).rejects.toThrow();
      // Every write placed its file: nothing but the two objects in their folder, and no folder for writes at the top.
      expect((await readdir(join(root, 'raw', 'sg'))).sort()).toEqual(['one.json', 'two.json']);
      expect(await readdir(root)).toEqual(['raw']);
      // A process killed mid-write leaves its temp file (and, before 2026-11-27, a top-level .tmp/ folder).
      await writeFile(join(root, 'raw', 'sg', `${FS_TEMP_PREFIX}0b7c-left-by-a-crash`), 'half');
      await rm(join(root, '.tmp'), { recursive: true, force: true });
      await writeFile(join(root, '.tmp'), 'legacy');
      const keys: string[] = [];
      for await (const object of store.list('')) keys.push(object.key);
      expect(keys).toEqual(['raw/sg/one.json', 'raw/sg/two.json']);
      // No key may name a temp file: it could never be listed.
      await expect(store.get(`raw/sg/${FS_TEMP_PREFIX}0b7c-left-by-a-crash`)).rejects.toThrow(/reserved/);
      await expect(store.put(`raw/${FS_TEMP_PREFIX}x/a.json`, 'x')).rejects.toThrow(/reserved/);
    } finally {
      await store.close();
      await rm(root, { recursive: true, force: true });
    }
  });
});
