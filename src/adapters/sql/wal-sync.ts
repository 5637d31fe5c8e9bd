// The durability of SQLite commits, off the main thread. With synchronous=FULL every COMMIT fsyncs the WAL inside
// better-sqlite3's call, so the main thread waits for the disk (a third of the research pipeline's window under
// load, docs/profiles.md). The database runs synchronous=NORMAL instead: a COMMIT writes its frames to the WAL
// (the OS's page cache) and returns; this module then fdatasyncs the WAL on a libuv thread, and nobody is told of
// a commit before a sync that began after it has finished (docs/databases.md, "Durability").
//
// Syncs are coalesced: a commit made while a sync is in flight waits for the next one, which every commit made in
// the meantime shares. One sync at a time, never more than one waiting.
import fs from 'node:fs';

/** Makes everything written to the file so far durable. */
export type SyncFile = (path: string) => Promise<void>;

/**
 * fdatasync of the WAL through one descriptor, opened at the first sync (after this process's first commit, so
 * the file exists and this process's connection holds its shared lock on the database file) and kept: the -wal
 * file is deleted only by the last connection of any process to close, after checkpointing all of it into the
 * database file and syncing that, and while ours is open no other is the last. A missing file is durable already
 * for the same reason (checkpointed and removed before this connection opened); the next sync opens it again.
 * Only the -wal file is opened: SQLite locks the database and -shm files with fcntl locks, which closing any
 * descriptor of those files in this process would drop; it takes none on the -wal file. Callback `fs`, not
 * `fs.promises`: one libuv request a sync, without a FileHandle's bookkeeping on the main thread.
 */
export function keptDescriptor(): { sync: SyncFile; close: () => Promise<void> } {
  let descriptor: Promise<number | undefined> | undefined;
  const openOnce = (path: string) => {
    descriptor ??= new Promise<number | undefined>((resolve, reject) =>
      fs.open(path, 'r', (error, fd) => {
        if (error?.code === 'ENOENT') resolve(undefined);
        else if (error) reject(error);
        else resolve(fd);
      }),
    );
    return descriptor;
  };
  return {
    async sync(path) {
      const fd = await openOnce(path);
      if (fd === undefined) {
        descriptor = undefined;
        return;
      }
      await new Promise<void>((resolve, reject) =>
        fs.fdatasync(fd, (error) => (error ? reject(error) : resolve())),
      );
    },
    async close() {
      const fd = await descriptor?.catch(() => undefined);
      descriptor = undefined;
      if (fd !== undefined) await new Promise<void>((resolve) => fs.close(fd, () => resolve()));
    },
  };
}

/** `afterCommit()`: resolves once a sync that began after the call (so after the commit before it) has finished. */
export function walSync(walPath: string, syncFile: SyncFile) {
  let inFlight: Promise<void> | undefined;
  /** The commits waiting for the sync after the one in flight. */
  let next: { promise: Promise<void>; resolve: () => void; reject: (error: unknown) => void } | undefined;

  function run(): Promise<void> {
    const sync = syncFile(walPath);
    inFlight = sync;
    const settle = () => {
      inFlight = undefined;
      if (next === undefined) return;
      const waiting = next;
      next = undefined;
      run().then(waiting.resolve, waiting.reject);
    };
    sync.then(settle, settle);
    return sync;
  }

  return {
    /** Resolves when no sync is in flight or waiting (before the descriptor is closed). */
    async settled(): Promise<void> {
      while (inFlight !== undefined || next !== undefined)
        await (next?.promise ?? inFlight)?.catch(() => undefined);
    },
    afterCommit(): Promise<void> {
      if (inFlight === undefined) return run();
      // The sync in flight may have begun before this commit's frames were written: it waits for the next one.
      if (next === undefined) {
        let resolve!: () => void;
        let reject!: (error: unknown) => void;
        const promise = new Promise<void>((res, rej) => {
          resolve = res;
          reject = rej;
        });
        next = { promise, resolve, reject };
      }
      return next.promise;
    },
  };
}
