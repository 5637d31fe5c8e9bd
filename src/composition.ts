// The composition root: builds every adapter, service and worker from config, in one place. Nothing is
// built at import time; tests build their own Seedbed with their own config, clock and logger.

import { readFile } from 'node:fs/promises';
import { type Logger, pino } from 'pino';
import { createEmbeddedQueue } from './adapters/embedded-queue.js';
import { createThreadedFetcher } from './adapters/fetch-thread.js';
import { createFsObjectStore } from './adapters/fs-object-store.js';
import { createHttpFetcher } from './adapters/http-fetcher.js';
import { createSqliteDatabase } from './adapters/sql/sqlite-database.js';
import { createSyncTarget } from './adapters/sync/index.js';
import { type Config, ConfigError } from './config.js';
import { parseAuthorityOverrides, withOperatorOverrides } from './domain/authority-overrides.js';
import { type AuthorityOverrides, SHIPPED_AUTHORITY_OVERRIDES } from './domain/domains.js';
import { todayUtc } from './domain/identifiers.js';

/** Domains per chunk of a recheck batch: as a contract batch's default (each is a whole discovery). */
const RECHECK_CHUNK_SIZE = 20;

import { createFeedReaderPool } from './adapters/feed-reader-pool.js';
import { createNetworkCanary, type NetworkCanary } from './engine/network-canary.js';
import { buildHttpApp } from './http/app.js';
import { createMetrics } from './metrics.js';
import type { Database } from './ports/database.js';
import type { Fetcher } from './ports/fetcher.js';
import type { ObjectStore } from './ports/object-store.js';
import { type JobQueue, QUEUE_NAMES, type QueueName } from './ports/queue.js';
import type { SyncTarget } from './ports/sync-target.js';
import { createApiKeyService } from './services/api-keys.js';
import { createBatchService } from './services/batches.js';
import { createCandidateService } from './services/candidates/index.js';
import { createCandidateRepository } from './services/candidates/repository.js';
import { createChangeService } from './services/changes.js';
import { createChunkLedger } from './services/chunk-ledger.js';
import { type Clock, systemClock } from './services/common.js';
import { createContractService } from './services/contracts.js';
import { createDatasetService } from './services/datasets.js';
import { createDiscoveryService } from './services/discovery.js';
import { createEvidenceService } from './services/evidence.js';
import { createHealthService } from './services/health.js';
import { createLivenessService } from './services/liveness.js';
import { createMetadataService } from './services/metadata.js';
import { createOrchestrationService } from './services/orchestration.js';
import { watchOutages } from './services/outage-watch.js';
import { createRecheckService } from './services/recheck.js';
import { createRecordDomain } from './services/record-domain.js';
import { createResearchService } from './services/research.js';
import { createSeedActionService } from './services/seed-actions.js';
import { createSeedContractRuns } from './services/seed-contract-runs.js';
import { createSeedHealthService } from './services/seed-health.js';
import { createSeedRepository } from './services/seed-repository/index.js';
import { createSeedService } from './services/seeds.js';
import { NAME, readVersion } from './version.js';
import { chunkWorker } from './workers/chunk-worker.js';
import { contractHandler } from './workers/contract-worker.js';
import { discoveryHandler } from './workers/discovery-worker.js';
import { createDomainPool } from './workers/domain-pool.js';
import { livenessHandler } from './workers/liveness-worker.js';
import { metadataWorker } from './workers/metadata-worker.js';
import { recheckWorker } from './workers/recheck-worker.js';
import { researchHandler } from './workers/research-worker.js';
import { startWorkers, type WorkerDefinition, type WorkerPool } from './workers/runner.js';
import { seedActionHandler } from './workers/seed-action-worker.js';
import { seedFileHandler } from './workers/seed-file-worker.js';

/** The queues whose jobs fetch from the web, and those that read feeds (contract discovery). */
const FETCHING_QUEUES: ReadonlySet<QueueName> = new Set([
  'LIVENESS_QUEUE',
  'CONTRACT_QUEUE',
  'DISCOVERY_QUEUE',
]);
const FEED_READING_QUEUES: ReadonlySet<QueueName> = new Set(['CONTRACT_QUEUE', 'DISCOVERY_QUEUE']);

export interface SeedbedOptions {
  config: Config;
  logger?: Logger;
  clock?: Clock;
  /** Replaces the outbound HTTP client built from config (an embedding application, a bench). */
  fetcher?: Fetcher;
  /** Replaces the network canary built from SEEDBED_NETWORK_CANARY (tests); null switches it off. */
  canary?: NetworkCanary | null;
  /** Replaces the configured sync target (tests, or an embedding application). */
  syncTarget?: SyncTarget | null;
  queueOptions?: { pollIntervalMs?: number; leaseMs?: number; backoff?: { baseMs: number; maxMs: number } };
}

export type Seedbed = Awaited<ReturnType<typeof createSeedbed>>;

async function openDatabase(config: Config, logger: Logger): Promise<Database> {
  if (config.database.kind === 'sqlite') return createSqliteDatabase(config.database.path);
  const { createPostgresDatabase } = await import('./adapters/sql/postgres-database.js');
  return createPostgresDatabase(config.database.url, {
    // A connection lost while PostgreSQL restarts: the query on it fails and is retried; the process goes on.
    onError: (error) => logger.warn({ err: error }, 'database connection lost'),
  });
}

async function openObjects(config: Config): Promise<ObjectStore> {
  if (config.objects.kind === 'fs') return createFsObjectStore(config.objects.root);
  const { createS3ObjectStore, parseS3Url } = await import('./adapters/s3-object-store.js');
  const { url, ...connection } = config.objects;
  return createS3ObjectStore({ ...parseS3Url(url), ...connection });
}

async function openQueue(
  config: Config,
  database: Database,
  logger: Logger,
  options: SeedbedOptions['queueOptions'],
): Promise<JobQueue> {
  const onError = (error: unknown) => logger.error({ err: error }, 'queue error');
  if (config.queue.kind === 'embedded') {
    return createEmbeddedQueue(database, {
      maxAttempts: config.queue.maxAttempts,
      leaseMs: config.queue.leaseSeconds * 1000,
      onError,
      ...options,
    });
  }
  if (config.database.kind !== 'postgres') throw new Error('pg-boss needs PostgreSQL');
  const { createPgBossQueue } = await import('./adapters/pg-boss-queue.js');
  return createPgBossQueue(database, {
    connectionString: config.database.url,
    maxAttempts: config.queue.maxAttempts,
    leaseSeconds: config.queue.leaseSeconds,
    // Lost leases are noticed by pg-boss's maintenance; run it at least once per lease.
    maintenanceIntervalSeconds: Math.min(30, config.queue.leaseSeconds),
    onError,
    ...(options?.backoff ? { backoff: options.backoff } : {}),
  });
}

export async function createSeedbed(options: SeedbedOptions) {
  const { config } = options;
  const logger = options.logger ?? pino({ level: config.logLevel, base: { service: 'seedbed' } });
  for (const warning of config.warnings) logger.warn(warning);
  const clock = options.clock ?? systemClock;
  const version = readVersion();

  const authorityOverrides = await loadAuthorityOverrides(config);
  const database = await openDatabase(config, logger);
  const objects = await openObjects(config);
  const queue = await openQueue(config, database, logger, options.queueOptions);
  const syncTarget =
    options.syncTarget !== undefined
      ? options.syncTarget
      : config.sync.target
        ? createSyncTarget({
            target: config.sync.target,
            dataDir: config.dataDir,
            ...(config.sync.token ? { token: config.sync.token } : {}),
            ...(config.sync.githubToken ? { githubToken: config.sync.githubToken } : {}),
          })
        : null;

  const ledger = createChunkLedger({ database, queue, clock });
  const datasets = createDatasetService({
    database,
    objects,
    clock,
    version,
    // The research service owns the URLs of a chunk; it is built next (called only at run time).
    onChunkRemoved: (trx, partition, chunk) => research.releaseChunk(trx, partition, chunk),
  });
  const research = createResearchService({ database, datasets, clock, authorityOverrides });
  const batches = createBatchService({
    database,
    ledger,
    clock,
    summaries: { research: research.batchSummary },
  });
  const seedRepository = createSeedRepository(database);
  const seeds = createSeedService({ database, clock, authorityOverrides, repository: seedRepository });
  const changes = createChangeService({ database, clock });
  const orchestration = createOrchestrationService({
    objects,
    batches,
    ledger,
    datasets,
    authorityOverrides,
  });
  const candidateRepository = createCandidateRepository(database);
  const metadata = createMetadataService({
    database,
    queue,
    clock,
    syncTarget,
    datasets,
    research,
    seeds,
    candidates: candidateRepository,
    batches,
    changes,
  });
  const fetcher = options.fetcher ?? createFetcher(config, version);
  // Every domain check of the process asks one watched canary (see outage-watch.ts).
  const outages = watchOutages(
    options.canary !== undefined ? options.canary : networkCanary(config, fetcher),
  );
  const canary = outages.canary;
  const liveness = createLivenessService({ database, repository: seedRepository });
  const seedHealth = createSeedHealthService({
    repository: seedRepository,
    changes,
    autoSuspendAfter: config.recheck.autoSuspendAfter,
  });
  const contractRuns = createSeedContractRuns({
    repository: seedRepository,
    revisions: seeds.revisions,
    health: seedHealth,
    clock,
  });
  const candidates = createCandidateService({
    database,
    seeds: seedRepository,
    contractRuns,
    clock,
    repository: candidateRepository,
  });
  const recordDomain = createRecordDomain({
    liveness,
    changes,
    contractRuns,
    health: seedHealth,
    repository: seedRepository,
    candidates,
  });
  const feedReaders = createFeedReaderPool(config.collection.feedWorkers);
  const contracts = createContractService({
    objects,
    fetcher,
    changes,
    recordDomain,
    clock,
    canary,
    staleAfterDays: config.collection.staleAfterDays,
    outages,
    readFeed: feedReaders.read,
  });
  const discovery = createDiscoveryService({
    database,
    batches,
    ledger,
    seeds: seedRepository,
    candidates,
    contracts,
    fetcher,
    clock,
  });
  const seedActions = createSeedActionService({
    database,
    repository: seedRepository,
    batches,
    ledger,
    clock,
  });
  const evidence = createEvidenceService({ seeds, objects });
  const today = () => todayUtc(clock());
  const recheck = createRecheckService({
    seeds: seedRepository,
    batches,
    clock,
    cron: config.recheck.cron,
    chunkSize: RECHECK_CHUNK_SIZE,
    today,
  });
  const apiKeys = createApiKeyService({ database, clock, envKeys: config.apiKeys });
  const health = createHealthService({ database, objects, queue });
  const metrics = createMetrics({ queue, database });
  const services = {
    changes,
    batches,
    datasets,
    research,
    seeds,
    orchestration,
    metadata,
    apiKeys,
    health,
    liveness,
    contracts,
    contractRuns,
    candidates,
    discovery,
    evidence,
    recheck,
    seedActions,
  };

  const chunkDeps = { ledger, concurrency: config.queue.concurrency };
  // Contract and liveness chunks feed one pool of domains in flight, sized from the fetcher's budget: their
  // consumers claim chunks while it has room (a chunk holds at least one domain, hence that many at most).
  const domains = createDomainPool({
    domains: config.fetch.domains,
    deadlineMs: config.fetch.domainDeadlineMs,
    // Domains waiting for a slot read their robots.txt: a long chain near a batch's end is let in early.
    lookahead: config.fetch.domainLookahead,
  });
  const domainChunkDeps = {
    ledger,
    concurrency: config.fetch.domains + config.fetch.domainLookahead,
    budget: domains,
  };
  const workerDefinitions: Record<QueueName, WorkerDefinition> = {
    RESEARCH_QUEUE: chunkWorker(researchHandler({ research }), {
      ledger,
      concurrency: config.queue.researchConcurrency,
    }),
    SEED_QUEUE: chunkWorker(seedFileHandler({ orchestration }), chunkDeps),
    LIVENESS_QUEUE: chunkWorker(
      livenessHandler({ liveness, fetcher, domains, now: clock, authorityOverrides, canary, outages }),
      domainChunkDeps,
    ),
    CONTRACT_QUEUE: chunkWorker(
      contractHandler({ contracts, orchestration, domains, today }),
      domainChunkDeps,
    ),
    DISCOVERY_QUEUE: chunkWorker(
      discoveryHandler({ discovery, domains, parametersOf: discovery.parameters }),
      domainChunkDeps,
    ),
    SEED_ACTION_QUEUE: chunkWorker(seedActionHandler({ actions: seedActions }), chunkDeps),
    METADATA_QUEUE: metadataWorker({ metadata }),
    RECHECK_QUEUE: recheckWorker({ recheck }),
  };

  let started = false;
  const pools: WorkerPool[] = [];
  /** The threads the started workers use, each loaded and answering (see ready()). */
  const preparing: Array<Promise<void>> = [];
  /** A thread that cannot start is said once; its requests or feeds then fail or fall back on their own. */
  const prepared = (what: string, preparation: Promise<void> | undefined) =>
    preparing.push(
      (preparation ?? Promise.resolve()).catch((error: unknown) =>
        logger.warn({ err: error }, `the ${what} could not start`),
      ),
    );

  return {
    config,
    logger,
    clock,
    version,
    database,
    objects,
    queue,
    fetcher,
    services,
    metrics,
    authorityOverrides,

    /** Migrations, then the queue. Called once by every process before it serves or works. */
    async start() {
      if (started) return;
      await database.migrate();
      // A synchronous research request killed between its claims and its chunk is finished now.
      const finished = await research.finishInterrupted();
      if (finished > 0) logger.warn({ chunks: finished }, 'finished interrupted research requests');
      await queue.start();
      started = true;
    },

    async buildHttp(open: boolean) {
      return buildHttpApp({
        name: NAME,
        version,
        logger,
        metrics,
        auth: { keys: apiKeys, open },
        limits: {
          requestTimeoutMs: config.http.requestTimeoutMs,
          rateLimitPerMinute: config.http.rateLimitPerMinute,
          maxDatasetBytes: config.http.maxDatasetBytes,
          maxConcurrentUploads: config.http.maxConcurrentUploads,
          maxImportBytes: config.http.maxImportBytes,
        },
        services,
        today,
        clock,
      });
    },

    startWorkers(queues: readonly QueueName[] = QUEUE_NAMES): WorkerPool {
      const definitions = queues
        .map((q) => workerDefinitions[q])
        .filter((d): d is WorkerDefinition => d !== null);
      const missing = queues.filter((q) => !workerDefinitions[q]);
      if (missing.length > 0)
        logger.warn({ queues: missing }, 'no worker for these queues yet; their jobs wait');
      // The threads these queues' work runs on start with their workers, not under the first batch's first
      // domains (the fetch thread takes about half a second to load from source, the feed worker as long).
      if (queues.some((q) => FETCHING_QUEUES.has(q))) prepared('fetch thread', fetcher.prepare?.());
      if (queues.some((q) => FEED_READING_QUEUES.has(q))) prepared('feed workers', feedReaders.prepare());
      const pool = startWorkers(queue, definitions, logger, metrics);
      pools.push(pool);
      return pool;
    },

    /**
     * Resolves once the threads of the workers started so far have loaded and answered a first message (the fetch
     * thread, the feed workers): from source that takes about a second, during which the workers already claim
     * jobs and their first requests wait for the threads. A service is ready to work at full speed from here.
     */
    async ready(): Promise<void> {
      await Promise.all(preparing);
    },

    /**
     * The schedules (SEEDBED_RECHECK_CRON, SEEDBED_SYNC_CRON) of the queues this process works, run by the queue:
     * one job per tick across processes.
     */
    async startSchedules(queues: readonly QueueName[]) {
      if (config.recheck.cron && queues.includes('RECHECK_QUEUE')) {
        await queue.schedule('RECHECK_QUEUE', config.recheck.cron, { scheduled: true });
        logger.info({ cron: config.recheck.cron }, 're-checks of active seeds scheduled');
      }
      if (!syncTarget || !queues.includes('METADATA_QUEUE')) return;
      await queue.schedule('METADATA_QUEUE', config.sync.cron, { scheduled: true });
      logger.info({ cron: config.sync.cron, target: syncTarget.description }, 'metadata sync scheduled');
    },

    async close() {
      await Promise.all(pools.map((p) => p.stop()));
      await queue.stop();
      await feedReaders.close();
      await fetcher.close();
      await objects.close();
      await database.close();
    },
  };
}

/**
 * The shipped authority override table, extended by the operator's file (SEEDBED_AUTHORITY_OVERRIDES) when
 * one is configured. A file that cannot be read or fails validation stops the start, naming the variable.
 */
export async function loadAuthorityOverrides(config: Config): Promise<AuthorityOverrides> {
  const file = config.authority.overridesFile;
  if (!file) return SHIPPED_AUTHORITY_OVERRIDES;
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (error) {
    throw new ConfigError(`SEEDBED_AUTHORITY_OVERRIDES: cannot read ${file}: ${(error as Error).message}`);
  }
  const parsed = parseAuthorityOverrides(json);
  if (!parsed.ok) {
    throw new ConfigError(`SEEDBED_AUTHORITY_OVERRIDES: ${file}:\n  ${parsed.errors.join('\n  ')}`);
  }
  return withOperatorOverrides(parsed.value);
}

/** The crawler's identity and the operator's host mapping (tests point it at a local fake internet). */
export function fetcherConfig(config: Config, version: string) {
  return {
    userAgent: `SeedbedBot/${version} (+${config.http.publicUrl})`,
    globalConcurrency: config.fetch.concurrency,
    ...(config.fetch.resolve ? { resolve: config.fetch.resolve } : {}),
  };
}

/**
 * The process's fetcher: on a thread of its own (SEEDBED_FETCH_THREAD, the default; docs/fetching.md) or on the
 * main thread. `extraCa` is trusted on top of the bundled roots (the benches' fake internets).
 */
export function createFetcher(config: Config, version: string, extra: { extraCa?: string[] } = {}): Fetcher {
  const settings = { ...fetcherConfig(config, version), ...extra };
  return config.fetch.thread ? createThreadedFetcher(settings) : createHttpFetcher(settings);
}

/** The network canary (SEEDBED_NETWORK_CANARY), asked through the same fetcher as the domains; null when off. */
export function networkCanary(config: Config, fetcher: Fetcher) {
  return config.fetch.canary.length > 0 ? createNetworkCanary({ fetcher, urls: config.fetch.canary }) : null;
}
