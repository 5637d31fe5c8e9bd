// DISCOVERY_QUEUE: one chunk of a discovery batch — seeds whose links are read (harvest), or candidates run
// through the contract engine (qualify). Every item runs at once in the process's domain pool and is recorded the
// moment it is done; after the chunk's commit, the next round is added to the batch once the round before it is in.
// The items go to the pool before anything is awaited (the pool's count of claimed domains stays right); the
// batch's parameters, and the countries citing the chunk's candidates (one read for the chunk), are awaited in
// each item's slot.
import { type DiscoveryItem, discoveryItemSchema } from '../domain/candidates.js';
import type { DiscoveryFinding, DiscoveryService } from '../services/discovery.js';
import type { FetchScope } from '../services/fetch-scope.js';
import { type ChunkHandler, commitDeadline, type ItemCommits } from './chunk-worker.js';
import type { DomainRunner } from './domain-pool.js';

export function discoveryHandler(deps: {
  discovery: DiscoveryService;
  domains: DomainRunner;
  /** The batch's parameters: how many rounds, and whether links read lately are read again. */
  parametersOf: (batchId: string) => Promise<{ rounds: number; force: boolean }>;
}): ChunkHandler<DiscoveryItem> {
  const { discovery, domains } = deps;

  async function runOne(
    item: DiscoveryItem,
    context: {
      index: number;
      input: unknown;
      category: string;
      parameters: Promise<{ rounds: number; force: boolean }>;
      citing: Promise<Map<string, Record<string, number>>>;
    },
    items: ItemCommits,
  ): Promise<void> {
    const work = async (scope: FetchScope): Promise<DiscoveryFinding> => {
      const { rounds, force } = await context.parameters;
      if (item.kind === 'harvest') return discovery.harvest(item, force, scope);
      const citing = (await context.citing).get(item.domain) ?? {};
      return discovery.qualify(item, { category: context.category, rounds, citing }, scope);
    };
    const outcome = await domains.run(work);
    if (!outcome.ok) {
      await commitDeadline(items, context.index, context.input, outcome.reason);
      return;
    }
    const record = outcome.value;
    await items.commit(context.index, async (unit) => ({
      index: context.index,
      input: context.input,
      ...(await record(unit)),
    }));
  }

  return {
    queue: 'DISCOVERY_QUEUE',
    item: discoveryItemSchema,
    async process(work, items) {
      const parameters = deps.parametersOf(work.batchId);
      const candidates = work.items.flatMap((item) => (item.kind === 'qualify' ? [item.domain] : []));
      const citing =
        candidates.length > 0 ? discovery.citingCountries(candidates) : Promise.resolve(new Map());
      // Every item awaits them; one that never runs (cut short before its slot) leaves no unhandled rejection.
      parameters.catch(() => undefined);
      citing.catch(() => undefined);
      const category = work.category ?? 'news';
      const done = await Promise.allSettled(
        work.items.map((item, i) =>
          runOne(
            item,
            { index: work.itemOffset + i, input: work.inputs[i], category, parameters, citing },
            items,
          ),
        ),
      );
      for (const result of done) if (result.status === 'rejected') throw result.reason;
      return {
        // Every item was recorded on its own: an earlier attempt's answers stand, the rest are in.
        record: async () => [],
        afterCommit: () => discovery.advance(work.batchId),
      };
    },
  };
}
