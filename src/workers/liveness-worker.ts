// LIVENESS_QUEUE: one chunk of domains (hosts, URLs or domain ids) → a liveness check each, stored as the
// latest result per domain and as the batch item's result. Every check runs at once in the process's domain
// pool and is recorded the moment it is done.
import { type ItemResult, livenessItemSchema } from '../domain/batches.js';
import type { AuthorityOverrides } from '../domain/domains.js';
import { NetworkUnavailableError } from '../domain/errors.js';
import { type DomainTarget, parseDomainTarget } from '../domain/urls.js';
import { checkLiveness, isNetworkUnavailable, type LivenessResult } from '../engine/liveness.js';
import type { NetworkCanary } from '../engine/network-canary.js';
import type { Fetcher } from '../ports/fetcher.js';
import { scopedFetcher } from '../services/fetch-scope.js';
import type { LivenessService } from '../services/liveness.js';
import type { OutageWatch } from '../services/outage-watch.js';
import { type ChunkHandler, commitDeadline, type ItemCommits } from './chunk-worker.js';
import type { DomainRunner } from './domain-pool.js';

export function livenessHandler(deps: {
  liveness: LivenessService;
  fetcher: Fetcher;
  domains: DomainRunner;
  now: () => Date;
  authorityOverrides?: AuthorityOverrides;
  /** Asked before a failure is stored as dead (SEEDBED_NETWORK_CANARY); null: never. */
  canary?: NetworkCanary | null;
  /** Distrusts a failure seen while the canary found our network down (checks run side by side). */
  outages?: OutageWatch;
}): ChunkHandler<string> {
  const { liveness, fetcher, domains } = deps;

  async function checkOne(
    index: number,
    input: unknown,
    target: DomainTarget,
    batchId: string,
    items: ItemCommits,
  ): Promise<void> {
    const startedAt = deps.outages?.now() ?? 0;
    const outcome = await domains.run((scope) =>
      checkLiveness(scopedFetcher(fetcher, scope), target.host, {
        now: deps.now,
        canary: deps.canary ?? null,
      }),
    );
    if (!outcome.ok) {
      await commitDeadline(items, index, input, outcome.reason);
      return;
    }
    const check = outcome.value;
    // Our own network was down: the answer says nothing about the domain, so it is not stored and the chunk
    // is retried later (never a dead domain because we were offline). The chunk's other answers stand: each
    // passed the canary on its own.
    if (isNetworkUnavailable(check))
      throw new NetworkUnavailableError(`${check.domain}: ${check.error_message}`);
    // A failure judged by a canary asked after the network came back may still be the outage's doing.
    if (!check.alive && deps.outages?.downSince(startedAt)) {
      throw new NetworkUnavailableError(`${check.domain}: our network was down while it was checked`);
    }
    await items.commit(index, async (unit) => {
      await liveness.record(unit, target.registrable_domain, check, batchId);
      return itemOf(index, input, target, check);
    });
  }

  return {
    queue: 'LIVENESS_QUEUE',
    item: livenessItemSchema,
    async process(work, items) {
      const targets = work.items.map((input, i) => ({
        index: work.itemOffset + i,
        input: work.inputs[i],
        target: parseDomainTarget(input, work.country, deps.authorityOverrides),
      }));
      // A host listed twice in one chunk is checked once.
      const firstOfHost = new Map<string, number>();
      for (const t of targets)
        if (t.target.ok && !firstOfHost.has(t.target.value.host))
          firstOfHost.set(t.target.value.host, t.index);
      const checked = targets.flatMap((t) =>
        t.target.ok && firstOfHost.get(t.target.value.host) === t.index
          ? [checkOne(t.index, t.input, t.target.value, work.batchId, items)]
          : [],
      );
      const done = await Promise.allSettled(checked);
      // Every domain has had its chance; the chunk is retried for the first failure (answered items stand).
      for (const result of done) if (result.status === 'rejected') throw result.reason;
      return {
        // What needed no check: refused inputs and repeated hosts.
        async record() {
          const results: ItemResult[] = [];
          for (const { index, input, target } of targets) {
            if (!target.ok) {
              const reason = `refused: ${target.reason}`;
              results.push({ index, input, status: 'failed', outcome: 'invalid', reason });
            } else if (firstOfHost.get(target.value.host) !== index) {
              const reason = 'the same host is checked earlier in this chunk';
              results.push({ index, input, status: 'skipped', outcome: 'duplicate', reason });
            }
          }
          return results;
        },
      };
    },
  };
}

function itemOf(index: number, input: unknown, target: DomainTarget, check: LivenessResult): ItemResult {
  const reason = check.alive
    ? null
    : `${check.state}: ${check.error_code ?? `HTTP ${check.http_status}`}${check.error_message ? ` (${check.error_message})` : ''}`;
  return {
    index,
    input,
    status: 'succeeded',
    outcome: check.state,
    reason,
    result: { ...check, domain_id: target.domain_id },
  };
}
