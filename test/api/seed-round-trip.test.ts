// A seed read with GET can be POSTed back as it is, to this or another instance (docs/design.md §3): the resource's own
// fields are accepted, identity fields must agree, server-owned ones are ignored and the copy starts as a draft.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createApiSeedbed,
  expectJson,
  expectProblem,
  expectValidation,
  inject,
} from '../support/api-helpers.js';
import type { TestSeedbed } from '../support/harness.js';

const CONTRACT = ['name', 'entry_url', 'fetch', 'schedule', 'policy'] as const;
const IDENTITY = [
  'seed_id',
  'domain_id',
  'registrable_domain',
  'country',
  'category',
  'content_type',
  'source_type',
] as const;
const pick = (seed: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.map((key) => [key, seed[key]]));

describe('seed round trip', () => {
  let origin: TestSeedbed;
  let copy: TestSeedbed;
  let original: Record<string, unknown>;
  beforeAll(async () => {
    [origin, copy] = await Promise.all([createApiSeedbed(), createApiSeedbed()]);
    const created = expectJson(
      await inject(origin.app, {
        method: 'POST',
        url: '/api/v1/seeds',
        payload: {
          domain: 'https://www.mom.gov.sg/newsroom',
          country: 'SG',
          category: 'news',
          content_type: 'press',
          name: 'Ministry of Manpower newsroom',
          fetch: { type: 'rss', urls: ['https://www.mom.gov.sg/rss/press'] },
          schedule: '*/30 * * * *',
          policy: {
            robots_allowed: true,
            crawl_delay: 2,
            sitemap_urls: ['https://www.mom.gov.sg/sitemap.xml'],
          },
        },
      }),
      201,
    );
    const id = encodeURIComponent(created.seed_id);
    // Give it a life on the origin: promoted, then its contract edited (version 2).
    await inject(origin.app, {
      method: 'POST',
      url: '/api/v1/seeds/promote',
      payload: { seedIds: [created.seed_id] },
    });
    expectJson(
      await inject(origin.app, {
        method: 'PATCH',
        url: `/api/v1/seeds/${id}`,
        payload: { schedule: '0 * * * *' },
      }),
      200,
    );
    original = expectJson(await inject(origin.app, { method: 'GET', url: `/api/v1/seeds/${id}` }), 200);
    expect(original).toMatchObject({ status: 'active', version: 2 });
    expect(original.promoted_at).toEqual(expect.any(String));
  });
  afterAll(() => Promise.all([origin?.close(), copy?.close()]));

  const post = (t: TestSeedbed, payload: unknown) =>
    inject(t.app, { method: 'POST', url: '/api/v1/seeds', payload: payload as object });

  it('a GET body POSTed to a second instance makes the same seed, as a new draft', async () => {
    const made = expectJson(await post(copy, original), 201);
    expect(pick(made, IDENTITY)).toEqual(pick(original, IDENTITY));
    expect(pick(made, CONTRACT)).toEqual(pick(original, CONTRACT));
    expect(made).toMatchObject({
      status: 'draft',
      version: 1,
      promoted_at: null,
      discovery: {},
      provenance: { source: 'api' },
    });
    expect(made.created_at).not.toBe(original.created_at);
    // And it reads back the same way it was answered.
    const read = expectJson(
      await inject(copy.app, { method: 'GET', url: `/api/v1/seeds/${encodeURIComponent(made.seed_id)}` }),
      200,
    );
    expect(read).toEqual(made);
  });

  it('POSTed back to its own instance, it is the duplicate it is: a 409 naming the seed', async () => {
    const body = expectProblem(await post(origin, original), 409, 'seed_exists');
    expect(body.seed_id).toBe(original.seed_id);
  });

  it('a server-owned field is never a reason to refuse: status and version are ignored', async () => {
    const made = expectJson(
      await post(copy, { domain: 'b.gov.sg', country: 'sg', category: 'news', status: 'active', version: 7 }),
      201,
    );
    expect(made).toMatchObject({ status: 'draft', version: 1, promoted_at: null });
  });

  it('identity fields alone name the source, and a domain id keeps its authority', async () => {
    const made = expectJson(
      await post(copy, { seed_id: 'gov:de:example.de::news', country: 'de', category: 'news' }),
      201,
    );
    expect(made).toMatchObject({
      seed_id: 'gov:de:example.de::news',
      domain_id: 'gov:de:example.de',
      registrable_domain: 'example.de',
      source_type: 'government',
      entry_url: 'https://example.de/',
    });
    expect(
      expectJson(await post(copy, { registrable_domain: 'example.fr', country: 'fr', category: 'news' }), 201)
        .seed_id,
    ).toBe('other:fr:example.fr::news');
  });

  it('identity fields that disagree are a 400 naming each one', async () => {
    const base = { domain: 'mof.gov.my', country: 'my', category: 'news' };
    expectValidation(
      await post(copy, { ...base, registrable_domain: 'moh.gov.my' }),
      'body.registrable_domain',
    );
    expectValidation(await post(copy, { ...base, domain_id: 'gov:sg:mof.gov.my' }), 'body.domain_id');
    expectValidation(await post(copy, { ...base, domain_id: 'gov:my:moh.gov.my' }), 'body.domain_id');
    expectValidation(await post(copy, { ...base, seed_id: 'gov:my:mof.gov.my::policy' }), 'body.seed_id');
    expectValidation(
      await post(copy, { ...base, domain_id: 'gov:my:mof.gov.my', seed_id: 'edu:my:mof.gov.my::news' }),
      'body.seed_id',
    );
    expectValidation(await post(copy, { ...base, seed_id: 'not a seed id' }), 'body.seed_id');
    expectValidation(await post(copy, { ...base, domain_id: 'nope' }), 'body.domain_id');
    expectValidation(await post(copy, { country: 'my', category: 'news' }), 'body.domain');
    // Server-owned fields are checked for type, never for being present.
    expectValidation(await post(copy, { ...base, created_at: 'yesterday' }), 'body.created_at');
    expectValidation(await post(copy, { ...base, version: 0 }), 'body.version');
    // Nothing was made by any of these.
    const list = expectJson(await inject(copy.app, { method: 'GET', url: '/api/v1/seeds?country=my' }), 200);
    expect(list.pagination.total).toBe(0);
  });
});
