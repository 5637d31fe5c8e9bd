// Several small transactions that come close together share one durable commit. On SQLite with
// `synchronous=FULL` each COMMIT waits for an fsync, on the main thread, and while it waits nothing else runs:
// no answer from the fetch thread is read, no next request is asked for. A contract batch commits one item per
// domain, so at a hundred domains a second those commits alone held the main thread for 0.6–6 ms each
// (docs/fetching.md). Grouped, the items that finish within a few milliseconds of each other are durable
// with one fsync.
//
// Each step still succeeds or fails on its own: it runs inside a savepoint, and a step that throws is rolled
// back to it, its caller rejected, the group's other steps kept. A step's promise resolves only once the
// group's COMMIT is done, so a resolved step is as durable as one in a transaction of its own. A failing COMMIT
// rejects every step of the group.
import { sql } from 'kysely';
import type { Database, DbTransaction } from '../ports/database.js';

export interface CommitGroup {
  /** Runs `step` in the next group's transaction; resolves with its value once that transaction committed. */
  run<T>(step: (trx: DbTransaction) => Promise<T>): Promise<T>;
}

interface Queued {
  step: (trx: DbTransaction) => Promise<unknown>;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

/** How long the first step of a group waits for others: short beside a domain's seconds of fetching. */
export const COMMIT_GROUP_WINDOW_MS = 10;
/** Steps per group at most, so one transaction never holds the database for long. */
export const COMMIT_GROUP_MAX_STEPS = 64;

export function createCommitGroup(
  database: Pick<Database, 'transaction'>,
  windowMs = COMMIT_GROUP_WINDOW_MS,
  maxSteps = COMMIT_GROUP_MAX_STEPS,
): CommitGroup {
  let queued: Queued[] = [];
  let timer: NodeJS.Timeout | null = null;
  let running = false;

  function schedule(): void {
    if (running || timer || queued.length === 0) return;
    timer = setTimeout(() => void flush(), queued.length >= maxSteps ? 0 : windowMs);
  }

  async function flush(): Promise<void> {
    timer = null;
    running = true;
    const steps = queued.slice(0, maxSteps);
    queued = queued.slice(steps.length);
    try {
      await commit(steps);
    } finally {
      running = false;
      schedule();
    }
  }

  async function commit(steps: Queued[]): Promise<void> {
    const outcomes: Array<{ ok: true; value: unknown } | { ok: false; error: unknown }> = [];
    try {
      await database.transaction(async (trx) => {
        // A step alone needs no savepoint: its failure rolls the transaction back, as it always did.
        if (steps.length === 1) {
          outcomes.push({ ok: true, value: await (steps[0] as Queued).step(trx) });
          return;
        }
        for (const { step } of steps) {
          await sql`savepoint grouped_step`.execute(trx);
          try {
            const value = await step(trx);
            await sql`release savepoint grouped_step`.execute(trx);
            outcomes.push({ ok: true, value });
          } catch (error) {
            await sql`rollback to savepoint grouped_step`.execute(trx);
            await sql`release savepoint grouped_step`.execute(trx);
            outcomes.push({ ok: false, error });
          }
        }
      });
    } catch (error) {
      for (const { reject } of steps) reject(error);
      return;
    }
    steps.forEach(({ resolve, reject }, i) => {
      const outcome = outcomes[i];
      if (outcome?.ok) resolve(outcome.value);
      else reject(outcome?.error);
    });
  }

  return {
    run<T>(step: (trx: DbTransaction) => Promise<T>): Promise<T> {
      return new Promise<T>((resolve, reject) => {
        queued.push({ step, resolve: resolve as (value: unknown) => void, reject });
        if (queued.length >= maxSteps && timer && !running) {
          clearTimeout(timer);
          timer = null;
        }
        schedule();
      });
    },
  };
}
