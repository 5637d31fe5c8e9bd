// Builds a real Seedbed for a test: SQLite and a local folder in a fresh temporary directory (or, with
// SEEDBED_TEST_BACKEND=postgres, PostgreSQL + S3 + pg-boss: backend.ts), the real migrations, fast queue
// polling, and the Fastify app for in-process `inject` requests.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { createSeedbed, type Seedbed, type SeedbedOptions } from '../../src/composition.js';
import { loadConfig } from '../../src/config.js';
import type { QueueName } from '../../src/ports/queue.js';
import { openScaleOutBackend, type ScaleOutBackend, testBackend } from './backend.js';

export interface TestSeedbed {
  seedbed: Seedbed;
  app: FastifyInstance;
  dir: string;
  /** Starts the workers of these queues (all by default) in this process. */
  startWorkers(queues?: QueueName[]): void;
  /** Whether the Seedbed's object store (a folder or S3) holds this key. */
  hasObject(key: string): Promise<boolean>;
  /** The text of the object under this key, or null when there is none. */
  readObject(key: string): Promise<string | null>;
  /** Every key the object store holds, in key order. */
  objectKeys(): Promise<string[]>;
  /** Polls the batch until it leaves queued/running; returns its final view. */
  waitForBatch(batchId: string, timeoutMs?: number): Promise<Record<string, any>>;
  close(): Promise<void>;
}

export async function createTestSeedbed(
  env: Record<string, string> = {},
  options: Omit<SeedbedOptions, 'config'> = {},
): Promise<TestSeedbed> {
  const dir = await mkdtemp(join(tmpdir(), 'seedbed-test-'));
  // A test that names its database or object store keeps it; every other one follows the switch.
  const scaleOut: ScaleOutBackend | null =
    testBackend() === 'postgres' && env['DATABASE_URL'] === undefined && env['SEEDBED_OBJECTS'] === undefined
      ? await openScaleOutBackend()
      : null;
  // A Seedbed that fails to start (a test of a bad configuration) leaves no database behind.
  const built = await buildStarted(dir, env, options, scaleOut).catch(async (error: unknown) => {
    await scaleOut?.drop();
    await rm(dir, { recursive: true, force: true });
    throw error;
  });
  const { seedbed, app } = built;
  return {
    seedbed,
    app,
    dir,
    startWorkers(queues) {
      seedbed.startWorkers(queues);
    },
    async hasObject(key) {
      return (await seedbed.objects.head(key)) !== null;
    },
    async readObject(key) {
      const stream = await seedbed.objects.get(key);
      if (!stream) return null;
      const parts: Buffer[] = [];
      for await (const part of stream) parts.push(Buffer.from(part));
      return Buffer.concat(parts).toString('utf8');
    },
    async objectKeys() {
      const keys: string[] = [];
      for await (const info of seedbed.objects.list('')) keys.push(info.key);
      return keys;
    },
    async waitForBatch(batchId, timeoutMs = 30_000) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const batch = (await seedbed.services.batches.get(batchId)) as unknown as Record<string, any>;
        if (batch.status !== 'queued' && batch.status !== 'running') return batch;
        if (Date.now() > deadline)
          throw new Error(`batch ${batchId} still ${batch.status} after ${timeoutMs} ms`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    async close() {
      await app.close();
      await seedbed.close();
      await scaleOut?.drop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

async function buildStarted(
  dir: string,
  env: Record<string, string>,
  options: Omit<SeedbedOptions, 'config'>,
  scaleOut: ScaleOutBackend | null,
): Promise<{ seedbed: Seedbed; app: FastifyInstance }> {
  const config = loadConfig({
    SEEDBED_DATA_DIR: dir,
    SEEDBED_LOG_LEVEL: 'silent',
    NODE_ENV: 'test',
    // The default canaries are public hosts; a test that fetches names its own (the fake internet's CANARY_URL).
    SEEDBED_NETWORK_CANARY: 'off',
    ...scaleOut?.env,
    ...env,
  });
  const seedbed = await createSeedbed({
    config,
    queueOptions: { pollIntervalMs: 20, backoff: { baseMs: 20, maxMs: 200 } },
    ...options,
  });
  await seedbed.start();
  const open = !(await seedbed.services.apiKeys.hasAnyKeys());
  const app = await seedbed.buildHttp(open);
  await app.ready();
  return { seedbed, app };
}
