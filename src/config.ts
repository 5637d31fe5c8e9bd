// Configuration: one zod schema over an env object passed in (never read from process.env elsewhere).
// A bad value stops the start with a message naming the variable.
import { existsSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import { DEFAULT_CANARY_URLS } from './engine/network-canary.js';

/** A whole number in range, written in decimal digits; the message states the range. */
const intFrom = (min: number, max: number) => {
  const message = `must be a whole number from ${min} to ${max}`;
  return z
    .string()
    .trim()
    .refine((text) => /^\d{1,16}$/.test(text), { message })
    .transform(Number)
    .pipe(z.number().int().min(min, { message }).max(max, { message }));
};

/** Research chunks in flight per process on SQLite by default (SEEDBED_RESEARCH_CONCURRENCY). */
const SQLITE_RESEARCH_CONCURRENCY = 64;

/** Domains in flight per fetch socket by default (SEEDBED_DOMAIN_CONCURRENCY): see `fetch.domains` below. */
const DOMAINS_PER_SOCKET = 6;

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  PORT: intFrom(0, 65535).default(8080),
  HOST: z.string().min(1).default('127.0.0.1'),
  SEEDBED_DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: z.string().min(1).optional(),
  SEEDBED_OBJECTS: z.string().min(1).optional(),
  S3_ENDPOINT: z.url().optional(),
  AWS_REGION: z.string().min(1).optional(),
  AWS_ACCESS_KEY_ID: z.string().min(1).optional(),
  AWS_SECRET_ACCESS_KEY: z.string().min(1).optional(),
  SEEDBED_QUEUE: z.enum(['embedded', 'pg-boss']).optional(),
  SEEDBED_API_KEYS: z.string().optional(),
  SEEDBED_FETCH_RESOLVE: z.string().optional(),
  SEEDBED_AUTHORITY_OVERRIDES: z.string().min(1).optional(),
  SEEDBED_NETWORK_CANARY: z.string().optional(),
  SEEDBED_FETCH_CONCURRENCY: intFrom(1, 4096).default(128),
  SEEDBED_FETCH_THREAD: intFrom(0, 1).default(1),
  SEEDBED_DOMAIN_CONCURRENCY: intFrom(1, 16_384).optional(),
  SEEDBED_DOMAIN_DEADLINE_SECONDS: intFrom(1, 86_400).default(120),
  SEEDBED_DOMAIN_LOOKAHEAD: intFrom(0, 16_384).optional(),
  SEEDBED_SYNC_TARGET: z.string().min(1).optional(),
  SEEDBED_SYNC_CRON: z.string().min(1).default('0 */6 * * *'),
  SEEDBED_SYNC_TOKEN: z.string().min(1).optional(),
  GITHUB_TOKEN: z.string().min(1).optional(),
  SEEDBED_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEEDBED_RATE_LIMIT: intFrom(1, 1_000_000).default(1200),
  SEEDBED_MAX_DATASET_BYTES: intFrom(1024, 2 * 1024 ** 3).default(64 * 1024 ** 2),
  SEEDBED_MAX_CONCURRENT_UPLOADS: intFrom(1, 256).default(4),
  SEEDBED_MAX_IMPORT_BYTES: intFrom(1024, 64 * 1024 ** 3).default(1024 ** 3),
  SEEDBED_REQUEST_TIMEOUT_MS: intFrom(1000, 3_600_000).default(120_000),
  SEEDBED_WORKER_CONCURRENCY: intFrom(1, 64).default(2),
  SEEDBED_RESEARCH_CONCURRENCY: intFrom(1, 64).optional(),
  SEEDBED_JOB_ATTEMPTS: intFrom(1, 20).default(4),
  SEEDBED_JOB_LEASE_SECONDS: intFrom(2, 3600).default(60),
  SEEDBED_PUBLIC_URL: z.url().default('https://github.com/seedbed/seedbed'),
  SEEDBED_STALE_AFTER_DAYS: intFrom(1, 3650).default(30),
  SEEDBED_FEED_WORKERS: intFrom(0, 16).default(1),
  SEEDBED_RECHECK_CRON: z.string().min(1).default('0 * * * *'),
  SEEDBED_AUTO_SUSPEND: intFrom(1, 1000).optional(),
});

/** Read by the CLI's client commands and the test support rather than by the service itself. */
const OTHER_VARIABLES = [
  'SEEDBED_URL',
  'SEEDBED_API_KEY',
  'SEEDBED_TEST_DATABASE_URL',
  'SEEDBED_REQUIRE_SERVICES',
] as const;
export const KNOWN_VARIABLES: readonly string[] = [...Object.keys(envSchema.shape), ...OTHER_VARIABLES];

/** Values that may hold a secret are never repeated in a message. */
const SECRET = /KEY|TOKEN|SECRET|PASSWORD|DATABASE_URL|SYNC_TARGET|OBJECTS|ENDPOINT/;

export interface Config {
  env: 'development' | 'production' | 'test';
  /** Said once at start (unknown SEEDBED_* variables, with the closest known name). */
  warnings: readonly string[];
  dataDir: string;
  http: {
    host: string;
    port: number;
    requestTimeoutMs: number;
    rateLimitPerMinute: number;
    maxDatasetBytes: number;
    /** Dataset uploads read at once; one more is a 503 with Retry-After. */
    maxConcurrentUploads: number;
    /** Body limit of a seed import (read as a stream: it bounds the time, not the memory). */
    maxImportBytes: number;
    publicUrl: string;
  };
  database:
    | {
        kind: 'sqlite';
        path: string /** The variable the path came from. */;
        variable: 'DATABASE_URL' | 'SEEDBED_DATA_DIR';
      }
    | { kind: 'postgres'; url: string };
  objects:
    | { kind: 'fs'; root: string }
    | {
        kind: 's3';
        url: string;
        endpoint?: string;
        region?: string;
        accessKeyId?: string;
        secretAccessKey?: string;
      };
  queue: {
    kind: 'embedded' | 'pg-boss';
    concurrency: number;
    /** Research chunks in flight per process (SEEDBED_RESEARCH_CONCURRENCY): see `queue.researchConcurrency` below. */
    researchConcurrency: number;
    maxAttempts: number;
    leaseSeconds: number;
  };
  apiKeys: string | undefined;
  fetch: {
    resolve: string | undefined;
    /** URLs asked before a failure is called dead (SEEDBED_NETWORK_CANARY); empty: the canary is off. */
    canary: readonly string[];
    /** Requests in flight in the whole process. */
    concurrency: number;
    /** The fetcher runs on a worker thread of its own (SEEDBED_FETCH_THREAD=1), else on the main thread. */
    thread: boolean;
    /** Domains collected or checked at once in the process (contract and liveness queues together). */
    domains: number;
    /** How long one domain may take once started, of its own time: waits in our line (Crawl-delay too) do not count. */
    domainDeadlineMs: number;
    /** Domains claimed beyond those running, reading their robots.txt while they wait for a slot. */
    domainLookahead: number;
  };
  /** An operator's authority override file (JSON), added to the shipped table; read by the composition root. */
  authority: { overridesFile: string | undefined };
  /** A source whose newest item is older than this many days is stale (SEEDBED_STALE_AFTER_DAYS). */
  collection: {
    staleAfterDays: number;
    /** Worker threads that read fetched feeds off the main thread (SEEDBED_FEED_WORKERS); 0: on it. */
    feedWorkers: number;
  };
  recheck: {
    /** SEEDBED_RECHECK_CRON: when active seeds are re-checked (each on the tick its domain's hash picks); null: off. */
    cron: string | null;
    /** SEEDBED_AUTO_SUSPEND: failed checks in a row that suspend an active seed; null: never. */
    autoSuspendAfter: number | null;
  };
  sync: {
    target: string | undefined;
    cron: string;
    token: string | undefined;
    githubToken: string | undefined;
  };
  logLevel: string;
}

export class ConfigError extends Error {
  override readonly name = 'ConfigError';
}

/** Unset: the two default connectivity checks. `off`: no canary. Else comma-separated http(s) URLs. */
function parseCanary(value: string | undefined): readonly string[] {
  if (value === undefined) return DEFAULT_CANARY_URLS;
  if (value.trim().toLowerCase() === 'off') return [];
  const urls = value
    .split(',')
    .map((u) => u.trim())
    .filter((u) => u !== '');
  for (const text of urls) {
    let url: URL | null = null;
    try {
      url = new URL(text);
    } catch {
      // reported below
    }
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      throw new ConfigError(
        `SEEDBED_NETWORK_CANARY: ${JSON.stringify(text)} is not an http(s) URL (give URLs separated by commas, or off)`,
      );
    }
  }
  if (urls.length === 0)
    throw new ConfigError('SEEDBED_NETWORK_CANARY: no URL given (use off to disable it)');
  return urls;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const present = Object.fromEntries(Object.entries(env).filter(([, v]) => v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const value = present[name];
      const shown = value !== undefined && !SECRET.test(name) ? ` (got ${JSON.stringify(value)})` : '';
      return `${name}: ${issue.message}${shown}`;
    });
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.SEEDBED_DATA_DIR);

  let database: Config['database'];
  const dbUrl = e.DATABASE_URL;
  if (!dbUrl)
    database = { kind: 'sqlite', path: resolve(dataDir, 'seedbed.db'), variable: 'SEEDBED_DATA_DIR' };
  else if (/^postgres(ql)?:\/\//.test(dbUrl)) database = { kind: 'postgres', url: dbUrl };
  else if (dbUrl.startsWith('sqlite:')) database = sqliteFile(dbUrl);
  else throw new ConfigError('DATABASE_URL: must be postgres://… or sqlite:<path>');

  let objects: Config['objects'];
  const store = e.SEEDBED_OBJECTS;
  if (!store) objects = { kind: 'fs', root: resolve(dataDir, 'objects') };
  else if (store.startsWith('s3://')) {
    objects = {
      kind: 's3',
      url: store,
      ...(e.S3_ENDPOINT ? { endpoint: e.S3_ENDPOINT } : {}),
      ...(e.AWS_REGION ? { region: e.AWS_REGION } : {}),
      ...(e.AWS_ACCESS_KEY_ID ? { accessKeyId: e.AWS_ACCESS_KEY_ID } : {}),
      ...(e.AWS_SECRET_ACCESS_KEY ? { secretAccessKey: e.AWS_SECRET_ACCESS_KEY } : {}),
    };
  } else if (store.startsWith('file://')) objects = { kind: 'fs', root: resolve(new URL(store).pathname) };
  else if (/^[a-z][a-z0-9+.-]*:\/\//i.test(store))
    throw new ConfigError('SEEDBED_OBJECTS: must be a folder, file://… or s3://bucket/prefix');
  else objects = { kind: 'fs', root: resolve(store) };

  const queueKind = e.SEEDBED_QUEUE ?? (database.kind === 'postgres' ? 'pg-boss' : 'embedded');
  if (queueKind === 'pg-boss' && database.kind !== 'postgres') {
    throw new ConfigError('SEEDBED_QUEUE: pg-boss needs DATABASE_URL=postgres://…');
  }
  if (e.SEEDBED_SYNC_TARGET && !/^(git\+file:\/\/|git\+https:\/\/|github:\/\/)/.test(e.SEEDBED_SYNC_TARGET)) {
    throw new ConfigError(
      'SEEDBED_SYNC_TARGET: must be git+file://…, git+https://… or github://owner/repo#branch',
    );
  }
  checkCron('SEEDBED_SYNC_CRON', e.SEEDBED_SYNC_CRON);
  const recheckCron = e.SEEDBED_RECHECK_CRON === 'off' ? null : e.SEEDBED_RECHECK_CRON;
  if (recheckCron) checkCron('SEEDBED_RECHECK_CRON', recheckCron);

  return {
    env: e.NODE_ENV,
    warnings: unknownVariables(present),
    dataDir,
    http: {
      host: e.HOST,
      port: e.PORT,
      requestTimeoutMs: e.SEEDBED_REQUEST_TIMEOUT_MS,
      rateLimitPerMinute: e.SEEDBED_RATE_LIMIT,
      maxDatasetBytes: e.SEEDBED_MAX_DATASET_BYTES,
      maxConcurrentUploads: e.SEEDBED_MAX_CONCURRENT_UPLOADS,
      maxImportBytes: e.SEEDBED_MAX_IMPORT_BYTES,
      publicUrl: e.SEEDBED_PUBLIC_URL,
    },
    database,
    objects,
    queue: {
      kind: queueKind,
      concurrency: e.SEEDBED_WORKER_CONCURRENCY,
      // On SQLite a research chunk leaves the main thread idle while its object and the WAL are synced, and
      // chunks claimed together commit together (group-commit.ts): with 16 in flight the research pipeline ran
      // about 1.5 times the URLs a second of 2, on less main-thread time a URL (docs/performance.md, "Third
      // pass"). At 16 the chunks still moved in step, all waiting on the same syncs at once (a quarter of the
      // main thread's time idle); 32 keep one group's CPU work going while the other's files sync, ≈ 8 µs a URL
      // less wall clock (docs/performance.md, "Ninth pass"), and 64 ≈ 1.5 µs less again on a quiet machine, 128
      // nothing more ("Thirteenth pass"). PostgreSQL's chunks each hold a pooled connection, so there it stays the
      // general setting.
      researchConcurrency:
        e.SEEDBED_RESEARCH_CONCURRENCY ??
        (database.kind === 'sqlite' ? SQLITE_RESEARCH_CONCURRENCY : e.SEEDBED_WORKER_CONCURRENCY),
      maxAttempts: e.SEEDBED_JOB_ATTEMPTS,
      leaseSeconds: e.SEEDBED_JOB_LEASE_SECONDS,
    },
    apiKeys: e.SEEDBED_API_KEYS,
    fetch: {
      resolve: e.SEEDBED_FETCH_RESOLVE,
      canary: parseCanary(e.SEEDBED_NETWORK_CANARY),
      concurrency: e.SEEDBED_FETCH_CONCURRENCY,
      thread: e.SEEDBED_FETCH_THREAD === 1,
      // A domain spends most of its time in its per-host gap (one request at a time, 250 ms after the last
      // one ended), so it takes several domains per socket to keep every socket busy (about 2.7 at 150 ms
      // answers); twice that many let the last domains of a batch start early enough to end with the others
      // (bench/contracts-latency.ts: 4 per socket left the batch's tail 2-3 s longer at 150 ms).
      domains: e.SEEDBED_DOMAIN_CONCURRENCY ?? DOMAINS_PER_SOCKET * e.SEEDBED_FETCH_CONCURRENCY,
      domainDeadlineMs: e.SEEDBED_DOMAIN_DEADLINE_SECONDS * 1000,
      domainLookahead:
        e.SEEDBED_DOMAIN_LOOKAHEAD ??
        e.SEEDBED_DOMAIN_CONCURRENCY ??
        DOMAINS_PER_SOCKET * e.SEEDBED_FETCH_CONCURRENCY,
    },
    authority: {
      overridesFile: e.SEEDBED_AUTHORITY_OVERRIDES ? resolve(e.SEEDBED_AUTHORITY_OVERRIDES) : undefined,
    },
    collection: { staleAfterDays: e.SEEDBED_STALE_AFTER_DAYS, feedWorkers: e.SEEDBED_FEED_WORKERS },
    recheck: { cron: recheckCron, autoSuspendAfter: e.SEEDBED_AUTO_SUSPEND ?? null },
    sync: {
      target: e.SEEDBED_SYNC_TARGET,
      cron: e.SEEDBED_SYNC_CRON,
      token: e.SEEDBED_SYNC_TOKEN,
      githubToken: e.GITHUB_TOKEN,
    },
    logLevel: e.SEEDBED_LOG_LEVEL,
  };
}

function checkCron(variable: string, expression: string): void {
  try {
    new Cron(expression, { paused: true }).stop();
  } catch (error) {
    throw new ConfigError(`${variable}: not a cron expression (${(error as Error).message})`);
  }
}

/**
 * `sqlite:<path>`: the data directory is created when missing, but a folder named explicitly must exist — a
 * typo there would otherwise start an empty service somewhere unexpected.
 */
function sqliteFile(url: string): Config['database'] {
  const given = url.replace(/^sqlite:(\/\/)?/, '');
  if (given.trim() === '')
    throw new ConfigError('DATABASE_URL: sqlite: needs a file path (sqlite:./data/seedbed.db)');
  const path = resolve(given);
  const folder = dirname(path);
  if (!existsSync(folder))
    throw new ConfigError(`DATABASE_URL: the folder ${folder} does not exist; create it or correct the path`);
  return { kind: 'sqlite', path, variable: 'DATABASE_URL' };
}

/** A SEEDBED_* name Seedbed does not read is most likely a typo: say so, with the closest known name. */
export function unknownVariables(env: Record<string, string | undefined>): string[] {
  const warnings: string[] = [];
  for (const name of Object.keys(env).sort()) {
    if (!name.startsWith('SEEDBED_') || KNOWN_VARIABLES.includes(name)) continue;
    const guess = closestName(name);
    warnings.push(
      `${name} is not a Seedbed variable and is ignored${guess ? `; did you mean ${guess}?` : ''}`,
    );
  }
  return warnings;
}

function closestName(name: string): string | null {
  let best: { name: string; distance: number } | null = null;
  // SEEDBED_PORT is PORT with a prefix it does not take: compare without the prefix too.
  const bare = name.slice('SEEDBED_'.length);
  for (const known of KNOWN_VARIABLES) {
    const distance = Math.min(editDistance(name, known), editDistance(bare, known));
    if (!best || distance < best.distance) best = { name: known, distance };
  }
  return best && best.distance <= Math.max(2, Math.floor(name.length / 4)) ? best.name : null;
}

/** Levenshtein distance, with a swap of two neighbours counted as one edit. */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) =>
    Array.from({ length: b.length + 1 }, (_, j) => (i === 0 ? j : j === 0 ? i : 0)),
  );
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = d[i] as number[];
      const above = d[i - 1] as number[];
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      row[j] = Math.min(
        (above[j] as number) + 1,
        (row[j - 1] as number) + 1,
        (above[j - 1] as number) + cost,
      );
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        row[j] = Math.min(row[j] as number, ((d[i - 2] as number[])[j - 2] as number) + 1);
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}
