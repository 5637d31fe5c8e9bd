// Seed contracts: for one domain of a partition, discover robots/sitemaps/feeds/homepage, store the
// evidence under prod/…/{domain}/, and create or update the draft seed. Used by the contract worker.

import type { ItemResult } from '../domain/batches.js';
import { parseDomainId } from '../domain/domains.js';
import { NetworkUnavailableError } from '../domain/errors.js';
import type { Partition } from '../domain/identifiers.js';
import { prodDomainKey } from '../domain/keys.js';
import { discoverContract } from '../engine/contract-discovery.js';
import { summarizeDiscovery } from '../engine/discovery-changes.js';
import type { FeedReader } from '../engine/feed-content.js';
import { isNetworkUnavailable } from '../engine/liveness.js';
import type { NetworkCanary } from '../engine/network-canary.js';
import type { DbTransaction } from '../ports/database.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { ChangeService } from './changes.js';
import type { Clock } from './common.js';
import { type FetchScope, scopedFetcher } from './fetch-scope.js';
import type { LivenessService } from './liveness.js';
import type { OutageWatch } from './outage-watch.js';
import { previousDiscovery } from './previous-discovery.js';
import { AnswerTimes, type RobotsLookahead, robotsLookahead } from './robots-lookahead.js';
import type { SeedHealthService } from './seed-health.js';
import { type SeedService, seedSitemapOf } from './seeds.js';

export interface ContractRequest {
  index: number;
  input: unknown;
  domainId: string;
  partition: Partition;
  /** Collect again even when the domain's checkpoint exists for this partition. */
  force: boolean;
  source: { batch_id?: string; raw_file_path?: string };
}

/** One domain after its fetching: how to record its result, and the checkpoint that follows the commit. */
export interface CollectedDomain {
  index: number;
  record(trx: DbTransaction): Promise<ItemResult>;
  checkpointKey: string | null;
}

export type ContractService = ReturnType<typeof createContractService>;

export function createContractService(deps: {
  objects: ObjectStore;
  fetcher: Fetcher;
  seeds: SeedService;
  liveness: LivenessService;
  changes: ChangeService;
  health: SeedHealthService;
  clock: Clock;
  /** Asked before a failure is stored as dead (SEEDBED_NETWORK_CANARY); null: never. */
  canary?: NetworkCanary | null;
  /** SEEDBED_STALE_AFTER_DAYS; the engine's default (30) when absent. */
  staleAfterDays?: number;
  /** Distrusts a failure seen while the canary found our network down (domains run side by side). */
  outages?: OutageWatch;
  /** Reads fetched feeds (off the main thread: SEEDBED_FEED_WORKERS); on this thread when absent. */
  readFeed?: FeedReader;
}) {
  const { objects, fetcher, seeds, liveness, changes, health, clock } = deps;
  /** Sites' own times for early robots.txt reads: a slow site's chain is long, whether it waited or not. */
  const answerTimes = new AnswerTimes();

  /**
   * Fetches and stores the evidence (outside any transaction). Returns how to record the domain's result in the
   * caller's transaction, and the checkpoint to write once that transaction has committed. `scope` carries the
   * domain's deadline and place in line into every request it sends.
   */
  async function collect(
    request: ContractRequest,
    scope?: FetchScope,
    early?: RobotsLookahead | null,
  ): Promise<CollectedDomain> {
    const { index, input, partition } = request;
    const answer = (result: Omit<ItemResult, 'index' | 'input'>): CollectedDomain => ({
      index,
      record: async () => ({ index, input, ...result }),
      checkpointKey: null,
    });
    const id = parseDomainId(request.domainId);
    if (!id)
      return answer({ status: 'failed', outcome: 'invalid', reason: `not a domain id: ${request.domainId}` });
    if (id.country !== partition.country) {
      const reason = `domain id country ${id.country} does not match the batch country ${partition.country}`;
      return answer({ status: 'failed', outcome: 'invalid', reason });
    }
    const key = (file: Parameters<typeof prodDomainKey>[2]) =>
      prodDomainKey(partition, id.registrableDomain, file);
    const checkpointKey = key('domain_metadata.json.success');
    if (!request.force && (await objects.head(checkpointKey))) {
      return answer({
        status: 'skipped',
        outcome: 'already_collected',
        reason: 'already collected for this partition (checkpoint exists)',
      });
    }

    const startedAt = deps.outages?.now() ?? 0;
    const previous = await previousDiscovery(objects, changes, id.registrableDomain);
    const network = scope ? scopedFetcher(fetcher, scope, { judge: answerTimes }) : fetcher;
    const found = await discoverContract(
      early ? early.wrap(network) : network,
      {
        domainId: request.domainId,
        registrableDomain: id.registrableDomain,
        country: id.country,
        category: partition.category,
        source: request.source,
        staleAfterDays: deps.staleAfterDays,
        previous,
      },
      { now: clock, canary: deps.canary ?? null, ...(deps.readFeed ? { readFeed: deps.readFeed } : {}) },
    );
    // Past its deadline the domain's answers are cut short: nothing of them is stored.
    scope?.signal.throwIfAborted();
    // Our own network was down: this says nothing about the domain. No result, no checkpoint; the chunk retries.
    if (isNetworkUnavailable(found.liveness)) {
      throw new NetworkUnavailableError(`${id.registrableDomain}: ${found.liveness.error_message}`);
    }
    if (!found.liveness.alive && deps.outages?.downSince(startedAt)) {
      throw new NetworkUnavailableError(
        `${id.registrableDomain}: our network was down while it was checked (${found.liveness.error_code})`,
      );
    }
    const batchId = request.source.batch_id ?? null;
    const recordLiveness = (trx: DbTransaction) =>
      liveness.record(trx, id.registrableDomain, found.liveness, batchId);
    const draft = found.draft;
    // This run against the domain's last one: what changed is an event, with what it rests on.
    const recordChanges = (trx: DbTransaction) =>
      changes.record(trx, {
        registrableDomain: id.registrableDomain,
        domainId: request.domainId,
        collectedAt: found.metadata.collected_at,
        batchId,
        metadataKey: draft ? key('domain_metadata.json') : null,
        summary: summarizeDiscovery({
          state: found.liveness.state,
          metadata: found.metadata,
          // policy.ai rides along, so AI crawler and TDM changes are read from the same policy the seed shows.
          policy: draft ? { ...draft.policy, ai: draft.ai } : null,
          robotsTxt: found.evidence.robotsTxt,
          origin: draft ? new URL(draft.entry_url).origin : null,
        }),
        evidence: draft
          ? {
              objects: [
                key('domain_metadata.json'),
                ...(found.evidence.robotsTxt ? [key('robots.txt')] : []),
              ],
            }
          : {
              liveness: {
                state: found.liveness.state,
                http_status: found.liveness.http_status,
                error_code: found.liveness.error_code,
                checked_at: found.liveness.checked_at,
              },
            },
      });
    if (!draft) {
      // A dead domain gets no seed, and its item fails with the reason; its liveness is still worth keeping.
      const reason =
        found.reason ?? `${found.liveness.state}: ${found.liveness.error_code ?? found.liveness.http_status}`;
      return {
        index,
        async record(trx) {
          await recordLiveness(trx);
          await recordChanges(trx);
          await health.recordCheck(trx, request.domainId, {
            reached: false,
            reason,
            at: found.liveness.checked_at,
            batchId,
          });
          return {
            index,
            input,
            status: 'failed',
            outcome: found.liveness.state,
            reason,
            result: { liveness: found.liveness },
          };
        },
        checkpointKey: null,
      };
    }

    if (found.evidence.robotsTxt)
      await objects.put(key('robots.txt'), found.evidence.robotsTxt, { contentType: 'text/plain' });
    if (found.evidence.sitemapXml)
      await objects.put(key('sitemap.xml'), found.evidence.sitemapXml, { contentType: 'application/xml' });
    await objects.put(key('domain_metadata.json'), `${JSON.stringify(found.metadata, null, 2)}\n`, {
      contentType: 'application/json',
    });

    return {
      index,
      async record(trx) {
        await recordLiveness(trx);
        const events = await recordChanges(trx);
        const seed = await seeds.upsertDraft(trx, {
          domainId: request.domainId,
          category: partition.category,
          name: draft.name,
          entry_url: draft.entry_url,
          fetch: draft.fetch,
          schedule: draft.schedule,
          policy: draft.policy,
          discovery: draft.discovery,
          provenance: { ...request.source, date: partition.date, collected_at: found.metadata.collected_at },
          facts: {
            feeds: draft.feeds,
            sitemap: seedSitemapOf(found.metadata.sitemap),
            freshness: draft.freshness,
            languages: draft.languages,
            ai: draft.ai,
          },
          author: request.source.batch_id ? `batch:${request.source.batch_id}` : 'contract',
        });
        await health.recordCheck(trx, request.domainId, {
          reached: true,
          stale: draft.freshness.stale,
          at: found.liveness.checked_at,
          batchId,
        });
        const result = {
          seed_id: seed.seed_id,
          fetch_type: draft.fetch.type,
          robots_allowed: draft.policy.robots_allowed,
          feeds: draft.feeds.length,
          sitemap_urls: found.metadata.sitemap.url_count,
          sitemap_truncated: found.metadata.sitemap.truncated,
          // Which budget cut the reading short (max_files, max_depth, …), so a batch's items say it too.
          sitemap_truncated_reason: found.metadata.sitemap.truncated_reason,
          changes: events.map((event) => event.kind),
        };
        if (seed.proposed_revision !== undefined)
          Object.assign(result, { proposed_revision: seed.proposed_revision });
        if (seed.outcome === 'kept')
          return { index, input, status: 'skipped', outcome: 'kept', reason: seed.reason, result };
        return { index, input, status: 'succeeded', outcome: seed.outcome, result };
      },
      checkpointKey,
    };
  }

  async function writeCheckpoint(key: string): Promise<void> {
    await objects.put(key, '', { contentType: 'application/octet-stream' });
  }

  /**
   * What a domain waiting for a pool slot may read meanwhile: its robots.txt (robots-lookahead.ts), unless it
   * will fetch nothing (bad id, a checkpoint) or revalidate the file against its last discovery.
   */
  function lookahead(request: ContractRequest): RobotsLookahead | null {
    const id = parseDomainId(request.domainId);
    if (!id || id.country !== request.partition.country) return null;
    const early = robotsLookahead(fetcher, id.registrableDomain, answerTimes);
    const checkpointKey = prodDomainKey(
      request.partition,
      id.registrableDomain,
      'domain_metadata.json.success',
    );
    return {
      async read(priority) {
        if (!request.force && (await objects.head(checkpointKey))) return 0;
        if (await changes.lastMetadataKey(id.registrableDomain)) return 0;
        return early.read(priority);
      },
      wrap: early.wrap,
    };
  }

  return { collect, lookahead, writeCheckpoint };
}
