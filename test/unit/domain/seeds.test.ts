import { describe, expect, it } from 'vitest';
import { promoteSchema } from '../../../src/domain/seed-actions.js';
import {
  CONTRACT_FIELDS,
  canTransition,
  SEED_STATUSES,
  type SeedStatus,
  seedCreateSchema,
  seedPatchSchema,
} from '../../../src/domain/seeds.js';

describe('canTransition', () => {
  // docs/design.md §3: draft → active (promote); active ↔ suspended; any → archived; nothing leaves archived.
  const ALLOWED = new Set([
    'draft>active',
    'draft>archived',
    'active>suspended',
    'active>archived',
    'suspended>active',
    'suspended>archived',
  ]);
  const pairs = SEED_STATUSES.flatMap((from) => SEED_STATUSES.map((to) => [from, to] as const));

  it('covers all sixteen pairs', () => {
    expect(pairs).toHaveLength(16);
  });

  it.each(pairs)('%s → %s', (from, to) => {
    expect(canTransition(from, to)).toBe(ALLOWED.has(`${from}>${to}`));
  });

  it('refuses draft → suspended and anything out of archived', () => {
    expect(canTransition('draft', 'suspended')).toBe(false);
    for (const to of SEED_STATUSES) expect(canTransition('archived', to as SeedStatus)).toBe(false);
  });

  it('lets every live status be archived', () => {
    for (const from of ['draft', 'active', 'suspended'] as const)
      expect(canTransition(from, 'archived')).toBe(true);
  });
});

describe('seedCreateSchema', () => {
  const minimal = { domain: 'mom.gov.sg', country: 'SG', category: 'News' };

  it('accepts the minimal seed and normalises its identifiers', () => {
    expect(seedCreateSchema.parse(minimal)).toEqual({
      domain: 'mom.gov.sg',
      country: 'sg',
      category: 'news',
    });
  });

  it('accepts a full seed', () => {
    const full = {
      ...minimal,
      content_type: 'Press_Releases',
      source_type: 'government',
      name: ' Ministry of Manpower ',
      entry_url: 'https://www.mom.gov.sg/newsroom',
      fetch: { type: 'rss', urls: ['https://www.mom.gov.sg/rss'] },
      schedule: '0 */6 * * *',
      policy: {
        robots_url: 'https://www.mom.gov.sg/robots.txt',
        robots_allowed: true,
        crawl_delay: 2,
        sitemap_urls: ['https://www.mom.gov.sg/sitemap.xml'],
      },
    };
    const parsed = seedCreateSchema.parse(full);
    expect(parsed.content_type).toBe('press_releases');
    expect(parsed.name).toBe('Ministry of Manpower');
    expect(parsed.fetch).toEqual(full.fetch);
  });

  it("accepts a seed's own server-owned fields, as a GET body carries them (docs/design.md §3 round trip)", () => {
    const read = {
      ...minimal,
      seed_id: 'gov:sg:mom.gov.sg::news',
      domain_id: 'gov:sg:mom.gov.sg',
      registrable_domain: 'mom.gov.sg',
      status: 'active',
      version: 3,
      name: null,
      entry_url: null,
      schedule: null,
      discovery: { alive: true, state: 'alive' },
      provenance: { batch_id: 'b1', date: '2026-06-01' },
      created_at: '2026-06-01T00:00:00.000Z',
      updated_at: '2026-06-02T00:00:00.000Z',
      promoted_at: null,
    };
    expect(seedCreateSchema.safeParse(read).success).toBe(true);
    // The source may be named by its identity fields alone; the service checks they agree.
    expect(
      seedCreateSchema.safeParse({ country: 'sg', category: 'news', seed_id: read.seed_id }).success,
    ).toBe(true);
  });

  it.each(['@daily', '@hourly', '*/15 * * * *', '0 0 1 1 *'])('accepts schedule %j', (schedule) => {
    expect(seedCreateSchema.safeParse({ ...minimal, schedule }).success).toBe(true);
  });

  it.each([
    ['an unknown field', { ...minimal, colour: 'red' }],
    ['another unknown field', { ...minimal, feeds_found: 3 }],
    ['an unknown status', { ...minimal, status: 'live' }],
    ['a zero version', { ...minimal, version: 0 }],
    ['a timestamp that is not one', { ...minimal, created_at: 'yesterday' }],
    ['an empty domain', { ...minimal, domain: '  ' }],
    ['a domain over 2048 characters', { ...minimal, domain: 'a'.repeat(2049) }],
    ['no country', { domain: 'mom.gov.sg', category: 'news' }],
    ['a bad country', { ...minimal, country: 'sgp' }],
    ['a bad category', { ...minimal, category: 'a/b' }],
    ['a bad content type', { ...minimal, content_type: '../x' }],
    ['an unknown source type', { ...minimal, source_type: 'blog' }],
    ['a non-http entry URL', { ...minimal, entry_url: 'ftp://mom.gov.sg/' }],
    ['a relative entry URL', { ...minimal, entry_url: '/newsroom' }],
    ['an unknown fetch type', { ...minimal, fetch: { type: 'ftp', urls: [] } }],
    ['a javascript fetch URL', { ...minimal, fetch: { type: 'html', urls: ['javascript:alert(1)'] } }],
    ['a 4-field cron', { ...minimal, schedule: '* * * *' }],
    ['an unknown macro', { ...minimal, schedule: '@often' }],
    ['a negative crawl delay', { ...minimal, policy: { crawl_delay: -1 } }],
    ['an empty name', { ...minimal, name: ' ' }],
  ])('rejects %s', (_name, body) => {
    expect(seedCreateSchema.safeParse(body).success).toBe(false);
  });
});

describe('seedPatchSchema', () => {
  it.each([
    { name: 'New name' },
    { name: null },
    { status: 'suspended' },
    { schedule: '@weekly', expected_version: 3 },
    { entry_url: null },
    { policy: { robots_allowed: false } },
    { fetch: { type: 'sitemap', urls: ['https://example.com/sitemap.xml'] } },
  ])('accepts %j', (body) => {
    expect(seedPatchSchema.safeParse(body).success).toBe(true);
  });

  it.each([
    ['an empty patch', {}],
    ['only expected_version', { expected_version: 2 }],
    ['an unknown field', { name: 'x', colour: 'red' }],
    ['an immutable field', { domain_id: 'gov:sg:x.gov.sg' }],
    ['the version itself', { version: 2 }],
    ['an unknown status', { status: 'deleted' }],
    ['a zero expected_version', { name: 'x', expected_version: 0 }],
    ['a fractional expected_version', { name: 'x', expected_version: 1.5 }],
  ])('rejects %s', (_name, body) => {
    expect(seedPatchSchema.safeParse(body).success).toBe(false);
  });

  it('names the contract fields that raise the version', () => {
    expect([...CONTRACT_FIELDS].sort()).toEqual(['entry_url', 'fetch', 'policy', 'schedule']);
  });
});

describe('promoteSchema', () => {
  it('accepts explicit ids', () => {
    const parsed = promoteSchema.parse({ seedIds: ['gov:sg:mom.gov.sg::news'] });
    expect(parsed.seedIds).toEqual(['gov:sg:mom.gov.sg::news']);
  });

  it('accepts a filter and normalises it', () => {
    const parsed = promoteSchema.parse({ filter: { country: 'SG', category: 'News', robots_allowed: true } });
    expect(parsed.filter).toEqual({ country: 'sg', category: 'news', robots_allowed: true });
  });

  it('accepts a limit between 1 and 1,000,000 (left out: every match)', () => {
    expect(promoteSchema.safeParse({ filter: { country: 'sg' }, limit: 1 }).success).toBe(true);
    expect(promoteSchema.safeParse({ filter: { country: 'sg' }, limit: 1_000_000 }).success).toBe(true);
    expect(promoteSchema.parse({ filter: { country: 'sg' } }).limit).toBeUndefined();
  });

  it.each([
    ['neither ids nor filter', {}],
    ['both ids and filter', { seedIds: ['a::b'], filter: { country: 'sg' } }],
    ['an empty id list', { seedIds: [] }],
    ['an empty id', { seedIds: [''] }],
    ['more than 1000 ids', { seedIds: Array.from({ length: 1001 }, (_, i) => `id-${i}`) }],
    ['an unknown field', { seedIds: ['a'], force: true }],
    ['an unknown filter field', { filter: { status: 'draft' } }],
    ['a bad filter country', { filter: { country: 'xx' } }],
    ['a zero limit', { filter: { country: 'sg' }, limit: 0 }],
    ['a limit over 1,000,000', { filter: { country: 'sg' }, limit: 1_000_001 }],
    ['an empty filter (it would promote every draft)', { filter: {} }],
  ])('rejects %s', (_name, body) => {
    expect(promoteSchema.safeParse(body).success).toBe(false);
  });
});
