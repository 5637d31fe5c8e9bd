// Prometheus metrics on a registry of our own (no global state): HTTP requests, queue depth per queue,
// jobs processed/failed, batch durations.
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Database } from './ports/database.js';
import type { JobQueue, QueueName } from './ports/queue.js';
import type { JobMetrics } from './workers/runner.js';

export interface Metrics extends JobMetrics {
  registry: Registry;
  observeRequest(method: string, route: string, status: number, seconds: number): void;
  /** A GET /health answered before the router (src/http/health-fast-path.ts): counted, not timed. */
  countHealthAnswer(): void;
}

export function createMetrics(deps: { queue: JobQueue; database: Database }): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'seedbed_' });
  // The fast path's answers are a plain number until a scrape: a labelled increment per request cost more than
  // the rest of that request.
  let healthAnswers = 0;
  const requests = new Counter({
    name: 'seedbed_http_requests_total',
    help: 'HTTP requests by method, route and status',
    labelNames: ['method', 'route', 'status'],
    registers: [registry],
    collect() {
      if (healthAnswers === 0) return;
      this.inc({ method: 'GET', route: '/health', status: '200' }, healthAnswers);
      healthAnswers = 0;
    },
  });
  const requestSeconds = new Histogram({
    name: 'seedbed_http_request_duration_seconds',
    help: 'HTTP request duration',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.005, 0.02, 0.1, 0.5, 2, 10],
    registers: [registry],
  });
  const jobs = new Counter({
    name: 'seedbed_jobs_total',
    help: 'Jobs handled by this process, by queue and outcome (succeeded, retry, dead)',
    labelNames: ['queue', 'outcome'],
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'seedbed_job_duration_seconds',
    help: 'Job handling time',
    labelNames: ['queue'],
    buckets: [0.01, 0.05, 0.25, 1, 5, 30, 120],
    registers: [registry],
  });
  new Gauge({
    name: 'seedbed_queue_jobs',
    help: 'Jobs in each queue by state (queued, active, retrying, dead)',
    labelNames: ['queue', 'state'],
    registers: [registry],
    async collect() {
      this.reset();
      for (const stats of await deps.queue.stats()) {
        for (const state of ['queued', 'active', 'retrying', 'dead'] as const) {
          this.set({ queue: stats.queue, state }, stats[state]);
        }
      }
    },
  });
  new Gauge({
    name: 'seedbed_batch_duration_seconds_max',
    help: 'Longest run (finished minus created) of the batches finished in the last hour, by type',
    labelNames: ['type'],
    registers: [registry],
    async collect() {
      this.reset();
      const since = new Date(Date.now() - 3_600_000).toISOString();
      const rows = await deps.database.db
        .selectFrom('batches')
        .select(['type', 'created_at', 'finished_at'])
        .where('finished_at', '>=', since)
        .execute();
      const longest = new Map<string, number>();
      for (const row of rows) {
        const seconds = (Date.parse(row.finished_at as string) - Date.parse(row.created_at)) / 1000;
        longest.set(row.type, Math.max(longest.get(row.type) ?? 0, seconds));
      }
      for (const [type, seconds] of longest) this.set({ type }, seconds);
    },
  });
  new Gauge({
    name: 'seedbed_batches',
    help: 'Batches by type and status',
    labelNames: ['type', 'status'],
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await deps.database.db
        .selectFrom('batches')
        .select(['type', 'status', (eb) => eb.fn.countAll().as('n')])
        .groupBy(['type', 'status'])
        .execute();
      for (const row of rows) this.set({ type: row.type, status: row.status }, Number(row.n));
    },
  });

  return {
    registry,
    observeRequest(method, route, status, seconds) {
      requests.inc({ method, route, status: String(status) });
      requestSeconds.observe({ method, route }, seconds);
    },
    countHealthAnswer() {
      healthAnswers++;
    },
    observe(queue: QueueName, outcome, seconds) {
      jobs.inc({ queue, outcome });
      jobSeconds.observe({ queue }, seconds);
    },
  };
}
