// A contract run's seed, written in one statement: a new domain becomes a draft; on an existing draft the run
// applies what it found to the fields no person set and proposes the rest (human edits win, docs/revisions.md);
// an active, suspended or archived seed is a person's decision, so the run changes nothing of its contract and
// proposes every difference. Facts, discovery and health are refreshed whatever the status.
import { parseDomainId, seedIdOf, sourceTypeOf } from '../domain/domains.js';
import { ValidationError } from '../domain/errors.js';
import {
  afterValues,
  diffFields,
  isEmptyDiff,
  planContractRun,
  type RevisionValues,
} from '../domain/seed-diff.js';
import type { SeedDiscovery } from '../domain/seed-facts.js';
import type { CheckOutcome } from '../domain/seed-health.js';
import { CONTRACT_FIELDS, type SeedStatus } from '../domain/seeds.js';
import type { DomainMetadata, SeedDraft } from '../engine/contract-discovery.js';
import type { DbExecutor, SeedTable } from '../ports/database.js';
import { type Clock, parseJson } from './common.js';
import type { SeedHealthService } from './seed-health.js';
import type { SeedRepository } from './seed-repository/index.js';
import {
  columnsOf,
  factColumns,
  firstRevision,
  NO_FACTS,
  revisionValuesOf,
  type SeedFacts,
  seedSitemapOf,
} from './seed-repository/rows.js';
import type { SeedRevisionService } from './seed-revisions.js';

/** What one contract run found for a domain's seed of one category. */
export interface ContractRun {
  domainId: string;
  category: string;
  /** The contract it would write: name (when the page had one), entry URL, fetch plan, schedule, policy. */
  contract: RevisionValues;
  discovery: SeedDiscovery;
  provenance: Record<string, unknown>;
  facts: SeedFacts;
  /** The check it was, for the seed's health; null for a seed written outside a check (an import). */
  check: CheckOutcome | null;
  /** Who the revisions of this run are by: `batch:<id>`, or `contract`. */
  author: string;
}

export type ContractRunOutcome =
  | { seed_id: string; outcome: 'created' | 'updated' | 'unchanged'; proposed_revision?: number }
  | { seed_id: string; outcome: 'kept'; reason: string; proposed_revision?: number };

export type SeedContractRuns = ReturnType<typeof createSeedContractRuns>;

/** The contract a run's draft would write; a page without a <title> says nothing about the name. */
export function contractOf(draft: SeedDraft): RevisionValues {
  const { entry_url, fetch, schedule, policy } = draft;
  return { entry_url, fetch, schedule, policy, ...(draft.name !== null ? { name: draft.name } : {}) };
}

/** What a run measured about the source beside its contract, as the seed keeps it. */
export function factsOf(draft: SeedDraft, metadata: DomainMetadata): SeedFacts {
  const { feeds, freshness, languages, ai, news, country_guess } = draft;
  return { feeds, sitemap: seedSitemapOf(metadata.sitemap), freshness, languages, ai, news, country_guess };
}

export function createSeedContractRuns(deps: {
  repository: SeedRepository;
  revisions: SeedRevisionService;
  health: SeedHealthService;
  clock: Clock;
}) {
  const { repository, revisions, health } = deps;

  async function write(executor: DbExecutor, run: ContractRun): Promise<ContractRunOutcome> {
    const parsed = parseDomainId(run.domainId);
    if (!parsed) throw ValidationError.field('domain_id', `not a domain id: ${run.domainId}`);
    const seedId = seedIdOf(run.domainId, run.category);
    const at = deps.clock().toISOString();
    const measured = { ...factColumns(run.facts), discovery: JSON.stringify(run.discovery) };
    let existing = await repository.find(executor, seedId, true);
    if (!existing) {
      const row: SeedTable = {
        ...NO_FACTS,
        ...measured,
        seed_id: seedId,
        domain_id: run.domainId,
        registrable_domain: parsed.registrableDomain,
        country: parsed.country,
        category: run.category,
        content_type: run.category,
        source_type: sourceTypeOf(parsed.authority),
        status: 'draft',
        version: 1,
        name: (run.contract.name as string | undefined) ?? null,
        entry_url: run.contract.entry_url as string,
        fetch: JSON.stringify(run.contract.fetch),
        schedule: run.contract.schedule as string | null,
        policy: JSON.stringify(run.contract.policy),
        provenance: JSON.stringify(run.provenance),
        created_at: at,
        updated_at: at,
        promoted_at: null,
        human_fields: '[]',
        last_revision: 1,
      };
      const seed = {
        seed_id: seedId,
        registrable_domain: parsed.registrableDomain,
        status: 'draft',
        health: null,
      };
      if (run.check) Object.assign(row, await health.columnsAfter(executor, run.domainId, seed, run.check));
      const first = firstRevision(seedId, run.author, revisionValuesOf(row), at);
      if (await repository.insert(executor, row, first, { ifAbsent: true })) {
        return { seed_id: seedId, outcome: 'created' };
      }
      // Another writer committed the seed meanwhile: this run becomes an update of it.
      existing = await repository.find(executor, seedId, true);
      if (!existing) throw new Error(`seed ${seedId} vanished while being written`);
    }

    const status = existing.status as SeedStatus;
    const current = revisionValuesOf(existing);
    const { apply, propose } = planContractRun(
      status,
      parseJson<string[]>(existing.human_fields, []),
      diffFields(current, run.contract),
    );
    const version = Number(existing.version);
    const nextVersion = version + (CONTRACT_FIELDS.some((field) => apply[field]) ? 1 : 0);
    const counter = { seedId, last: Number(existing.last_revision) };
    if (!isEmptyDiff(apply)) {
      await revisions.record(executor, counter, {
        status: 'applied',
        author: run.author,
        baseVersion: version,
        changes: apply,
      });
      await revisions.supersedeStale(executor, seedId, { ...current, ...afterValues(apply) });
    }
    const proposal = isEmptyDiff(propose)
      ? undefined
      : (
          await revisions.propose(executor, counter, {
            author: run.author,
            baseVersion: nextVersion,
            changes: propose,
          })
        ).number;
    const healthColumns = run.check
      ? await health.columnsAfter(executor, run.domainId, existing, run.check)
      : null;
    await repository.update(executor, seedId, {
      ...measured,
      ...columnsOf(apply),
      // What the run saw shapes a draft; an active seed keeps the provenance of its contract.
      ...(status === 'draft' ? { provenance: JSON.stringify(run.provenance) } : {}),
      version: nextVersion,
      last_revision: counter.last,
      updated_at: at,
      ...healthColumns,
    });
    const proposed = proposal === undefined ? {} : { proposed_revision: proposal };
    if (status !== 'draft') {
      const reason = `seed is ${status}; a contract run only proposes changes to it`;
      return { seed_id: seedId, outcome: 'kept', reason, ...proposed };
    }
    return { seed_id: seedId, outcome: isEmptyDiff(apply) ? 'unchanged' : 'updated', ...proposed };
  }

  return { write };
}
