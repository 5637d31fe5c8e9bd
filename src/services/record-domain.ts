// Recording one domain's contract run, in the caller's transaction, in the order a reader follows: its liveness,
// the changes since its last discovery, its seed (one write: contract, facts, discovery and health), the domain's
// other seeds, which learn the same liveness and health, and the other sites it links to (discovery's
// candidates). Returns the batch item's answer.
import type { ItemResult } from '../domain/batches.js';
import { parseDomainId } from '../domain/domains.js';
import { discoveryOf } from '../domain/seed-facts.js';
import type { CheckOutcome } from '../domain/seed-health.js';
import type { DomainMetadata, SeedDraft } from '../engine/contract-discovery.js';
import { summarizeDiscovery } from '../engine/discovery-changes.js';
import type { LivenessResult } from '../engine/liveness.js';
import type { DbTransaction } from '../ports/database.js';
import type { CandidateService } from './candidates/index.js';
import type { ChangeService, ChangeView } from './changes.js';
import type { LivenessService } from './liveness.js';
import { type ContractRunOutcome, contractOf, factsOf, type SeedContractRuns } from './seed-contract-runs.js';
import type { SeedHealthService } from './seed-health.js';
import type { SeedRepository } from './seed-repository/index.js';

/** What a contract run found for one domain: plain data, recorded by recordDomain. */
export interface DomainFindings {
  index: number;
  input: unknown;
  domainId: string;
  registrableDomain: string;
  category: string;
  date: string;
  source: { batch_id?: string; raw_file_path?: string };
  liveness: LivenessResult;
  metadata: DomainMetadata;
  /** The seed contract it would write; null when the domain is not alive (then `reason` says why). */
  draft: SeedDraft | null;
  reason: string | null;
  robotsTxt: Buffer | null;
  /** The evidence objects already stored for it (domain_metadata.json, robots.txt). */
  evidenceKeys: string[];
}

export type RecordDomain = (trx: DbTransaction, findings: DomainFindings) => Promise<ItemResult>;

export function createRecordDomain(deps: {
  liveness: Pick<LivenessService, 'recordRows'>;
  changes: Pick<ChangeService, 'record'>;
  contractRuns: SeedContractRuns;
  health: Pick<SeedHealthService, 'recordCheck'>;
  repository: Pick<SeedRepository, 'setDiscovery'>;
  candidates: Pick<CandidateService, 'recordOutlinks'>;
}): RecordDomain {
  return async function recordDomain(trx, found) {
    const batchId = found.source.batch_id ?? null;
    const { draft, liveness } = found;
    await deps.liveness.recordRows(trx, found.registrableDomain, liveness, batchId);
    const events = await deps.changes.record(trx, changeOf(found, batchId));
    const check: CheckOutcome = draft
      ? { reached: true, stale: draft.freshness.stale, at: liveness.checked_at, batchId }
      : { reached: false, reason: found.reason ?? liveness.state, at: liveness.checked_at, batchId };
    const discovery = discoveryOf(liveness);
    const seed = draft
      ? await deps.contractRuns.write(trx, {
          domainId: found.domainId,
          category: found.category,
          contract: contractOf(draft),
          discovery,
          provenance: { ...found.source, date: found.date, collected_at: found.metadata.collected_at },
          facts: factsOf(draft, found.metadata),
          check,
          author: batchId ? `batch:${batchId}` : 'contract',
        })
      : null;
    const written = seed?.seed_id;
    await deps.repository.setDiscovery(trx, found.registrableDomain, {
      discovery,
      at: liveness.checked_at,
      ...(written ? { except: written } : {}),
    });
    await deps.health.recordCheck(trx, found.domainId, check, written ?? null);
    if (written) {
      const citer = {
        id: written,
        country: parseDomainId(found.domainId)?.country ?? 'intl',
        at: liveness.checked_at,
      };
      await deps.candidates.recordOutlinks(trx, citer, found.metadata.outlinks);
    }
    return seed ? itemOf(found, seed, events) : failedItem(found);
  };
}

/** This run against the domain's last one: what changed is an event, with what it rests on. */
function changeOf(found: DomainFindings, batchId: string | null) {
  const { draft, liveness, metadata } = found;
  return {
    registrableDomain: found.registrableDomain,
    domainId: found.domainId,
    collectedAt: metadata.collected_at,
    batchId,
    metadataKey: draft ? (found.evidenceKeys[0] ?? null) : null,
    summary: summarizeDiscovery({
      state: liveness.state,
      metadata,
      // policy.ai rides along, so AI crawler and TDM changes are read from the same policy the seed shows.
      policy: draft ? { ...draft.policy, ai: draft.ai } : null,
      robotsTxt: found.robotsTxt,
      origin: draft ? new URL(draft.entry_url).origin : null,
    }),
    evidence: draft
      ? { objects: found.evidenceKeys }
      : {
          liveness: {
            state: liveness.state,
            http_status: liveness.http_status,
            error_code: liveness.error_code,
            checked_at: liveness.checked_at,
          },
        },
  };
}

function itemOf(found: DomainFindings, seed: ContractRunOutcome, events: ChangeView[]): ItemResult {
  const { index, input, metadata } = found;
  const draft = found.draft as SeedDraft;
  const result = {
    seed_id: seed.seed_id,
    fetch_type: draft.fetch.type,
    robots_allowed: draft.policy.robots_allowed,
    feeds: draft.feeds.length,
    sitemap_urls: metadata.sitemap.url_count,
    sitemap_truncated: metadata.sitemap.truncated,
    // Which budget cut the reading short (max_files, max_depth, …), so a batch's items say it too.
    sitemap_truncated_reason: metadata.sitemap.truncated_reason,
    changes: events.map((event) => event.kind),
    // What the run cost the site, so a batch's items show which sites were asked for much.
    requests: metadata.requests,
    ...(seed.proposed_revision !== undefined ? { proposed_revision: seed.proposed_revision } : {}),
  };
  if (seed.outcome === 'kept')
    return { index, input, status: 'skipped', outcome: 'kept', reason: seed.reason, result };
  return { index, input, status: 'succeeded', outcome: seed.outcome, result };
}

/** A dead domain gets no seed, and its item fails with the reason; its liveness is still kept. */
function failedItem(found: DomainFindings): ItemResult {
  const { index, input, liveness } = found;
  return {
    index,
    input,
    status: 'failed',
    outcome: liveness.state,
    reason: found.reason,
    // A dead site still cost its robots.txt and homepage tries.
    result: { liveness, requests: found.metadata.requests },
  };
}
