// Small helpers for the in-process API tests (test/api): a Seedbed without a rate limit in the way,
// problem+json assertions, builders for datasets and URL lists, and the shared setup of the hostile battery.
import type { Readable } from 'node:stream';
import type { FastifyInstance, InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, expect } from 'vitest';
import { type ContractDraft, writeDraft } from './contract-runs.js';
import { createTestSeedbed, type TestSeedbed } from './harness.js';
import { domainIdOf, seedIdOf } from './ids.js';

export type Response = LightMyRequestResponse;
export type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A test Seedbed whose rate limit is high enough for a battery of hundreds of requests. */
export function createApiSeedbed(
  env: Record<string, string> = {},
  options: Parameters<typeof createTestSeedbed>[1] = {},
): Promise<TestSeedbed> {
  return createTestSeedbed({ SEEDBED_RATE_LIMIT: '1000000', ...env }, options);
}

export const API_KEYS = {
  read: 'readkey-0123456789abcdef',
  write: 'writekey-0123456789abcdef',
  admin: 'adminkey-0123456789abcdef',
} as const;
export const API_KEYS_ENV =
  'reader:readkey-0123456789abcdef:read;writer:writekey-0123456789abcdef:read,write;boss:adminkey-0123456789abcdef:admin';

export function bearer(key: string): Record<string, string> {
  return { authorization: `Bearer ${key}` };
}

export function inject(app: FastifyInstance, options: InjectOptions): Promise<Response> {
  return app.inject(options) as Promise<Response>;
}

export interface ProblemBody {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: string;
  errors?: Array<{ path: string; message: string }>;
  [key: string]: unknown;
}

/** Asserts an RFC 9457 problem with this status (and code, when given); returns its body. */
export function expectProblem(response: Response, status: number, code?: string): ProblemBody {
  expect(response.statusCode, `status for body ${response.body.slice(0, 300)}`).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/problem\+json/);
  const body = response.json() as ProblemBody;
  expect(body).toMatchObject({ status, type: expect.any(String), title: expect.any(String) });
  expect(typeof body.detail).toBe('string');
  expect(typeof body.code).toBe('string');
  expect(body.type.length).toBeGreaterThan(0);
  if (code !== undefined) expect(body.code).toBe(code);
  const text = response.body;
  // Never a stack trace.
  expect(text).not.toMatch(/\bat .+\.(ts|js):\d+/);
  return body;
}

/** Asserts a 4xx problem (any 4xx); never a 5xx. */
export function expectClientProblem(response: Response): ProblemBody {
  expect(
    response.statusCode,
    `expected a 4xx, got ${response.statusCode}: ${response.body.slice(0, 300)}`,
  ).toBeGreaterThanOrEqual(400);
  expect(response.statusCode).toBeLessThan(500);
  return expectProblem(response, response.statusCode);
}

/** Asserts a 400 validation problem whose errors[] has an entry at this path (e.g. `body.urls`). */
export function expectValidation(response: Response, path: string): ProblemBody {
  const body = expectProblem(response, 400, 'validation_failed');
  expect(Array.isArray(body.errors)).toBe(true);
  const paths = (body.errors ?? []).map((e) => e.path);
  expect(paths, `errors paths ${JSON.stringify(paths)}`).toContain(path);
  for (const error of body.errors ?? []) expect(typeof error.message).toBe('string');
  return body;
}

export interface Offender {
  request: string;
  status: number;
  body: string;
}

/** A 4xx problem+json with the required fields (or a 2xx); never a 5xx. Null when the answer is fine. */
export function offence(label: string, response: Response, allowSuccess = false): Offender | null {
  const status = response.statusCode;
  const contentType = String(response.headers['content-type'] ?? '');
  const record = { request: label, status, body: response.body.slice(0, 200) };
  if (status >= 200 && status < 300) return allowSuccess ? null : record;
  if (status < 400 || status >= 500) return record;
  if (!contentType.startsWith('application/problem+json'))
    return { ...record, body: `content-type ${contentType}` };
  const body = response.json() as Record<string, unknown>;
  for (const field of ['type', 'title', 'detail', 'code']) if (typeof body[field] !== 'string') return record;
  if (body.status !== status) return record;
  if (body.code === 'validation_failed') {
    const errors = body.errors as Array<{ path?: unknown }> | undefined;
    if (!Array.isArray(errors) || errors.length === 0 || errors.some((e) => typeof e.path !== 'string'))
      return record;
  }
  return null;
}

export function expectJson(response: Response, status: number): any {
  expect(response.statusCode, `status for body ${response.body.slice(0, 400)}`).toBe(status);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  return response.json();
}

export function expectPage(body: any, limit: number, offset: number, total?: number): void {
  expect(Array.isArray(body.data)).toBe(true);
  // A list that pages by cursor too says where its next page starts (null on its last).
  const { next, ...counts } = body.pagination;
  expect(counts).toEqual({ limit, offset, total: total ?? expect.any(Number) });
  if ('next' in body.pagination) expect(next === null || typeof next === 'string').toBe(true);
  expect(body.data.length).toBeLessThanOrEqual(limit);
}

export interface PartitionRef {
  country: string;
  category: string;
  date: string;
}

export function datasetRecord(i: number, extra: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    raw_url: `https://agency${i % 97}.gov.sg/news/${i}`,
    normalized_url: `https://agency${i % 97}.gov.sg/news/${i}`,
    registrable_domain: `agency${i % 97}.gov.sg`,
    domain_id: `gov:sg:agency${i % 97}.gov.sg`,
    authority: 'gov',
    source_type: 'government',
    discovery_method: 'manual',
    confidence: 0.5,
    content_hints: ['news'],
    ...extra,
  };
}

export function dataset(
  partition: PartitionRef,
  records: Array<Record<string, unknown>>,
  meta: Record<string, unknown> = {},
  top: Record<string, unknown> = {},
): Record<string, unknown> {
  return { meta: { ...partition, ...meta }, records, ...top };
}

export function postDataset(app: FastifyInstance, body: unknown, headers: Record<string, string> = {}) {
  return inject(app, { method: 'POST', url: '/api/v1/datasets', payload: body as object, headers });
}

export function chunkUrl(p: PartitionRef, chunk: string | number): string {
  return `/api/v1/datasets/${p.country}/${p.category}/${p.date}/${chunk}`;
}

export function repeatUrls(n: number, prefix = 'https://agency.gov.sg/page'): string[] {
  return Array.from({ length: n }, (_, i) => `${prefix}/${i}`);
}

/**
 * What a contract run stores for the news site `<domain>` (domain id `com:fr:<domain>`): named after its host,
 * read through its RSS feed at /feed, hourly, robots.txt allowing, alive. `extra` replaces whole fields.
 */
export function newsDraft(domain: string, extra: Partial<ContractDraft> = {}): ContractDraft {
  return {
    domainId: `com:fr:${domain}`,
    category: 'news',
    name: domain,
    entry_url: `https://${domain}/`,
    fetch: { type: 'rss', urls: [`https://${domain}/feed`] },
    schedule: '5 * * * *',
    policy: { robots_url: `https://${domain}/robots.txt`, robots_allowed: true },
    discovery: { alive: true },
    provenance: { batch_id: 'b1' },
    ...extra,
  };
}

/** The id of the seed `newsDraft(domain)` makes: `com:fr:<domain>::news`. */
export const newsSeedId = (domain: string) => `${newsDraft(domain).domainId}::news`;

/** Stores a draft as a contract run does (seed-contract-runs.ts, in a transaction of its own). */
export function upsertDraft(t: TestSeedbed, draft: ContractDraft) {
  return t.seedbed.database.transaction((trx) => writeDraft(t.seedbed.services, trx, draft));
}

/** The seed ids `GET /api/v1/seeds?<query>` lists, in its order (the answer must be a 200). */
export async function listedSeedIds(t: TestSeedbed, query: string): Promise<string[]> {
  const res = await inject(t.app, { method: 'GET', url: `/api/v1/seeds?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return (res.json().data as Array<{ seed_id: string }>).map((s) => s.seed_id);
}

/**
 * Makes a contract run propose a revision of `<host>`'s news seed: a person sets its schedule, then a forced
 * contract run discovers the site again and finds another schedule, which it may only propose.
 */
export async function proposeAgainstEdit(t: TestSeedbed, host: string): Promise<void> {
  await inject(t.app, {
    method: 'PATCH',
    url: `/api/v1/seeds/${encodeURIComponent(seedIdOf(host))}`,
    headers: bearer(API_KEYS.write),
    payload: { schedule: '5 5 * * *' },
  });
  const rerun = await inject(t.app, {
    method: 'POST',
    url: '/api/v1/queues/contract',
    headers: bearer(API_KEYS.write),
    payload: { country: 'sg', category: 'news', domainIds: [domainIdOf(host)], force: true },
  });
  await t.waitForBatch(rerun.json().batchId, 90_000);
}

/** Every endpoint of the API, in Fastify's `:param` form. */
export const SPEC_ENDPOINTS: Array<[string, string]> = [
  ['GET', '/health'],
  ['GET', '/health/ready'],
  ['GET', '/health/live'],
  ['GET', '/'],
  ['POST', '/api/v1/queues/research'],
  ['POST', '/api/v1/queues/liveness'],
  ['POST', '/api/v1/queues/contract'],
  ['GET', '/api/v1/queues/batch/:batchId'],
  ['POST', '/api/v1/queues/trigger/metadata-sync'],
  ['GET', '/api/v1/datasets'],
  ['GET', '/api/v1/datasets/stats'],
  ['GET', '/api/v1/datasets/:country/:category/:date'],
  ['GET', '/api/v1/datasets/:country/:category/:date/:chunk'],
  ['POST', '/api/v1/datasets'],
  ['DELETE', '/api/v1/datasets/:country/:category/:date/:chunk'],
  ['GET', '/api/v1/metadata/snapshot'],
  ['POST', '/api/v1/metadata/sync'],
  ['GET', '/api/v1/metadata/by-country/:country'],
  ['GET', '/api/v1/metadata/tasks'],
  ['GET', '/api/v1/research'],
  ['GET', '/api/v1/research/index'],
  ['GET', '/api/v1/research/:country/:category/:date'],
  ['POST', '/api/v1/research'],
  ['GET', '/api/v1/seeds'],
  ['GET', '/api/v1/seeds/:seedId'],
  ['POST', '/api/v1/seeds'],
  ['PATCH', '/api/v1/seeds/:seedId'],
  ['POST', '/api/v1/seeds/promote'],
  ['POST', '/api/v1/seeds/orchestrate'],
];

/** The dataset body limit of the hostile battery's Seedbed. */
export const HOSTILE_MAX_DATASET_BYTES = 2 * 1024 * 1024;
/** The seed the hostile battery's Seedbed holds from the start, so seed routes have a real row to aim at. */
export const HOSTILE_SEED = 'gov:sg:mom.gov.sg::news';

export interface HostileSeedbed {
  readonly app: FastifyInstance;
  readonly dir: string;
  /** Every key in the Seedbed's object store (a folder or S3). */
  objectKeys(): Promise<string[]>;
  /** A raw request: the payload is sent as given, with this content type. */
  send(
    method: Method,
    url: string,
    payload?: string | Buffer | Readable,
    contentType?: string,
  ): Promise<Response>;
}

/**
 * The Seedbed of one hostile battery (test/api/hostile-*.test.ts), for the calling describe. After the battery
 * it asserts that nothing was polluted, that no object was written outside raw/, and that /health answers.
 */
export function useHostileSeedbed(): HostileSeedbed {
  let t: TestSeedbed | undefined;
  beforeAll(async () => {
    t = await createApiSeedbed({ SEEDBED_MAX_DATASET_BYTES: String(HOSTILE_MAX_DATASET_BYTES) });
    expectJson(
      await inject(t.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        payload: { domain: 'mom.gov.sg', country: 'sg', category: 'news' },
      }),
      201,
    );
  });
  afterAll(async () => {
    if (!t) return;
    // Whatever happened, nothing was polluted, nothing landed outside raw/, and the service still answers.
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    await expectOnlyRawObjects(t);
    expect((await inject(t.app, { method: 'GET', url: '/health' })).statusCode).toBe(200);
    await t.close();
  });
  const started = (): TestSeedbed => {
    if (!t) throw new Error('useHostileSeedbed: use the Seedbed inside a test or hook');
    return t;
  };
  return {
    get app() {
      return started().app;
    },
    get dir() {
      return started().dir;
    },
    objectKeys: () => started().objectKeys(),
    send: (method, url, payload, contentType) =>
      inject(started().app, {
        method,
        url,
        ...(payload !== undefined ? { payload } : {}),
        headers: contentType ? { 'content-type': contentType } : {},
      }),
  };
}

/** Whatever the store holds (possibly nothing yet; a folder or S3) is under raw/country=…/. */
async function expectOnlyRawObjects(t: TestSeedbed): Promise<void> {
  const keys = await t.objectKeys();
  expect(keys.filter((key) => !key.startsWith('raw/'))).toEqual([]);
  for (const key of keys) expect(key.split('/')[1]).toMatch(/^country=([a-z]{2}|intl)$/);
}
