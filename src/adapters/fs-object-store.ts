// Local-folder object store: the embedded default. Writes go to a temp file beside the object, are fsynced, then
// linked (create-only) or renamed (overwrite) into place, so a reader never sees a half-written object.
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

/**
 * A write in flight is a file named with this prefix in its object's own folder: created there and renamed or
 * linked within the folder, so puts into different folders never contend for one directory's lock, and no move
 * crosses folders (a cross-folder rename takes the filesystem's rename lock). Listings skip such names, and no
 * key may use one (docs/object-storage.md).
 */
export const FS_TEMP_PREFIX = '.seedbed-part-';
/** Where writes in flight went before 2026-11-27: still skipped at the top, for leftovers of a crash. */
const LEGACY_TEMP_DIR = '.tmp';

export function createFsObjectStore(root: string): ObjectStore {
  const pathOf = (key: string): string => {
    assertSafeKey(key);
    const parts = key.split('/');
    if (parts.some((part) => part.startsWith(FS_TEMP_PREFIX)))
      throw new Error(`object key uses the folder store's reserved temp-file prefix: ${JSON.stringify(key)}`);
    return join(root, ...parts);
  };

  // Folders this store made or found: a crawl writes four objects per domain, and `mkdir -p` on every put
  // costs more system calls than the write itself. A folder removed behind our back is made again (ENOENT).
  const folders = new Set<string>();
  async function ensureDir(dir: string, again = false): Promise<void> {
    if (!again && folders.has(dir)) return;
    await mkdir(dir, { recursive: true });
    folders.add(dir);
  }

  /** Writes and syncs `body` to a new temp file in `dir` (the object's folder); returns its path. */
  async function writeTemp(dir: string, body: ObjectBody): Promise<string> {
    const tempPath = join(dir, `${FS_TEMP_PREFIX}${randomUUID()}`);
    try {
      if (typeof body === 'string' || Buffer.isBuffer(body)) {
        // A body in memory: one handle to write and sync it, no stream machinery.
        const handle = await open(tempPath, 'wx').catch(async (error: NodeJS.ErrnoException) => {
          // A folder removed since it was cached is made again, once.
          if (error.code !== 'ENOENT') throw error;
          await ensureDir(dir, true);
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
      await ensureDir(dir, true);
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
      const tempPath = await writeTemp(finalDir, body);
      let placed = false;
      try {
        if (options.ifAbsent) {
          // link() fails with EEXIST when the name is taken: an atomic create-only, even between processes.
          try {
            await link(tempPath, finalPath);
          } catch (error) {
            if ((error as NodeJS.ErrnoException).code === 'EEXIST') throw new ObjectExistsError(key);
            throw error;
          }
          await unlink(tempPath);
        } else {
          await rename(tempPath, finalPath);
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
    .filter(
      (entry) =>
        !entry.name.startsWith(FS_TEMP_PREFIX) && !(keyPrefix === '' && entry.name === LEGACY_TEMP_DIR),
    )
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
