// Seed health (docs/design.md §11): every check of a domain — a contract run or a re-check — moves the health of the
// domain's seeds, and SEEDBED_AUTO_SUSPEND suspends an active seed after that many failed checks in a row,
// recording why. Writes only the seeds' health columns (and status, for a suspension); seeds.ts owns the rest.
import { type CheckOutcome, nextHealth, type SeedHealth, shouldSuspend } from '../domain/seed-health.js';
import type { DbExecutor } from '../ports/database.js';
import type { ChangeService } from './changes.js';
import { parseJson } from './common.js';

export type SeedHealthService = ReturnType<typeof createSeedHealthService>;

export function createSeedHealthService(deps: {
  changes: Pick<ChangeService, 'recordEvent'>;
  /** SEEDBED_AUTO_SUSPEND; null: never suspend. */
  autoSuspendAfter: number | null;
}) {
  const { changes, autoSuspendAfter } = deps;

  /**
   * Records one check of `domainId` on each of its seeds, in the caller's transaction. Returns the seeds it
   * suspended. A check older than the seed's last one (a slow chunk committing late) changes nothing.
   */
  async function recordCheck(executor: DbExecutor, domainId: string, check: CheckOutcome): Promise<string[]> {
    const rows = await executor
      .selectFrom('seeds')
      .select(['seed_id', 'registrable_domain', 'status', 'health'])
      .where('domain_id', '=', domainId)
      .execute();
    const suspended: string[] = [];
    for (const row of rows) {
      const previous = parseJson<SeedHealth | null>(row.health, null);
      if (previous && previous.last_checked_at > check.at) continue;
      let health = nextHealth(previous, check);
      const suspend = shouldSuspend(health, row.status, autoSuspendAfter);
      if (suspend) {
        const reason = `${health.consecutive_failures} checks in a row failed (SEEDBED_AUTO_SUSPEND=${autoSuspendAfter}); last: ${health.last_error}`;
        health = { ...health, suspended: { at: check.at, reason } };
        await changes.recordEvent(executor, {
          registrableDomain: row.registrable_domain,
          domainId,
          kind: 'seed_suspended',
          message: `seed ${row.seed_id} suspended: ${reason}`,
          before: 'active',
          after: 'suspended',
          evidence: { seed_id: row.seed_id, health },
          batchId: check.batchId,
        });
        suspended.push(row.seed_id);
      }
      await executor
        .updateTable('seeds')
        .set({
          health: JSON.stringify(health),
          health_state: health.state,
          ...(suspend ? { status: 'suspended', updated_at: check.at } : {}),
        })
        .where('seed_id', '=', row.seed_id)
        .execute();
    }
    return suspended;
  }

  return { recordCheck };
}
