// A bulk import of seeds, idempotent by seed id (docs/api.md, POST /seeds/import). Lines are written in groups,
// one transaction each, and a group's answers are handed out only once it committed: an answer the client holds
// is never lost to a crash, and a client that sends the whole file again is told `unchanged` (or `created` for the
// lines that never committed). A new seed is a draft as POST /seeds makes it; an existing one is never
// overwritten: what differs becomes a proposed revision a person accepts or rejects (docs/revisions.md).
import { type AuthorityOverrides, canonicalSeedId } from '../domain/domains.js';
import { ValidationError } from '../domain/errors.js';
import { diffFields, isEmptyDiff } from '../domain/seed-diff.js';
import { resolveSeedIdentity, type SeedIdentity } from '../domain/seed-identity.js';
import {
  checkImportLine,
  type ImportAnswer,
  type ImportLine,
  linePaths,
  lineRevisionValues,
} from '../domain/seed-import.js';
import type { SeedCreateRequest } from '../domain/seeds.js';
import type { Database, DbExecutor, SeedTable } from '../ports/database.js';
import type { Clock } from './common.js';
import type { SeedRepository } from './seed-repository/index.js';
import { draftRowOf, firstRevision, type NewRevision, revisionValuesOf } from './seed-repository/rows.js';
import { FOLD_AT, foldAllTotals } from './seed-repository/totals.js';
import type { SeedRevisionService } from './seed-revisions.js';

/**
 * Lines per transaction. A commit writes every page the group dirtied to the WAL and fsyncs it; the new seeds'
 * ids are spread over the seed id and list indexes, so a group of 500 dirtied about a page per seed per spread
 * index, and larger groups share those pages (docs/performance.md, "The import's rate"). 2,000 holds SQLite's
 * one connection ~0.1–0.4 s a group and answers every few hundred milliseconds.
 */
export const GROUP_LINES = 2000;
/** A group also ends at this many bytes of lines read, so a group of long lines never sits whole in memory. */
export const GROUP_BYTES = 4 * 1024 * 1024;
/** A group whose new seeds another writer inserted meanwhile (PostgreSQL) is run again, reading them. */
const GROUP_ATTEMPTS = 3;

/** A line read from the body, with its size for the group's byte bound. */
export type SizedLine = ImportLine & { bytes?: number };

type Checked =
  | { line: number; answer: ImportAnswer }
  | { line: number; body: SeedCreateRequest; identity: SeedIdentity };

/** Another writer inserted a seed of the group between its read and its insert: the group is run again. */
class RacedInsert extends Error {}

export type SeedImport = ReturnType<typeof createSeedImport>;

export function createSeedImport(deps: {
  database: Database;
  repository: SeedRepository;
  revisions: SeedRevisionService;
  clock: Clock;
  authorityOverrides?: AuthorityOverrides | undefined;
}) {
  const { database, repository, revisions, authorityOverrides } = deps;

  /** Parsing and validation happen outside the transaction: the database is held only for the writes. */
  function check(item: ImportLine): Checked {
    const { line } = item;
    if ('unreadable' in item) {
      const answer: ImportAnswer = { line, seed_id: null, result: 'rejected', reason: item.unreadable };
      return { line, answer: item.errors ? { ...answer, errors: item.errors } : answer };
    }
    const checked = checkImportLine(item.value);
    const named = namedSeedId(item.value);
    if (!checked.ok) return { line, answer: rejected(line, named, checked.errors) };
    try {
      return { line, body: checked.body, identity: resolveSeedIdentity(checked.body, authorityOverrides) };
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      return { line, answer: rejected(line, named, linePaths(error.errors)) };
    }
  }

  /** One group in one transaction; answers in line order. */
  async function writeGroup(trx: DbExecutor, group: Checked[], author: string): Promise<ImportAnswer[]> {
    const at = deps.clock().toISOString();
    const ids = new Set<string>();
    for (const item of group) if ('identity' in item) ids.add(item.identity.seedId);
    const rows = new Map<string, SeedTable>();
    for (const row of await repository.findMany(trx, [...ids], true)) rows.set(row.seed_id, row);
    let pending: SeedTable[] = [];
    let firsts: NewRevision[] = [];
    // The seeds of `pending` by id: a group of 2,000 lines asks it once a proposal.
    const unwritten = new Set<string>();
    const flush = async () => {
      if (pending.length === 0) return;
      if ((await repository.insertMany(trx, pending, firsts)) < pending.length) throw new RacedInsert();
      pending = [];
      firsts = [];
      unwritten.clear();
    };
    const answers: ImportAnswer[] = [];
    for (const item of group) {
      if ('answer' in item) {
        answers.push(item.answer);
        continue;
      }
      const { line, body, identity } = item;
      const seedId = identity.seedId;
      const row = rows.get(seedId);
      if (!row) {
        const fresh = draftRowOf(body, identity, at, { source: 'import' });
        rows.set(seedId, fresh);
        pending.push(fresh);
        unwritten.add(seedId);
        firsts.push(firstRevision(seedId, author, revisionValuesOf(fresh), at));
        answers.push({ line, seed_id: seedId, result: 'created' });
        continue;
      }
      const changes = diffFields(revisionValuesOf(row), lineRevisionValues(body));
      if (isEmptyDiff(changes)) {
        answers.push({ line, seed_id: seedId, result: 'unchanged' });
        continue;
      }
      // A seed this group created is written before its proposal, which refers to it.
      if (unwritten.has(seedId)) await flush();
      const counter = { seedId, last: Number(row.last_revision) };
      // The same proposal still open (the file sent again) is answered with its number, not recorded twice.
      const { number, recorded } = await revisions.propose(trx, counter, {
        author,
        baseVersion: Number(row.version),
        changes,
      });
      if (recorded) {
        await repository.update(trx, seedId, { last_revision: counter.last });
        row.last_revision = counter.last;
      }
      answers.push({ line, seed_id: seedId, result: 'proposed', proposed_revision: number });
    }
    await flush();
    return answers;
  }

  async function commitGroup(lines: ImportLine[], author: string): Promise<ImportAnswer[]> {
    const group = lines.map(check);
    for (let attempt = 1; ; attempt++) {
      try {
        return await database.transaction((trx) => writeGroup(trx, group, author));
      } catch (error) {
        if (!(error instanceof RacedInsert) || attempt >= GROUP_ATTEMPTS) throw error;
      }
    }
  }

  /**
   * Imports the lines as they come, yielding each group's answers once the group committed. Reading stops while
   * the caller does not pull (the client not reading its answers holds the body back: memory stays bounded).
   */
  async function* importLines(
    lines: AsyncIterable<SizedLine>,
    author: string,
  ): AsyncGenerator<ImportAnswer[]> {
    let group: SizedLine[] = [];
    let bytes = 0;
    let created = 0;
    const commit = async (lines: SizedLine[]) => {
      const answers = await commitGroup(lines, author);
      for (const answer of answers) if (answer.result === 'created') created += 1;
      return answers;
    };
    for await (const line of lines) {
      group.push(line);
      bytes += line.bytes ?? 0;
      if (group.length >= GROUP_LINES || bytes >= GROUP_BYTES) {
        const done = group;
        group = [];
        bytes = 0;
        yield await commit(done);
      }
    }
    if (group.length > 0) yield await commit(group);
    // A large import leaves PostgreSQL's kept totals a row per change: folded here, before the answer ends, rather
    // than by the first list that counts them (seconds after a million seeds, docs/databases.md).
    if (created >= FOLD_AT) await foldAllTotals(database);
  }

  return { importLines };
}

/** Enough to fix a line in one round; a line with more errors is not worth listing in full. */
const MAX_LINE_ERRORS = 20;

function rejected(line: number, seedId: string | null, all: ImportAnswer['errors']): ImportAnswer {
  const errors = (all ?? []).slice(0, MAX_LINE_ERRORS);
  const reason = `line ${line} is not a valid seed: ${errors.map((e) => `${e.path}: ${e.message}`).join('; ')}`;
  return { line, seed_id: seedId, result: 'rejected', reason, errors };
}

/** The seed id a rejected line names, if it names one, so the answer can be matched to the seed. */
function namedSeedId(value: unknown): string | null {
  const id = (value as { seed_id?: unknown } | null)?.seed_id;
  return typeof id === 'string' && id.length <= 400 ? canonicalSeedId(id) : null;
}
