// The streamed dataset upload: large uploads past SEEDBED_MAX_CONCURRENT_UPLOADS are a 503 with Retry-After
// (small ones pass), a slot is given back when an upload ends, and the spool is removed whatever happens.
import { existsSync } from 'node:fs';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spoolDataset } from '../../src/http/dataset-upload.js';
import { SMALL_UPLOAD_BYTES } from '../../src/http/routes/datasets.js';
import {
  createApiSeedbed,
  dataset,
  datasetRecord,
  expectJson,
  expectProblem,
  inject,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

const P = { country: 'sg', category: 'uploads', date: '2026-07-01' };

/** A body held open until `finish()`; `reading` resolves once the server has started to read it. */
function heldBody(head: string, tail: string) {
  let started!: () => void;
  const reading = new Promise<void>((resolve) => {
    started = resolve;
  });
  let sentHead = false;
  const stream = new Readable({
    read() {
      if (sentHead) return;
      sentHead = true;
      this.push(head);
      started();
    },
  });
  return { stream, reading, finish: () => stream.push(tail) && stream.push(null) };
}

/** A dataset body over the small-upload threshold. */
function largeBody(n: number): string {
  const records = [];
  for (let i = 0; records.length * 200 < SMALL_UPLOAD_BYTES * 1.5; i++)
    records.push(datasetRecord(i, { x_pad: 'p'.repeat(100), x_n: n }));
  return JSON.stringify(dataset(P, records));
}

describe('dataset upload limits', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed({ SEEDBED_MAX_CONCURRENT_UPLOADS: '1' });
  });
  afterAll(() => t.close());

  it('past the limit a large upload is a 503 uploads_busy with Retry-After; small ones still pass', async () => {
    const held = heldBody(
      `{"meta":${JSON.stringify(P)},"records":[`,
      `${JSON.stringify(datasetRecord(1))}]}`,
    );
    // No Content-Length (a stream): an upload of unknown size takes a slot.
    const first = inject(t.app, {
      method: 'POST',
      url: '/api/v1/datasets',
      headers: { 'content-type': 'application/json' },
      payload: held.stream,
    });
    await held.reading;

    const busy = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/datasets',
      headers: { 'content-type': 'application/json' },
      payload: largeBody(2),
    });
    const problem = expectProblem(busy, 503, 'uploads_busy');
    expect(problem.detail).toContain('SEEDBED_MAX_CONCURRENT_UPLOADS');
    expect(busy.headers['retry-after']).toBe('5');
    expect(busy.headers.connection).toBe('close');

    const small = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/datasets',
      payload: dataset(P, [datasetRecord(3)]),
    });
    expectJson(small, 201);

    held.finish();
    const stored = expectJson(await first, 201);
    expect(stored.record_count).toBe(1);

    // The slot came back: the large upload refused before now goes through.
    const again = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/datasets',
      headers: { 'content-type': 'application/json' },
      payload: largeBody(2),
    });
    expect(expectJson(again, 201).record_count).toBeGreaterThan(1000);
  });

  it('a slot is given back when an upload fails (invalid JSON, too large, bad record)', async () => {
    const failing = [
      `{"meta":${JSON.stringify(P)},"records":[{"raw_url":"a"},]}`,
      `{"meta":${JSON.stringify(P)},"records":[{"raw_url":""}]}`,
    ];
    for (const text of failing) {
      const response = await inject(t.app, {
        method: 'POST',
        url: '/api/v1/datasets',
        headers: { 'content-type': 'application/json' },
        payload: Readable.from([text]),
      });
      expectProblem(response, 400);
    }
    const ok = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/datasets',
      headers: { 'content-type': 'application/json' },
      payload: Readable.from([largeBody(4)]),
    });
    expectJson(ok, 201);
  });
});

describe('dataset upload over real HTTP', () => {
  let t: TestSeedbed;
  let url: string;
  beforeAll(async () => {
    t = await createApiSeedbed();
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  /** Posts `head`, then `more` bytes of padding records; resolves with the answer or the socket's error. */
  function post(head: string, more: number): Promise<{ status: number; body: string } | { error: string }> {
    return new Promise((resolve) => {
      const req = request(`${url}/api/v1/datasets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': head.length + more },
      });
      req.on('response', (res) => {
        let body = '';
        res.on('data', (c) => {
          body += c;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      });
      req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message }));
      req.write(head);
      const pad = Buffer.alloc(64 * 1024, 0x20);
      let left = more;
      const pump = () => {
        while (left > 0) {
          const piece = pad.subarray(0, Math.min(left, pad.length));
          left -= piece.length;
          if (!req.write(piece)) return void req.once('drain', pump);
        }
        req.end();
      };
      pump();
    });
  }

  it('a body refused early (bad JSON in the first record) is answered with the problem, not a reset', async () => {
    const answer = await post(`{"meta":${JSON.stringify(P)},"records":[{"raw_url":"a"} x`, 8 * 1024 * 1024);
    expect(answer).toMatchObject({ status: 400 });
    const body = JSON.parse((answer as { body: string }).body);
    expect(body).toMatchObject({ code: 'invalid_json', status: 400 });
  });

  it('a declared length over the limit is a 413 problem before the body is read', async () => {
    const t2 = await createApiSeedbed({ SEEDBED_MAX_DATASET_BYTES: String(64 * 1024) });
    const url2 = await t2.app.listen({ host: '127.0.0.1', port: 0 });
    try {
      const response = await fetch(`${url2}/api/v1/datasets`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.alloc(64 * 1024 + 1, 0x20),
      });
      expect(response.status).toBe(413);
      expect(response.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      expect(((await response.json()) as { code: string }).code).toBe('body_too_large');
    } finally {
      await t2.close();
    }
  });
});

describe('spoolDataset', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-spool-test-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const request = (headers: Record<string, string> = {}) =>
    ({ headers: { 'content-type': 'application/json', ...headers } }) as unknown as FastifyRequest;
  const chunks = (text: string, size = 7) =>
    Readable.from(
      Array.from({ length: Math.ceil(text.length / size) }, (_, i) =>
        Buffer.from(text.slice(i * size, (i + 1) * size)),
      ),
    );

  it('spools the records as they will be stored and keeps the other members in order', async () => {
    const body = {
      meta: { ...P, country: 'SG' },
      records: [datasetRecord(1), datasetRecord(2)],
      z: [1],
      a: 'x',
    };
    const spooled = await spoolDataset(request(), chunks(JSON.stringify(body)), {
      limit: 1 << 20,
      tmpDir: dir,
    });
    expect(spooled.meta.country).toBe('sg');
    expect(spooled.recordCount).toBe(2);
    expect(spooled.extras).toEqual([
      ['z', [1]],
      ['a', 'x'],
    ]);
    const text = await readFile(spooled.recordsPath, 'utf8');
    expect(JSON.parse(`[${text}]`)).toEqual(body.records);
    await rm(spooled.dir, { recursive: true });
  });

  it('removes its spool when the body fails, wherever it fails', async () => {
    const bad = [
      `{"meta":${JSON.stringify(P)},"records":[{"raw_url":"a"},{"raw_url":1}]}`,
      `{"meta":${JSON.stringify(P)},"records":[{"raw_url":"a"}`,
      `{"records":[{"raw_url":"a"}]}`,
      `{"meta":${JSON.stringify(P)},"records":[${'{"raw_url":"a"},'.repeat(5000)}{"raw_url":"a"}]}`,
    ];
    for (const text of bad) {
      await expect(
        spoolDataset(request(), chunks(text, 1000), { limit: 50_000, tmpDir: dir }),
      ).rejects.toThrow();
      expect(await readdir(dir)).toEqual([]);
    }
    expect(existsSync(dir)).toBe(true);
  });

  it('refuses a declared length over the limit before reading, and a streamed one as it passes', async () => {
    const text = JSON.stringify(dataset(P, [datasetRecord(1)]));
    await expect(
      spoolDataset(request({ 'content-length': '999999' }), chunks(text), { limit: 1000, tmpDir: dir }),
    ).rejects.toMatchObject({ statusCode: 413 });
    await expect(spoolDataset(request(), chunks(text), { limit: 100, tmpDir: dir })).rejects.toMatchObject({
      statusCode: 413,
    });
    expect(await readdir(dir)).toEqual([]);
  });
});
