// A seed's health from its checks (docs/design.md §11): pure rules, so the contract worker, the re-check planner and the
// tests agree on what one more check does to it.

import type { SeedHealth } from './seed-facts.js';

export { HEALTH_STATES, type HealthState, type SeedHealth } from './seed-facts.js';

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
