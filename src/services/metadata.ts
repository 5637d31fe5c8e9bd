// The metadata snapshot of everything stored (for a CI workflow), per-country views, and the tasks that
// build and publish it to a sync target.
import { createHash } from 'node:crypto';
import { ConflictError, NotFoundError } from '../domain/errors.js';
import { uuidv7 } from '../domain/ids.js';
import { JOBS } from '../domain/jobs.js';
import { jsonLine } from '../domain/seed-export.js';
import type { Database, MetadataTaskTable } from '../ports/database.js';
import type { JobQueue } from '../ports/queue.js';
import type { SnapshotFile, SyncTarget } from '../ports/sync-target.js';
import type { BatchService } from './batches.js';
import type { ChangeService } from './changes.js';
import { type Clock, type PageRequest, page } from './common.js';
import type { DatasetService } from './datasets.js';
import type { ResearchService } from './research.js';
import type { SeedService } from './seeds.js';

export interface DateNode {
  chunks: number;
  records: number;
  bytes: number;
  last_modified: string;
}

export interface CountryNode {
  totals: { categories: number; partitions: number; chunks: number; records: number; bytes: number };
  categories: Record<string, Record<string, DateNode>>;
}

export interface Snapshot {
  generated_at: string;
  hash: string;
  totals: {
    countries: number;
    partitions: number;
    chunks: number;
    records: number;
    bytes: number;
    research_records: number;
    seeds: Record<string, number>;
    /** Seeds by what their source says to AI crawlers (disallowed, reserved, allowed, unknown). */
    seeds_by_ai: Record<string, number>;
    /** Seeds by news verdict (news, maybe, not_news, unjudged). */
    seeds_by_news: Record<string, number>;
    /** Candidates by state (new, qualified, rejected, accepted). */
    candidates: Record<string, number>;
    /** Active seeds by health (ok, failing, stale, unchecked): how much of the directory answers today. */
    active_seeds_by_health: Record<string, number>;
    batches: Record<string, number>;
    /** Changes between discoveries, by kind. */
    changes: Record<string, number>;
  };
  countries: Record<string, CountryNode>;
}

export type MetadataService = ReturnType<typeof createMetadataService>;

export function createMetadataService(deps: {
  database: Database;
  queue: JobQueue;
  clock: Clock;
  syncTarget: SyncTarget | null;
  datasets: DatasetService;
  /** Counts owned by other services: the snapshot reads them, never their tables. */
  research: Pick<ResearchService, 'countRecords'>;
  seeds: Pick<
    SeedService,
    'countByStatus' | 'countByAi' | 'countByNews' | 'countActiveByHealth' | 'stream' | 'countries'
  >;
  candidates: { countByState(): Promise<Record<string, number>> };
  batches: Pick<BatchService, 'countByStatus'>;
  changes: Pick<ChangeService, 'countByKind'>;
}) {
  const { database, queue, clock, syncTarget, datasets } = deps;
  const now = () => clock().toISOString();

  async function snapshot(): Promise<Snapshot> {
    const [
      chunks,
      researchRecords,
      seeds,
      seedsByAi,
      seedsByNews,
      candidates,
      activeByHealth,
      batches,
      changes,
    ] = await Promise.all([
      datasets.allPartitions(),
      deps.research.countRecords(),
      deps.seeds.countByStatus(),
      deps.seeds.countByAi(),
      deps.seeds.countByNews(),
      deps.candidates.countByState(),
      deps.seeds.countActiveByHealth(),
      deps.batches.countByStatus(),
      deps.changes.countByKind(),
    ]);
    const countries: Record<string, CountryNode> = {};
    const totals = { partitions: 0, chunks: 0, records: 0, bytes: 0 };
    for (const row of chunks) {
      const node: DateNode = {
        chunks: row.chunks,
        records: row.records,
        bytes: row.bytes,
        last_modified: row.last_modified,
      };
      const country = countries[row.country] ?? {
        totals: { categories: 0, partitions: 0, chunks: 0, records: 0, bytes: 0 },
        categories: {},
      };
      countries[row.country] = country;
      country.categories[row.category] = { ...country.categories[row.category], [row.date]: node };
      country.totals.partitions += 1;
      country.totals.chunks += node.chunks;
      country.totals.records += node.records;
      country.totals.bytes += node.bytes;
      country.totals.categories = Object.keys(country.categories).length;
      totals.partitions += 1;
      totals.chunks += node.chunks;
      totals.records += node.records;
      totals.bytes += node.bytes;
    }
    const body = {
      totals: {
        countries: Object.keys(countries).length,
        ...totals,
        research_records: researchRecords,
        seeds,
        seeds_by_ai: seedsByAi,
        seeds_by_news: seedsByNews,
        candidates,
        active_seeds_by_health: activeByHealth,
        batches,
        changes,
      },
      countries,
    };
    // The hash covers the content, not the time it was generated: equal data, equal hash, no new commit.
    return { generated_at: now(), hash: hashOf(body), ...body };
  }

  async function byCountry(country: string) {
    const full = await snapshot();
    const node = full.countries[country];
    if (!node) throw new NotFoundError(`no stored data for country ${country}`);
    return { generated_at: full.generated_at, country, hash: hashOf(node), ...node };
  }

  async function tasks(request: PageRequest & { status?: MetadataTaskTable['status'] }) {
    let query = database.db.selectFrom('metadata_tasks');
    if (request.status) query = query.where('status', '=', request.status);
    const [rows, total] = await Promise.all([
      query
        .selectAll()
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(request.limit)
        .offset(request.offset)
        .execute(),
      query.select((eb) => eb.fn.countAll().as('n')).executeTakeFirstOrThrow(),
    ]);
    return page(rows.map(taskView), request, Number(total.n));
  }

  function newTask(id: string, trigger: string, status: MetadataTaskTable['status']): MetadataTaskTable {
    return {
      id,
      kind: 'sync',
      status,
      trigger,
      target: syncTarget?.description ?? null,
      commit_id: null,
      snapshot_hash: null,
      error: syncTarget ? null : 'no sync target is configured: set SEEDBED_SYNC_TARGET',
      attempts: 0,
      created_at: now(),
      started_at: null,
      finished_at: syncTarget ? null : now(),
    };
  }

  /** Records a sync task and queues it; without a configured target the task is recorded as skipped. */
  async function requestSync(trigger: 'api' | 'trigger' | 'cli') {
    const id = uuidv7();
    if (!syncTarget) {
      const task = newTask(id, trigger, 'skipped');
      await database.db.insertInto('metadata_tasks').values(task).execute();
      throw new ConflictError(
        'no sync target is configured: set SEEDBED_SYNC_TARGET',
        'sync_target_not_configured',
        {
          task: taskView(task),
        },
      );
    }
    await database.transaction(async (trx) => {
      await trx
        .insertInto('metadata_tasks')
        .values(newTask(id, trigger, 'queued'))
        .execute();
      await queue.enqueue(trx, [
        { queue: 'METADATA_QUEUE', payload: JOBS.METADATA_QUEUE.payload({ taskId: id }) },
      ]);
    });
    return getTask(id);
  }

  /**
   * A cron tick's task, created by the worker that received the scheduled job. With the tick's slot the id is
   * fixed, so a tick delivered twice makes one task; null means this tick's task already exists.
   */
  async function openScheduledTask(slot: string | undefined): Promise<string | null> {
    const id = slot ? `cron-${slot}` : uuidv7();
    const inserted = await database.db
      .insertInto('metadata_tasks')
      .values(newTask(id, 'cron', 'queued'))
      .onConflict((oc) => oc.column('id').doNothing())
      .executeTakeFirst();
    return Number(inserted.numInsertedOrUpdatedRows ?? 0) > 0 ? id : null;
  }

  async function getTask(id: string) {
    const row = await database.db
      .selectFrom('metadata_tasks')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw new NotFoundError(`no metadata task ${id}`);
    return taskView(row);
  }

  /** The worker's part: build the snapshot and publish it. Throws on failure so the queue retries. */
  async function runSync(taskId: string): Promise<void> {
    if (!syncTarget) throw new ConflictError('no sync target is configured', 'sync_target_not_configured');
    await database.db
      .updateTable('metadata_tasks')
      .set((eb) => ({ status: 'running', started_at: now(), attempts: eb('attempts', '+', 1), error: null }))
      .where('id', '=', taskId)
      .execute();
    try {
      const snap = await snapshot();
      const result = await syncTarget.publish(
        [...snapshotFiles(snap), ...(await seedFiles())],
        `metadata snapshot ${snap.hash.slice(0, 12)}`,
      );
      await database.db
        .updateTable('metadata_tasks')
        .set({
          status: result.changed ? 'succeeded' : 'unchanged',
          commit_id: result.commitId,
          snapshot_hash: snap.hash,
          finished_at: now(),
        })
        .where('id', '=', taskId)
        .execute();
    } catch (error) {
      await database.db
        .updateTable('metadata_tasks')
        .set({ status: 'retrying', error: error instanceof Error ? error.message : String(error) })
        .where('id', '=', taskId)
        .execute();
      throw error;
    }
  }

  /**
   * `seeds/{cc}.jsonl`: the active seeds of each country, one a line in seed id order, as GET shows them. Every
   * country that has a seed in any status gets its file, empty when none is active, so a country whose seeds were
   * all suspended has its file emptied (a sync target only writes the files it is given, never deletes).
   */
  async function seedFiles(): Promise<SnapshotFile[]> {
    const files: SnapshotFile[] = [];
    for (const country of await deps.seeds.countries()) {
      let content = '';
      for await (const seed of deps.seeds.stream({ country, status: 'active' })) content += jsonLine(seed);
      files.push({ path: `seeds/${country}.jsonl`, content });
    }
    return files;
  }

  async function failTask(taskId: string, reason: string): Promise<void> {
    await database.db
      .updateTable('metadata_tasks')
      .set({ status: 'failed', error: reason, finished_at: now() })
      .where('id', '=', taskId)
      .execute();
  }

  return {
    snapshot,
    byCountry,
    tasks,
    requestSync,
    openScheduledTask,
    getTask,
    runSync,
    failTask,
    seedFiles,
  };
}

/** The snapshot files a sync commits: the whole snapshot, and one file per country (seed files beside them). */
export function snapshotFiles(snap: Snapshot): SnapshotFile[] {
  const { generated_at: _generated, ...stable } = snap;
  return [
    { path: 'metadata/snapshot.json', content: `${JSON.stringify(stable, null, 2)}\n` },
    ...Object.entries(snap.countries).map(([country, node]) => ({
      path: `metadata/countries/${country}.json`,
      content: `${JSON.stringify({ country, hash: hashOf(node), ...node }, null, 2)}\n`,
    })),
  ];
}

function hashOf(value: unknown): string {
  return createHash('sha256').update(JSON.stringify(value)).digest('hex');
}

function taskView(row: MetadataTaskTable) {
  return {
    taskId: row.id,
    kind: row.kind,
    status: row.status,
    trigger: row.trigger,
    target: row.target,
    commit_id: row.commit_id,
    snapshot_hash: row.snapshot_hash,
    error: row.error,
    attempts: Number(row.attempts),
    created_at: row.created_at,
    started_at: row.started_at,
    finished_at: row.finished_at,
  };
}
