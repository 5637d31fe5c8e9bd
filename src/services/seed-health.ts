// Seed health (docs/rechecks.md): every check of a domain — a contract run or a re-check — moves the health of the
// domain's seeds, and SEEDBED_AUTO_SUSPEND suspends an active seed after that many failed checks in a row,
// recording why. The rule is decided here; the columns are written by the seed repository.
import { type CheckOutcome, nextHealth, type SeedHealth, shouldSuspend } from '../domain/seed-health.js';
import type { DbExecutor, SeedTable } from '../ports/database.js';
import type { ChangeService } from './changes.js';
import { parseJson } from './common.js';
import type { DomainSeedRow, SeedRepository } from './seed-repository/index.js';
import { healthColumns } from './seed-repository/rows.js';

export type SeedHealthService = ReturnType<typeof createSeedHealthService>;

export function createSeedHealthService(deps: {
  repository: Pick<SeedRepository, 'seedsOfDomain' | 'update'>;
  changes: Pick<ChangeService, 'recordEvent'>;
  /** SEEDBED_AUTO_SUSPEND; null: never suspend. */
  autoSuspendAfter: number | null;
}) {
  const { repository, changes, autoSuspendAfter } = deps;

  /**
   * The health columns one more check gives a seed (and its suspension, recorded as a change), for the caller to
   * write with the rest of the row. Null when the check is older than the seed's last one (a slow chunk
   * committing late): it changes nothing.
   */
  async function columnsAfter(
    executor: DbExecutor,
    domainId: string,
    seed: DomainSeedRow,
    check: CheckOutcome,
  ): Promise<Partial<SeedTable> | null> {
    const previous = parseJson<SeedHealth | null>(seed.health, null);
    if (previous && previous.last_checked_at > check.at) return null;
    let health = nextHealth(previous, check);
    const suspend = shouldSuspend(health, seed.status, autoSuspendAfter);
    if (!suspend) return healthColumns(health);
    const reason = `${health.consecutive_failures} checks in a row failed (SEEDBED_AUTO_SUSPEND=${autoSuspendAfter}); last: ${health.last_error}`;
    health = { ...health, suspended: { at: check.at, reason } };
    await changes.recordEvent(executor, {
      registrableDomain: seed.registrable_domain,
      domainId,
      kind: 'seed_suspended',
      message: `seed ${seed.seed_id} suspended: ${reason}`,
      before: 'active',
      after: 'suspended',
      evidence: { seed_id: seed.seed_id, health },
      batchId: check.batchId,
    });
    return { ...healthColumns(health), status: 'suspended', updated_at: check.at };
  }

  /**
   * Records one check of `domainId` on each of its seeds but `except` (written by its own caller), in the
   * caller's transaction. Returns the seeds it suspended.
   */
  async function recordCheck(
    executor: DbExecutor,
    domainId: string,
    check: CheckOutcome,
    except: string | null = null,
  ): Promise<string[]> {
    const suspended: string[] = [];
    for (const seed of await repository.seedsOfDomain(executor, domainId)) {
      if (seed.seed_id === except) continue;
      const columns = await columnsAfter(executor, domainId, seed, check);
      if (columns === null) continue;
      if (columns.status === 'suspended') suspended.push(seed.seed_id);
      await repository.update(executor, seed.seed_id, columns);
    }
    return suspended;
  }

  return { columnsAfter, recordCheck };
}
