// What a seed knows about its source beside its contract: freshness, languages and policy.ai as answered, the
// ?language= and ?ai= list filters, the snapshot's counts by AI policy, and that none of it is contract.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_CRAWLER_LIST_DATE, type AiPolicy } from '../../src/engine/ai-policy.js';
import type { Freshness } from '../../src/engine/freshness.js';
import type { SourceLanguage } from '../../src/engine/languages.js';
import {
  createApiSeedbed,
  expectProblem,
  inject,
  listedSeedIds,
  newsDraft,
  upsertDraft,
} from '../support/api-helpers.js';
import type { ContractDraft } from '../support/contract-runs.js';
import type { TestSeedbed } from '../support/harness.js';

const FRESHNESS: Freshness = {
  newest_item_at: '2026-06-01T10:00:00.000Z',
  items_last_7d: 30,
  items_per_day: 4.29,
  measured_at: '2026-06-01T12:00:00.000Z',
  stale: false,
  based_on: 'feed',
};

function ai(status: AiPolicy['status'], extra: Partial<AiPolicy> = {}): AiPolicy {
  return {
    crawler_list: AI_CRAWLER_LIST_DATE,
    robots: 'read',
    disallowed_agents: status === 'disallowed' ? ['GPTBot'] : [],
    allowed_agents: status === 'disallowed' ? ['CCBot'] : ['GPTBot', 'CCBot'],
    named: status === 'disallowed' ? [{ agent: 'GPTBot', allowed: false, line: 2 }] : [],
    tdm_reservation: status === 'reserved' ? true : null,
    tdm_policy_url: null,
    tdm_source: status === 'reserved' ? 'tdmrep.json' : null,
    noai: false,
    noimageai: false,
    status,
    ...extra,
  };
}

function draft(domain: string, languages: SourceLanguage[], policy: AiPolicy | undefined): ContractDraft {
  return newsDraft(domain, {
    facts: { feeds: [], sitemap: null, freshness: FRESHNESS, languages, ai: policy },
  });
}

const PARIS = 'com:fr:paris.fr::news';

describe('seed source facts', () => {
  let t: TestSeedbed;
  let lyon: string;
  const get = (url: string) => inject(t.app, { method: 'GET', url });
  const ids = (query: string) => listedSeedIds(t, query);
  const upsert = (d: ContractDraft) => upsertDraft(t, d);

  beforeAll(async () => {
    t = await createApiSeedbed();
    await upsert(draft('paris.fr', [{ code: 'fr', sources: ['html_lang', 'feed'] }], ai('disallowed')));
    await upsert(draft('quebec.fr', [{ code: 'fr-ca', sources: ['html_lang'] }], ai('reserved')));
    await upsert(
      draft('bilingue.fr', [{ code: 'en', sources: ['detected'], confidence: 0.9 }], ai('allowed')),
    );
    // A person's seed: nothing measured yet.
    const made = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds',
      payload: { domain: 'lyon.fr', country: 'fr', category: 'news' },
    });
    expect(made.statusCode, made.body).toBe(201);
    lyon = made.json().seed_id;
  });
  afterAll(() => t.close());

  it('answers freshness, languages and policy.ai (never a top-level ai)', async () => {
    const seed = (await get(`/api/v1/seeds/${encodeURIComponent(PARIS)}`)).json();
    expect(seed.freshness).toEqual(FRESHNESS);
    expect(seed.languages).toEqual([{ code: 'fr', sources: ['html_lang', 'feed'] }]);
    expect(seed.policy).toEqual({
      robots_url: 'https://paris.fr/robots.txt',
      robots_allowed: true,
      ai: ai('disallowed'),
    });
    expect(seed).not.toHaveProperty('ai');
    const person = (await get(`/api/v1/seeds/${encodeURIComponent(lyon)}`)).json();
    expect(person).toMatchObject({ freshness: null, languages: [], policy: {} });
    expect(person.policy).not.toHaveProperty('ai');
  });

  it('filters by language: a primary subtag matches its regional tags, any case', async () => {
    expect(await ids('language=fr')).toEqual(['com:fr:paris.fr::news', 'com:fr:quebec.fr::news']);
    expect(await ids('language=FR-CA')).toEqual(['com:fr:quebec.fr::news']);
    expect(await ids('language=en')).toEqual(['com:fr:bilingue.fr::news']);
    expect(await ids('language=de')).toEqual([]);
    expectProblem(await get('/api/v1/seeds?language=f%25'), 400);
  });

  it('filters by AI policy', async () => {
    expect(await ids('ai=disallowed')).toEqual(['com:fr:paris.fr::news']);
    expect(await ids('ai=reserved')).toEqual(['com:fr:quebec.fr::news']);
    expect(await ids('ai=allowed')).toEqual(['com:fr:bilingue.fr::news']);
    expect(await ids('ai=allowed&language=fr')).toEqual([]);
    expectProblem(await get('/api/v1/seeds?ai=maybe'), 400);
  });

  it('counts seeds by AI policy in the snapshot', async () => {
    const snap = (await get('/api/v1/metadata/snapshot')).json();
    expect(snap.totals.seeds_by_ai).toEqual({ disallowed: 1, reserved: 1, allowed: 1, unknown: 1 });
  });

  it('facts are not contract: a new AI policy or language leaves the version, and policy.ai is never stored', async () => {
    const before = (await get(`/api/v1/seeds/${encodeURIComponent(PARIS)}`)).json();
    const again = await upsert(draft('paris.fr', [{ code: 'de', sources: ['feed'] }], ai('allowed')));
    expect(again.outcome).toBe('unchanged');
    const after = (await get(`/api/v1/seeds/${encodeURIComponent(PARIS)}`)).json();
    expect(after.version).toBe(before.version);
    expect(after.policy.ai.status).toBe('allowed');
    expect(await ids('language=de')).toEqual([PARIS]);

    // A GET posted back to another seed id keeps its policy but not its policy.ai.
    const { seed_id, domain_id, registrable_domain, ...copy } = after;
    const posted = await inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds',
      payload: { ...copy, domain: 'copy.fr' },
    });
    expect(posted.statusCode, posted.body).toBe(201);
    expect(posted.json().policy).toEqual({ robots_url: 'https://paris.fr/robots.txt', robots_allowed: true });
    expect(posted.json()).toMatchObject({ freshness: null, languages: [] });

    // A PATCH cannot set it either: the key is not part of the policy a person edits.
    const patched = await inject(t.app, {
      method: 'PATCH',
      url: `/api/v1/seeds/${encodeURIComponent(PARIS)}`,
      payload: { policy: { crawl_delay: 2, ai: { status: 'allowed' } } },
    });
    expect(patched.statusCode, patched.body).toBe(200);
    // crawl_delay is the contract change; the ai key sent with it is dropped, the measured one still shown.
    expect(patched.json().version).toBe(before.version + 1);
    expect(patched.json().policy).toMatchObject({ crawl_delay: 2, ai: ai('allowed') });
    const stored = await t.seedbed.database.db
      .selectFrom('seeds')
      .select('policy')
      .where('seed_id', '=', PARIS)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.policy)).not.toHaveProperty('ai');
  });
});
