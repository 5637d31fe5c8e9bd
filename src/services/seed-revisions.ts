// Revisions of a seed's contract (docs/revisions.md): every applied change, and the changes a contract run could
// only propose, which a person accepts or rejects. The rules are here; the rows are the seed repository's.
import { canonicalSeedId } from '../domain/domains.js';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import {
  type FieldDiff,
  proposalStillApplies,
  type RevisionValues,
  sameProposal,
} from '../domain/seed-diff.js';
import { CONTRACT_FIELDS, type RevisionStatus } from '../domain/seeds.js';
import type { Database, DbExecutor } from '../ports/database.js';
import { type Clock, type Page, type PageRequest, page } from './common.js';
import type { SeedRepository } from './seed-repository/index.js';
import { columnsOf, type RevisionView, revisionValuesOf } from './seed-repository/rows.js';

export type { RevisionView } from './seed-repository/rows.js';
export type { RevisionStatus };

/**
 * The revision numbers of one seed handed out in a transaction. It starts at the row's `last_revision`, read
 * with the row locked; the caller writes `last` back with the rest of the row, in one UPDATE.
 */
export interface RevisionCounter {
  seedId: string;
  last: number;
}

export type SeedRevisionService = ReturnType<typeof createSeedRevisionService>;

export function createSeedRevisionService(deps: {
  database: Database;
  repository: SeedRepository;
  clock: Clock;
}) {
  const { database, repository, clock } = deps;
  const now = () => clock().toISOString();

  /** Records a revision under the counter's next number. */
  async function record(
    executor: DbExecutor,
    counter: RevisionCounter,
    input: { status: RevisionStatus; author: string; baseVersion: number; changes: FieldDiff },
  ): Promise<number> {
    counter.last += 1;
    await repository.insertRevision(executor, {
      seedId: counter.seedId,
      number: counter.last,
      at: now(),
      ...input,
    });
    return counter.last;
  }

  /** Open proposals the seed has moved past (a field they change no longer holds their `before`) are superseded. */
  async function supersedeStale(
    executor: DbExecutor,
    seedId: string,
    current: RevisionValues,
  ): Promise<void> {
    const stale = (await repository.openProposals(executor, seedId)).filter(
      (p) => !proposalStillApplies(current, p.changes),
    );
    await repository.settle(
      executor,
      seedId,
      stale.map((p) => p.number),
      { status: 'superseded', by: 'seed changed', at: now() },
    );
  }

  /**
   * A contract run's proposal. The same proposal still open is not recorded twice (a daily run finds the same
   * thing every day); a different one replaces the open ones, which the newer run has outdated.
   */
  async function propose(
    executor: DbExecutor,
    counter: RevisionCounter,
    input: { author: string; baseVersion: number; changes: FieldDiff },
  ): Promise<{ number: number; recorded: boolean }> {
    const open = await repository.openProposals(executor, counter.seedId);
    const same = open.find((p) => sameProposal(p.changes, input.changes));
    if (same) return { number: same.number, recorded: false };
    await repository.settle(
      executor,
      counter.seedId,
      open.map((p) => p.number),
      { status: 'superseded', by: input.author, at: now() },
    );
    return { number: await record(executor, counter, { ...input, status: 'proposed' }), recorded: true };
  }

  async function list(id: string, request: PageRequest): Promise<Page<RevisionView>> {
    const seedId = canonicalSeedId(id);
    if (!(await repository.exists(seedId))) throw new NotFoundError(`no seed ${id}`);
    const { revisions, total } = await repository.listRevisions(seedId, request);
    return page(revisions, request, total);
  }

  /** Settles a proposal. Accepting applies it: 409 when the seed moved on or the proposal is already settled. */
  async function decide(id: string, number: number, decision: 'accepted' | 'rejected', by: string) {
    const seedId = canonicalSeedId(id);
    return database.transaction(async (trx) => {
      const seed = await repository.find(trx, seedId, true);
      if (!seed) throw new NotFoundError(`no seed ${id}`);
      const revision = await repository.findRevision(trx, seedId, number);
      if (!revision) throw new NotFoundError(`seed ${seedId} has no revision ${number}`);
      const current = revisionValuesOf(seed);
      // The seed moved on since the run proposed this: it can no longer be applied as it was reviewed.
      const movedOn =
        revision.status === 'superseded' ||
        (revision.status === 'proposed' && !proposalStillApplies(current, revision.changes));
      if (movedOn) {
        throw new ConflictError(
          `seed ${seedId} changed since revision ${number} was proposed`,
          'seed_moved_on',
          {
            version: Number(seed.version),
            base_version: revision.base_version,
          },
        );
      }
      if (revision.status !== 'proposed') {
        throw new ConflictError(
          `revision ${number} of ${seedId} is ${revision.status}, not proposed`,
          'revision_settled',
          { revision_status: revision.status },
        );
      }
      const at = now();
      let version = Number(seed.version);
      if (decision === 'accepted') {
        if (CONTRACT_FIELDS.some((field) => revision.changes[field])) version += 1;
        await repository.update(trx, seedId, { ...columnsOf(revision.changes), version, updated_at: at });
      }
      await repository.settle(trx, seedId, [number], { status: decision, by, at });
      if (decision === 'accepted') {
        const after = { ...seed, ...columnsOf(revision.changes) };
        await supersedeStale(trx, seedId, revisionValuesOf(after));
      }
      const settled = await repository.findRevision(trx, seedId, number);
      return { ...(settled as RevisionView), seed_version: version };
    });
  }

  return {
    record,
    propose,
    supersedeStale,
    list,
    accept: (id: string, number: number, by: string) => decide(id, number, 'accepted', by),
    reject: (id: string, number: number, by: string) => decide(id, number, 'rejected', by),
  };
}
