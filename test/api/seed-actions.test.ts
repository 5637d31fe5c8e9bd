// Promote and archive cover every match (docs/api.md, "Promote and archive"), on SQLite + the embedded queue and on
// PostgreSQL + pg-boss: a filter matching more than AT_ONCE_LIMIT seeds becomes a batch (202 + Location) whose items
// are the seeds, each answered once, read a step at a time by seed id; a smaller one is answered at once; seeds the
// filter does not match are left alone; an Idempotency-Key names a batch and replays it; a bad filter is a 400
// naming the field; and a chunk redelivered after a crash answers nothing twice and reads no step twice.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AT_ONCE_LIMIT,
  SEED_ACTION_CHUNK_SIZE,
  SEED_ACTION_READ_AHEAD,
} from '../../src/domain/seed-actions.js';
import { createChunkLedger } from '../../src/services/chunk-ledger.js';
import { chunkWorker } from '../../src/workers/chunk-worker.js';
import { seedActionHandler } from '../../src/workers/seed-action-worker.js';
import {
  createApiSeedbed,
  expectJson,
  expectProblem,
  expectValidation,
  inject,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

/** Drafts `site<i>.<tld>` of one country, imported as JSON lines; their seed ids in seed id order. */
async function importDrafts(t: TestSeedbed, country: string, count: number): Promise<string[]> {
  const lines = Array.from({ length: count }, (_, i) =>
    JSON.stringify({ domain: `site${i}.${country}`, country, category: 'news', name: `Site ${i}` }),
  );
  const response = await inject(t.app, {
    method: 'POST',
    url: '/api/v1/seeds/import',
    headers: { 'content-type': 'application/x-ndjson' },
    payload: `${lines.join('\n')}\n`,
  });
  expect(response.statusCode).toBe(200);
  const answers = response.body
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as { seed_id?: string; result?: string });
  const ids = answers.filter((a) => a.result === 'created').map((a) => a.seed_id as string);
  expect(ids).toHaveLength(count);
  return ids.sort();
}

const post = (t: TestSeedbed, url: string, payload: object, headers: Record<string, string> = {}) =>
  inject(t.app, { method: 'POST', url, payload, headers });

async function total(t: TestSeedbed, query: string): Promise<number> {
  return expectJson(await inject(t.app, { method: 'GET', url: `/api/v1/seeds?${query}` }), 200).pagination
    .total;
}

/** Every item of a batch, in item order (through the service: a page of the API holds 100). */
async function itemsOf(t: TestSeedbed, batchId: string) {
  const page = await t.seedbed.services.batches.items(batchId, { limit: 1_000_000, offset: 0 });
  return page.data;
}

/** A batch answered on its own: 202, Location, then waited for. */
async function batchOf(t: TestSeedbed, response: Awaited<ReturnType<typeof post>>, type: string) {
  const accepted = expectJson(response, 202);
  expect(accepted.type).toBe(type);
  expect(response.headers.location).toBe(`/api/v1/queues/batch/${accepted.batchId}`);
  return { accepted, done: await t.waitForBatch(accepted.batchId, 120_000) };
}

describe('promote and archive by filter', () => {
  let t: TestSeedbed;
  let french: string[];
  let german: string[];
  let italian: string[];

  beforeAll(async () => {
    t = await createApiSeedbed();
    french = await importDrafts(t, 'fr', 2500);
    german = await importDrafts(t, 'de', 20);
    italian = await importDrafts(t, 'it', 1100);
    t.startWorkers();
  }, 120_000);
  afterAll(() => t?.close());

  it('promotes every one of 2,500 matching drafts as a batch, each answered once, others untouched', async () => {
    expect(french.length).toBeGreaterThan(SEED_ACTION_READ_AHEAD);
    const { accepted, done } = await batchOf(
      t,
      await post(t, '/api/v1/seeds/promote', { filter: { country: 'fr' } }),
      'promote',
    );
    expect(accepted.summary).toMatchObject({ action: 'promote', matched: 2500, filter: { country: 'fr' } });
    expect(done.status).toBe('completed');
    expect(done.total_items).toBe(2500);
    expect(done.chunks.total).toBe(2500 / SEED_ACTION_CHUNK_SIZE);
    expect(done.items).toMatchObject({ succeeded: 2500, failed: 0, skipped: 0 });
    const items = await itemsOf(t, accepted.batchId);
    expect(items.map((item) => item.input)).toEqual(french);
    for (const item of items) {
      expect(item).toMatchObject({ status: 'succeeded', outcome: 'promoted' });
      expect(item.result).toEqual({ seed_id: item.input, result: 'promoted', status: 'active' });
    }
    expect(await total(t, 'country=fr&status=active')).toBe(2500);
    expect(await total(t, 'country=fr&status=draft')).toBe(0);
    expect(await total(t, 'country=de&status=draft')).toBe(20);
    expect(await total(t, 'country=it&status=draft')).toBe(1100);
  }, 180_000);

  it('answers a selection, and a filter matching no more than the limit at once, per seed', async () => {
    const body = expectJson(
      await post(t, '/api/v1/seeds/promote', { seedIds: [german[0], 'com:de:nowhere.de::news', french[0]] }),
      200,
    );
    expect(body).toMatchObject({ promoted: 1, skipped: 2 });
    expect(body.results).toEqual([
      { seed_id: german[0], result: 'promoted', status: 'active' },
      { seed_id: 'com:de:nowhere.de::news', result: 'skipped', reason: 'not found' },
      {
        seed_id: french[0],
        result: 'skipped',
        reason: 'status is active; only drafts are promoted',
        status: 'active',
      },
    ]);
    const rest = expectJson(await post(t, '/api/v1/seeds/promote', { filter: { country: 'de' } }), 200);
    expect(rest.promoted).toBe(19);
    expect(rest.results.map((r: { seed_id: string }) => r.seed_id)).toEqual(german.slice(1));
    expect(await total(t, 'country=de&status=active')).toBe(20);
  });

  it('takes `limit` as the number of matches to cover, first by seed id', async () => {
    expect(1050).toBeGreaterThan(AT_ONCE_LIMIT);
    const { done, accepted } = await batchOf(
      t,
      await post(t, '/api/v1/seeds/promote', { filter: { country: 'it' }, limit: 1050 }),
      'promote',
    );
    expect(done).toMatchObject({ status: 'completed', total_items: 1050 });
    expect((await itemsOf(t, accepted.batchId)).map((item) => item.input)).toEqual(italian.slice(0, 1050));
    expect(await total(t, 'country=it&status=draft')).toBe(50);
    const small = expectJson(
      await post(t, '/api/v1/seeds/promote', { filter: { country: 'it' }, limit: 10 }),
      200,
    );
    expect(small.results.map((r: { seed_id: string }) => r.seed_id)).toEqual(italian.slice(1050, 1060));
  }, 120_000);

  it('archives every match as a batch, leaves other seeds and a person’s fields alone, and skips the archived', async () => {
    const edited = french[7] as string;
    expectJson(
      await inject(t.app, {
        method: 'PATCH',
        url: `/api/v1/seeds/${encodeURIComponent(edited)}`,
        payload: { name: 'Named by a person' },
      }),
      200,
    );
    const { accepted, done } = await batchOf(
      t,
      await post(t, '/api/v1/seeds/archive', { filter: { country: 'fr', status: 'active' } }),
      'archive',
    );
    expect(done.status).toBe('completed');
    expect(done.items).toMatchObject({ succeeded: 2500, skipped: 0, failed: 0 });
    const items = await itemsOf(t, accepted.batchId);
    expect(items.map((item) => item.input)).toEqual(french);
    expect(new Set(items.map((item) => item.outcome))).toEqual(new Set(['archived']));
    expect(await total(t, 'country=fr&status=archived')).toBe(2500);
    expect(await total(t, 'country=de&status=active')).toBe(20);
    const seed = expectJson(
      await inject(t.app, { method: 'GET', url: `/api/v1/seeds/${encodeURIComponent(edited)}` }),
      200,
    );
    expect(seed).toMatchObject({ status: 'archived', name: 'Named by a person' });
    expect(seed.human_fields).toContain('name');

    // Nothing left to archive: answered at once, with nothing in it; a named archived seed is skipped.
    expect(expectJson(await post(t, '/api/v1/seeds/archive', { filter: { country: 'fr' } }), 200)).toEqual({
      archived: 0,
      skipped: 0,
      results: [],
    });
    const named = expectJson(
      await post(t, '/api/v1/seeds/archive', { seedIds: [french[0], german[0]] }),
      200,
    );
    expect(named.results).toEqual([
      { seed_id: french[0], result: 'skipped', reason: 'already archived', status: 'archived' },
      { seed_id: german[0], result: 'archived', status: 'archived' },
    ]);
  }, 180_000);

  it('the review page counts the matches, and a move past the limit answers with the batch’s progress', async () => {
    const list = await inject(t.app, { method: 'GET', url: '/ui/seeds?status=active&country=it' });
    expect(list.body).toContain('Archive all 1060 matching active seeds');
    expect(list.body).toContain(`more than ${AT_ONCE_LIMIT}: it runs as a batch`);
    expect(list.body).not.toContain('value="promote-matching"');
    const form = { action: 'archive-matching', country: 'it', status: 'active', back: '/ui/seeds' };
    const bulk = (fields: Record<string, string>) =>
      inject(t.app, {
        method: 'POST',
        url: '/ui/seeds/bulk',
        headers: {
          host: 'seedbed.local',
          origin: 'http://seedbed.local',
          'content-type': 'application/x-www-form-urlencoded',
        },
        payload: new URLSearchParams(fields).toString(),
      });
    // Archived is final: the page asks once more, with the count, and moves nothing yet.
    const asked = await bulk(form);
    expect(asked.statusCode).toBe(200);
    expect(asked.body).toContain('Archive every one of the 1060 active seeds matching country it?');
    expect(asked.body).toContain('name="confirm" value="yes"');
    expect(await total(t, 'country=it&status=active')).toBe(1060);
    const moved = await bulk({ ...form, confirm: 'yes' });
    expect(moved.statusCode).toBe(303);
    const batchId = String(moved.headers.location).replace('/ui/batches/', '');
    const done = await t.waitForBatch(batchId, 120_000);
    expect(done).toMatchObject({ type: 'archive', status: 'completed', total_items: 1060 });
    expect(done.summary).toMatchObject({ filter: { country: 'it', status: 'active' } });
    expect(await total(t, 'country=it&status=archived')).toBe(1060);
    expect(await total(t, 'country=it&status=draft')).toBe(40);
    const progress = await inject(t.app, { method: 'GET', url: `/ui/batches/${batchId}` });
    expect(progress.statusCode).toBe(200);
    expect(progress.body).toContain('archive');
  }, 120_000);

  it('replays the batch an Idempotency-Key names, and refuses the key for another request', async () => {
    const headers = { 'idempotency-key': 'archive-de-1' };
    const body = { filter: { country: 'de' } };
    const first = await post(t, '/api/v1/seeds/archive', body, headers);
    const { accepted, done } = await batchOf(t, first, 'archive');
    expect(done.items).toMatchObject({ succeeded: 19 });
    const again = await post(t, '/api/v1/seeds/archive', body, headers);
    expect(expectJson(again, 202).batchId).toBe(accepted.batchId);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expectProblem(
      await post(t, '/api/v1/seeds/archive', { filter: { country: 'it' } }, headers),
      422,
      'idempotency_key_reused',
    );
  }, 120_000);

  it('refuses a bad request with a 400 naming the field', async () => {
    expectValidation(
      await post(t, '/api/v1/seeds/promote', { filter: { country: 'zz' } }),
      'body.filter.country',
    );
    expectValidation(
      await post(t, '/api/v1/seeds/archive', { filter: { status: 'archived' } }),
      'body.filter.status',
    );
    expectValidation(
      await post(t, '/api/v1/seeds/archive', { filter: { health: 'great' } }),
      'body.filter.health',
    );
    expectValidation(await post(t, '/api/v1/seeds/promote', { filter: {} }), 'body.filter');
    expectValidation(
      await post(t, '/api/v1/seeds/archive', { filter: { country: 'fr' }, limit: 0 }),
      'body.limit',
    );
    expectValidation(await post(t, '/api/v1/seeds/archive', {}), 'body');
  });
});

describe('a promote batch redelivered after a crash', () => {
  let t: TestSeedbed;
  let dutch: string[];

  beforeAll(async () => {
    // No workers: the test delivers the chunks itself.
    t = await createApiSeedbed();
    dutch = await importDrafts(t, 'nl', SEED_ACTION_READ_AHEAD + 100);
  }, 120_000);
  afterAll(() => t?.close());

  it('answers nothing twice and reads the next step once', async () => {
    const accepted = expectJson(await post(t, '/api/v1/seeds/promote', { filter: { country: 'nl' } }), 202);
    const { batchId } = accepted;
    const stepChunks = SEED_ACTION_READ_AHEAD / SEED_ACTION_CHUNK_SIZE;
    expect(accepted.chunks.total).toBe(stepChunks);
    const { database, queue, clock, services } = t.seedbed;
    const ledger = createChunkLedger({ database, queue, clock });
    let crash = true;
    // The process dies after the chunk's results (and the next step) committed, before its message was acked, so
    // the queue delivers the chunk again.
    const crashing: typeof ledger = {
      ...ledger,
      async commitResults(...args: Parameters<typeof ledger.commitResults>) {
        await ledger.commitResults(...args);
        if (crash) {
          crash = false;
          throw new Error('killed after the commit');
        }
      },
    };
    const worker = chunkWorker(seedActionHandler({ actions: services.seedActions }), {
      ledger: crashing,
      concurrency: 1,
    });
    const deliver = (chunk: number, attempt = 1) =>
      worker.handle({
        id: `${batchId}:${chunk}:${attempt}`,
        queue: 'SEED_ACTION_QUEUE',
        payload: { batchId, chunk },
        attempt,
        maxAttempts: 4,
      });

    await expect(deliver(stepChunks)).rejects.toThrow('killed');
    const afterCrash = await services.batches.get(batchId);
    expect(afterCrash.chunks.total).toBe(stepChunks + 1);
    expect(afterCrash.total_items).toBe(dutch.length);
    expect(afterCrash.items.succeeded).toBe(SEED_ACTION_CHUNK_SIZE);

    await deliver(stepChunks, 2);
    const redelivered = await services.batches.get(batchId);
    expect(redelivered.chunks).toMatchObject({ total: stepChunks + 1, succeeded: 1 });
    expect(redelivered.items).toMatchObject({ succeeded: SEED_ACTION_CHUNK_SIZE, skipped: 0 });

    for (let chunk = 1; chunk <= stepChunks + 1; chunk += 1) if (chunk !== stepChunks) await deliver(chunk);
    const done = await services.batches.get(batchId);
    expect(done).toMatchObject({ status: 'completed', total_items: dutch.length });
    expect(done.items).toMatchObject({ succeeded: dutch.length, skipped: 0, failed: 0 });
    const items = (await services.batches.items(batchId, { limit: 1_000_000, offset: 0 })).data;
    expect(items.map((item) => item.input)).toEqual(dutch);
    expect(await total(t, 'country=nl&status=draft')).toBe(0);
  }, 120_000);
});
