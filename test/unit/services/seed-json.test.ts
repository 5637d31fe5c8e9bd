// The export's JSON line straight from a row's columns must be the text JSON.stringify(seedOfRow(row)) gives, byte
// for byte, for every shape a stored row can have: facts or none, the AI fact merged into the policy, a discovery
// an older writer left, odd characters in the text columns.
import { describe, expect, it } from 'vitest';
import { resolveSeedIdentity } from '../../../src/domain/seed-identity.js';
import { seedCreateSchema } from '../../../src/domain/seeds.js';
import type { SeedTable } from '../../../src/ports/database.js';
import {
  draftRowOf,
  factColumns,
  healthColumns,
  SEED_COLUMNS,
  seedColumnsOf,
  seedOfRow,
} from '../../../src/services/seed-repository/rows.js';
import { seedJsonOf } from '../../../src/services/seed-repository/seed-json.js';

const AT = '2026-11-26T10:00:00.000Z';

function draft(line: Record<string, unknown>): SeedTable {
  const body = seedCreateSchema.parse(line);
  return draftRowOf(body, resolveSeedIdentity(body), AT, { source: 'import', file: 'a "b"\n' });
}

const plain = draft({
  domain: 'example.de',
  country: 'de',
  category: 'news',
  fetch: { type: 'rss', urls: ['https://example.de/feed'] },
});

const withFacts: SeedTable = {
  ...draft({
    domain: 'zeitung.de',
    country: 'de',
    category: 'news',
    name: 'Die "Zeitung"\n\t\u2028 – 新聞 😀 \u0001',
    schedule: '5 * * * *',
    policy: { robots_allowed: true, crawl_delay: 1.5, sitemap_urls: ['https://zeitung.de/s.xml'] },
  }),
  ...factColumns({
    feeds: [{ url: 'https://zeitung.de/rss', title: 'Ä', type: 'rss', role: 'main' } as never],
    sitemap: null,
    freshness: { items_per_day: 12.25, stale: false } as never,
    languages: [{ code: 'de', share: 0.9 } as never],
    ai: { status: 'disallowed', sources: ['robots'] } as never,
    news: { verdict: 'news', reasons: ['x'] } as never,
    country_guess: { country: 'de', confidence: 1e-7 } as never,
  }),
  ...healthColumns({ state: 'ok', consecutive_failures: 0 } as never),
  discovery: JSON.stringify({
    alive: true,
    checked_at: AT,
    http_status: 200,
    state: 'ok',
    error_code: null,
  }),
  status: 'active',
  version: 3,
  promoted_at: AT,
};

const ROWS: Array<[string, SeedTable]> = [
  ['a new draft', plain],
  ['a seed with every fact, odd characters in its name', withFacts],
  ['the AI fact into an empty policy', { ...plain, policy: '{}', ai: '{"status":"allowed"}' }],
  ['an AI column holding null', { ...withFacts, ai: 'null' }],
  ['a policy that has an ai key of its own', { ...withFacts, policy: '{"ai":1,"robots_allowed":false}' }],
  ['a policy with ai deeper in it', { ...withFacts, policy: '{"x":{"ai":1},"y":"\\"ai\\":"}' }],
  ['a policy stored as null', { ...withFacts, policy: 'null' }],
  [
    'a discovery an older writer left (other order, an unknown key, missing keys)',
    { ...withFacts, discovery: '{"state":"dead","extra":1,"alive":false}' },
  ],
  ['an empty discovery and provenance', { ...plain, discovery: '', provenance: '' }],
  ['a version read as text', { ...withFacts, version: '7' as never }],
  ['nullable columns all null', { ...plain, name: null, entry_url: null, schedule: null, sitemap: null }],
];

describe('seedJsonOf', () => {
  it.each(ROWS)('is JSON.stringify(seedOfRow(row)) for %s', (_name, row) => {
    const values = SEED_COLUMNS.map((column) => row[column]);
    expect(seedJsonOf(values)).toBe(JSON.stringify(seedOfRow(row)));
  });

  it('reads the columns in SEED_COLUMNS order, as seedColumnsOf does', () => {
    const values = SEED_COLUMNS.map((column) => withFacts[column]);
    expect(seedOfRow(seedColumnsOf(values))).toEqual(seedOfRow(withFacts));
    expect(JSON.parse(seedJsonOf(values))).toEqual(seedOfRow(withFacts));
  });
});
