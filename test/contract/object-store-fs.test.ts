// Runs the ObjectStore contract against the local-folder adapter, one fresh temp folder per test.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
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
