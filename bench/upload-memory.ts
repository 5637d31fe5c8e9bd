// Memory of one 60 MB dataset upload (POST /datasets over real HTTP, streamed from a file) as peak RSS growth
// per byte of body (the worst of 3 rounds), vs a bare fs stream copy of the same bytes, in the same run. Run with --expose-gc (the
// script re-runs itself with it) so each measurement starts from a collected heap.
import { spawnSync } from 'node:child_process';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdtemp, rm, stat } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { type BenchResult, report, withSeedbed } from './support.js';

const TARGET_BYTES = 60 * 1024 * 1024;
const MB = 1024 * 1024;
const ROUNDS = 3;

/** Writes a dataset of about `bytes` to `path` record by record (the bench process never holds it). */
async function writeDataset(path: string, bytes: number): Promise<number> {
  const out = createWriteStream(path);
  const write = (text: string) =>
    out.write(text) ? Promise.resolve() : new Promise<void>((resolve) => out.once('drain', () => resolve()));
  await write(
    '{"meta":{"country":"gb","category":"news","date":"2026-06-01","queries":["bench"]},"records":[',
  );
  let written = 0;
  for (let i = 0; written < bytes; i++) {
    const record = JSON.stringify({
      raw_url: `https://site${i % 997}.example.co.uk/news/${i}`,
      normalized_url: `https://site${i % 997}.example.co.uk/news/${i}`,
      registrable_domain: `site${i % 997}.example.co.uk`,
      source_type: 'media',
      discovery_method: 'bench',
      confidence: 0.5,
      content_hints: ['news', 'politics'],
      x_note: `record ${i} — ünïcødé`,
    });
    const text = (i === 0 ? '' : ',') + record;
    written += Buffer.byteLength(text);
    await write(text);
  }
  await write(']}');
  out.end();
  await new Promise<void>((resolve) => out.once('close', () => resolve()));
  return (await stat(path)).size;
}

/** Peak RSS above the starting RSS while `work` runs, sampled every 5 ms. */
async function peakGrowth(work: () => Promise<void>): Promise<number> {
  (globalThis as { gc?: () => void }).gc?.();
  const start = process.memoryUsage.rss();
  let peak = start;
  const timer = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage.rss());
  }, 5);
  try {
    await work();
  } finally {
    clearInterval(timer);
  }
  peak = Math.max(peak, process.memoryUsage.rss());
  return peak - start;
}

function upload(url: string, path: string, size: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      `${url}/api/v1/datasets`,
      { method: 'POST', headers: { 'content-type': 'application/json', 'content-length': size } },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    createReadStream(path).pipe(req);
  });
}

export async function benchUploadMemory(): Promise<BenchResult> {
  if (!(globalThis as { gc?: unknown }).gc && !process.env['SEEDBED_BENCH_CHILD']) {
    // Re-run in a child with --expose-gc: without it, garbage from earlier benches skews the figures.
    const child = spawnSync(process.execPath, ['--expose-gc', '--import', 'tsx', import.meta.filename], {
      stdio: ['ignore', 'pipe', 'inherit'],
      env: { ...process.env, SEEDBED_BENCH_CHILD: '1' },
    });
    process.stdout.write(child.stdout);
    const line = child.stdout
      .toString()
      .split('\n')
      .find((l) => l.startsWith('RESULT '));
    if (!line) throw new Error('upload-memory child gave no result');
    return JSON.parse(line.slice(7)) as BenchResult;
  }
  const dir = await mkdtemp(join(tmpdir(), 'seedbed-upload-bench-'));
  try {
    const path = join(dir, 'dataset.json');
    const size = await writeDataset(path, TARGET_BYTES);
    const copyGrowth = async () =>
      peakGrowth(() => pipeline(createReadStream(path), createWriteStream(join(dir, 'copy.json'))));
    await copyGrowth(); // warm-up
    // RSS moves with the allocator's mood: the worst of a few rounds is the figure that matters.
    let baseline = 0;
    for (let round = 0; round < ROUNDS; round++) baseline = Math.max(baseline, await copyGrowth());

    const subject = await withSeedbed({ SEEDBED_MAX_DATASET_BYTES: String(128 * MB) }, async (seedbed) => {
      const app = await seedbed.buildHttp(true);
      const url = await app.listen({ host: '127.0.0.1', port: 0 });
      try {
        const small = join(dir, 'small.json');
        const smallSize = await writeDataset(small, 64 * 1024);
        if ((await upload(url, small, smallSize)) !== 201) throw new Error('warm-up upload failed');
        let worst = 0;
        for (let round = 0; round < ROUNDS; round++) {
          let status = 0;
          const growth = await peakGrowth(async () => {
            status = await upload(url, path, size);
          });
          if (status !== 201) throw new Error(`upload answered ${status}`);
          worst = Math.max(worst, growth);
        }
        return worst;
      } finally {
        await app.close();
      }
    });
    const result = report({
      name: `dataset upload memory (${(size / MB).toFixed(1)} MB body)`,
      subject: 'POST /datasets peak RSS growth / body',
      subjectValue: subject / size,
      baseline: 'fs stream copy peak RSS growth / body',
      baselineValue: baseline / size,
      unit: '× body',
      // Lower is better here: how many times the bare stream's growth the upload costs.
      ratio: subject / Math.max(baseline, 1),
    });
    process.stdout.write(
      `  upload: +${(subject / MB).toFixed(1)} MiB RSS; fs copy: +${(baseline / MB).toFixed(1)} MiB RSS; body ${(size / MB).toFixed(1)} MiB\n`,
    );
    return result;
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const result = await benchUploadMemory();
  if (process.env['SEEDBED_BENCH_CHILD']) process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}
