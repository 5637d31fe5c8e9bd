// LIVENESS_QUEUE: one chunk of domains (hosts, URLs or domain ids) → a liveness check each, stored as the
// latest result per domain and as the batch item's result.
import { type ItemResult, livenessItemSchema } from '../domain/batches.js';
import type { AuthorityOverrides } from '../domain/domains.js';
import { NetworkUnavailableError } from '../domain/errors.js';
import { type DomainTarget, parseDomainTarget } from '../domain/urls.js';
import { checkLiveness, isNetworkUnavailable, type LivenessResult } from '../engine/liveness.js';
import type { NetworkCanary } from '../engine/network-canary.js';
import type { Fetcher } from '../ports/fetcher.js';
import type { LivenessService } from '../services/liveness.js';
import type { ChunkHandler } from './chunk-worker.js';
import { mapLimit } from './map-limit.js';

const CHECKS_IN_PARALLEL = 8;

export function livenessHandler(deps: {
  liveness: LivenessService;
  fetcher: Fetcher;
  now: () => Date;
  authorityOverrides?: AuthorityOverrides;
  /** Asked before a failure is stored as dead (SEEDBED_NETWORK_CANARY); null: never. */
  canary?: NetworkCanary | null;
}): ChunkHandler<string> {
  const { liveness, fetcher } = deps;
  return {
    queue: 'LIVENESS_QUEUE',
    item: livenessItemSchema,
    async process(work) {
      const targets = work.items.map((input, i) => ({
        index: work.itemOffset + i,
        input,
        target: parseDomainTarget(input, work.country, deps.authorityOverrides),
      }));
      // A host listed twice in one chunk is checked once.
      const firstOfHost = new Map<string, number>();
      for (const t of targets)
        if (t.target.ok && !firstOfHost.has(t.target.value.host))
          firstOfHost.set(t.target.value.host, t.index);
      const checks = await mapLimit(targets, CHECKS_IN_PARALLEL, async (t) => {
        if (!t.target.ok || firstOfHost.get(t.target.value.host) !== t.index) return null;
        return checkLiveness(fetcher, t.target.value.host, { now: deps.now, canary: deps.canary ?? null });
      });
      // Our own network was down during this chunk: none of its answers can be trusted, so none is stored and
      // the queue retries the chunk later (never a dead domain because we were offline).
      const outage = checks.find((c) => c !== null && isNetworkUnavailable(c));
      if (outage) throw new NetworkUnavailableError(`${outage.domain}: ${outage.error_message}`);
      return {
        async record(unit, unanswered) {
          const results: ItemResult[] = [];
          for (const [i, t] of targets.entries()) {
            const { index, input } = t;
            if (!t.target.ok) {
              results.push({
                index,
                input,
                status: 'failed',
                outcome: 'invalid',
                reason: `refused: ${t.target.reason}`,
              });
              continue;
            }
            const check = checks[i];
            if (!check) {
              const reason = 'the same host is checked earlier in this chunk';
              results.push({ index, input, status: 'skipped', outcome: 'duplicate', reason });
              continue;
            }
            if (unanswered(index))
              await liveness.record(unit, t.target.value.registrable_domain, check, work.batchId);
            results.push(itemOf(index, input, t.target.value, check));
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
