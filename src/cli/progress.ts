// Following a batch from a shell: one line of progress on stderr, redrawn in place on a terminal and written
// as plain lines (each change once, no carriage returns) when stderr is a file or a pipe.

export interface BatchProgress {
  status: string;
  total_items?: number;
  items?: Record<string, number>;
}

export function progressLine(batch: BatchProgress): string {
  const items = batch.items ?? {};
  const counts = ['succeeded', 'failed', 'skipped', 'pending']
    .filter((name) => items[name] !== undefined)
    .map((name) => `${items[name]} ${name}`);
  const of = batch.total_items !== undefined ? ` of ${batch.total_items}` : '';
  return `${batch.status}: ${counts.join(', ')}${of}`;
}

export interface ProgressStream {
  isTTY?: boolean;
  write(text: string): unknown;
}

/** Returns show(line) and done(); on a terminal the line is redrawn, elsewhere each new line is written once. */
export function progressWriter(stream: ProgressStream) {
  let last: string | null = null;
  return {
    show(line: string) {
      if (stream.isTTY) stream.write(`\r${line}\x1b[K`);
      else if (line !== last) stream.write(`${line}\n`);
      last = line;
    },
    done() {
      if (stream.isTTY && last !== null) stream.write('\n');
    },
  };
}

/** Polls until the batch leaves queued/running; returns its final view. */
export async function follow<T extends BatchProgress>(
  get: () => Promise<T>,
  stream: ProgressStream,
  intervalMs = 1000,
): Promise<T> {
  const progress = progressWriter(stream);
  for (;;) {
    const batch = await get();
    progress.show(progressLine(batch));
    if (batch.status !== 'queued' && batch.status !== 'running') {
      progress.done();
      return batch;
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
