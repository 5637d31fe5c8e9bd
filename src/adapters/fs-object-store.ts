// Local-folder object store: the embedded default. Writes go to a temp file, are fsynced, then linked
// (create-only) or renamed (overwrite) into place, so a reader never sees a half-written object.
import { randomUUID } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { link, mkdir, open, readdir, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, sep } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertSafeKey,
  type ObjectBody,
  ObjectExistsError,
  type ObjectInfo,
  type ObjectStore,
  type PutOptions,
} from '../ports/object-store.js';

const TEMP_DIR = '.tmp';

export function createFsObjectStore(root: string): ObjectStore {
  const pathOf = (key: string): string => {
    assertSafeKey(key);
    return join(root, ...key.split('/'));
  };

  // Folders this store made or found: a crawl writes four objects per domain, and `mkdir -p` on every put
  // costs more system calls than the write itself. A folder removed behind our back is made again (ENOENT).
  const folders = new Set<string>();
  async function ensureDir(dir: string, again = false): Promise<void> {
    if (!again && folders.has(dir)) return;
    await mkdir(dir, { recursive: true });
    folders.add(dir);
  }

  async function writeTemp(body: ObjectBody): Promise<string> {
    const tempDir = join(root, TEMP_DIR);
    await ensureDir(tempDir);
    const tempPath = join(tempDir, `${randomUUID()}.part`);
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        // A body in memory: one handle to write and sync it, no stream machinery.
        const handle = await open(tempPath, 'wx').catch(async (error: NodeJS.ErrnoException) => {
          if (error.code !== 'ENOENT') throw error;
          await ensureDir(tempDir, true);
          return open(tempPath, 'wx');
        });
        try {
          await handle.writeFile(body);
          await handle.sync();
        } finally {
          await handle.close();
        }
        return tempPath;
      }
      await ensureDir(tempDir, true);
      await pipeline(body, createWriteStream(tempPath, { flags: 'wx' }));
      const handle = await open(tempPath, 'r');
      try {
        await handle.sync();
      } finally {
        await handle.close();
      }
      return tempPath;
    } catch (error) {
      await rm(tempPath, { force: true });
      throw error;
    }
  }

  async function syncDir(dir: string): Promise<void> {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  }

  // A folder's sync makes durable every entry linked into it before the sync began, so the puts of one folder
  // share their syncs: one at a time per folder, and those that link while it runs share the next. A research
  // batch puts 16 chunks at once into one partition's folder, and each put's own sync (three requests to libuv's
  // four threads, one an fsync) held up the others' (docs/performance.md, "Third pass").
  const folderSyncs = new Map<string, { running?: Promise<void>; next?: Promise<void> }>();
  function syncDirShared(dir: string): Promise<void> {
    let state = folderSyncs.get(dir);
    if (!state) {
      state = {};
      folderSyncs.set(dir, state);
    }
    const folder = state;
    const start = (): Promise<void> => {
      const sync = syncDir(dir).finally(() => {
        if (folder.running === sync) folder.running = undefined;
        if (!folder.running && !folder.next) folderSyncs.delete(dir);
      });
      folder.running = sync;
      return sync;
    };
    if (!folder.running) return start();
    // The running sync may have begun before this put's link: the next one, begun after it ends, is this put's.
    folder.next ??= folder.running
      .catch(() => undefined)
      .then(() => {
        folder.next = undefined;
        return start();
      });
    return folder.next;
  }

  return {
    kind: 'fs',

    async put(key: string, body: ObjectBody, options: PutOptions = {}): Promise<void> {
      const finalPath = pathOf(key);
      const finalDir = dirname(finalPath);
      await ensureDir(finalDir);
      // No `stat` first for a create-only put: the `link` below fails with EEXIST when the name is taken, and a
      // taken name is the rare case (a retried chunk), where only the temp file's write is wasted. The check cost
      // every research chunk a request to libuv's pool (docs/performance.md, "Fourth pass").
      const tempPath = await writeTemp(body);
      let placed = false;
      try {
        // A folder deleted since it was cached is made again, once.
        const retryOnMissingDir = async (move: () => Promise<void>) => {
          try {
            await move();
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
            await ensureDir(finalDir, true);
            await move();
          }
        };
        if (options.ifAbsent) {
          // link() fails with EEXIST when the name is taken: an atomic create-only, even between processes.
          try {
            await retryOnMissingDir(() => link(tempPath, finalPath));
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ObjectExistsError(key);
            throw error;
          }
          await unlink(tempPath);
        } else {
          await retryOnMissingDir(() => rename(tempPath, finalPath));
        }
        placed = true;
        await syncDirShared(finalDir);
      } finally {
        if (!placed) await rm(tempPath, { force: true });
      }
    },

    async get(key: string): Promise<Readable | null> {
      // Open first, then stream from the handle: a delete in between cannot turn "missing" into a stream error.
      let handle: import('node:fs/promises').FileHandle;
      try {
        handle = await open(pathOf(key), 'r');
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === 'ENOENT' || code === 'EISDIR' || code === 'ENOTDIR') return null;
        throw error;
      }
      if (!(await handle.stat()).isFile()) {
        await handle.close();
        return null;
      }
      return handle.createReadStream();
    },

    async head(key: string): Promise<ObjectInfo | null> {
      try {
        const info = await stat(pathOf(key));
        return info.isFile() ? { key, size: info.size, lastModified: info.mtime } : null;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },

    async *list(prefix: string): AsyncIterable<ObjectInfo> {
      // Walk only the directories that can hold keys with this prefix, in byte order like S3's listing.
      const slash = prefix.lastIndexOf('/');
      const baseKey = slash >= 0 ? prefix.slice(0, slash) : '';
      if (baseKey) assertSafeKey(baseKey);
      const baseDir = baseKey ? join(root, ...baseKey.split('/')) : root;
      for await (const info of walk(baseDir, baseKey)) {
        if (info.key.startsWith(prefix)) yield info;
      }
    },

    async delete(key: string): Promise<void> {
      await rm(pathOf(key), { force: true });
    },

    async ping(): Promise<void> {
      await mkdir(root, { recursive: true });
      await stat(root);
    },

    async close(): Promise<void> {},
  };
}

async function* walk(dir: string, keyPrefix: string): AsyncGenerator<ObjectInfo> {
  let entries: import('node:fs').Dirent[];
  try {
    entries = await readdir(dir, { withFileTypes: true });
  } catch (error) {
    if (
      (error as NodeJS.ErrnoException).code === 'ENOENT' ||
      (error as NodeJS.ErrnoException).code === 'ENOTDIR'
    )
      return;
    throw error;
  }
  const names = entries
    .filter((entry) => !(keyPrefix === '' && entry.name === TEMP_DIR))
    .map((entry) => ({ entry, key: keyPrefix ? `${keyPrefix}/${entry.name}` : entry.name }));
  // A directory "a" sorts as "a/" among its siblings, exactly as its keys would in a flat listing.
  names.sort((x, y) =>
    compareBytes(x.entry.isDirectory() ? `${x.key}/` : x.key, y.entry.isDirectory() ? `${y.key}/` : y.key),
  );
  for (const { entry, key } of names) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      yield* walk(path, key);
    } else if (entry.isFile() && !entry.name.includes(sep)) {
      const info = await stat(path);
      yield { key, size: info.size, lastModified: info.mtime };
    }
  }
}

function compareBytes(a: string, b: string): number {
  return Buffer.compare(Buffer.from(a), Buffer.from(b));
}
