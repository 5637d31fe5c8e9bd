// Revisions of a seed's contract (docs/design.md §3): every applied change, and the changes a contract run could only
// propose, which a person accepts or rejects. Owns `seed_revisions`; accepting writes the seed's contract.

import { parseSeedId, seedIdOf } from '../domain/domains.js';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import {
  diffFields,
  type FieldDiff,
  proposalStillApplies,
  REVISION_FIELDS,
  type RevisionValues,
  sameProposal,
} from '../domain/seed-diff.js';
import { CONTRACT_FIELDS } from '../domain/seeds.js';
import type { Database, DbExecutor, SeedRevisionTable, SeedTable } from '../ports/database.js';
import { type Clock, type Page, type PageRequest, page, parseJson } from './common.js';

export type RevisionStatus = SeedRevisionTable['status'];

export interface RevisionView {
  seed_id: string;
  number: number;
  status: RevisionStatus;
  author: string;
  created_at: string;
  base_version: number;
  changes: FieldDiff;
  settled_by: string | null;
  settled_at: string | null;
}

export type SeedRevisionService = ReturnType<typeof createSeedRevisionService>;

export function createSeedRevisionService(deps: { database: Database; clock: Clock }) {
  const { database, clock } = deps;
  const now = () => clock().toISOString();

  /**
   * Records a revision under the next number. The number comes from an UPDATE of the seed row, which makes two
   * writers of one seed (PostgreSQL runs contracts side by side) wait for each other rather than collide.
   */
  async function record(
    executor: DbExecutor,
    input: {
      seedId: string;
      status: RevisionStatus;
      author: string;
      baseVersion: number;
      changes: FieldDiff;
    },
  ): Promise<number> {
    await executor
      .updateTable('seeds')
      .set((eb) => ({ last_revision: eb('last_revision', '+', 1) }))
      .where('seed_id', '=', input.seedId)
      .execute();
    const row = await executor
      .selectFrom('seeds')
      .select('last_revision')
      .where('seed_id', '=', input.seedId)
      .executeTakeFirstOrThrow();
    const number = Number(row.last_revision);
    await executor
      .insertInto('seed_revisions')
      .values({
        seed_id: input.seedId,
        number,
        status: input.status,
        author: input.author,
        created_at: now(),
        base_version: input.baseVersion,
        changes: JSON.stringify(input.changes),
        settled_by: null,
        settled_at: null,
      })
      .execute();
    return number;
  }

  async function openProposals(executor: DbExecutor, seedId: string): Promise<RevisionView[]> {
    const rows = await executor
      .selectFrom('seed_revisions')
      .selectAll()
      .where('seed_id', '=', seedId)
      .where('status', '=', 'proposed')
      .orderBy('number')
      .execute();
    return rows.map(toRevisionView);
  }

  async function settle(
    executor: DbExecutor,
    seedId: string,
    numbers: number[],
    status: RevisionStatus,
    by: string,
  ) {
    if (numbers.length === 0) return;
    await executor
      .updateTable('seed_revisions')
      .set({ status, settled_by: by, settled_at: now() })
      .where('seed_id', '=', seedId)
      .where('number', 'in', numbers)
      .where('status', '=', 'proposed')
      .execute();
  }

  /** Open proposals the seed has moved past (a field they change no longer holds their `before`) are superseded. */
  async function supersedeStale(
    executor: DbExecutor,
    seedId: string,
    current: RevisionValues,
  ): Promise<void> {
    const stale = (await openProposals(executor, seedId)).filter(
      (p) => !proposalStillApplies(current, p.changes),
    );
    await settle(
      executor,
      seedId,
      stale.map((p) => p.number),
      'superseded',
      'seed changed',
    );
  }

  /**
   * A contract run's proposal. The same proposal still open is not recorded twice (a daily run finds the same
   * thing every day); a different one replaces the open ones, which the newer run has outdated.
   */
  async function propose(
    executor: DbExecutor,
    input: { seedId: string; author: string; baseVersion: number; changes: FieldDiff },
  ): Promise<{ number: number; recorded: boolean }> {
    const open = await openProposals(executor, input.seedId);
    const same = open.find((p) => sameProposal(p.changes, input.changes));
    if (same) return { number: same.number, recorded: false };
    await settle(
      executor,
      input.seedId,
      open.map((p) => p.number),
      'superseded',
      input.author,
    );
    return { number: await record(executor, { ...input, status: 'proposed' }), recorded: true };
  }

  async function list(id: string, request: PageRequest): Promise<Page<RevisionView>> {
    const seedId = canonical(id);
    const seed = await database.db
      .selectFrom('seeds')
      .select('seed_id')
      .where('seed_id', '=', seedId)
      .executeTakeFirst();
    if (!seed) throw new NotFoundError(`no seed ${id}`);
    const query = database.db.selectFrom('seed_revisions').where('seed_id', '=', seedId);
    const [rows, total] = await Promise.all([
      query.selectAll().orderBy('number').limit(request.limit).offset(request.offset).execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return page(rows.map(toRevisionView), request, Number(total.n));
  }

  /** Settles a proposal. Accepting applies it: 409 when the seed moved on or the proposal is already settled. */
  async function decide(id: string, number: number, decision: 'accepted' | 'rejected', by: string) {
    const seedId = canonical(id);
    return database.transaction(async (trx) => {
      const seed = await trx.selectFrom('seeds').selectAll().where('seed_id', '=', seedId).executeTakeFirst();
      if (!seed) throw new NotFoundError(`no seed ${id}`);
      const row = await trx
        .selectFrom('seed_revisions')
        .selectAll()
        .where('seed_id', '=', seedId)
        .where('number', '=', number)
        .executeTakeFirst();
      if (!row) throw new NotFoundError(`seed ${seedId} has no revision ${number}`);
      const revision = toRevisionView(row);
      if (revision.status === 'superseded') {
        throw new ConflictError(
          `seed ${seedId} changed since revision ${number} was proposed`,
          'seed_moved_on',
          { version: Number(seed.version), base_version: revision.base_version },
        );
      }
      if (revision.status !== 'proposed') {
        throw new ConflictError(
          `revision ${number} of ${seedId} is ${revision.status}, not proposed`,
          'revision_settled',
          { revision_status: revision.status },
        );
      }
      const current = revisionValuesOf(seed);
      if (!proposalStillApplies(current, revision.changes)) {
        // The seed moved on since the run proposed this; it can no longer be applied as it was reviewed.
        throw new ConflictError(
          `seed ${seedId} changed since revision ${number} was proposed`,
          'seed_moved_on',
          { version: Number(seed.version), base_version: revision.base_version },
        );
      }
      let version = Number(seed.version);
      if (decision === 'accepted') {
        if (CONTRACT_FIELDS.some((field) => revision.changes[field])) version += 1;
        await trx
          .updateTable('seeds')
          .set({ ...columnsOf(revision.changes), version, updated_at: now() })
          .where('seed_id', '=', seedId)
          .execute();
      }
      await settle(trx, seedId, [number], decision, by);
      if (decision === 'accepted') {
        const updated = await trx
          .selectFrom('seeds')
          .selectAll()
          .where('seed_id', '=', seedId)
          .executeTakeFirstOrThrow();
        await supersedeStale(trx, seedId, revisionValuesOf(updated));
      }
      const settled = await trx
        .selectFrom('seed_revisions')
        .selectAll()
        .where('seed_id', '=', seedId)
        .where('number', '=', number)
        .executeTakeFirstOrThrow();
      return { ...toRevisionView(settled), seed_version: version };
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

/** The revision fields of a stored seed, as a view shows them. */
export function revisionValuesOf(row: SeedTable): RevisionValues {
  return {
    name: row.name,
    entry_url: row.entry_url,
    fetch: parseJson(row.fetch, { type: 'html', urls: [] }),
    schedule: row.schedule,
    policy: parseJson(row.policy, {}),
  };
}

/** The first revision of a seed: every field it was created with, from nothing. */
export function firstRevision(seedId: string, author: string, values: RevisionValues, at: string) {
  return {
    seed_id: seedId,
    number: 1,
    status: 'applied' as const,
    author,
    created_at: at,
    base_version: 1,
    changes: JSON.stringify(diffFields({}, values)),
    settled_by: null,
    settled_at: null,
  };
}

/** The stored columns of the fields a diff leads to. */
export function columnsOf(diff: FieldDiff): Partial<SeedTable> {
  const columns: Partial<SeedTable> = {};
  for (const field of REVISION_FIELDS) {
    const change = diff[field];
    if (!change) continue;
    if (field === 'fetch' || field === 'policy') columns[field] = JSON.stringify(change.after ?? {});
    else columns[field] = (change.after ?? null) as string | null;
  }
  return columns;
}

function canonical(seedId: string): string {
  const parsed = parseSeedId(seedId);
  return parsed ? seedIdOf(parsed.domainId, parsed.contentType) : seedId;
}

function toRevisionView(row: SeedRevisionTable): RevisionView {
  return {
    seed_id: row.seed_id,
    number: Number(row.number),
    status: row.status,
    author: row.author,
    created_at: row.created_at,
    base_version: Number(row.base_version),
    changes: parseJson<FieldDiff>(row.changes, {}),
    settled_by: row.settled_by,
    settled_at: row.settled_at,
  };
}
