// Liveness results: the latest per domain (and, through the batch items, per batch); every seed of the
// domain gets its `discovery` updated with it.
import type { LivenessResult } from '../engine/liveness.js';
import type { Database, DbExecutor } from '../ports/database.js';
import type { SeedService } from './seeds.js';

export type LivenessService = ReturnType<typeof createLivenessService>;

export function createLivenessService(deps: { database: Database; seeds: SeedService }) {
  const { seeds } = deps;

  async function record(
    executor: DbExecutor,
    registrableDomain: string,
    result: LivenessResult,
    batchId: string | null,
  ) {
    const row = {
      domain: result.domain,
      alive: result.alive ? 1 : 0,
      state: result.state,
      http_status: result.http_status,
      final_url: result.final_url,
      https: result.https ? 1 : 0,
      latency_ms: result.latency_ms,
      error_code: result.error_code,
      error_message: result.error_message,
      checked_at: result.checked_at,
      batch_id: batchId,
    };
    await executor
      .insertInto('liveness_results')
      .values(row)
      .onConflict((oc) => oc.column('domain').doUpdateSet(row))
      .execute();
    await seeds.updateDiscovery(executor, registrableDomain, {
      alive: result.alive,
      checked_at: result.checked_at,
      http_status: result.http_status,
      state: result.state,
      error_code: result.error_code,
    });
  }

  async function latest(domain: string) {
    const row = await deps.database.db
      .selectFrom('liveness_results')
      .selectAll()
      .where('domain', '=', domain)
      .executeTakeFirst();
    if (!row) return null;
    return { ...row, alive: row.alive === 1, https: row.https === 1 };
  }

  return { record, latest };
}
