// Which backends a test Seedbed is built on. One switch, SEEDBED_TEST_BACKEND: unset (or `embedded`) is SQLite +
// a folder + the embedded queue; `postgres` is what an operator scales out with — a PostgreSQL database of its
// own, an s3rver bucket under a prefix of its own, and pg-boss — so the same suite (test/api) runs on both
// (`npm run test:pg`, vitest.pg.config.ts). Everything made here is dropped when the Seedbed closes.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type S3rverHandle, startS3rver } from './s3rver.js';
import { TEST_DATABASE_URL } from './services.js';

export type TestBackend = 'embedded' | 'postgres';

export function testBackend(): TestBackend {
  const value = process.env['SEEDBED_TEST_BACKEND'];
  if (value === undefined || value === '' || value === 'embedded') return 'embedded';
  if (value === 'postgres') return 'postgres';
  throw new Error(`SEEDBED_TEST_BACKEND: must be embedded or postgres (got ${JSON.stringify(value)})`);
}

/**
 * True in the PostgreSQL run: for `skipIf(ON_POSTGRES)` on a test that asserts SQLite or folder details, or that
 * builds its own PostgreSQL Seedbed beside the default one (in this run the default one is PostgreSQL already).
 * Say why at the skip: vitest prints no reason of its own.
 */
export const ON_POSTGRES = testBackend() === 'postgres';

export interface ScaleOutBackend {
  /** The environment that points a Seedbed at these backends. */
  env: Record<string, string>;
  drop(): Promise<void>;
}

// One s3rver per test file (vitest runs each file in a process of its own): a child process takes about a
// second to start, so Seedbeds share it and keep apart by key prefix. It ends with the process (s3rver.ts).
let s3rver: Promise<S3rverHandle> | undefined;

async function sharedS3rver(): Promise<S3rverHandle> {
  s3rver ??= startS3rver().catch((error: unknown) => {
    s3rver = undefined;
    throw error;
  });
  return s3rver;
}

async function admin(statement: string): Promise<void> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(statement);
  } finally {
    await client.end();
  }
}

/**
 * A fresh PostgreSQL database (a database rather than a schema: pg-boss keeps its own schema `pgboss`, which
 * two Seedbeds in one database would share) and an S3 prefix. pg-boss follows from DATABASE_URL (config.ts).
 */
export async function openScaleOutBackend(): Promise<ScaleOutBackend> {
  const id = randomBytes(6).toString('hex');
  const name = `seedbed_api_${id}`;
  const s3 = await sharedS3rver();
  await admin(`CREATE DATABASE ${pg.escapeIdentifier(name)}`);
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return {
    env: {
      DATABASE_URL: url.toString(),
      SEEDBED_QUEUE: 'pg-boss',
      SEEDBED_OBJECTS: `s3://${s3.bucket}/${id}`,
      S3_ENDPOINT: s3.endpoint,
      AWS_REGION: s3.region,
      AWS_ACCESS_KEY_ID: s3.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3.secretAccessKey,
    },
    // The bucket's objects go with s3rver's folder when the process ends; the database goes now.
    drop: () => admin(`DROP DATABASE IF EXISTS ${pg.escapeIdentifier(name)} WITH (FORCE)`),
  };
}
