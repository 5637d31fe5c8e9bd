// Re-checks (docs/design.md §11): active seeds go back through the contract pipeline as batches of type `recheck`, one
// per (country, category), either on their tick of SEEDBED_RECHECK_CRON or when a person asks. The contract
// worker does the rest: liveness, facts, health, changes and proposed revisions, never an edit of the contract.
import type { BatchView } from '../domain/batches.js';
import { isDueAt, recheckTickOf } from '../domain/recheck-slots.js';
import type { BatchService } from './batches.js';
import type { Clock } from './common.js';
import type { SeedRepository } from './seed-repository/index.js';

/** Which active seeds to re-check now (all of them when nothing is given). */
export interface RecheckFilter {
  country?: string;
  category?: string;
  seedIds?: readonly string[];
}

export interface RecheckPlan {
  /** The tick (ISO) for a scheduled run; null for one a person asked for. */
  tick: string | null;
  seeds: number;
  batches: BatchView[];
}

interface DueSeed {
  domain_id: string;
  registrable_domain: string;
  country: string;
  category: string;
}

export type RecheckService = ReturnType<typeof createRecheckService>;

export function createRecheckService(deps: {
  seeds: Pick<SeedRepository, 'activeSeeds'>;
  batches: Pick<BatchService, 'create'>;
  clock: Clock;
  /** SEEDBED_RECHECK_CRON; null: no schedule (a person may still ask). */
  cron: string | null;
  chunkSize: number;
  today: () => string;
}) {
  const { batches, clock } = deps;

  async function activeSeeds(filter: RecheckFilter): Promise<DueSeed[]> {
    if (filter.seedIds?.length === 0) return [];
    return deps.seeds.activeSeeds(filter);
  }

  /**
   * One batch per (country, category). A scheduled tick names its batches by the tick, so however many
   * processes run it, each batch is made once (the Idempotency-Key replays the first).
   */
  async function submit(seeds: DueSeed[], tick: string | null): Promise<BatchView[]> {
    const groups = new Map<string, DueSeed[]>();
    for (const seed of seeds) {
      const key = `${seed.country}/${seed.category}`;
      const group = groups.get(key);
      if (group) group.push(seed);
      else groups.set(key, [seed]);
    }
    const made: BatchView[] = [];
    for (const [key, group] of groups) {
      const first = group[0] as DueSeed;
      const { batch } = await batches.create({
        type: 'recheck',
        queue: 'CONTRACT_QUEUE',
        country: first.country,
        category: first.category,
        date: deps.today(),
        // Collected again even where today's checkpoint exists: a re-check is a new look at the source.
        items: group.map((seed) => ({ domain_id: seed.domain_id, force: true })),
        chunkSize: deps.chunkSize,
        summary: tick ? { scheduled: tick } : { requested: true },
        idempotencyKey: tick ? `recheck:${tick}:${key}` : null,
        // The tick's batch is the tick's, whatever seeds were active when a retry of it ran.
        request: tick ? { tick, group: key } : undefined,
      });
      made.push(batch);
    }
    return made;
  }

  /** The scheduled run: the active seeds whose share of the day is the tick that `slot` (or now) belongs to. */
  async function runTick(slot: Date | null): Promise<RecheckPlan> {
    if (!deps.cron) return { tick: null, seeds: 0, batches: [] };
    const tick = recheckTickOf(deps.cron, slot ?? clock());
    const due = (await activeSeeds({})).filter((seed) => isDueAt(seed.registrable_domain, tick));
    const at = tick.at.toISOString();
    return { tick: at, seeds: due.length, batches: await submit(due, at) };
  }

  /** A person's request: every active seed matching the filter, now. */
  async function recheckNow(filter: RecheckFilter): Promise<RecheckPlan> {
    const seeds = await activeSeeds(filter);
    return { tick: null, seeds: seeds.length, batches: await submit(seeds, null) };
  }

  return { runTick, recheckNow };
}
