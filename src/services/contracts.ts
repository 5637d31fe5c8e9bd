// Seed contracts: for one domain of a partition, discover robots/sitemaps/feeds/homepage and store the evidence
// under prod/…/{domain}/. Collecting returns what was found as plain data (DomainFindings); record-domain.ts
// writes it in the caller's transaction. Used by the contract worker.

import type { ItemResult } from '../domain/batches.js';
import { parseDomainId } from '../domain/domains.js';
import { NetworkUnavailableError } from '../domain/errors.js';
import type { Partition } from '../domain/identifiers.js';
import { type ProdFile, prodDomainKey, prodDomainPrefix } from '../domain/keys.js';
import {
  type ContractDiscovery,
  type ContractInput,
  discoverContract,
} from '../engine/contract-discovery.js';
import type { FeedReader } from '../engine/feed-content.js';
import { isNetworkUnavailable } from '../engine/liveness.js';
import type { NetworkCanary } from '../engine/network-canary.js';
import type { DbTransaction } from '../ports/database.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { ChangeService } from './changes.js';
import type { Clock } from './common.js';
import { type FetchScope, scopedFetcher } from './fetch-scope.js';
import type { OutageWatch } from './outage-watch.js';
import { previousDiscovery } from './previous-discovery.js';
import type { DomainFindings, RecordDomain } from './record-domain.js';
import { AnswerTimes, type RobotsLookahead, robotsLookahead } from './robots-lookahead.js';

export interface ContractRequest {
  index: number;
  input: unknown;
  domainId: string;
  partition: Partition;
  /** Collect again even when the domain's checkpoint exists for this partition. */
  force: boolean;
  source: { batch_id?: string; raw_file_path?: string };
}

/**
 * One domain after its fetching: either an answer decided without the network (a bad id, a checkpoint), or what
 * the run found, to be recorded by recordDomain; and the checkpoint that follows the commit.
 */
export type CollectedDomain =
  | { index: number; answer: ItemResult; findings?: undefined; checkpointKey: null }
  | { index: number; answer?: undefined; findings: DomainFindings; checkpointKey: string | null };

export type ContractService = ReturnType<typeof createContractService>;

export function createContractService(deps: {
  objects: ObjectStore;
  fetcher: Fetcher;
  changes: Pick<ChangeService, 'lastMetadataKey'>;
  recordDomain: RecordDomain;
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
  const { objects, fetcher, changes, recordDomain, clock } = deps;
  /** Sites' own times for early robots.txt reads: a slow site's chain is long, whether it waited or not. */
  const answerTimes = new AnswerTimes();

  /**
   * The engine's run over one domain, through the domain's scope (deadline, place in line) and its early
   * robots.txt read. Throws NetworkUnavailableError when our own network was down: the answer says nothing
   * about the domain, so nothing of it may be recorded.
   */
  async function discover(
    input: ContractInput,
    scope?: FetchScope,
    early?: RobotsLookahead | null,
  ): Promise<ContractDiscovery> {
    const startedAt = deps.outages?.now() ?? 0;
    const network = scope ? scopedFetcher(fetcher, scope, { judge: answerTimes }) : fetcher;
    const found = await discoverContract(early ? early.wrap(network) : network, input, {
      now: clock,
      canary: deps.canary ?? null,
      ...(deps.readFeed ? { readFeed: deps.readFeed } : {}),
    });
    // Past its deadline the domain's answers are cut short: nothing of them is stored.
    scope?.signal.throwIfAborted();
    if (isNetworkUnavailable(found.liveness)) {
      throw new NetworkUnavailableError(`${input.registrableDomain}: ${found.liveness.error_message}`);
    }
    if (!found.liveness.alive && deps.outages?.downSince(startedAt)) {
      throw new NetworkUnavailableError(
        `${input.registrableDomain}: our network was down while it was checked (${found.liveness.error_code})`,
      );
    }
    return found;
  }

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
      answer: { index, input, ...result },
      checkpointKey: null,
    });
    const id = parseDomainId(request.domainId);
    if (!id)
      return answer({ status: 'failed', outcome: 'invalid', reason: `not a domain id: ${request.domainId}` });
    if (id.country !== partition.country) {
      const reason = `domain id country ${id.country} does not match the batch country ${partition.country}`;
      return answer({ status: 'failed', outcome: 'invalid', reason });
    }
    // The domain's folder, checked once: a key per evidence file validated the partition again each time (a
    // schema parse with a calendar check), eight times a domain.
    const folder = prodDomainPrefix(partition, id.registrableDomain);
    const key = (file: ProdFile) => `${folder}${file}`;
    const checkpointKey = key('domain_metadata.json.success');
    if (!request.force && (await objects.head(checkpointKey))) {
      return answer({
        status: 'skipped',
        outcome: 'already_collected',
        reason: 'already collected for this partition (checkpoint exists)',
      });
    }

    const previous = await previousDiscovery(objects, changes, id.registrableDomain);
    const found = await discover(
      {
        domainId: request.domainId,
        registrableDomain: id.registrableDomain,
        country: id.country,
        category: partition.category,
        source: request.source,
        staleAfterDays: deps.staleAfterDays,
        previous,
      },
      scope,
      early,
    );
    const draft = found.draft;
    const evidenceKeys: string[] = [];
    if (draft) {
      // Objects before the transaction that records them (a crash between leaves an unreferenced file, never a
      // seed pointing at a missing one).
      if (found.evidence.robotsTxt) {
        await objects.put(key('robots.txt'), found.evidence.robotsTxt, { contentType: 'text/plain' });
      }
      if (found.evidence.sitemapXml)
        await objects.put(key('sitemap.xml'), found.evidence.sitemapXml, { contentType: 'application/xml' });
      await objects.put(key('domain_metadata.json'), `${JSON.stringify(found.metadata, null, 2)}\n`, {
        contentType: 'application/json',
      });
      evidenceKeys.push(
        key('domain_metadata.json'),
        ...(found.evidence.robotsTxt ? [key('robots.txt')] : []),
      );
    }
    const findings: DomainFindings = {
      index,
      input,
      domainId: request.domainId,
      registrableDomain: id.registrableDomain,
      category: partition.category,
      date: partition.date,
      source: request.source,
      liveness: found.liveness,
      metadata: found.metadata,
      draft,
      reason: draft
        ? null
        : (found.reason ??
          `${found.liveness.state}: ${found.liveness.error_code ?? found.liveness.http_status}`),
      robotsTxt: found.evidence.robotsTxt,
      evidenceKeys,
    };
    return { index, findings, checkpointKey: draft ? checkpointKey : null };
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

  /** Writes what `collect` found in the caller's transaction (record-domain.ts), or its ready answer. */
  function record(trx: DbTransaction, collected: CollectedDomain): Promise<ItemResult> {
    return collected.findings ? recordDomain(trx, collected.findings) : Promise.resolve(collected.answer);
  }

  return { collect, discover, lookahead, record, writeCheckpoint };
}
