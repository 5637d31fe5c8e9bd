import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';

describe('research batch through the API', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createTestSeedbed();
    t.startWorkers(['RESEARCH_QUEUE']);
  });
  afterAll(() => t.close());

  it('accepts, processes and reports per-item results', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/queues/research',
      payload: {
        country: 'SG',
        category: 'news',
        urls: ['https://a.gov.sg/x', 'ftp://b.com', 'https://A.GOV.SG/x#y'],
        chunkSize: 2,
      },
    });
    expect(response.statusCode).toBe(202);
    const batch = await t.waitForBatch(response.json().batchId);
    expect(batch.status).toBe('completed_with_errors');
    expect(batch.items).toEqual({ succeeded: 1, failed: 1, skipped: 1, running: 0, pending: 0 });
    expect(batch.summary).toMatchObject({
      domains: 1,
      raw_chunks: 1,
      outcomes: { new: 1, invalid: 1, duplicate: 1 },
    });
  });
});
