// Idempotency-Key under a real race: on PostgreSQL, transactions run side by side, so eight clients sending
// one key at once all pass the "seen this key?" read before any insert commits. One batch must come out,
// and every client must get the same answer (the winner's batch; the others marked as replays).
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectJson, inject } from '../support/api-helpers.js';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';
import { pgAvailable, TEST_DATABASE_URL } from '../support/services.js';

const up = await pgAvailable();

describe.skipIf(!up)('Idempotency-Key on PostgreSQL', () => {
  const dbName = `seedbed_idem_${randomBytes(4).toString('hex')}`;
  let t: TestSeedbed;

  async function admin(sql: string) {
    const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  }

  beforeAll(async () => {
    await admin(`create database ${dbName}`);
    const url = new URL(TEST_DATABASE_URL);
    url.pathname = `/${dbName}`;
    t = await createTestSeedbed({ DATABASE_URL: url.toString(), SEEDBED_RATE_LIMIT: '1000000' });
  });
  afterAll(async () => {
    await t?.close();
    await admin(`drop database if exists ${dbName} with (force)`);
  });

  for (const [queue, body] of [
    ['research', { country: 'sg', category: 'news', urls: ['https://www.mom.gov.sg/a'], chunkSize: 1 }],
    ['liveness', { country: 'sg', domains: ['mom.gov.sg', 'moh.gov.sg'], chunkSize: 1 }],
  ] as const) {
    it(`8 clients POST /queues/${queue} with one key at once: one batch, the same answer for all`, async () => {
      const key = `race-${queue}-${randomBytes(4).toString('hex')}`;
      const responses = await Promise.all(
        Array.from({ length: 8 }, () =>
          inject(t.app, {
            method: 'POST',
            url: `/api/v1/queues/${queue}`,
            headers: { 'idempotency-key': key },
            payload: body,
          }),
        ),
      );
      const bodies = responses.map((r) => expectJson(r, 202));
      const ids = new Set(bodies.map((b) => b.batchId));
      expect(ids.size).toBe(1);
      for (const b of bodies) expect(b).toEqual(bodies[0]);
      for (const r of responses) expect(r.headers.location).toBe(`/api/v1/queues/batch/${bodies[0].batchId}`);
      // Exactly one request created the batch; the seven others were told theirs is a replay.
      const replayed = responses.filter((r) => r.headers['idempotent-replayed'] === 'true');
      expect(replayed).toHaveLength(7);

      const rows = await t.seedbed.database.db
        .selectFrom('batches')
        .select(['id'])
        .where('idempotency_key', 'like', `%:${key}`)
        .execute();
      expect(rows.map((r) => r.id)).toEqual([bodies[0].batchId]);
      const chunks = await t.seedbed.database.db
        .selectFrom('batch_chunks')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('batch_id', '=', bodies[0].batchId)
        .executeTakeFirstOrThrow();
      expect(Number(chunks.n)).toBe(bodies[0].chunks.total);
    });
  }

  it('the same key with a different body, racing, is a 422 for the losers and never a second batch', async () => {
    const key = `race-mixed-${randomBytes(4).toString('hex')}`;
    const responses = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        inject(t.app, {
          method: 'POST',
          url: '/api/v1/queues/liveness',
          headers: { 'idempotency-key': key },
          payload: { country: 'sg', domains: [`d${i % 2}.gov.sg`], chunkSize: 1 },
        }),
      ),
    );
    const ok = responses.filter((r) => r.statusCode === 202);
    const refused = responses.filter((r) => r.statusCode === 422);
    expect(ok.length + refused.length).toBe(8);
    expect(new Set(ok.map((r) => r.json().batchId)).size).toBe(1);
    for (const r of refused) expect(r.json().code).toBe('idempotency_key_reused');
    const rows = await t.seedbed.database.db
      .selectFrom('batches')
      .select(['id'])
      .where('idempotency_key', 'like', `%:${key}`)
      .execute();
    expect(rows).toHaveLength(1);
  });
});
