// Item results of many chunks committed together. On the embedded database (SQLite, synchronous=FULL) every
// COMMIT is an fsync of a few milliseconds on the one thread that also parses every domain's pages and passes the
// fetcher its messages: a discovery committing each of its 1,000 qualifications alone spent 5–9 s of a 15–40 s
// qualification blocked there (docs/discovery.md, "Speed"), and the requests in flight fell while it did. Here the
// results that come in within a short window (and while the group before them is being written) share one
// transaction: the batch's progress still moves within the window, and an answered item is still never redone.
import type { ChunkWork, ItemStatus } from '../domain/batches.js';
import type { ChunkLedger, ItemCommit, RecordItemStep } from '../services/chunk-ledger.js';
import type { ItemCommits } from './chunk-worker.js';

export interface ItemCommitGroupOptions {
  /** How long the first result of a group waits for others to join it. */
  windowMs: number;
  /** At most this many results in one transaction; a full group is written at once. */
  maxItems: number;
}

export interface ItemCommitGroups {
  /** The item commits of one chunk, joining the process's groups. */
  of(work: ChunkWork): ItemCommits;
}

interface Waiting extends ItemCommit {
  resolve: (status: ItemStatus) => void;
  reject: (error: unknown) => void;
}

export function itemCommitGroups(
  ledger: Pick<ChunkLedger, 'commitItem' | 'commitItems'>,
  options: ItemCommitGroupOptions,
): ItemCommitGroups {
  const maxItems = Math.max(1, Math.floor(options.maxItems));
  let waiting: Waiting[] = [];
  let timer: NodeJS.Timeout | null = null;
  let writing = false;

  /** The next group is written once its window is over, and never while another is being written. */
  function schedule(): void {
    if (writing || waiting.length === 0) return;
    if (waiting.length >= maxItems) {
      if (timer !== null) clearTimeout(timer);
      timer = null;
      void write();
      return;
    }
    timer ??= setTimeout(() => {
      timer = null;
      void write();
    }, options.windowMs);
  }

  async function write(): Promise<void> {
    writing = true;
    const group = waiting.slice(0, maxItems);
    waiting = waiting.slice(group.length);
    try {
      const statuses = await ledger.commitItems(group);
      for (const [i, entry] of group.entries()) entry.resolve(statuses[i] as ItemStatus);
    } catch {
      // One item's failing record step must not fail the others with it: each is written alone, and only the
      // failing one gets its error (a record step runs in a transaction and may run again: rolled back here).
      await Promise.all(
        group.map((entry) =>
          ledger.commitItem(entry.work, entry.index, entry.record).then(entry.resolve, entry.reject),
        ),
      );
    } finally {
      writing = false;
      schedule();
    }
  }

  return {
    of(work) {
      return {
        commit(index: number, record: RecordItemStep): Promise<ItemStatus> {
          return new Promise<ItemStatus>((resolve, reject) => {
            waiting.push({ work, index, record, resolve, reject });
            schedule();
          });
        },
      };
    },
  };
}
