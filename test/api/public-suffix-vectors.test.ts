// docs/design.md §2 through the API: the Public Suffix List's own vectors (test/fixtures/psl) posted as research, both
// synchronously and through the research queue, give their registrable domains or a rejected item with a
// reason; tracking parameters do not make a second source; an operator's authority overrides apply.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { domainToASCII } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pslVectors } from '../fixtures/psl/vectors.js';
import { createApiSeedbed, expectJson, inject } from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

// The null input cannot be posted (a URL list holds strings); the unit test checks it.
const VECTORS = pslVectors().filter((v): v is typeof v & { input: string } => v.input !== null);

interface Item {
  item_index: number;
  input: string;
  status: 'succeeded' | 'skipped' | 'failed';
  reason: string | null;
  result: { normalized_url: string; domain_id?: string } | null;
}

describe('Public Suffix List vectors through the research API', () => {
  let t: TestSeedbed;
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-overrides-'));
    const file = join(dir, 'overrides.json');
    await writeFile(
      file,
      JSON.stringify({
        domains: {
          'example-ministry.de': { authority: 'gov', country: 'de' },
          'bund.de': { authority: 'other', note: 'an operator may also correct the shipped table' },
        },
      }),
    );
    t = await createApiSeedbed({ SEEDBED_AUTHORITY_OVERRIDES: file });
    t.startWorkers(['RESEARCH_QUEUE']);
  });
  afterAll(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  const post = (url: string, payload: object) => inject(t.app, { method: 'POST', url, payload });
  const get = async (url: string) => expectJson(await inject(t.app, { method: 'GET', url }), 200);

  async function items(batchId: string): Promise<Item[]> {
    const all: Item[] = [];
    for (let offset = 0; ; offset += 100) {
      const page = await get(`/api/v1/queues/batch/${batchId}/items?limit=100&offset=${offset}`);
      all.push(...page.data);
      if (all.length >= page.pagination.total) return all;
    }
  }

  /** The registrable domain each vector's item came out with (through its normalised URL for duplicates). */
  function registrableByInput(list: Item[], inputOf: (v: (typeof VECTORS)[number]) => string) {
    const domainOfUrl = new Map<string, string>();
    for (const item of list)
      if (item.status === 'succeeded' && item.result?.domain_id)
        domainOfUrl.set(item.result.normalized_url, item.result.domain_id.split(':')[2] as string);
    return VECTORS.map((vector, index) => {
      const item = list[index] as Item;
      expect(item.input).toBe(inputOf(vector));
      if (item.status === 'failed') {
        expect(item.reason, `${vector.input} needs a reason`).toMatch(/\S/);
        return null;
      }
      return domainOfUrl.get(item.result?.normalized_url as string) ?? 'missing';
    });
  }

  it.each([
    ['as https URLs', (v: (typeof VECTORS)[number]) => `https://${v.input}/`],
    ['as bare hosts', (v: (typeof VECTORS)[number]) => v.input],
  ])('the research queue gives every vector its registrable domain (%s)', async (name, inputOf) => {
    const created = expectJson(
      await post('/api/v1/queues/research', {
        country: 'intl',
        category: name === 'as bare hosts' ? 'psl-bare' : 'psl-urls',
        urls: VECTORS.map(inputOf),
        chunkSize: 25,
      }),
      202,
    );
    await t.waitForBatch(created.batchId);
    const got = registrableByInput(await items(created.batchId), inputOf);
    expect(got).toEqual(VECTORS.map((v) => v.expected));
  });

  it('POST /research accepts the vectors that have a registrable domain and rejects the rest with reasons', async () => {
    const urls = VECTORS.map((v) => `https://${v.input}/`);
    const body = expectJson(
      await post('/api/v1/research', { country: 'intl', category: 'psl', date: '2026-03-01', urls }),
      201,
    );
    const rejected = VECTORS.filter((v) => v.expected === null);
    expect(body.ingest.invalid).toBe(rejected.length);
    expect(body.ingest.errors.map((e: { input: string }) => e.input)).toEqual(
      rejected.map((v) => `https://${v.input}/`),
    );
    for (const error of body.ingest.errors) expect(error.reason).toMatch(/\S/);

    const detail = await get('/api/v1/research/intl/psl/2026-03-01?limit=100');
    const registrable = new Map<string, string>(
      detail.sources.data.map((s: { normalized_url: string; registrable_domain: string }) => [
        s.normalized_url,
        s.registrable_domain,
      ]),
    );
    expect(detail.sources.pagination.total).toBe(registrable.size);
    for (const vector of VECTORS) {
      if (vector.expected === null) continue;
      const normalized = `https://${domainToASCII(vector.input)}/`;
      expect(registrable.get(normalized), vector.input).toBe(vector.expected);
    }
  });

  it('a tracking-tagged link and the page are one source, synchronously and through the queue', async () => {
    const urls = [
      'https://www.example.de/politik/?utm_source=x',
      'https://www.example.de/politik/',
      'https://www.example.de/politik/?fbclid=abc&utm_medium=social',
      'https://www.example.de/politik/?page=2&gclid=1',
    ];
    const body = expectJson(
      await post('/api/v1/research', { country: 'de', category: 'politik', date: '2026-03-02', urls }),
      201,
    );
    expect(body.ingest).toMatchObject({ accepted: 2, duplicates: 2, invalid: 0 });
    const detail = await get('/api/v1/research/de/politik/2026-03-02');
    expect(detail.sources.data.map((s: { normalized_url: string }) => s.normalized_url).sort()).toEqual([
      'https://www.example.de/politik/',
      'https://www.example.de/politik/?page=2',
    ]);

    const created = expectJson(
      await post('/api/v1/queues/research', { country: 'de', category: 'politik-queue', urls }),
      202,
    );
    await t.waitForBatch(created.batchId);
    const list = await items(created.batchId);
    expect(list.map((i) => i.status)).toEqual(['succeeded', 'skipped', 'skipped', 'succeeded']);
    expect(list[1]?.result?.normalized_url).toBe('https://www.example.de/politik/');
  });

  it("applies the shipped authority overrides and the operator's file on top", async () => {
    const body = expectJson(
      await post('/api/v1/research', {
        country: 'de',
        category: 'gov',
        date: '2026-03-04',
        urls: ['https://www.example-ministry.de/presse', 'https://www.bund.de/', 'https://www.admin.ch/'],
      }),
      201,
    );
    expect(body.ingest.accepted).toBe(3);
    const ids = (await get('/api/v1/research/de/gov/2026-03-04')).sources.data.map(
      (s: { domain_id: string }) => s.domain_id,
    );
    expect(ids.sort()).toEqual(['gov:de:admin.ch', 'gov:de:example-ministry.de', 'other:de:bund.de']);
  });
});
