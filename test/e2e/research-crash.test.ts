// POST /api/v1/research is as crash-safe as a batch. A synchronous request writes in three steps: (1) one
// transaction claims the URLs and reserves a chunk number, (2) the raw chunk object is written, (3) the chunk is
// marked stored. A process killed after (1) or (2) leaves exactly the state rebuilt here; the next start (or the
// next request for the partition) finishes it, and a client's retry with the same Idempotency-Key resumes the
// same claims. Run on SQLite + folder, on PostgreSQL + S3 (s3rver), and once with a real SIGKILL.
import { existsSync, readdirSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { text } from 'node:stream/consumers';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { FS_TEMP_PREFIX } from '../../src/adapters/fs-object-store.js';
import { createSeedbed, type Seedbed } from '../../src/composition.js';
import { loadConfig } from '../../src/config.js';
import { rawChunkKey } from '../../src/domain/keys.js';
import { getJson, postJson, type SeedbedProcess, startSeedbedProcess } from '../support/process.js';
import { type S3rverHandle, startS3rver } from '../support/s3rver.js';
import { pgAvailable, serviceOrSkip, TEST_DATABASE_URL } from '../support/services.js';

const PARTITION = { country: 'sg', category: 'news', date: '2026-04-01' } as const;
const urls = (n: number, tag: string) =>
  Array.from({ length: n }, (_, i) => `https://site${i % 50}.example.sg/${tag}/${i}`);

type Backend = { name: string; env: () => Promise<Record<string, string>>; cleanup: () => Promise<void> };

async function open(env: Record<string, string>): Promise<Seedbed> {
  const seedbed = await createSeedbed({
    config: loadConfig({ SEEDBED_LOG_LEVEL: 'silent', NODE_ENV: 'test', ...env }),
  });
  await seedbed.start();
  return seedbed;
}

async function rawRecords(seedbed: Seedbed): Promise<string[]> {
  const all: string[] = [];
  for (const chunk of await seedbed.services.datasets.listChunks(PARTITION)) {
    const stream = await seedbed.objects.get(rawChunkKey(PARTITION, chunk.chunk));
    const dataset = JSON.parse(await text(stream!)) as { records: Array<{ normalized_url: string }> };
    all.push(...dataset.records.map((r) => r.normalized_url));
  }
  return all;
}

/** The persistent state a kill leaves after step 1 (object absent) or step 2 (object present). */
async function interrupt(seedbed: Seedbed, chunk: number, step: 'claims committed' | 'object written') {
  if (step === 'claims committed') await seedbed.objects.delete(rawChunkKey(PARTITION, chunk));
  await seedbed.database.db
    .updateTable('dataset_chunks')
    .set({ status: 'writing', bytes: 0, record_count: 0 })
    .where('country', '=', PARTITION.country)
    .where('category', '=', PARTITION.category)
    .where('date', '=', PARTITION.date)
    .where('chunk', '=', chunk)
    .execute();
}

const pgUp = await pgAvailable();
let s3: S3rverHandle | undefined;
const s3Up = pgUp
  ? await serviceOrSkip('s3rver', async () => {
      s3 = await startS3rver();
    })
  : false;

const dirs: string[] = [];
const backends: Backend[] = [
  {
    name: 'SQLite + folder',
    async env() {
      const dir = await mkdtemp(join(tmpdir(), 'seedbed-crash-'));
      dirs.push(dir);
      return { SEEDBED_DATA_DIR: dir };
    },
    async cleanup() {},
  },
];
if (pgUp && s3Up) {
  const dbName = `seedbed_crash_${process.pid}`;
  backends.push({
    name: 'PostgreSQL + S3',
    async env() {
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName}`);
      await admin.query(`create database ${dbName}`);
      await admin.end();
      const url = new URL(TEST_DATABASE_URL);
      url.pathname = `/${dbName}`;
      return {
        DATABASE_URL: url.toString(),
        SEEDBED_OBJECTS: `s3://${s3!.bucket}/crash-${Date.now()}`,
        S3_ENDPOINT: s3!.endpoint,
        AWS_REGION: s3!.region,
        AWS_ACCESS_KEY_ID: s3!.accessKeyId,
        AWS_SECRET_ACCESS_KEY: s3!.secretAccessKey,
        SEEDBED_DATA_DIR: '/nonexistent-seedbed-data',
      };
    },
    async cleanup() {
      const admin = new pg.Client({ connectionString: TEST_DATABASE_URL });
      await admin.connect();
      await admin.query(`drop database if exists ${dbName} with (force)`);
      await admin.end();
    },
  });
}

afterAll(async () => {
  for (const b of backends) await b.cleanup();
  await s3?.stop();
  await Promise.all(dirs.map((dir) => rm(dir, { recursive: true, force: true })));
});

describe.each(backends)('a synchronous research request interrupted, on $name', (backend) => {
  for (const step of ['claims committed', 'object written'] as const) {
    it(`killed after "${step}": the restart finishes it and a retry with the key resumes it`, async () => {
      const env = await backend.env();
      const key = `crash-${step.replace(' ', '-')}`;
      const body = { ...PARTITION, urls: urls(300, key) };
      let seedbed = await open(env);
      const first = await seedbed.services.research.create(body, { idempotencyKey: key });
      expect(first.ingest.accepted).toBe(300);
      const chunk = first.ingest.raw_chunk as number;
      await interrupt(seedbed, chunk, step);
      await seedbed.close();

      seedbed = await open(env);
      try {
        const stored = await seedbed.services.datasets.listChunks(PARTITION);
        expect(stored.find((c) => c.chunk === chunk)).toMatchObject({ record_count: 300 });
        const retry = await seedbed.services.research.create(body, { idempotencyKey: key });
        expect(retry.ingest).toMatchObject({ raw_chunk: chunk, accepted: 300, duplicates: 0 });
        const records = await rawRecords(seedbed);
        const mine = records.filter((u) => u.includes(`/${key}/`));
        expect(mine.length).toBe(300);
        expect(new Set(records).size).toBe(records.length);
        const other = await seedbed.services.research
          .create({ ...PARTITION, urls: ['https://other.example.sg/x'] }, { idempotencyKey: key })
          .then(
            () => 'accepted',
            (error: { code?: string }) => error.code,
          );
        expect(other).toBe('idempotency_key_reused');
      } finally {
        await seedbed.close();
      }
    });
  }

  it('a request interrupted in another partition is finished by the next request for its own partition', async () => {
    const env = await backend.env();
    const seedbed = await open(env);
    try {
      const first = await seedbed.services.research.create({ ...PARTITION, urls: urls(40, 'later') });
      await interrupt(seedbed, first.ingest.raw_chunk as number, 'claims committed');
      await seedbed.services.research.create({ ...PARTITION, urls: ['https://next.example.sg/'] });
      const records = await rawRecords(seedbed);
      expect(records.filter((u) => u.includes('/later/')).length).toBe(40);
    } finally {
      await seedbed.close();
    }
  });
});

describe('SIGKILL while the chunk of POST /api/v1/research is being written', () => {
  let dir = '';
  const processes: SeedbedProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it('every URL is in exactly one chunk after the restart, and the retry answers them as new', async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-crash-kill-'));
    const env = { SEEDBED_DATA_DIR: dir };
    const first = await startSeedbedProcess(env);
    processes.push(first);
    const body = { ...PARTITION, urls: urls(10_000, 'killed') };
    const headers = { 'idempotency-key': 'killed-once' };
    const pending = postJson(first.url, '/api/v1/research', body, headers).catch(() => null);
    // The moment the chunk's temporary file appears (beside the object, in the partition's raw folder), the claims
    // are committed and the object is not yet there.
    const objects = join(dir, 'objects');
    const writing = () =>
      existsSync(objects) &&
      readdirSync(objects, { recursive: true }).some((name) =>
        basename(String(name)).startsWith(FS_TEMP_PREFIX),
      );
    // Generous: only a guard so a request that never writes fails the test instead of hanging it.
    const guard = Date.now() + 60_000;
    while (!writing() && Date.now() < guard) await new Promise((resolve) => setTimeout(resolve, 1));
    await first.kill('SIGKILL');
    await pending;

    const second = await startSeedbedProcess(env);
    processes.push(second);
    const detail = await getJson(second.url, `/api/v1/research/sg/news/${PARTITION.date}`);
    expect(detail.counts.sources).toBe(10_000);
    expect(detail.counts.raw_chunks).toBe(1);
    expect(detail.raw_chunks[0].record_count).toBe(10_000);
    const retry = await postJson(second.url, '/api/v1/research', body, headers);
    expect(retry.status).toBe(201);
    expect(retry.body.ingest).toMatchObject({ accepted: 10_000, duplicates: 0, raw_chunk: 1 });
    await second.kill('SIGTERM');
  });
});
