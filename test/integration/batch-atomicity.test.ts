// A batch row and all its chunk messages are written in one transaction: a failure part-way through
// writing the messages leaves neither the batch, nor its chunks, nor any message.
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';

describe('batch creation is atomic', () => {
  let t: TestSeedbed;
  beforeEach(async () => {
    t = await createTestSeedbed();
  });
  afterEach(() => t.close());

  async function counts() {
    const db = t.seedbed.database.db;
    const one = async (table: 'batches' | 'batch_chunks' | 'jobs') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    return { batches: await one('batches'), chunks: await one('batch_chunks'), jobs: await one('jobs') };
  }

  /** 1,000 URLs in chunks of 10: one batch row, 100 chunk rows and 100 messages. */
  function postThousandUrls() {
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/queues/research',
      payload: {
        country: 'fr',
        category: 'news',
        urls: Array.from({ length: 1000 }, (_, i) => `https://x${i}.fr/`),
        chunkSize: 10,
      },
    });
  }

  it('leaves nothing behind when writing the messages fails part-way', async () => {
    // The storage fails on the 31st message, after the batch row, every chunk row and 30 messages were written.
    await sql`create trigger fail_late before insert on jobs when (select count(*) from jobs) >= 30
      begin select raise(abort, 'simulated storage failure'); end`.execute(t.seedbed.database.db);
    const response = await postThousandUrls();
    expect(response.statusCode).toBe(500);
    expect(response.headers['content-type']).toContain('application/problem+json');
    expect(response.json().detail).not.toContain('simulated');
    expect(await counts()).toEqual({ batches: 0, chunks: 0, jobs: 0 });
  });

  it('writes the batch, every chunk and every message together when nothing fails', async () => {
    const response = await postThousandUrls();
    expect(response.statusCode).toBe(202);
    expect(await counts()).toEqual({ batches: 1, chunks: 100, jobs: 100 });
  });
});
