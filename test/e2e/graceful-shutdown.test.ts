// SIGTERM in the middle of a batch: the process drains what it is doing, exits 0, and a restart finishes
// the batch with nothing lost and nothing twice.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getJson, postJson, type SeedbedProcess, startSeedbedProcess } from '../support/process.js';

describe('graceful shutdown', () => {
  let dataDir = '';
  const processes: SeedbedProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('drains on SIGTERM, exits 0, and the batch completes after a restart', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'seedbed-term-'));
    const env = { SEEDBED_DATA_DIR: dataDir, SEEDBED_JOB_LEASE_SECONDS: '2' };
    const first = await startSeedbedProcess(env);
    processes.push(first);
    const urls = Array.from({ length: 5_000 }, (_, i) => `https://paper${i % 50}.example.de/story/${i}`);
    const accepted = await postJson(first.url, '/api/v1/queues/research', {
      country: 'de',
      category: 'news',
      urls,
      chunkSize: 5,
    });
    const batchId = accepted.body.batchId as string;
    for (;;) {
      const batch = await getJson(first.url, `/api/v1/queues/batch/${batchId}`);
      if (batch.chunks.succeeded >= 20) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await first.kill('SIGTERM')).toBe(0);
    expect(first.logs.some((line) => line.includes('shutting down'))).toBe(true);

    const second = await startSeedbedProcess(env);
    processes.push(second);
    let batch: any;
    for (;;) {
      batch = await getJson(second.url, `/api/v1/queues/batch/${batchId}`);
      if (batch.status !== 'queued' && batch.status !== 'running') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(batch.status).toBe('completed');
    expect(batch.items).toEqual({ succeeded: 5_000, failed: 0, skipped: 0, running: 0, pending: 0 });
    const partition = await getJson(second.url, `/api/v1/datasets/de/news/${batch.date}`);
    const records = partition.chunks.reduce((n: number, c: any) => n + c.record_count, 0);
    expect(records).toBe(5_000);
    expect(await second.kill('SIGTERM')).toBe(0);
  });
});
