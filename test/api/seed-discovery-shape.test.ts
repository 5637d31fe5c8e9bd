// A seed's `discovery` has one shape whoever writes it: a contract run and a liveness batch on the same domain
// leave the same fields, each the latest check's (before, a draft got 3 fields and a liveness batch 5).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { discoveryWeb } from '../fixtures/fake-internet/discovery-web.js';
import { stubFetcher } from '../fixtures/fake-internet/stub-fetcher.js';
import { createApiSeedbed, inject } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

const SEED = 'other:de:tagesblatt.de::news';
const FIELDS = ['alive', 'checked_at', 'error_code', 'http_status', 'state'];

describe('the discovery column', () => {
  let t: TestSeedbed;
  const fetcher = stubFetcher(discoveryWeb());
  async function batch(path: string, payload: object) {
    const res = await inject(t.app, { method: 'POST', url: `/api/v1/queues/${path}`, payload });
    expect(res.statusCode, res.body).toBe(202);
    return t.waitForBatch(res.json().batchId);
  }
  const seed = async () => (await inject(t.app, { method: 'GET', url: `/api/v1/seeds/${SEED}` })).json();

  beforeAll(async () => {
    t = await createApiSeedbed({}, { fetcher, canary: null });
    t.startWorkers();
  });
  afterAll(() => t.close());

  it('has the same fields after a contract batch and after a liveness batch on the same domain', async () => {
    const contract = await batch('contract', {
      country: 'de',
      category: 'news',
      domainIds: ['other:de:tagesblatt.de'],
    });
    expect(contract.status).toBe('completed');
    const afterContract = (await seed()).discovery;
    expect(Object.keys(afterContract).sort()).toEqual(FIELDS);
    expect(afterContract).toMatchObject({ alive: true, state: 'alive', http_status: 200, error_code: null });

    const liveness = await batch('liveness', { country: 'de', domains: ['tagesblatt.de'] });
    expect(liveness.status).toBe('completed');
    const afterLiveness = (await seed()).discovery;
    expect(Object.keys(afterLiveness).sort()).toEqual(FIELDS);
    expect(afterLiveness).toMatchObject({ alive: true, state: 'alive', http_status: 200, error_code: null });
    // The liveness batch's own check, not the contract run's.
    expect(afterLiveness.checked_at).not.toBe(afterContract.checked_at);
  });
});
