// Waiting in tests: for a condition to hold (polled), for a time, or for a gate the test opens by hand.

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

type Falsy = false | 0 | '' | null | undefined;

/** Calls `probe` every `everyMs` until it gives a truthy value (returned), or `undefined` once `timeoutMs` has passed. */
async function poll<T>(
  probe: () => T | Promise<T>,
  timeoutMs: number,
  everyMs: number,
): Promise<Exclude<T, Falsy> | undefined> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value as Exclude<T, Falsy>;
    if (Date.now() > deadline) return undefined;
    await sleep(everyMs);
  }
}

/**
 * Waits until `probe` gives a truthy value and returns it; throws `timed out waiting until <what>` once
 * `timeoutMs` has passed.
 */
export async function until<T>(
  what: string,
  probe: () => T | Promise<T>,
  { timeoutMs = 20_000, everyMs = 10 }: { timeoutMs?: number; everyMs?: number } = {},
): Promise<Exclude<T, Falsy>> {
  const value = await poll(probe, timeoutMs, everyMs);
  if (value === undefined) throw new Error(`timed out waiting until ${what}`);
  return value;
}

/** Polls until the check passes or the deadline passes; returns whether it passed. */
export async function eventually(
  check: () => Promise<boolean> | boolean,
  timeoutMs = 20_000,
): Promise<boolean> {
  return (await poll(check, timeoutMs, 25)) !== undefined;
}

/** A promise the test settles by hand: `wait` settles when the test calls `open`. */
export function gate<T = void>(): { wait: Promise<T>; open: (value: T) => void } {
  let open: (value: T) => void = () => {};
  const wait = new Promise<T>((resolve) => {
    open = resolve;
  });
  return { wait, open };
}
