// Shared by the queue adapters' shutdown: wait for running work, but not forever.

/** True when every task settled within `ms`; false when the time ran out first. */
export async function drainWithin(tasks: Iterable<Promise<unknown>>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      Promise.allSettled([...tasks]).then(() => true),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(false), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}
