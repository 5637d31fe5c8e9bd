// The WAL's sync after a commit: coalesced, one at a time, and nobody answered before a sync that began after
// their commit has finished.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { keptDescriptor, walSync } from '../../../src/adapters/sql/wal-sync.js';

/** A sync the test finishes by hand: `started` counts the syncs begun, `finish(i)` ends the i-th. */
function heldSyncs() {
  const pending: Array<{ resolve: () => void; reject: (error: unknown) => void }> = [];
  return {
    sync: (_path: string) =>
      new Promise<void>((resolve, reject) => {
        pending.push({ resolve, reject });
      }),
    get started() {
      return pending.length;
    },
    finish: (i: number) => pending[i]?.resolve(),
    fail: (i: number, error: unknown) => pending[i]?.reject(error),
  };
}

const tick = () => new Promise((resolve) => setImmediate(resolve));

function settled(promise: Promise<unknown>) {
  const state = { done: false, failed: undefined as unknown };
  promise.then(
    () => {
      state.done = true;
    },
    (error) => {
      state.failed = error;
    },
  );
  return state;
}

describe('WAL sync', () => {
  it('makes commits during a sync wait for the next one, which they share', async () => {
    const held = heldSyncs();
    const { afterCommit } = walSync('/nowhere-wal', held.sync);
    const first = settled(afterCommit());
    const second = settled(afterCommit());
    const third = settled(afterCommit());
    await tick();
    expect(held.started).toBe(1);

    held.finish(0);
    await tick();
    expect(first.done).toBe(true);
    // The second and third began while the first sync was in flight: its sync may predate their frames.
    expect(second.done).toBe(false);
    expect(third.done).toBe(false);
    expect(held.started).toBe(2);

    held.finish(1);
    await tick();
    expect(second.done && third.done).toBe(true);
    expect(held.started).toBe(2);
  });

  it('fails the commits waiting on a failed sync, and syncs afresh for the next', async () => {
    const held = heldSyncs();
    const { afterCommit } = walSync('/nowhere-wal', held.sync);
    const first = settled(afterCommit());
    held.fail(0, new Error('EIO'));
    await tick();
    expect((first.failed as Error).message).toBe('EIO');
    const next = settled(afterCommit());
    expect(held.started).toBe(2);
    held.finish(1);
    await tick();
    expect(next.done).toBe(true);
  });

  it('syncs a file that exists, and counts a missing WAL (checkpointed and removed) as durable', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wal-sync-'));
    try {
      await writeFile(join(dir, 'db-wal'), 'frames');
      const kept = keptDescriptor();
      await expect(kept.sync(join(dir, 'db-wal'))).resolves.toBeUndefined();
      await expect(kept.sync(join(dir, 'db-wal'))).resolves.toBeUndefined();
      await kept.close();
      const missing = keptDescriptor();
      await expect(missing.sync(join(dir, 'gone-wal'))).resolves.toBeUndefined();
      await writeFile(join(dir, 'gone-wal'), 'frames');
      // Opened again once it exists.
      await expect(missing.sync(join(dir, 'gone-wal'))).resolves.toBeUndefined();
      await missing.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
