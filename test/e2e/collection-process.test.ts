// The collection engine as a user runs it: a real `seedbed serve` process whose outbound fetches go to a
// local fake internet through SEEDBED_FETCH_RESOLVE, trusting its CA through NODE_EXTRA_CA_CERTS.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CANARY_URL, type FakeInternet, SITES, startFakeInternet } from '../fixtures/fake-internet/index.js';
import { getJson, postJson, type SeedbedProcess, startSeedbedProcess } from '../support/process.js';

describe('a real process against the fake internet', () => {
  let net: FakeInternet;
  let dir: string;
  let seedbed: SeedbedProcess;
  beforeAll(async () => {
    net = await startFakeInternet();
    dir = await mkdtemp(join(tmpdir(), 'seedbed-collect-'));
    await writeFile(join(dir, 'ca.pem'), net.caCert);
    seedbed = await startSeedbedProcess({
      SEEDBED_DATA_DIR: join(dir, 'data'),
      SEEDBED_FETCH_RESOLVE: net.resolveSpec,
      SEEDBED_NETWORK_CANARY: CANARY_URL,
      NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
    });
  });
  afterAll(async () => {
    await seedbed?.kill('SIGTERM');
    await net.close();
    await rm(dir, { recursive: true, force: true });
  });

  async function finished(batchId: string): Promise<any> {
    for (;;) {
      const batch = await getJson(seedbed.url, `/api/v1/queues/batch/${batchId}`);
      if (batch.status !== 'queued' && batch.status !== 'running') return batch;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }

  it('checks liveness with the right state and reason, as SeedbedBot, never touching a private address', async () => {
    const domains = [SITES.news, SITES.forbidden, SITES.ssrf, SITES.httpOnly, SITES.unresolvable, '10.0.0.1'];
    const accepted = await postJson(seedbed.url, '/api/v1/queues/liveness', { country: 'sg', domains });
    expect(accepted.status).toBe(202);
    await finished(accepted.body.batchId);
    const items = (await getJson(seedbed.url, `/api/v1/queues/batch/${accepted.body.batchId}/items`)).data;
    const outcome = Object.fromEntries(
      items.map((i: any) => [i.input, [i.outcome, i.result?.error_code ?? null]]),
    );
    expect(outcome).toEqual({
      [SITES.news]: ['alive', null],
      [SITES.forbidden]: ['blocked', 'HTTP_403'],
      [SITES.ssrf]: ['error', 'SSRF_BLOCKED'],
      [SITES.httpOnly]: ['alive', null],
      [SITES.unresolvable]: ['dead', 'ENOTFOUND'],
      '10.0.0.1': ['invalid', null],
    });
    expect(net.privateHits()).toBe(0);
    const agents = new Set(net.requests.map((r) => r.userAgent));
    expect([...agents].every((agent) => /^SeedbedBot\/\d+\.\d+\.\d+ \(\+https?:\/\/.+\)$/.test(agent))).toBe(
      true,
    );
  });

  it('turns a domain id into a draft seed with its robots policy and feed', async () => {
    const accepted = await postJson(seedbed.url, '/api/v1/queues/contract', {
      country: 'sg',
      category: 'news',
      domainIds: [`other:sg:${SITES.news}`],
    });
    const batch = await finished(accepted.body.batchId);
    expect(batch.status).toBe('completed');
    const seed = await getJson(
      seedbed.url,
      `/api/v1/seeds/${encodeURIComponent(`other:sg:${SITES.news}::news`)}`,
    );
    expect(seed).toMatchObject({ status: 'draft', fetch: { type: 'rss' }, policy: { robots_allowed: true } });
  });
});
