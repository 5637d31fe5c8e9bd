// Seeds: how to fetch a source (its contract). A person creates, edits, promotes and archives them here; the
// contract worker writes its runs through seed-contract-runs.ts. The version rises only when the contract changes.
import { isDeepStrictEqual } from 'node:util';
import { type AuthorityOverrides, canonicalSeedId } from '../domain/domains.js';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import type { SeedActionAnswer } from '../domain/seed-actions.js';
import { diffFields, isEmptyDiff, REVISION_FIELDS } from '../domain/seed-diff.js';
import { resolveSeedIdentity } from '../domain/seed-identity.js';
import type { Seed } from '../domain/seed-record.js';
import {
  CONTRACT_FIELDS,
  canTransition,
  type SeedCreateRequest,
  type SeedPatch,
  type SeedStatus,
} from '../domain/seeds.js';
import type { Database, SeedTable } from '../ports/database.js';
import {
  type Clock,
  type CursorPageRequest,
  isUniqueViolation,
  type Page,
  page,
  parseJson,
} from './common.js';
import { moveAtOnce, type SeedActionRequest } from './seed-actions.js';
import { createSeedImport } from './seed-import.js';
import {
  createSeedRepository,
  type ReviewFilter,
  type SeedFilter,
  type SeedRepository,
} from './seed-repository/index.js';
import {
  draftRowOf,
  firstRevision,
  revisionValuesOf,
  SEED_COLUMNS,
  type SeedValues,
  seedColumnsOf,
  seedOfRow,
} from './seed-repository/rows.js';
import { createSeedRevisionService, type SeedRevisionService } from './seed-revisions.js';

export type { ReviewFilter, SeedFilter } from './seed-repository/index.js';

export type SeedService = ReturnType<typeof createSeedService>;

/**
 * Seeds a page when every seed is read (the export, the metadata sync): a page is one statement, and a page of
 * SQLite's holds the event loop while it is read, so a few milliseconds' worth.
 */
export const STREAM_PAGE = 1000;
const SEED_ID_AT = SEED_COLUMNS.indexOf('seed_id');

/** Promote by filter: the drafts the list would show for it (the status is always draft). */
export type PromoteBody = Omit<SeedActionRequest, 'filter'> & {
  filter?: Omit<SeedFilter, 'status'> & Omit<ReviewFilter, 'sort'>;
};

export function createSeedService(deps: {
  database: Database;
  clock: Clock;
  authorityOverrides?: AuthorityOverrides;
  repository?: SeedRepository;
  revisions?: SeedRevisionService;
}) {
  const { database, clock, authorityOverrides } = deps;
  const repository = deps.repository ?? createSeedRepository(database);
  const revisions = deps.revisions ?? createSeedRevisionService({ database, repository, clock });
  const now = () => clock().toISOString();
  const bulk = createSeedImport({ database, repository, revisions, clock, authorityOverrides });

  async function get(seedId: string): Promise<Seed> {
    const row = await repository.find(database.db, canonicalSeedId(seedId));
    if (!row) throw new NotFoundError(`no seed ${seedId}`);
    return seedOfRow(row);
  }

  /** A person's seed, or a seed copied from a GET: the server-owned fields it carries are not taken over. */
  async function create(body: SeedCreateRequest, author = 'anonymous'): Promise<Seed> {
    const identity = resolveSeedIdentity(body, authorityOverrides);
    const { seedId } = identity;
    const at = now();
    const row = draftRowOf(body, identity, at, { source: 'api' });
    try {
      await database.transaction((trx) =>
        repository.insert(trx, row, firstRevision(seedId, author, revisionValuesOf(row), at)),
      );
    } catch (error) {
      if (isUniqueViolation(error)) {
        throw new ConflictError(`seed ${seedId} already exists`, 'seed_exists', { seed_id: seedId });
      }
      throw error;
    }
    return seedOfRow(row);
  }

  /** A page by cursor (`next` of the page before) or by offset; `next` starts the page after it. */
  async function list(filter: SeedFilter & ReviewFilter & CursorPageRequest): Promise<Page<Seed>> {
    const { rows, total, next } = await repository.list(filter);
    return page(rows.map(seedOfRow), filter, total, next);
  }

  /**
   * Every seed matching the filter in seed id order, a page of rows (arrays of SEED_COLUMNS values) at a time,
   * each page read after the last id seen (no offset scan, no snapshot: a seed written meanwhile may or may not
   * appear, none appears twice).
   */
  async function* pages(filter: SeedFilter, pageSize = STREAM_PAGE): AsyncGenerator<SeedValues[]> {
    let after: string | null = null;
    for (;;) {
      const rows = await repository.seedValuesAfter(filter, after, pageSize);
      if (rows.length > 0) yield rows;
      const last = rows.at(-1);
      if (!last || rows.length < pageSize) return;
      after = last[SEED_ID_AT] as string;
    }
  }

  /** Every seed matching the filter in seed id order (pages). */
  async function* stream(filter: SeedFilter, pageSize = STREAM_PAGE): AsyncGenerator<Seed> {
    for await (const rows of pages(filter, pageSize))
      for (const row of rows) yield seedOfRow(seedColumnsOf(row));
  }

  async function patch(id: string, changes: SeedPatch, author = 'anonymous'): Promise<Seed> {
    const seedId = canonicalSeedId(id);
    return database.transaction(async (trx) => {
      const row = await repository.find(trx, seedId, true);
      if (!row) throw new NotFoundError(`no seed ${seedId}`);
      if (changes.expected_version !== undefined && changes.expected_version !== Number(row.version)) {
        throw new ConflictError(
          `seed ${seedId} is at version ${row.version}, not ${changes.expected_version}`,
          'version_conflict',
          { version: Number(row.version) },
        );
      }
      const current = revisionValuesOf(row);
      const from = row.status as SeedStatus;
      let promotedAt = row.promoted_at;
      if (changes.status !== undefined && changes.status !== from) {
        if (from === 'draft' && changes.status === 'active') {
          throw new ConflictError(
            'a draft becomes active only through POST /api/v1/seeds/promote',
            'use_promote',
            {
              from,
              to: changes.status,
            },
          );
        }
        if (!canTransition(from, changes.status)) throw illegalTransition(from, changes.status);
        if (changes.status === 'active') promotedAt = promotedAt ?? now();
      }
      const next = {
        name: changes.name !== undefined ? changes.name : current.name,
        entry_url: changes.entry_url !== undefined ? changes.entry_url : current.entry_url,
        fetch: changes.fetch ?? current.fetch,
        schedule: changes.schedule !== undefined ? changes.schedule : current.schedule,
        policy: changes.policy ? { ...(current.policy as object), ...changes.policy } : current.policy,
      };
      const contractChanged = CONTRACT_FIELDS.some(
        (field) => !isDeepStrictEqual(next[field], current[field]),
      );
      const humanFields = new Set([
        ...parseJson<string[]>(row.human_fields, []),
        ...REVISION_FIELDS.filter((field) => changes[field] !== undefined),
      ]);
      const counter = { seedId, last: Number(row.last_revision) };
      const edit = diffFields(current, next);
      if (!isEmptyDiff(edit)) {
        await revisions.record(trx, counter, {
          status: 'applied',
          author,
          baseVersion: Number(row.version),
          changes: edit,
        });
        await revisions.supersedeStale(trx, seedId, next);
      }
      const updated: Partial<SeedTable> = {
        human_fields: JSON.stringify([...humanFields]),
        name: next.name as string | null,
        source_type: changes.source_type ?? row.source_type,
        entry_url: next.entry_url as string | null,
        fetch: JSON.stringify(next.fetch),
        schedule: next.schedule as string | null,
        policy: JSON.stringify(next.policy),
        status: changes.status ?? from,
        version: Number(row.version) + (contractChanged ? 1 : 0),
        last_revision: counter.last,
        updated_at: now(),
        promoted_at: promotedAt,
      };
      await repository.update(trx, seedId, updated);
      return seedOfRow({ ...row, ...updated });
    });
  }

  /**
   * Promotes drafts at once (ids, or the first min(limit, 1000) drafts a filter matches), answered per seed; the API
   * goes through the seed action service, which makes a batch of a larger match.
   */
  function promote(body: PromoteBody) {
    return moveAtOnce({ database, repository }, 'promote', body, now()) as Promise<{
      promoted: number;
      skipped: number;
      results: SeedActionAnswer[];
    }>;
  }

  return {
    get,
    create,
    list,
    pages,
    stream,
    patch,
    promote,
    importLines: bulk.importLines,
    countries: repository.countries,
    countByStatus: repository.countByStatus,
    countFailing: repository.countFailing,
    countByAi: repository.countByAi,
    countByNews: repository.countByNews,
    countActiveByHealth: repository.countActiveByHealth,
    repository,
    revisions,
  };
}

function illegalTransition(from: SeedStatus, to: SeedStatus): ConflictError {
  return new ConflictError(`illegal transition from ${from} to ${to}`, 'illegal_transition', { from, to });
}
