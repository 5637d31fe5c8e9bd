// Configuration: one zod schema over an env object passed in (never read from process.env elsewhere).
// A bad value stops the start with a message naming the variable.
import { resolve } from 'node:path';
import { Cron } from 'croner';
import { z } from 'zod';
import { DEFAULT_CANARY_URLS } from './engine/network-canary.js';

const intFrom = (min: number, max: number) =>
  z.coerce.number({ message: 'must be a number' }).int('must be a whole number').min(min).max(max);

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
  SEEDBED_SYNC_TARGET: z.string().min(1).optional(),
  SEEDBED_SYNC_CRON: z.string().min(1).default('0 */6 * * *'),
  SEEDBED_SYNC_TOKEN: z.string().min(1).optional(),
  GITHUB_TOKEN: z.string().min(1).optional(),
  SEEDBED_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  SEEDBED_RATE_LIMIT: intFrom(1, 1_000_000).default(1200),
  SEEDBED_MAX_DATASET_BYTES: intFrom(1024, 2 * 1024 ** 3).default(64 * 1024 ** 2),
  SEEDBED_REQUEST_TIMEOUT_MS: intFrom(1000, 3_600_000).default(120_000),
  SEEDBED_WORKER_CONCURRENCY: intFrom(1, 64).default(2),
  SEEDBED_JOB_ATTEMPTS: intFrom(1, 20).default(4),
  SEEDBED_JOB_LEASE_SECONDS: intFrom(2, 3600).default(60),
  SEEDBED_PUBLIC_URL: z.url().default('https://github.com/seedbed/seedbed'),
});

export interface Config {
  env: 'development' | 'production' | 'test';
  dataDir: string;
  http: {
    host: string;
    port: number;
    requestTimeoutMs: number;
    rateLimitPerMinute: number;
    maxDatasetBytes: number;
    publicUrl: string;
  };
  database: { kind: 'sqlite'; path: string } | { kind: 'postgres'; url: string };
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
  queue: { kind: 'embedded' | 'pg-boss'; concurrency: number; maxAttempts: number; leaseSeconds: number };
  apiKeys: string | undefined;
  fetch: {
    resolve: string | undefined;
    /** URLs asked before a failure is called dead (SEEDBED_NETWORK_CANARY); empty: the canary is off. */
    canary: readonly string[];
  };
  /** An operator's authority override file (JSON), added to the shipped table; read by the composition root. */
  authority: { overridesFile: string | undefined };
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
    const lines = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`invalid configuration:\n  ${lines.join('\n  ')}`);
  }
  const e = parsed.data;
  const dataDir = resolve(e.SEEDBED_DATA_DIR);

  let database: Config['database'];
  const dbUrl = e.DATABASE_URL;
  if (!dbUrl) database = { kind: 'sqlite', path: resolve(dataDir, 'seedbed.db') };
  else if (/^postgres(ql)?:\/\//.test(dbUrl)) database = { kind: 'postgres', url: dbUrl };
  else if (dbUrl.startsWith('sqlite:'))
    database = { kind: 'sqlite', path: resolve(dbUrl.replace(/^sqlite:(\/\/)?/, '')) };
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
  try {
    new Cron(e.SEEDBED_SYNC_CRON, { paused: true }).stop();
  } catch (error) {
    throw new ConfigError(`SEEDBED_SYNC_CRON: not a cron expression (${(error as Error).message})`);
  }

  return {
    env: e.NODE_ENV,
    dataDir,
    http: {
      host: e.HOST,
      port: e.PORT,
      requestTimeoutMs: e.SEEDBED_REQUEST_TIMEOUT_MS,
      rateLimitPerMinute: e.SEEDBED_RATE_LIMIT,
      maxDatasetBytes: e.SEEDBED_MAX_DATASET_BYTES,
      publicUrl: e.SEEDBED_PUBLIC_URL,
    },
    database,
    objects,
    queue: {
      kind: queueKind,
      concurrency: e.SEEDBED_WORKER_CONCURRENCY,
      maxAttempts: e.SEEDBED_JOB_ATTEMPTS,
      leaseSeconds: e.SEEDBED_JOB_LEASE_SECONDS,
    },
    apiKeys: e.SEEDBED_API_KEYS,
    fetch: { resolve: e.SEEDBED_FETCH_RESOLVE, canary: parseCanary(e.SEEDBED_NETWORK_CANARY) },
    authority: {
      overridesFile: e.SEEDBED_AUTHORITY_OVERRIDES ? resolve(e.SEEDBED_AUTHORITY_OVERRIDES) : undefined,
    },
    sync: {
      target: e.SEEDBED_SYNC_TARGET,
      cron: e.SEEDBED_SYNC_CRON,
      token: e.SEEDBED_SYNC_TOKEN,
      githubToken: e.GITHUB_TOKEN,
    },
    logLevel: e.SEEDBED_LOG_LEVEL,
  };
}
