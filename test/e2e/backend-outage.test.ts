// Backend outages in the middle of a scale-out batch: one `seedbed api` and two `seedbed worker` processes on
// PostgreSQL + an S3 server (s3rver) run a 10,000-URL research batch. Once 30% of it is done, the S3 server is
// stopped for 10 s, and within that window PostgreSQL is stopped (fast shutdown: every session is cut) and
// started again a few seconds later. The batch must still complete — not fail — with every URL in exactly one
// raw chunk, and /health/ready must answer 503 naming the backend that is down, then 200 once both are back.
//
// PostgreSQL here is a private cluster (initdb into a temp dir, a free port; see support/private-postgres.ts),
// stopped and started for real: the shared one on 5432 serves the other test files running in parallel and
// must never be restarted, and a real restart (sessions terminated by the server, refused connections, then
// a server that starts up) is what an operator's failover looks like, which a TCP proxy would only imitate.
// Without initdb/pg_ctl or s3rver the test is skipped, saying why; SEEDBED_REQUIRE_SERVICES=1 fails instead.

import { GetObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { type PrivatePostgres, startPrivatePostgres } from '../support/private-postgres.js';
import { postJson, type SeedbedProcess, startSeedbedProcess } from '../support/process.js';
import { type S3rverHandle, startS3rver } from '../support/s3rver.js';
import { serviceOrSkip } from '../support/services.js';
import { sleep } from '../support/waiting.js';

const URLS = 10_000;
// The default research chunk: 100 chunks, about 70 of them still queued when the outage starts.
const CHUNK_SIZE = 100;
const S3_OUTAGE_MS = 10_000;
const PG_OUTAGE_MS = 3_000;
// A guard on each readiness wait, well inside the test's timeout, so a wait that never ends fails saying what
// /health/ready answered last instead of as a bare test timeout. Not a timing assertion: a healthy run's
// waits end within seconds of the backend's change.
const READY_GUARD_MS = 60_000;

let pgServer: PrivatePostgres | undefined;
let s3: S3rverHandle | undefined;
const pgUp = await serviceOrSkip('a private PostgreSQL cluster (initdb + pg_ctl)', async () => {
  pgServer = await startPrivatePostgres();
});
// Only when the test can run: a skipped suite's afterAll would never stop it.
const s3Up =
  pgUp &&
  (await serviceOrSkip('s3rver', async () => {
    s3 = await startS3rver();
  }));

interface Readiness {
  status: number;
  body: { status: string; checks: Record<'database' | 'objects' | 'queue', { ok: boolean; error?: string }> };
}

async function readiness(api: string): Promise<Readiness> {
  // A request that never ends would hold the wait past its guard: it counts as an answer of its own.
  const response = await fetch(new URL('/health/ready', api), {
    signal: AbortSignal.timeout(READY_GUARD_MS),
  });
  return { status: response.status, body: (await response.json()) as Readiness['body'] };
}

/** One answer (or the request's error) as a line a failure can print: the status and each check's state. */
function describeAnswer(answer: Readiness | unknown): string {
  if (!(answer && typeof answer === 'object' && 'status' in answer && 'body' in answer))
    return `no answer: ${answer instanceof Error ? answer.message : String(answer)}`;
  const { status, body } = answer as Readiness;
  const checks = Object.entries(body.checks ?? {}).map(
    ([name, c]) => `${name}=${c.ok ? 'ok' : `DOWN (${c.error ?? 'no error given'})`}`,
  );
  return `${status} ${checks.join(', ')}`;
}

/**
 * Polls /health/ready until `wanted` holds and returns that answer. Past READY_GUARD_MS it throws with
 * what it saw: every change of answer (when, relative to the wait's start) and the last one — so a wait
 * that never ends names the check that stayed down and its error, well before the test's own timeout.
 */
async function readinessUntil(
  api: string,
  what: string,
  wanted: (r: Readiness) => boolean,
): Promise<Readiness> {
  const started = Date.now();
  const seen: string[] = [];
  let last = '';
  for (;;) {
    let answer: Readiness | unknown;
    try {
      answer = await readiness(api);
      if (wanted(answer as Readiness)) return answer as Readiness;
    } catch (error) {
      answer = error;
    }
    const line = describeAnswer(answer);
    if (line !== last) seen.push(`+${Date.now() - started} ms: ${line}`);
    last = line;
    if (Date.now() - started > READY_GUARD_MS) {
      throw new Error(
        `/health/ready never showed ${what} within ${READY_GUARD_MS} ms; last answer: ${line}\n` +
          `answers seen:\n  ${seen.join('\n  ')}`,
      );
    }
    await sleep(100);
  }
}

/** The batch as the API reports it, or null while the API cannot read it (its database is down). */
async function batchOrNull(api: string, batchId: string): Promise<any | null> {
  try {
    const response = await fetch(new URL(`/api/v1/queues/batch/${batchId}`, api));
    return response.ok ? await response.json() : null;
  } catch {
    return null;
  }
}

async function rawUrlsInBucket(handle: S3rverHandle, date: string): Promise<string[]> {
  const client = new S3Client({
    endpoint: handle.endpoint,
    region: handle.region,
    forcePathStyle: true,
    credentials: { accessKeyId: handle.accessKeyId, secretAccessKey: handle.secretAccessKey },
  });
  const prefix = `seedbed/raw/country=nz/category=news/date=${date}/`;
  const urls: string[] = [];
  let token: string | undefined;
  try {
    do {
      const page = await client.send(
        new ListObjectsV2Command({ Bucket: handle.bucket, Prefix: prefix, ContinuationToken: token }),
      );
      for (const object of page.Contents ?? []) {
        if (!/raw_\d{4}\.json$/.test(object.Key ?? '')) continue;
        const body = await client.send(new GetObjectCommand({ Bucket: handle.bucket, Key: object.Key }));
        const dataset = JSON.parse(await body.Body!.transformToString()) as {
          records: Array<{ normalized_url: string }>;
        };
        urls.push(...dataset.records.map((r) => r.normalized_url));
      }
      token = page.NextContinuationToken;
    } while (token);
  } finally {
    client.destroy();
  }
  return urls;
}

describe.skipIf(!pgUp || !s3Up)('PostgreSQL restarted and S3 stopped in the middle of a batch', () => {
  const processes: SeedbedProcess[] = [];
  let env: Record<string, string>;

  beforeAll(() => {
    env = {
      DATABASE_URL: pgServer!.url,
      SEEDBED_OBJECTS: `s3://${s3!.bucket}/seedbed`,
      S3_ENDPOINT: s3!.endpoint,
      AWS_REGION: s3!.region,
      AWS_ACCESS_KEY_ID: s3!.accessKeyId,
      AWS_SECRET_ACCESS_KEY: s3!.secretAccessKey,
      SEEDBED_JOB_LEASE_SECONDS: '5',
      // Two attempts, not four: a chunk that spent an attempt per failure during a 10 s outage would fail, so
      // the batch completes only if an outage hands jobs back unspent. (A job running when PostgreSQL stops
      // can still lose one attempt: its lease runs out while nobody can write that it was handed back.)
      SEEDBED_JOB_ATTEMPTS: '2',
      SEEDBED_WORKER_CONCURRENCY: '2',
      SEEDBED_DATA_DIR: '/nonexistent-seedbed-data',
    };
  });

  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await s3?.stop();
    await pgServer?.destroy();
  });

  it('completes the batch with every URL exactly once; ready is 503 during the outage and 200 after', async () => {
    onTestFailed(() => {
      // What each process said last, to tell a crash from a stuck batch.
      // Its warnings and errors too: what a backend's client said during the outage is often long scrolled off.
      for (const [i, p] of processes.entries()) {
        const complaints = p.logs.filter((line) => /"level":(4|5)\d/.test(line) || !line.startsWith('{'));
        console.error(`--- process ${i} (${i === 0 ? 'api' : 'worker'}): warnings and errors, last 40`);
        console.error(complaints.slice(-40).join('\n'));
        console.error(`--- process ${i}: last 30 lines\n${p.logs.slice(-30).join('\n')}`);
      }
    });
    const api = await startSeedbedProcess(env, ['api']);
    processes.push(api);
    const workers = await Promise.all([
      startSeedbedProcess(env, ['worker']),
      startSeedbedProcess(env, ['worker']),
    ]);
    processes.push(...workers);
    expect((await readiness(api.url)).status).toBe(200);

    const urls = Array.from({ length: URLS }, (_, i) => `https://paper${i % 250}.example.co.nz/story/${i}`);
    const accepted = await postJson(api.url, '/api/v1/queues/research', {
      country: 'nz',
      category: 'news',
      urls,
      chunkSize: CHUNK_SIZE,
    });
    expect(accepted.status).toBe(202);
    const batchId = accepted.body.batchId as string;

    let before: any;
    for (;;) {
      before = await batchOrNull(api.url, batchId);
      if (before && before.chunks.succeeded >= before.chunks.total * 0.3) break;
      await sleep(50);
    }
    expect(before.status).toBe('running');

    // S3 goes away first; PostgreSQL restarts inside the S3 outage, so neither can end the batch early.
    const s3Halted = Date.now();
    await s3!.halt();
    const objectsDown = await readinessUntil(api.url, 'objects down', (r) => !r.body.checks.objects.ok);
    expect(objectsDown.status).toBe(503);

    await pgServer!.stop();
    const databaseDown = await readinessUntil(api.url, 'database down', (r) => !r.body.checks.database.ok);
    expect(databaseDown.status).toBe(503);
    // The API answers what it cannot do with a 503 too, not a 500.
    const unreadable = await fetch(new URL(`/api/v1/queues/batch/${batchId}`, api.url));
    expect(unreadable.status).toBe(503);
    expect(unreadable.headers.get('retry-after')).toBe('5');
    expect(((await unreadable.json()) as { code: string }).code).toBe('backend_unavailable');
    await sleep(PG_OUTAGE_MS);
    await pgServer!.start();
    // The API's pool and pg-boss reconnect on their own; S3 is still down, so still not ready.
    const databaseBack = await readinessUntil(
      api.url,
      'database and queue back',
      (r) => r.body.checks.database.ok && r.body.checks.queue.ok,
    );
    expect(databaseBack.status).toBe(503);
    expect(databaseBack.body.checks.objects.ok).toBe(false);

    await sleep(Math.max(0, s3Halted + S3_OUTAGE_MS - Date.now()));
    await s3!.resume();
    const ready = await readinessUntil(api.url, 'ready (200)', (r) => r.status === 200);
    expect(ready.body.status).toBe('ready');

    let batch: any;
    for (;;) {
      batch = await batchOrNull(api.url, batchId);
      if (batch && batch.status !== 'queued' && batch.status !== 'running') break;
      await sleep(200);
    }
    // Both workers lived through it: an outage is retried, never a reason to exit.
    for (const worker of workers) expect(worker.child.exitCode).toBeNull();
    expect(batch.status).toBe('completed');
    expect(batch.chunks).toMatchObject({ total: URLS / CHUNK_SIZE, succeeded: URLS / CHUNK_SIZE, failed: 0 });
    expect(batch.items).toEqual({ succeeded: URLS, failed: 0, skipped: 0, running: 0, pending: 0 });

    const seen = await rawUrlsInBucket(s3!, batch.date);
    expect(seen.length).toBe(URLS);
    expect(new Set(seen).size).toBe(URLS);
  }, 240_000); // a guard against a hang on a loaded 2-core machine, not a timing assertion
});
