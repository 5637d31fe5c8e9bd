// The directory bench's two sides on one database: the service as a child process (its RSS sampled from outside),
// and the raw database the same file or PostgreSQL database opened directly (better-sqlite3 / pg). The raw side
// runs the SQL the service runs: the repository functions are called once on a Kysely that logs every statement
// (`record`), and the logged statements are then replayed through the bare driver and timed (`replay`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { type CompiledQuery, Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import pg from 'pg';
import type { Database, Tables } from '../src/ports/database.js';
import { createCandidateRepository } from '../src/services/candidates/repository.js';
import { createSeedRepository } from '../src/services/seed-repository/index.js';
import { REPO_ROOT, type SeedbedProcess, startSeedbedProcess } from '../test/support/process.js';
import { type S3rverHandle, startS3rver } from '../test/support/s3rver.js';
import { TEST_DATABASE_URL } from '../test/support/services.js';

export type Kind = 'sqlite' | 'postgres';

export interface Statement {
  sql: string;
  parameters: readonly unknown[];
}

/** The database opened directly, beside the service. */
export interface RawDatabase {
  kind: Kind;
  /** Runs the statements one after the other through the bare driver; answers the rows of the last. */
  replay(statements: readonly Statement[]): Promise<unknown[]>;
  /** The statements `work` sends through `db` (which it runs: the rows are real). */
  record(work: () => Promise<unknown>): Promise<Statement[]>;
  /** A Kysely on the same database, logging into `record`; for the bench's own writes too. */
  db: Kysely<Tables>;
  /** `db` as the service's `Database` port (what the repositories below and the service's own helpers take). */
  database: Database;
  seeds: ReturnType<typeof createSeedRepository>;
  candidates: ReturnType<typeof createCandidateRepository>;
  close(): Promise<void>;
}

function recorder(kind: Kind, dialect: SqliteDialect | PostgresDialect) {
  let log: Statement[] | null = null;
  const db = new Kysely<Tables>({
    dialect,
    log(event) {
      if (log && event.level === 'query')
        log.push({ sql: event.query.sql, parameters: [...event.query.parameters] });
    },
  });
  // Reads need the query builder, arrays of a read (logged like any query) and, on PostgreSQL, a transaction: the
  // first count after a bulk load folds the kept totals (`foldTotals`); the bench folds them before it records.
  const database = {
    dialect: kind,
    db,
    transaction: <T>(work: (trx: Kysely<Tables>) => Promise<T>) => db.transaction().execute(work),
    async readArrays(query: CompiledQuery) {
      const { rows } = await db.executeQuery(query);
      return rows.map((row) => Object.values(row as object));
    },
  } as unknown as Database;
  return {
    db,
    database,
    seeds: createSeedRepository(database),
    candidates: createCandidateRepository(database),
    async record(work: () => Promise<unknown>): Promise<Statement[]> {
      log = [];
      try {
        await work();
        return log;
      } finally {
        log = null;
      }
    },
  };
}

export function openRawSqlite(path: string): RawDatabase {
  const connection = new BetterSqlite3(path);
  connection.pragma('busy_timeout = 10000');
  const prepared = new Map<string, BetterSqlite3.Statement>();
  const parts = recorder('sqlite', new SqliteDialect({ database: connection }));
  return {
    kind: 'sqlite',
    ...parts,
    async replay(statements) {
      let rows: unknown[] = [];
      for (const { sql, parameters } of statements) {
        let statement = prepared.get(sql);
        if (!statement) {
          statement = connection.prepare(sql);
          prepared.set(sql, statement);
        }
        if (statement.reader) rows = statement.all(...parameters);
        else statement.run(...parameters);
      }
      return rows;
    },
    async close() {
      await parts.db.destroy();
    },
  };
}

export async function openRawPostgres(url: string): Promise<RawDatabase> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  const parts = recorder('postgres', new PostgresDialect({ pool }));
  return {
    kind: 'postgres',
    ...parts,
    async replay(statements) {
      let rows: unknown[] = [];
      for (const { sql, parameters } of statements) rows = (await client.query(sql, [...parameters])).rows;
      return rows;
    },
    async close() {
      await parts.db.destroy();
      await client.end();
    },
  };
}

/** The service's resident memory, read from /proc every `everyMs`, with the peak of each phase. */
export class RssSampler {
  readonly peaks = new Map<string, number>();
  private phase = 'start';
  private timer: NodeJS.Timeout | undefined;
  samples = 0;

  constructor(private readonly pid: number) {}

  start(everyMs = 200): void {
    this.timer = setInterval(() => this.sample(), everyMs);
    this.sample();
  }

  enter(phase: string): void {
    this.sample();
    this.phase = phase;
  }

  stop(): void {
    this.sample();
    clearInterval(this.timer);
  }

  get peak(): number {
    return Math.max(0, ...this.peaks.values());
  }

  private sample(): void {
    let status: string;
    try {
      status = readFileSync(`/proc/${this.pid}/status`, 'utf8');
    } catch {
      return;
    }
    const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? 0);
    const mib = kb / 1024;
    this.samples++;
    this.peaks.set(this.phase, Math.max(this.peaks.get(this.phase) ?? 0, mib));
  }
}

/** A running service with its database, both sides, and how to take it all down. */
export interface Backend {
  kind: Kind;
  service: SeedbedProcess;
  raw: RawDatabase;
  rss: RssSampler;
  /** A fresh empty database of the same kind for the raw insert baseline: its URL or SQLite path. */
  scratchDatabase(): Promise<{ location: string; drop(): Promise<void> }>;
  close(): Promise<void>;
}

const QUIET = {
  SEEDBED_RATE_LIMIT: '1000000',
  SEEDBED_RECHECK_CRON: 'off',
  // The seeds are made up: no outside fetch may happen, and no import may be cut by the request timeout.
  SEEDBED_REQUEST_TIMEOUT_MS: '3600000',
};

async function createDatabase(name: string): Promise<{ url: string; drop(): Promise<void> }> {
  const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`drop database if exists ${name} with (force)`);
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const again = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await again.connect();
      await again.query(`drop database if exists ${name} with (force)`);
      await again.end();
    },
  };
}

/**
 * The build when it is as new as the sources (the service as it is deployed: tsx's loader adds ~50 MiB of RSS),
 * else the sources through tsx, said on the way.
 */
export function serviceEntry(): string[] {
  const newest = (dir: string): number =>
    Math.max(
      0,
      ...readdirSync(join(REPO_ROOT, dir), { recursive: true, encoding: 'utf8' }).map(
        (file) => statSync(join(REPO_ROOT, dir, file)).mtimeMs,
      ),
    );
  const built = existsSync(join(REPO_ROOT, 'dist/main.js')) && newest('dist') >= newest('src');
  if (!built)
    process.stdout.write(
      '  (no up-to-date dist/: the service runs through tsx; `npm run build` first for its real RSS)\n',
    );
  return built ? ['dist/main.js'] : ['--import', 'tsx', 'src/main.ts'];
}

export async function startBackend(kind: Kind): Promise<Backend> {
  const dir = await mkdtemp(join(tmpdir(), 'seedbed-directory-bench-'));
  const cleanups: Array<() => Promise<void>> = [() => rm(dir, { recursive: true, force: true })];
  const cleanUp = async () => {
    for (const cleanup of cleanups.reverse()) await cleanup().catch(() => undefined);
  };
  try {
    let env: Record<string, string>;
    let openRaw: () => Promise<RawDatabase>;
    let scratch = 0;
    let scratchDatabase: Backend['scratchDatabase'];
    if (kind === 'sqlite') {
      env = { ...QUIET, SEEDBED_DATA_DIR: dir };
      openRaw = async () => openRawSqlite(join(dir, 'seedbed.db'));
      scratchDatabase = async () => {
        const path = join(dir, `scratch-${++scratch}`, 'seedbed.db');
        return {
          location: path,
          drop: () => rm(join(dir, `scratch-${scratch}`), { recursive: true, force: true }),
        };
      };
    } else {
      const s3: S3rverHandle = await startS3rver();
      cleanups.push(() => s3.stop());
      const database = await createDatabase(`seedbed_directory_${process.pid}`);
      cleanups.push(() => database.drop());
      env = {
        ...QUIET,
        SEEDBED_DATA_DIR: dir,
        DATABASE_URL: database.url,
        SEEDBED_OBJECTS: `s3://${s3.bucket}/bench`,
        S3_ENDPOINT: s3.endpoint,
        AWS_REGION: s3.region,
        AWS_ACCESS_KEY_ID: s3.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
      };
      openRaw = () => openRawPostgres(database.url);
      scratchDatabase = async () => {
        const made = await createDatabase(`seedbed_directory_${process.pid}_raw${++scratch}`);
        return { location: made.url, drop: made.drop };
      };
    }
    const service = await startSeedbedProcess(env, ['serve'], 'seedbed is listening', serviceEntry());
    cleanups.push(async () => {
      await service.kill('SIGTERM');
    });
    const rss = new RssSampler(service.child.pid as number);
    rss.start();
    const raw = await openRaw();
    cleanups.push(() => raw.close());
    return {
      kind,
      service,
      raw,
      rss,
      scratchDatabase,
      async close() {
        rss.stop();
        await cleanUp();
      },
    };
  } catch (error) {
    await cleanUp();
    throw error;
  }
}
