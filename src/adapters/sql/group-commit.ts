// Group commit for SQLite transactions. SQLite runs one write transaction at a time, and with synchronous=FULL each
// commit is an fsync that blocks the main thread (better-sqlite3 is synchronous): a few milliseconds apiece, most
// of the research pipeline's time (docs/profiles.md). Transactions asked for in the same turn of the event loop (a
// chunk's answers and another chunk's claim, say) or while a group runs are run one after the other in one SQLite
// transaction, each inside its own savepoint, and committed together: one fsync for the group.
//
// What each caller sees is unchanged: its work runs alone on the connection (after the works queued before it, whose
// writes it sees, as it would have after their commits), a work that throws leaves nothing of its own behind (its
// savepoint is rolled back) and fails only its caller, and no caller hears of success before the commit that made
// its writes durable (with `afterCommit`, the WAL's sync after the commit). A failed commit fails every work of the
// group: none of them is written.
//
// A work may say it can wait a few milliseconds for company (`shareCommitWithinMs`): a contract's item commits,
// one per domain as each finishes, rarely come in the same turn, and each alone would cost the main thread its
// own fsync. The group then starts when the earliest such wait is over, or at once when a work that cannot wait
// (the default) or a full group is queued.
import { performance } from 'node:perf_hooks';
import type { Kysely, Transaction } from 'kysely';

interface Waiting<DB> {
  work: (trx: Transaction<DB>) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
  /** When (performance.now()) the work's group should start at the latest. */
  due: number;
}

/**
 * Runs `savepoint "grouped"`, `release "grouped"` or `rollback to "grouped"` at once on the connection the group's
 * transaction holds (SQLite: synchronous). Kysely's savepoints build a transaction object and compile a statement
 * each; a research chunk's two works paid for four of them (docs/performance.md, "Eighth pass").
 */
export type SavepointStatement = (command: 'savepoint' | 'release' | 'rollback to') => void;

/** Works in one commit at most: a group stays short however many wait, so none waits long for its commit. */
const MAX_GROUP = 64;

/**
 * `transaction(work)` with the `Database` port's contract, grouped as above. `afterCommit`, when given, makes a
 * commit durable (the WAL's sync, `wal-sync.ts`): a group's works are answered when it resolves, and the next group
 * runs meanwhile, so the main thread never waits for the disk.
 */
export function groupCommit<DB>(
  db: Kysely<DB>,
  options: { afterCommit?: () => Promise<void>; savepoint?: SavepointStatement } = {},
) {
  const { afterCommit, savepoint } = options;
  const waiting: Waiting<DB>[] = [];
  let running = false;
  /** The drain asked for, and when it runs. */
  let next: { due: number; cancel: () => void } | undefined;

  async function runGroup(): Promise<void> {
    let trx: Awaited<ReturnType<ReturnType<Kysely<DB>['startTransaction']>['execute']>>;
    try {
      trx = await db.startTransaction().execute();
    } catch (error) {
      for (const w of waiting.splice(0, MAX_GROUP)) w.reject(error);
      return;
    }
    const done: Array<{ waiting: Waiting<DB>; value: unknown }> = [];
    let current: Waiting<DB> | undefined;
    try {
      // Works asked for while the group runs join it too: they would only wait for its commit otherwise.
      while (done.length < MAX_GROUP && waiting.length > 0) {
        const w = waiting.shift() as Waiting<DB>;
        current = w;
        if (done.length === 0) {
          // The first work needs no savepoint: when it fails, nothing else is in the transaction.
          try {
            done.push({ waiting: w, value: await w.work(trx) });
          } catch (error) {
            current = undefined;
            w.reject(error);
            await trx.rollback().execute();
            return;
          }
          continue;
        }
        if (savepoint !== undefined) {
          // The same savepoint as below, as three statements run on the group's connection directly.
          savepoint('savepoint');
          try {
            const value = await w.work(trx);
            savepoint('release');
            done.push({ waiting: w, value });
          } catch (error) {
            current = undefined;
            w.reject(error);
            savepoint('rollback to');
            savepoint('release');
          }
          continue;
        }
        const saved = await trx.savepoint('grouped').execute();
        try {
          const value = await w.work(saved);
          await saved.releaseSavepoint('grouped').execute();
          done.push({ waiting: w, value });
        } catch (error) {
          current = undefined;
          w.reject(error);
          await saved.rollbackToSavepoint('grouped').execute();
          await saved.releaseSavepoint('grouped').execute();
        }
      }
      current = undefined;
      await trx.commit().execute();
    } catch (error) {
      // The transaction itself failed (a savepoint, the commit): nothing of the group is written.
      await trx
        .rollback()
        .execute()
        .catch(() => undefined);
      current?.reject(error);
      for (const d of done) d.waiting.reject(error);
      return;
    }
    if (afterCommit === undefined || done.length === 0) {
      for (const d of done) d.waiting.resolve(d.value);
      return;
    }
    // Not awaited: the next group may run (and commit) while this one's sync is in flight.
    afterCommit().then(
      () => {
        for (const d of done) d.waiting.resolve(d.value);
      },
      (error) => {
        // Written but perhaps not durable: its callers are told it failed, as they would be by a failed COMMIT.
        for (const d of done) d.waiting.reject(error);
      },
    );
  }

  /** When the waiting works' group should start: the earliest due, or now for a full group. */
  function dueOfGroup(): number {
    if (waiting.length >= MAX_GROUP) return 0;
    let due = Number.POSITIVE_INFINITY;
    for (const w of waiting) due = Math.min(due, w.due);
    return due;
  }

  function schedule(): void {
    if (running || waiting.length === 0) return;
    const due = dueOfGroup();
    if (next !== undefined) {
      if (next.due <= due) return;
      next.cancel();
    }
    const wait = due - performance.now();
    // Transactions asked for in this same turn (and by I/O callbacks ready now) join the first group.
    if (wait <= 0) {
      const immediate = setImmediate(() => void drain());
      next = { due, cancel: () => clearImmediate(immediate) };
    } else {
      const timeout = setTimeout(() => void drain(), Math.ceil(wait));
      next = { due, cancel: () => clearTimeout(timeout) };
    }
  }

  async function drain(): Promise<void> {
    next = undefined;
    running = true;
    try {
      while (waiting.length > 0 && dueOfGroup() <= performance.now()) await runGroup();
    } catch (error) {
      // runGroup settles every work it took; a throw here is a bug of ours, and must not leave the works still
      // waiting (or every later transaction) hanging behind a drain that never ends.
      for (const w of waiting.splice(0)) w.reject(error);
    } finally {
      running = false;
      schedule();
    }
  }

  return function transaction<T>(
    work: (trx: Transaction<DB>) => Promise<T>,
    options: { shareCommitWithinMs?: number } = {},
  ): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      const due = performance.now() + (options.shareCommitWithinMs ?? 0);
      waiting.push({ work, resolve: resolve as (value: unknown) => void, reject, due });
      schedule();
    });
  };
}
