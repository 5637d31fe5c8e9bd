// The seed list's filter × sort cases, and seeds to ask plans of, shared by the SQLite and PostgreSQL plan tests
// (test/integration/seed-list-plans.test.ts, postgres-list-plans.test.ts).
import { SEED_SORTS, type SeedSort } from '../../src/domain/seeds.js';
import type { SeedTable } from '../../src/ports/database.js';
import { encodeCursor } from '../../src/services/cursor.js';
import type { ReviewFilter, SeedFilter } from '../../src/services/seed-repository/index.js';
import { seedOrder } from '../../src/services/seed-repository/list.js';
import { NO_FACTS } from '../../src/services/seed-repository/rows.js';

export type Filter = SeedFilter & ReviewFilter;

/** One value of each filter the list and the review page offer. */
export const EACH: Filter[] = [
  { country: 'de' },
  { source_type: 'media' },
  { category: 'news' },
  { language: 'fr' },
  { ai: 'allowed' },
  { freshness: 'fresh' },
  { freshness: 'unknown' },
  { health: 'failing' },
  { verdict: 'news' },
  { authority: 'com' },
  { robots_allowed: false },
  { fetch_type: 'rss' },
  { main_feed: true },
  { alive: false },
];

export const FILTERS: Filter[] = [
  {},
  { status: 'draft' },
  ...EACH,
  ...EACH.map((f) => ({ status: 'draft' as const, ...f })),
  ...EACH.map((f) => ({ status: 'draft' as const, country: 'de', ...f })),
  { status: 'active', verdict: 'news', health: 'ok' },
  { status: 'draft', category: 'news', verdict: 'maybe', language: 'fr' },
  { country: 'de', verdict: 'news' },
  { country: 'de', language: 'de', freshness: 'stale' },
  // A fact beside a walked filter: no kept total holds both, so these are counted.
  { status: 'draft', verdict: 'news', freshness: 'stale' },
  { status: 'draft', country: 'de', category: 'news', fetch_type: 'rss' },
  // A language with every other filter: alone, beside a status, beside a status and a country.
  ...EACH.map((f) => ({ language: 'fr', ...f })),
  ...EACH.map((f) => ({ status: 'draft' as const, language: 'fr', ...f })),
  ...EACH.map((f) => ({ status: 'active' as const, country: 'fr', language: 'fr', ...f })),
  { language: 'fr-ca' },
  { status: 'draft', language: 'en', country: 'de' },
];
export const SORTS: Array<SeedSort | undefined> = [undefined, ...SEED_SORTS];

const COUNTRIES = ['de', 'fr', 'sg', 'my'];

export function seedRow(i: number): SeedTable {
  const country = COUNTRIES[i % COUNTRIES.length] as string;
  const domain = `site${String(i).padStart(5, '0')}.example`;
  const authority = i % 3 === 0 ? 'gov' : 'com';
  const rate = i % 5 === 0 ? null : (i % 17) * 1.5;
  const stale = i % 7 === 0 ? null : i % 2 === 0;
  return {
    ...NO_FACTS,
    seed_id: `${authority}:${country}:${domain}::news`,
    domain_id: `${authority}:${country}:${domain}`,
    registrable_domain: domain,
    country,
    category: i % 4 === 0 ? 'politics' : 'news',
    content_type: 'news',
    source_type: i % 2 === 0 ? 'media' : 'government',
    status: i % 3 === 0 ? 'active' : 'draft',
    version: 1,
    name: null,
    entry_url: `https://${domain}/`,
    fetch: JSON.stringify({ type: i % 2 === 0 ? 'rss' : 'html', urls: [] }),
    schedule: null,
    policy: JSON.stringify(i % 11 === 0 ? {} : { robots_allowed: i % 4 !== 1 }),
    discovery: JSON.stringify({ alive: i % 6 === 0 ? null : i % 5 !== 2 }),
    provenance: '{}',
    // Every tenth seed shares a creation time with its neighbour, so the tie-break is walked too.
    created_at: new Date(Date.UTC(2026, 0, 1) + Math.floor(i / 2) * 60_000).toISOString(),
    updated_at: '2026-01-01T00:00:00.000Z',
    promoted_at: null,
    human_fields: '[]',
    last_revision: 1,
    feeds: JSON.stringify(i % 3 === 1 ? [{ url: `https://${domain}/feed`, role: 'main' }] : []),
    freshness: stale === null ? null : JSON.stringify({ items_per_day: rate, stale }),
    items_per_day: rate,
    language_codes: i % 10 === 0 ? ',en,fr,fr-ca,' : i % 2 === 0 ? ',fr,' : ',de,',
    ai_status: ['allowed', 'disallowed', 'reserved', null][i % 4] as string | null,
    health_state: ['ok', 'failing', 'stale', null][i % 4] as string | null,
    news_verdict: ['news', 'maybe', 'not_news', null][i % 4] as string | null,
  };
}

/** A cursor past the middle of `seeds` rows in each order: the page it starts is a range, not a scan. */
export function cursorFor(sort: SeedSort | undefined, seeds: number): string {
  const order = seedOrder(sort);
  const middle = seedRow(Math.floor(seeds / 2));
  const value = order.key === 'created_at' ? middle.created_at : order.key === 'rate_rank' ? -3 : null;
  return encodeCursor({
    order: order.name,
    after: order.key === 'seed_id' ? [middle.seed_id] : [value, middle.seed_id],
  });
}
