// Health, root, OpenAPI, docs and metrics: the public face of the API (docs/design.md §7).
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiSeedbed,
  expectJson,
  expectProblem,
  inject,
  SPEC_ENDPOINTS,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

const packageVersion = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }
).version;

const isoTimestamp = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

describe('health, root, docs and metrics', () => {
  let t: TestSeedbed;
  beforeAll(async () => {
    t = await createApiSeedbed();
  });
  afterAll(() => t.close());

  it('GET /health answers status, timestamp and the package version', async () => {
    const body = expectJson(await inject(t.app, { method: 'GET', url: '/health' }), 200);
    expect(body).toEqual({
      status: 'ok',
      timestamp: expect.stringMatching(isoTimestamp),
      version: packageVersion,
    });
    expect(Math.abs(Date.parse(body.timestamp) - Date.now())).toBeLessThan(60_000);
  });

  it('GET /health/ready is 200 with a passing check for the database, object store and queue', async () => {
    const body = expectJson(await inject(t.app, { method: 'GET', url: '/health/ready' }), 200);
    expect(body.status).toBe('ready');
    expect(body.timestamp).toMatch(isoTimestamp);
    for (const name of ['database', 'objects', 'queue']) {
      expect(body.checks[name]).toMatchObject({ ok: true, latency_ms: expect.any(Number) });
    }
  });

  it('GET /health/ready is 503 naming the failing check when a dependency is down, and recovers', async () => {
    const objects = t.seedbed.objects as { ping: () => Promise<void> };
    const original = objects.ping;
    objects.ping = async () => {
      throw new Error('disk on fire');
    };
    try {
      const response = await inject(t.app, { method: 'GET', url: '/health/ready' });
      expect(response.statusCode).toBe(503);
      const body = response.json();
      expect(body.status).not.toBe('ready');
      expect(body.checks.objects).toMatchObject({ ok: false, error: expect.any(String) });
      expect(body.checks.database.ok).toBe(true);
      // Liveness is not readiness: the process is still alive.
      expect((await inject(t.app, { method: 'GET', url: '/health/live' })).statusCode).toBe(200);
    } finally {
      objects.ping = original;
    }
    expect((await inject(t.app, { method: 'GET', url: '/health/ready' })).statusCode).toBe(200);
  });

  it('GET /health/live answers while the process runs', async () => {
    const body = expectJson(await inject(t.app, { method: 'GET', url: '/health/live' }), 200);
    expect(body.status).toBe('alive');
    expect(body.timestamp).toMatch(isoTimestamp);
  });

  it('GET / lists the API name, version, docs and every endpoint of the spec', async () => {
    const body = expectJson(await inject(t.app, { method: 'GET', url: '/' }), 200);
    expect(body.name).toEqual(expect.any(String));
    expect(body.name.length).toBeGreaterThan(0);
    expect(body.version).toBe(packageVersion);
    expect(body.docs).toBe('/docs');
    expect(Array.isArray(body.endpoints)).toBe(true);
    const listed = new Set(
      (body.endpoints as Array<{ method: string; path: string }>).map((e) => `${e.method} ${e.path}`),
    );
    for (const [method, path] of SPEC_ENDPOINTS)
      expect(listed, `${method} ${path}`).toContain(`${method} ${path}`);
    // The batch items endpoint of docs/design.md §3 is listed too.
    expect(listed).toContain('GET /api/v1/queues/batch/:batchId/items');
    // No duplicates, no HEAD noise.
    expect(listed.size).toBe(body.endpoints.length);
    expect([...listed].some((e) => e.startsWith('HEAD '))).toBe(false);
  });

  it('GET /openapi.json is an OpenAPI 3 document with every spec path and method', async () => {
    const response = await inject(t.app, { method: 'GET', url: '/openapi.json' });
    const doc = expectJson(response, 200);
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.info.version).toBe(packageVersion);
    for (const [method, path] of SPEC_ENDPOINTS) {
      const openapiPath = path.replace(/:(\w+)/g, '{$1}');
      expect(Object.keys(doc.paths), openapiPath).toContain(openapiPath);
      expect(doc.paths[openapiPath][method.toLowerCase()], `${method} ${openapiPath}`).toBeDefined();
    }
  });

  it('the OpenAPI document describes the request bodies and their limits from the validating schemas', async () => {
    const doc = (await inject(t.app, { method: 'GET', url: '/openapi.json' })).json();
    const resolve = (schema: { $ref?: string }) => {
      if (!schema.$ref) return schema;
      const name = schema.$ref.replace('#/components/schemas/', '');
      return doc.components?.schemas?.[name];
    };
    const research = resolve(
      doc.paths['/api/v1/queues/research'].post.requestBody.content['application/json'].schema,
    );
    expect(research, 'the research batch body schema resolves').toBeDefined();
    expect(research.properties.urls).toMatchObject({ type: 'array', minItems: 1, maxItems: 10000 });
    expect(doc.paths['/api/v1/datasets/{country}/{category}/{date}/{chunk}'].get.parameters.length).toBe(4);
  });

  it('every $ref in the OpenAPI document resolves', async () => {
    const response = await inject(t.app, { method: 'GET', url: '/openapi.json' });
    const doc = response.json();
    const refs = [...response.body.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]);
    expect(refs.length).toBeGreaterThan(0);
    const missing = refs.filter((name) => !doc.components?.schemas?.[name as string]);
    expect(missing, 'dangling $refs').toEqual([]);
  });

  it('GET /docs serves an HTML reference page', async () => {
    const response = await inject(t.app, { method: 'GET', url: '/docs' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/html/);
    expect(response.body.toLowerCase()).toContain('<html');
  });

  it('GET /metrics is Prometheus text with request counters and queue depth', async () => {
    await inject(t.app, { method: 'GET', url: '/health' });
    const response = await inject(t.app, { method: 'GET', url: '/metrics' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toMatch(/^text\/plain/);
    expect(response.body).toContain('# TYPE seedbed_http_requests_total counter');
    expect(response.body).toMatch(/seedbed_http_requests_total\{[^}]*route="\/health"[^}]*\} \d+/);
    expect(response.body).toContain('# TYPE seedbed_queue_jobs gauge');
  });

  it('HEAD /health answers without a body', async () => {
    const response = await inject(t.app, { method: 'HEAD', url: '/health' });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe('');
  });

  it('an unknown path is a 404 problem naming the route', async () => {
    const body = expectProblem(await inject(t.app, { method: 'GET', url: '/nope' }), 404, 'not_found');
    expect(body.detail).toContain('/nope');
  });
});
