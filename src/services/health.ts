// Readiness: the database, the object store and the queue must each answer.
import type { Database } from '../ports/database.js';
import type { ObjectStore } from '../ports/object-store.js';
import type { JobQueue } from '../ports/queue.js';

export interface CheckResult {
  ok: boolean;
  latency_ms: number;
  error?: string;
}

export type HealthService = ReturnType<typeof createHealthService>;

export function createHealthService(deps: {
  database: Database;
  objects: ObjectStore;
  queue: JobQueue;
  timeoutMs?: number;
}) {
  const timeoutMs = deps.timeoutMs ?? 3000;

  async function check(probe: () => Promise<void>): Promise<CheckResult> {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        probe(),
        new Promise((_, reject) => {
          timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      return { ok: true, latency_ms: Math.round(performance.now() - started) };
    } catch (error) {
      return {
        ok: false,
        latency_ms: Math.round(performance.now() - started),
        error: error instanceof Error ? error.message : String(error),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  async function ready() {
    const [database, objects, queue] = await Promise.all([
      check(() => deps.database.ping()),
      check(() => deps.objects.ping()),
      check(() => deps.queue.ping()),
    ]);
    const checks = { database, objects, queue };
    const ok = Object.values(checks).every((c) => c.ok);
    return { status: ok ? 'ready' : 'not_ready', timestamp: new Date().toISOString(), checks };
  }

  return { ready };
}
