// Scale-out as an operator runs it: PostgreSQL + an S3 server (s3rver), two `seedbed api` and two
// `seedbed worker` processes. One worker is killed with SIGKILL in the middle of a 10,000-URL batch; the
// other finishes it, and the bucket — read back with the AWS SDK — holds every URL exactly once.
import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, postJson, type SeedbedProcess, startSeedbedProcess } from '../support/process.js';
import { type S3rverHandle, startS3rver } from '../support/s3rver.js';
import { pgAvailable, serviceOrSkip, TEST_DATABASE_URL } from '../support/services.js';

const UNIQUE = 8_000;
const pgUp = await pgAvailable();
let s3: S3rverHandle | undefined;
const s3Up = await serviceOrSkip('s3rver', async () => {
  s3 = await startS3rver();
});

function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

describe.skipIf(!pgUp || !s3Up)('two api and two worker processes on PostgreSQL + S3', () => {
  const dbName = `seedbed_scale_${process.pid}`;
  const processes: SeedbedProcess[] = [];
  let env: Record<string, string>;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName}`);
    await admin.query(`create database ${dbName}`);
    await admin.end();
    env = {
      DATABASE_URL: databaseUrl(dbName),
      SEEDBED_OBJECTS: `s3://${s3!.bucket}/seedbed`,
      S3_ENDPOINT: s3!.endpoint,
      AWS_REGION: s3!.region,
      AWS_ACCESS_KEY_ID: s3!.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3!.secretAccessKey,
      SEEDBED_JOB_LEASE_SECONDS: '5',
      SEEDBED_WORKER_CONCURRENCY: '2',
      SEEDBED_DATA_DIR: '/nonexistent-seedbed-data',
    };
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await s3?.stop();
    const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  it('finishes the batch through the surviving worker with every URL exactly once in the bucket', async () => {
    // Processes start one after another the first time, then in parallel: migrations must be safe both ways.
    const apiA = await startSeedbedProcess(env, ['api']);
    processes.push(apiA);
    const [apiB, workerA, workerB] = await Promise.all([
      startSeedbedProcess(env, ['api']),
      startSeedbedProcess(env, ['worker']),
      startSeedbedProcess(env, ['worker']),
    ]);
    processes.push(apiB, workerA, workerB);

    const urls = Array.from({ length: UNIQUE }, (_, i) => `https://news${i % 300}.example.com.au/${i}`);
    const duplicates = Array.from(
      { length: 10_000 - UNIQUE },
      (_, i) => `https://NEWS${i % 300}.example.com.au:443/${i}#again`,
    );
    const accepted = await postJson(apiA.url, '/api/v1/queues/research', {
      country: 'au',
      category: 'news',
      urls: [...urls, ...duplicates],
      chunkSize: 10,
    });
    expect(accepted.status).toBe(202);
    const batchId = accepted.body.batchId as string;

    for (;;) {
      const batch = await getJson(apiB.url, `/api/v1/queues/batch/${batchId}`);
      if (batch.chunks.succeeded >= 100) {
        expect(batch.status).toBe('running');
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    await workerA.kill('SIGKILL');

    let batch: any;
    for (;;) {
      batch = await getJson(apiA.url, `/api/v1/queues/batch/${batchId}`);
      if (batch.status !== 'queued' && batch.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect(batch.status).toBe('completed');
    expect(batch.items).toEqual({
      succeeded: UNIQUE,
      failed: 0,
      skipped: 10_000 - UNIQUE,
      running: 0,
      pending: 0,
    });

    const client = new S3Client({
      endpoint: s3!.endpoint,
      region: s3!.region,
      forcePathStyle: true,
      credentials: { accessKeyId: s3!.accessKeyId, secretAccessKey: s3!.secretAccessKey },
    });
    const prefix = `seedbed/raw/country=au/category=news/date=${batch.date}/`;
    const keys: string[] = [];
    let token: string | undefined;
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: s3!.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      keys.push(
        ...(page.Contents ?? []).map((o) => o.Key as string).filter((k) => /raw_\d{4}\.json$/.test(k)),
      );
      token = page.NextContinuationToken;
    } while (token);
    const seen: string[] = [];
    for (const key of keys) {
      const object = await client.send(new GetObjectCommand({ Bucket: s3!.bucket, Key: key }));
      const dataset = JSON.parse(await object.Body!.transformToString()) as {
        records: Array<{ normalized_url: string }>;
      };
      seen.push(...dataset.records.map((r) => r.normalized_url));
    }
    client.destroy();
    expect(seen.length).toBe(UNIQUE);
    expect(new Set(seen).size).toBe(UNIQUE);
  }, 180_000); // a guard against a hang on a loaded 2-core machine, not a timing assertion
});
