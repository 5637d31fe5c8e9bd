// The OpenAPI document tells the truth (docs/design.md §7): every operation declares its success status and body and its
// problem responses, and real answers — successes and problems alike — validate against what is declared for
// their status and media type. Public operations carry no security requirement.

import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prodDomainKey } from '../../src/domain/keys.js';
import type { LivenessResult } from '../../src/engine/liveness.js';
import {
  API_KEYS,
  API_KEYS_ENV,
  bearer,
  createApiSeedbed,
  dataset,
  datasetRecord,
  type Method,
} from '../support/api-helpers.js';
import { writeDraft } from '../support/contract-runs.js';
import type { TestSeedbed } from '../support/harness.js';

const P = { country: 'sg', category: 'news', date: '2026-06-01' };
const SEED = 'gov:sg:mom.gov.sg::news';
const CONTRACT_SEED = 'gov:sg:mof.gov.sg::news';

interface Call {
  method: Method;
  /** The operation, as Fastify names it (`:param`). */
  route: string;
  url: string;
  payload?: unknown;
  headers?: Record<string, string>;
  contentType?: string;
}

type Operation = {
  security?: unknown[];
  responses: Record<string, { content?: Record<string, { schema: object }> }>;
};

describe('the OpenAPI document and the real answers', () => {
  let t: TestSeedbed;
  let doc: { paths: Record<string, Record<string, Operation>>; components: { schemas: object } };
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(ajv);
  const validators = new Map<string, ReturnType<typeof ajv.compile>>();
  const answered = new Map<string, Set<number>>();
  const mismatches: string[] = [];

  const admin = bearer(API_KEYS.admin);
  const openApiPath = (route: string) => route.replace(/:(\w+)/g, '{$1}');

  async function call(c: Call) {
    const json = c.payload !== undefined && typeof c.payload !== 'string';
    const response = await t.app.inject({
      method: c.method,
      url: c.url,
      headers: {
        ...admin,
        ...(json ? { 'content-type': 'application/json' } : {}),
        ...(c.contentType ? { 'content-type': c.contentType } : {}),
        ...c.headers,
      },
      ...(c.payload !== undefined
        ? { payload: json ? JSON.stringify(c.payload) : (c.payload as string) }
        : {}),
    });
    const label = `${c.method} ${c.route} → ${response.statusCode}`;
    const operation = doc.paths[openApiPath(c.route)]?.[c.method.toLowerCase()];
    if (!operation) {
      mismatches.push(`${label}: no such operation in the document`);
      return response;
    }
    const operationKey = `${c.method} ${c.route}`;
    answered.set(operationKey, new Set([...(answered.get(operationKey) ?? []), response.statusCode]));
    const declared = operation.responses[String(response.statusCode)];
    if (!declared) {
      mismatches.push(`${label}: status not declared (${Object.keys(operation.responses).join(', ')})`);
      return response;
    }
    if (response.statusCode === 204) {
      if (response.body !== '') mismatches.push(`${label}: a body on a 204`);
      return response;
    }
    const mediaType = String(response.headers['content-type'] ?? '').split(';')[0] ?? '';
    const content = declared.content?.[mediaType];
    if (!content) {
      mismatches.push(`${label}: media type ${mediaType} not declared`);
      return response;
    }
    // A JSON document (application/json, …+json); JSON lines and other streams are checked by their own tests.
    if (!/(^application\/|\+)json$/.test(mediaType)) return response;
    const key = `${c.method} ${c.route} ${response.statusCode} ${mediaType}`;
    let validate = validators.get(key);
    if (!validate) {
      validate = ajv.compile({ ...content.schema, components: doc.components });
      validators.set(key, validate);
    }
    if (!validate(response.json()))
      mismatches.push(`${label}: ${ajv.errorsText(validate.errors)} in ${response.body.slice(0, 200)}`);
    return response;
  }

  const contractDraft = (name: string) => ({
    domainId: 'gov:sg:mof.gov.sg',
    category: 'news',
    name,
    entry_url: 'https://www.mof.gov.sg/',
    fetch: { type: 'html', urls: ['https://www.mof.gov.sg/'] },
    schedule: '0 */6 * * *',
    policy: { robots_allowed: true },
    discovery: { alive: true },
    provenance: { batch_id: 'b1', date: P.date },
    author: 'batch:b1',
    // What discovery measured, so the seed answers carry freshness, languages and policy.ai too.
    facts: {
      feeds: [],
      sitemap: null,
      freshness: {
        newest_item_at: '2026-06-01T00:00:00.000Z',
        items_last_7d: 3,
        items_per_day: 0.43,
        measured_at: '2026-06-02T00:00:00.000Z',
        stale: false,
        based_on: 'feed' as const,
      },
      languages: [{ code: 'en', sources: ['html_lang' as const] }],
      ai: {
        crawler_list: '2026-11-23',
        robots: 'read' as const,
        disallowed_agents: ['GPTBot'],
        allowed_agents: [],
        named: [{ agent: 'GPTBot', allowed: false, line: 1 }],
        tdm_reservation: true,
        tdm_policy_url: 'https://www.mof.gov.sg/tdm',
        tdm_source: 'meta' as const,
        noai: false,
        noimageai: false,
        status: 'disallowed' as const,
      },
    },
  });

  beforeAll(async () => {
    t = await createApiSeedbed(
      { SEEDBED_API_KEYS: API_KEYS_ENV },
      {
        syncTarget: {
          description: 'test target',
          publish: async () => ({ commitId: null, changed: false }),
        },
      },
    );
    doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    // A seed a contract run made (its evidence on disk) and two liveness checks, written as the workers would.
    const { database, services, objects } = t.seedbed;
    await database.transaction(async (trx) => {
      await writeDraft(services, trx, contractDraft('Ministry of Finance'));
      const result: LivenessResult = {
        domain: 'mof.gov.sg',
        alive: false,
        state: 'blocked',
        http_status: 403,
        final_url: 'https://mof.gov.sg/',
        https: true,
        latency_ms: 40,
        error_code: 'HTTP_403',
        error_message: null,
        evidence: { kind: 'status', status: 403, server: null },
        checked_at: '2026-06-01T00:00:00.000Z',
      };
      await services.liveness.record(trx, 'mof.gov.sg', result, null);
      await services.liveness.record(
        trx,
        'mof.gov.sg',
        { ...result, checked_at: '2026-06-02T00:00:00.000Z' },
        null,
      );
    });
    // A person names the seed; the next run's title becomes a proposed revision (3).
    await services.seeds.patch(CONTRACT_SEED, { name: 'MOF' }, 'reviewer');
    await database.transaction((trx) => writeDraft(services, trx, contractDraft('Ministry of Finance')));
    // Two discoveries of a domain with a feed gone between them: one change.
    const summary = {
      state: 'alive' as const,
      feeds: ['https://www.mof.gov.sg/feed'],
      main_feed: 'https://www.mof.gov.sg/feed',
      robots_allowed: true,
      crawl_delay: null,
      news_sitemaps: [],
      ai_disallowed: [],
      tdm: null,
    };
    const discovery = (at: string, feeds: string[]) =>
      database.transaction((trx) =>
        services.changes.record(trx, {
          registrableDomain: 'mof.gov.sg',
          domainId: 'gov:sg:mof.gov.sg',
          summary: { ...summary, feeds, main_feed: feeds[0] ?? null },
          collectedAt: at,
          metadataKey: null,
          batchId: 'b1',
          evidence: {},
        }),
      );
    await discovery('2026-06-01T00:00:00.000Z', ['https://www.mof.gov.sg/feed']);
    await discovery('2026-06-02T00:00:00.000Z', []);
    await objects.put(prodDomainKey(P, 'mof.gov.sg', 'robots.txt'), 'User-agent: *\nAllow: /\n');
    await objects.put(
      prodDomainKey(P, 'mof.gov.sg', 'domain_metadata.json'),
      '{"domain_id":"gov:sg:mof.gov.sg"}',
    );
    t.startWorkers(['RESEARCH_QUEUE']);
  });
  afterAll(() => t.close());

  it('every real answer, success or problem, is declared for its status and media type and validates', async () => {
    const id = encodeURIComponent(SEED);
    const contractId = encodeURIComponent(CONTRACT_SEED);
    const get = (route: string, url = route) => call({ method: 'GET', route, url });
    // Health and root.
    for (const route of ['/health', '/health/ready', '/health/live', '/']) await get(route);
    // Datasets.
    const stored = await call({
      method: 'POST',
      route: '/api/v1/datasets',
      url: '/api/v1/datasets',
      payload: dataset(P, [datasetRecord(1), datasetRecord(2)]),
    });
    expect(stored.statusCode).toBe(201);
    await call({
      method: 'POST',
      route: '/api/v1/datasets',
      url: '/api/v1/datasets',
      payload: dataset(P, [datasetRecord(3)], { chunk: 1 }),
    });
    await call({
      method: 'POST',
      route: '/api/v1/datasets',
      url: '/api/v1/datasets',
      payload: '{',
      contentType: 'application/json',
    });
    await call({
      method: 'POST',
      route: '/api/v1/datasets',
      url: '/api/v1/datasets',
      payload: 'x',
      contentType: 'text/plain',
    });
    await get('/api/v1/datasets', '/api/v1/datasets?country=sg');
    await get('/api/v1/datasets', '/api/v1/datasets?limit=0x10');
    await get('/api/v1/datasets/stats');
    const chunkRoute = '/api/v1/datasets/:country/:category/:date/:chunk';
    await get('/api/v1/datasets/:country/:category/:date', '/api/v1/datasets/sg/news/2026-06-01');
    await get('/api/v1/datasets/:country/:category/:date', '/api/v1/datasets/sg/news/2026-13-01');
    await get(chunkRoute, '/api/v1/datasets/sg/news/2026-06-01/1');
    await get(chunkRoute, '/api/v1/datasets/sg/news/2026-06-01/77');
    // Research, synchronous and queued (the research worker runs, so items have results).
    await call({
      method: 'POST',
      route: '/api/v1/research',
      url: '/api/v1/research',
      payload: { ...P, urls: ['https://a.gov.sg/x', 'junk url'] },
    });
    await get('/api/v1/research', '/api/v1/research?country=sg');
    await get('/api/v1/research/index');
    await get('/api/v1/research/:country/:category/:date', '/api/v1/research/sg/news/2026-06-01');
    await get('/api/v1/research/:country/:category/:date', '/api/v1/research/sg/news/2026-06-02');
    const queued = await call({
      method: 'POST',
      route: '/api/v1/queues/research',
      url: '/api/v1/queues/research',
      payload: { country: 'sg', category: 'news', urls: ['https://b.gov.sg/', 'not a url'] },
      headers: { 'idempotency-key': 'k1' },
    });
    await call({
      method: 'POST',
      route: '/api/v1/queues/research',
      url: '/api/v1/queues/research',
      payload: { country: 'sg', category: 'news', urls: ['https://c.gov.sg/'] },
      headers: { 'idempotency-key': 'k1' },
    });
    await call({
      method: 'POST',
      route: '/api/v1/queues/liveness',
      url: '/api/v1/queues/liveness',
      payload: { country: 'sg', domains: ['a.gov.sg'] },
    });
    await call({
      method: 'POST',
      route: '/api/v1/queues/contract',
      url: '/api/v1/queues/contract',
      payload: { country: 'sg', category: 'news', domainIds: ['gov:sg:a.gov.sg'] },
    });
    const batchId = queued.json().batchId as string;
    await t.waitForBatch(batchId);
    await get('/api/v1/queues/batch/:batchId', `/api/v1/queues/batch/${batchId}`);
    await get('/api/v1/queues/batch/:batchId', '/api/v1/queues/batch/nope');
    await get('/api/v1/queues/batch/:batchId/items', `/api/v1/queues/batch/${batchId}/items`);
    await get('/api/v1/queues/batches', '/api/v1/queues/batches?type=research');
    await get('/api/v1/queues/batches', '/api/v1/queues/batches?from=2026-02-30');
    // Metadata.
    await call({
      method: 'POST',
      route: '/api/v1/queues/trigger/metadata-sync',
      url: '/api/v1/queues/trigger/metadata-sync',
    });
    await call({ method: 'POST', route: '/api/v1/metadata/sync', url: '/api/v1/metadata/sync' });
    await get('/api/v1/metadata/snapshot');
    await get('/api/v1/metadata/by-country/:country', '/api/v1/metadata/by-country/sg');
    await get('/api/v1/metadata/by-country/:country', '/api/v1/metadata/by-country/fr');
    await get('/api/v1/metadata/tasks');
    // Seeds.
    await call({
      method: 'POST',
      route: '/api/v1/seeds',
      url: '/api/v1/seeds',
      payload: { domain: 'mom.gov.sg', country: 'sg', category: 'news' },
    });
    await call({
      method: 'POST',
      route: '/api/v1/seeds',
      url: '/api/v1/seeds',
      payload: { domain: 'mom.gov.sg', country: 'sg', category: 'news' },
    });
    await get('/api/v1/seeds', '/api/v1/seeds?q=x');
    await get('/api/v1/seeds');
    await get('/api/v1/seeds/export');
    await get('/api/v1/seeds/export', '/api/v1/seeds/export?format=csv&country=sg');
    await get('/api/v1/seeds/export', '/api/v1/seeds/export?format=opml&status=draft');
    await get('/api/v1/seeds/export', '/api/v1/seeds/export?format=pdf');
    const importLine = JSON.stringify({ domain: 'mas.gov.sg', country: 'sg', category: 'news' });
    for (const [payload, contentType] of [
      [`${importLine}\n{\n`, 'application/x-ndjson'],
      [importLine, 'application/json'],
    ] as const)
      await call({
        method: 'POST',
        route: '/api/v1/seeds/import',
        url: '/api/v1/seeds/import',
        payload,
        contentType,
      });
    await get('/api/v1/seeds/:seedId', `/api/v1/seeds/${id}`);
    await get('/api/v1/seeds/:seedId', '/api/v1/seeds/gov:sg:nope.gov.sg::news');
    await call({
      method: 'PATCH',
      route: '/api/v1/seeds/:seedId',
      url: `/api/v1/seeds/${id}`,
      payload: { name: 'MOM' },
    });
    await call({
      method: 'PATCH',
      route: '/api/v1/seeds/:seedId',
      url: `/api/v1/seeds/${id}`,
      payload: { status: 'active' },
    });
    await call({
      method: 'POST',
      route: '/api/v1/seeds/promote',
      url: '/api/v1/seeds/promote',
      payload: { seedIds: [SEED, 'gov:sg:x.gov.sg::news'] },
    });
    // A key names a batch: the 202 answer. Without one, a selection is answered at once.
    await call({
      method: 'POST',
      route: '/api/v1/seeds/archive',
      url: '/api/v1/seeds/archive',
      payload: { filter: { country: 'zw' } },
      headers: { 'idempotency-key': 'archive-zw' },
    });
    await call({
      method: 'POST',
      route: '/api/v1/seeds/archive',
      url: '/api/v1/seeds/archive',
      payload: { seedIds: ['gov:sg:x.gov.sg::news'] },
    });
    // The active seed goes back through the contract pipeline: the plan holds its recheck batch.
    await call({
      method: 'POST',
      route: '/api/v1/queues/recheck',
      url: '/api/v1/queues/recheck',
      payload: { country: 'sg' },
    });
    await call({
      method: 'POST',
      route: '/api/v1/queues/recheck',
      url: '/api/v1/queues/recheck',
      payload: { seedIds: [] },
    });
    await call({
      method: 'POST',
      route: '/api/v1/seeds/orchestrate',
      url: '/api/v1/seeds/orchestrate',
      payload: P,
    });
    await get('/api/v1/seeds/:seedId/evidence', `/api/v1/seeds/${contractId}/evidence`);
    await get('/api/v1/seeds/:seedId/evidence', `/api/v1/seeds/${id}/evidence`);
    await get('/api/v1/seeds/:seedId/evidence/:name', `/api/v1/seeds/${contractId}/evidence/robots.txt`);
    await get(
      '/api/v1/seeds/:seedId/evidence/:name',
      `/api/v1/seeds/${contractId}/evidence/domain_metadata.json`,
    );
    await get('/api/v1/seeds/:seedId/evidence/:name', `/api/v1/seeds/${contractId}/evidence/sitemap.xml`);
    await get('/api/v1/seeds/:seedId/evidence/:name', `/api/v1/seeds/${contractId}/evidence/passwd`);
    // Revisions and changes.
    const revisions = '/api/v1/seeds/:seedId/revisions';
    await get(revisions, `/api/v1/seeds/${contractId}/revisions`);
    await get(revisions, '/api/v1/seeds/gov:sg:nope.gov.sg::news/revisions');
    const decide = (n: number, decision: 'accept' | 'reject') =>
      call({
        method: 'POST',
        route: `${revisions}/:n/${decision}`,
        url: `/api/v1/seeds/${contractId}/revisions/${n}/${decision}`,
      });
    expect((await decide(3, 'accept')).statusCode).toBe(200);
    const r3 = await decide(3, 'reject');
    expect(r3.statusCode).toBe(409);
    expect((await decide(99, 'reject')).statusCode).toBe(404);
    await t.seedbed.database.transaction((trx) =>
      writeDraft(t.seedbed.services, trx, contractDraft('Finance Ministry')),
    );
    expect((await decide(4, 'reject')).statusCode).toBe(200);
    const changes = await get('/api/v1/changes', '/api/v1/changes?domain=mof.gov.sg&kind=feed_removed');
    expect(changes.json().data).toHaveLength(1);
    await get('/api/v1/changes', '/api/v1/changes?since=yesterday');
    // Discovery and candidates: a batch (seeds of sg exist), an import, a list, one, decisions and their problems.
    await call({
      method: 'POST',
      route: '/api/v1/queues/discovery',
      url: '/api/v1/queues/discovery',
      payload: { country: 'sg' },
    });
    await call({
      method: 'POST',
      route: '/api/v1/queues/discovery',
      url: '/api/v1/queues/discovery',
      payload: { country: 'nz' },
    });
    await call({
      method: 'POST',
      route: '/api/v1/candidates/import',
      url: '/api/v1/candidates/import?source=list&country=sg',
      payload: 'domain\nstraitstimes.com\nmof.gov.sg\nyoutube.com\n',
      contentType: 'text/csv',
    });
    await call({
      method: 'POST',
      route: '/api/v1/candidates/import',
      url: '/api/v1/candidates/import',
      payload: '%PDF',
      contentType: 'application/pdf',
    });
    await get('/api/v1/candidates', '/api/v1/candidates?country=sg&sort=citations');
    await get('/api/v1/candidates/:domain', '/api/v1/candidates/straitstimes.com');
    await get('/api/v1/candidates/:domain', '/api/v1/candidates/never.example');
    await call({
      method: 'POST',
      route: '/api/v1/candidates/accept',
      url: '/api/v1/candidates/accept',
      payload: { domains: ['straitstimes.com'] },
    });
    await call({
      method: 'POST',
      route: '/api/v1/candidates/reject',
      url: '/api/v1/candidates/reject',
      payload: { domains: ['straitstimes.com'], reason: 'checked by hand' },
    });
    await call({
      method: 'POST',
      route: '/api/v1/candidates/reject',
      url: '/api/v1/candidates/reject',
      payload: { domains: [] },
    });
    // Domains.
    await get('/api/v1/domains/:domain/liveness', '/api/v1/domains/mof.gov.sg/liveness');
    await get('/api/v1/domains/:domain/liveness', '/api/v1/domains/never.gov.sg/liveness');
    // Auth problems, and the delete last (it removes the chunk).
    await call({
      method: 'GET',
      route: '/api/v1/seeds',
      url: '/api/v1/seeds',
      headers: { authorization: '' },
    });
    await call({
      method: 'GET',
      route: '/api/v1/seeds',
      url: '/api/v1/seeds',
      headers: bearer('not-a-key-0123456789'),
    });
    await call({
      method: 'DELETE',
      route: chunkRoute,
      url: '/api/v1/datasets/sg/news/2026-06-01/1',
      headers: bearer(API_KEYS.write),
    });
    await call({ method: 'DELETE', route: chunkRoute, url: '/api/v1/datasets/sg/news/2026-06-01/1' });
    await call({ method: 'DELETE', route: chunkRoute, url: '/api/v1/datasets/sg/news/2026-06-01/1' });

    expect(mismatches).toEqual([]);
    // Every operation of the document was answered with one of its declared successes.
    const unanswered: string[] = [];
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const route = `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ':$1')}`;
        const successes = Object.keys(operation.responses).filter((s) => s.startsWith('2'));
        const got = [...(answered.get(route) ?? [])].map(String);
        if (!successes.some((s) => got.includes(s)))
          unanswered.push(`${route} (got ${got.join(', ') || 'nothing'})`);
      }
    }
    expect(unanswered).toEqual([]);
  });

  it('every operation declares a success and the shared Problem for 400 and 500; only public ones need no key', () => {
    const PUBLIC = new Set(['/health', '/health/ready', '/health/live', '/']);
    for (const [path, operations] of Object.entries(doc.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const label = `${method.toUpperCase()} ${path}`;
        const statuses = Object.keys(operation.responses);
        expect(
          statuses.some((s) => /^2\d\d$/.test(s)),
          label,
        ).toBe(true);
        expect(statuses, label).not.toContain('default');
        for (const status of ['400', '500'])
          expect(
            operation.responses[status]?.content?.['application/problem+json']?.schema,
            `${label} ${status}`,
          ).toEqual({
            $ref: '#/components/schemas/Problem',
          });
        if (PUBLIC.has(path)) expect(operation.security, label).toEqual([]);
        else {
          expect(operation.security, label).toEqual([
            { bearer: [expect.stringMatching(/^(read|write|admin)$/)] },
          ]);
          expect(statuses, label).toEqual(expect.arrayContaining(['401', '403', '429']));
        }
      }
    }
    expect(JSON.stringify(doc)).not.toContain('Default Response');
  });
});
