// Kills the real process with SIGKILL in the middle of a 10,000-URL research batch, starts it again on
// the same data, and checks that every URL ends up exactly once in the raw chunks.
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { getJson, postJson, type SeedbedProcess, startSeedbedProcess } from '../support/process.js';

const UNIQUE = 7_000;

function urlsWithDuplicates(): string[] {
  const urls = Array.from({ length: UNIQUE }, (_, i) => `https://site${i % 400}.example.com/article/${i}`);
  // 3,000 duplicates, written differently (case, default port, fragment), landing in far-away chunks.
  const duplicates = Array.from({ length: 10_000 - UNIQUE }, (_, i) => {
    const n = (i * 7) % UNIQUE;
    return `HTTPS://Site${n % 400}.example.com:443/article/${n}#dup`;
  });
  return [...urls, ...duplicates];
}

async function rawUrls(dataDir: string, date: string): Promise<string[]> {
  const dir = join(dataDir, 'objects', 'raw', 'country=gb', 'category=news', `date=${date}`);
  const files = (await readdir(dir)).filter((f) => /^raw_\d{4}\.json$/.test(f));
  const urls: string[] = [];
  for (const file of files) {
    const dataset = JSON.parse(await readFile(join(dir, file), 'utf8')) as {
      records: Array<{ normalized_url: string }>;
    };
    urls.push(...dataset.records.map((r) => r.normalized_url));
  }
  return urls;
}

describe('SIGKILL in the middle of a batch', () => {
  let dataDir = '';
  const processes: SeedbedProcess[] = [];
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  it('loses nothing and writes every URL exactly once after a restart', async () => {
    dataDir = await mkdtemp(join(tmpdir(), 'seedbed-kill-'));
    const env = {
      SEEDBED_DATA_DIR: dataDir,
      SEEDBED_JOB_LEASE_SECONDS: '2',
      SEEDBED_WORKER_CONCURRENCY: '2',
    };
    const first = await startSeedbedProcess(env);
    processes.push(first);
    const accepted = await postJson(first.url, '/api/v1/queues/research', {
      country: 'GB',
      category: 'news',
      urls: urlsWithDuplicates(),
      chunkSize: 10,
    });
    expect(accepted.status).toBe(202);
    const batchId = accepted.body.batchId as string;

    let before: any;
    for (;;) {
      before = await getJson(first.url, `/api/v1/queues/batch/${batchId}`);
      if (before.chunks.succeeded >= 50) break;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await first.kill('SIGKILL');
    expect(before.status).toBe('running');
    expect(before.chunks.succeeded).toBeLessThan(before.chunks.total);

    const second = await startSeedbedProcess(env);
    processes.push(second);
    let after: any;
    for (;;) {
      after = await getJson(second.url, `/api/v1/queues/batch/${batchId}`);
      if (after.status !== 'running' && after.status !== 'queued') break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(after.status).toBe('completed');
    expect(after.chunks).toMatchObject({ total: 1000, succeeded: 1000, failed: 0 });
    expect(after.items).toEqual({
      succeeded: UNIQUE,
      failed: 0,
      skipped: 10_000 - UNIQUE,
      running: 0,
      pending: 0,
    });

    const urls = await rawUrls(dataDir, after.date);
    expect(urls.length).toBe(UNIQUE);
    expect(new Set(urls).size).toBe(UNIQUE);
    await second.kill('SIGTERM');
  });
});
