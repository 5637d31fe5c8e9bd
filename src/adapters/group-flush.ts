// Group commit for a queue adapter: items submitted while a flush runs wait for the next one, so one statement
// settles every job that finished meanwhile (many under load, one when idle) instead of one round trip each.

/** submit(item) resolves once a flush that included the item has finished; a failed flush fails its items. */
export function groupFlush<T>(flush: (items: T[]) => Promise<void>, maxItems = 1000) {
  let waiting: Array<{ item: T; resolve: () => void; reject: (error: unknown) => void }> = [];
  let draining = false;

  async function drain(): Promise<void> {
    // Let the jobs that finish in this same turn join the first flush.
    await new Promise<void>((resolve) => setImmediate(resolve));
    for (;;) {
      // Checked and cleared in one step: an item submitted from here on starts the next drain.
      if (waiting.length === 0) {
        draining = false;
        return;
      }
      const group = waiting.slice(0, maxItems);
      waiting = waiting.slice(group.length);
      try {
        await flush(group.map((g) => g.item));
        for (const g of group) g.resolve();
      } catch (error) {
        for (const g of group) g.reject(error);
      }
    }
  }

  return {
    submit(item: T): Promise<void> {
      const done = new Promise<void>((resolve, reject) => waiting.push({ item, resolve, reject }));
      if (!draining) {
        draining = true;
        void drain();
      }
      return done;
    },
  };
}
