// SQLite's checkpoints off the main thread. SQLite checkpoints the WAL (copies its pages into the database file)
// inside the COMMIT that takes it past `wal_autocheckpoint` pages, with an fsync of the WAL before and of the
// database file after: on the main thread, since better-sqlite3 is synchronous. In the research pipeline's window
// the commits above 5 ms (the checkpoints) summed to about half of all commit time (docs/profiles.md).
//
// A file database's connection runs with `wal_autocheckpoint = 0` instead, and a worker thread holds a second
// connection to the same file that runs `PRAGMA wal_checkpoint(PASSIVE)` every CHECKPOINT_INTERVAL_MS: the same
// checkpoint SQLite would run, with the same syncs (synchronous=NORMAL), from another connection, which SQLite
// supports as it supports several processes on one file. PASSIVE never waits for or blocks the writer. Durability
// is unchanged: a commit is still answered after the WAL's own sync (wal-sync.ts), and a checkpoint only copies
// frames already in the WAL. Should the thread fail or exit, the connection takes its own checkpoints again
// (`onLost`), so the WAL never grows without end.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the thread checkpoints; the WAL holds what the service writes in that time (≈ 1,000 pages at most). */
export const CHECKPOINT_INTERVAL_MS = 100;

/** The thread: plain JavaScript, so it runs the same from the sources (tsx) and from the build. */
const THREAD = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const connection = new Database(workerData.path, { fileMustExist: true });
connection.pragma('synchronous = NORMAL');
connection.pragma('wal_autocheckpoint = 0');
const checkpoint = () => {
  const [result] = connection.pragma('wal_checkpoint(PASSIVE)');
  parentPort.postMessage({ checkpointed: result.checkpointed, log: result.log });
};
const timer = setInterval(checkpoint, workerData.intervalMs);
parentPort.on('message', (message) => {
  if (message !== 'close') return;
  clearInterval(timer);
  connection.close();
  parentPort.postMessage('closed');
});
`;

export interface Checkpointer {
  /** Resolves after the thread's next checkpoint (tests). */
  next(): Promise<{ checkpointed: number; log: number }>;
  /** Stops the thread and closes its connection, before the main connection closes (it must be the last). */
  close(): Promise<void>;
}

/**
 * Starts the thread for the database file at `path` (it must exist, in WAL mode). `onLost` runs once if the thread
 * fails or exits before close(): the caller's connection takes its checkpoints back.
 */
export function startCheckpointer(path: string, onLost: (error: unknown) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(THREAD, {
    eval: true,
    workerData: { path, driver, intervalMs: CHECKPOINT_INTERVAL_MS },
  });
  // Never what keeps the process alive.
  worker.unref();
  let closing = false;
  let lost = false;
  const lose = (error: unknown) => {
    if (closing || lost) return;
    lost = true;
    onLost(error);
  };
  worker.on('error', lose);
  worker.on('exit', (code) => lose(new Error(`the checkpoint thread exited (${code})`)));
  const waiting = new Set<(result: { checkpointed: number; log: number }) => void>();
  worker.on('message', (message: unknown) => {
    if (typeof message !== 'object' || message === null) return;
    const result = message as { checkpointed: number; log: number };
    for (const resolve of waiting) resolve(result);
    waiting.clear();
  });
  return {
    next() {
      return new Promise((resolve) => waiting.add(resolve));
    },
    async close() {
      if (closing) return;
      closing = true;
      if (lost) return;
      const closed = new Promise<void>((resolve) => {
        worker.on('message', (message: unknown) => {
          if (message === 'closed') resolve();
        });
        worker.once('exit', () => resolve());
      });
      worker.postMessage('close');
      await closed;
      await worker.terminate();
    },
  };
}
