// The durability of SQLite commits, off the main thread. With synchronous=FULL every COMMIT fsyncs the WAL inside
// better-sqlite3's call, so the main thread waits for the disk (a third of the research pipeline's window under
// load, docs/profiles.md). The database runs synchronous=NORMAL instead: a COMMIT writes its frames to the WAL
// (the OS's page cache) and returns; this module then fdatasyncs the WAL on a libuv thread, and nobody is told of
// a commit before a sync that began after it has finished (docs/databases.md, "Durability").
//
// Syncs are coalesced: a commit made while a sync is in flight waits for the next one, which every commit made in
// the meantime shares. One sync at a time, never more than one waiting.
import { open } from 'node:fs/promises';

/** Makes everything written to the file so far durable. */
export type SyncFile = (path: string) => Promise<void>;

/**
 * fdatasync of the WAL as it is now, opened by its name each time: the -wal file is deleted when the last
 * connection (of any process) closes, and a new one made by the next. A missing file is already durable: SQLite
 * removes it only after checkpointing all of it into the database file and syncing that (NORMAL syncs checkpoints).
 * Only the -wal file is opened: SQLite locks the database and -shm files with fcntl locks, which closing any
 * descriptor of those files in this process would drop; it takes none on the -wal file.
 */
export const fdatasyncFile: SyncFile = async (path) => {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
    throw error;
  }
  try {
    await handle.datasync();
  } finally {
    await handle.close();
  }
};

/** `afterCommit()`: resolves once a sync that began after the call (so after the commit before it) has finished. */
export function walSync(walPath: string, syncFile: SyncFile = fdatasyncFile) {
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
