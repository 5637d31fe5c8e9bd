// A contract run's seed written the way the contract worker writes it (seed-contract-runs.ts), from the few
// fields a test cares about: the contract, facts, provenance and, unless given, a check that reached the source.
import type { SeedDiscovery } from '../../src/domain/seed-facts.js';
import type { CheckOutcome } from '../../src/domain/seed-health.js';
import type { DbExecutor } from '../../src/ports/database.js';
import type { ContractRunOutcome, SeedContractRuns } from '../../src/services/seed-contract-runs.js';
import type { SeedFacts } from '../../src/services/seed-repository/rows.js';

export interface ContractDraft {
  domainId: string;
  category: string;
  name: string | null;
  entry_url: string;
  fetch: { type: string; urls: string[] };
  schedule: string | null;
  policy: Record<string, unknown>;
  discovery?: Partial<SeedDiscovery>;
  provenance: Record<string, unknown>;
  facts?: SeedFacts;
  author?: string;
  /** The check the run was; none by default (the seed's health is left as it is). */
  check?: CheckOutcome;
}

export function writeDraft(
  services: { contractRuns: SeedContractRuns },
  executor: DbExecutor,
  draft: ContractDraft,
): Promise<ContractRunOutcome> {
  const checkedAt = draft.discovery?.checked_at ?? '2026-06-01T00:00:00.000Z';
  return services.contractRuns.write(executor, {
    domainId: draft.domainId,
    category: draft.category,
    contract: {
      entry_url: draft.entry_url,
      fetch: draft.fetch,
      schedule: draft.schedule,
      policy: draft.policy,
      ...(draft.name !== null ? { name: draft.name } : {}),
    },
    discovery: {
      alive: true,
      http_status: 200,
      state: 'alive',
      error_code: null,
      ...draft.discovery,
      checked_at: checkedAt,
    },
    provenance: draft.provenance,
    facts: draft.facts ?? { feeds: [], sitemap: null },
    check: draft.check ?? null,
    author: draft.author ?? 'contract',
  });
}
