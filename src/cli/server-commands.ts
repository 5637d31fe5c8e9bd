// The commands that open the storage or run the service (serve, api, worker, migrate, keys, probe), loaded only
// when one of them runs: a client command never pays for the database drivers, Fastify or the S3 client.
import { InvalidArgumentError } from 'commander';
import { createHttpFetcher } from '../adapters/http-fetcher.js';
import {
  createSeedbed,
  fetcherConfig,
  loadAuthorityOverrides,
  networkCanary,
  type Seedbed,
} from '../composition.js';
import { type Config, ConfigError, loadConfig } from '../config.js';
import { categorySchema, countrySchema } from '../domain/identifiers.js';
import type { QueueName } from '../domain/queue-names.js';
import { parseDomainTarget } from '../domain/urls.js';
import { probeDomain } from '../engine/probe.js';
import { createLogger, OPEN_MODE_ALERT } from '../logging.js';
import { databaseStartupError, listenStartupError, postgresAddress } from '../startup-errors.js';
import { readVersion } from '../version.js';
import { limitHeapGrowth } from './heap-growth.js';

/** `seedbed probe` ran but found no contract (dead, blocked, erroring site): distinct from 1 (error) and 2 (config). */
const PROBE_NO_DRAFT_EXIT = 3;

/**
 * A server logs on stdout, a one-shot command on stderr (its stdout is its JSON answer): pretty lines when that
 * is a terminal, JSON lines otherwise.
 */
async function boot(options: { oneShot?: boolean } = {}): Promise<Seedbed> {
  const config = loadConfig(process.env);
  const fd = options.oneShot ? 2 : 1;
  const { logger, prettyUnavailable } = await createLogger({
    level: config.logLevel,
    fd,
    isTTY: Boolean((fd === 1 ? process.stdout : process.stderr).isTTY),
  });
  if (prettyUnavailable) logger.debug('pino-pretty is not installed: logging JSON lines on the terminal');
  let seedbed: Seedbed | undefined;
  try {
    seedbed = await createSeedbed({ config, logger });
    await seedbed.start();
    return seedbed;
  } catch (error) {
    await seedbed?.close().catch(() => undefined);
    throw databaseStartupError(error, config.database) ?? error;
  }
}

/** Refuses an unauthenticated production service; says loudly when running open anywhere else. */
async function authMode(seedbed: Seedbed): Promise<boolean> {
  const hasKeys = await seedbed.services.apiKeys.hasAnyKeys();
  if (hasKeys) return false;
  if (seedbed.config.env === 'production') {
    throw new ConfigError(
      'NODE_ENV=production needs API keys: set SEEDBED_API_KEYS or run `seedbed keys create`',
    );
  }
  seedbed.logger.warn(
    OPEN_MODE_ALERT,
    '!!! NO API KEYS CONFIGURED: the API is OPEN to anyone who can reach it. Set SEEDBED_API_KEYS or run `seedbed keys create` (enforced from the next request, no restart). !!!',
  );
  return true;
}

function onShutdown(seedbed: Seedbed, stop: () => Promise<void>): void {
  let stopping = false;
  const handler = (signal: NodeJS.Signals) => {
    if (stopping) {
      seedbed.logger.warn({ signal }, 'second signal: exiting now');
      process.exit(130);
    }
    stopping = true;
    seedbed.logger.info({ signal }, 'shutting down: draining requests and jobs');
    stop()
      .then(() => process.exit(0))
      .catch((error) => {
        seedbed.logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  process.on('SIGTERM', handler);
  process.on('SIGINT', handler);
}

/** Says when the workers' threads have loaded (start-up time, apart from the first batch's own time). */
function logWhenReady(seedbed: Seedbed): void {
  const since = performance.now();
  void seedbed
    .ready()
    .then(() => seedbed.logger.info({ ms: Math.round(performance.now() - since) }, 'worker threads ready'));
}

export async function runServer(options: { workers: boolean; queues?: QueueName[] }) {
  limitHeapGrowth();
  const seedbed = await boot();
  const open = await authMode(seedbed);
  const app = await seedbed.buildHttp(open);
  const pool = options.workers ? seedbed.startWorkers(options.queues) : null;
  if (pool) await seedbed.startSchedules(pool.queues);
  if (pool) logWhenReady(seedbed);
  const { host, port } = seedbed.config.http;
  const url = await app.listen({ host, port }).catch((error: unknown) => {
    throw listenStartupError(error, { host, port }) ?? error;
  });
  seedbed.logger.info({ url, docs: `${url}/docs`, workers: pool?.queues ?? [] }, 'seedbed is listening');
  onShutdown(seedbed, async () => {
    await app.close();
    await seedbed.close();
  });
}

export async function runWorker(queues: QueueName[]) {
  limitHeapGrowth();
  const seedbed = await boot();
  const pool = seedbed.startWorkers(queues);
  await seedbed.startSchedules(pool.queues);
  seedbed.logger.info({ queues: pool.queues }, 'seedbed worker started');
  logWhenReady(seedbed);
  onShutdown(seedbed, () => seedbed.close());
}

/** Where a command that writes to storage writes, said on stderr: the same resolution as the server's. */
function describeStorage(config: Config): string {
  if (config.database.kind === 'postgres')
    return `the PostgreSQL database at ${postgresAddress(config.database.url)}`;
  return `the SQLite database ${config.database.path} (data directory ${config.dataDir})`;
}

/** A one-shot command over the storage: migrations run first, stdout is left to the command's JSON. */
export async function withSeedbed<T>(work: (seedbed: Seedbed) => Promise<T>): Promise<T> {
  const seedbed = await boot({ oneShot: true });
  process.stderr.write(`seedbed: using ${describeStorage(seedbed.config)}\n`);
  try {
    return await work(seedbed);
  } finally {
    await seedbed.close();
  }
}

export async function createKey(name: string, scopes: string) {
  await withSeedbed(async (s) => {
    const created = await s.services.apiKeys.create(name, scopes);
    process.stdout.write(`${JSON.stringify(created, null, 2)}\n`);
    process.stderr.write('Store this key now: it cannot be shown again.\n');
  });
}

export async function listKeys() {
  await withSeedbed(async (s) => {
    process.stdout.write(`${JSON.stringify(await s.services.apiKeys.list(), null, 2)}\n`);
  });
}

export async function revokeKey(name: string) {
  await withSeedbed(async (s) => {
    await s.services.apiKeys.revoke(name);
    process.stdout.write(`${JSON.stringify({ revoked: name })}\n`);
  });
}

export async function migrate() {
  await withSeedbed(async () => {
    process.stderr.write('seedbed: migrations applied\n');
  });
}

export async function probe(domain: string, opts: { category: string; country: string }) {
  const config = loadConfig(process.env);
  const country = countrySchema.safeParse(opts.country);
  if (!country.success)
    throw new InvalidArgumentError(`--country ${opts.country}: ${country.error.issues[0]?.message}`);
  const category = categorySchema.safeParse(opts.category);
  if (!category.success)
    throw new InvalidArgumentError(`--category ${opts.category}: ${category.error.issues[0]?.message}`);
  const authorityOverrides = await loadAuthorityOverrides(config);
  const target = parseDomainTarget(domain, country.data, authorityOverrides);
  if (!target.ok) throw new InvalidArgumentError(`${domain}: ${target.reason}`);
  const fetcher = createHttpFetcher(fetcherConfig(config, readVersion()));
  try {
    // The host given is probed (its homepage is the entry); the seed is keyed by its registrable domain.
    const report = await probeDomain(fetcher, target.value.host, category.data, {
      country: country.data,
      domainId: target.value.domain_id,
      authorityOverrides,
      canary: networkCanary(config, fetcher),
    });
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
    if (report.draft === null) {
      process.stderr.write(`seedbed: probe made no draft for ${report.domain}: ${report.reason}\n`);
      process.exitCode = PROBE_NO_DRAFT_EXIT;
    }
  } finally {
    await fetcher.close();
  }
}
