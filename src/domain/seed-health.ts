// A seed's health from its checks (docs/design.md §11): pure rules, so the contract worker, the re-check planner and the
// tests agree on what one more check does to it.

export const HEALTH_STATES = ['ok', 'failing', 'stale'] as const;
export type HealthState = (typeof HEALTH_STATES)[number];

export interface SeedHealth {
  /** ok: the last check reached the source; failing: it did not; stale: reached, but nothing new for too long. */
  state: HealthState;
  /** Checks in a row that did not reach the source (0 after a good one). */
  consecutive_failures: number;
  last_checked_at: string;
  /** The last check that reached the source; null when none has. */
  last_ok_at: string | null;
  /** Why the last failed check failed (dead, blocked, an error code); null after a good one. */
  last_error: string | null;
  /** The batch of the last check. */
  last_batch_id: string | null;
  /** Set when SEEDBED_AUTO_SUSPEND suspended the seed: when, and why. */
  suspended?: { at: string; reason: string };
}

/** What one check found: reached (and whether the newest item is too old), or not, with the reason. */
export type CheckOutcome =
  | { reached: true; stale: boolean | null; at: string; batchId: string | null }
  | { reached: false; reason: string; at: string; batchId: string | null };

/**
 * The health after one more check. A single failed check makes the seed `failing` (the count says how long it
 * has been); the first good one makes it `ok` again, or `stale` when its newest item is past the stale age.
 */
export function nextHealth(previous: SeedHealth | null, check: CheckOutcome): SeedHealth {
  if (check.reached) {
    return {
      state: check.stale ? 'stale' : 'ok',
      consecutive_failures: 0,
      last_checked_at: check.at,
      last_ok_at: check.at,
      last_error: null,
      last_batch_id: check.batchId,
    };
  }
  return {
    state: 'failing',
    consecutive_failures: (previous?.consecutive_failures ?? 0) + 1,
    last_checked_at: check.at,
    last_ok_at: previous?.last_ok_at ?? null,
    last_error: check.reason,
    last_batch_id: check.batchId,
    ...(previous?.suspended ? { suspended: previous.suspended } : {}),
  };
}

/** SEEDBED_AUTO_SUSPEND=N: an active seed is suspended once N checks in a row failed; null (the default): never. */
export function shouldSuspend(health: SeedHealth, status: string, autoSuspendAfter: number | null): boolean {
  return autoSuspendAfter !== null && status === 'active' && health.consecutive_failures >= autoSuspendAfter;
}
