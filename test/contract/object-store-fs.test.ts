// Runs the ObjectStore contract against the local-folder adapter, one fresh temp folder per test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createFsObjectStore } from '../../src/adapters/fs-object-store.js';
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
      await rm(join(root, '.tmp'), { recursive: true });
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
});
