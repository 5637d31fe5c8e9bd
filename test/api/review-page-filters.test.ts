// The review page's newer filters, in process: drafts by language, AI policy, freshness and latest check, sorted
// by publication rate; promote every draft a filter matches (answered per seed, agreeing with the API); the
// changes page by kind and since a day, paginated; and the dashboard's counts of drafts waiting, failing sources
// and last week's changes, each linking to the list it counts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AI_CRAWLER_LIST_DATE, type AiPolicy } from '../../src/engine/ai-policy.js';
import {
  API_KEYS,
  API_KEYS_ENV,
  bearer,
  createApiSeedbed,
  inject,
  newsDraft,
  newsSeedId,
  upsertDraft,
} from '../support/api-helpers.js';
import type { ContractDraft } from '../support/contract-runs.js';
import type { TestSeedbed } from '../support/harness.js';

const ORIGIN = 'http://seedbed.local';
const HOST = { host: 'seedbed.local' };
const NOW = new Date('2026-06-15T12:00:00.000Z');

function aiPolicy(status: AiPolicy['status']): AiPolicy {
  return {
    crawler_list: AI_CRAWLER_LIST_DATE,
    robots: 'read',
    disallowed_agents: status === 'disallowed' ? ['GPTBot'] : [],
    allowed_agents: [],
    named: [],
    tdm_reservation: null,
    tdm_policy_url: null,
    tdm_source: null,
    noai: false,
    noimageai: false,
    status,
  };
}

function draft(
  domain: string,
  o: { lang: string; ai: AiPolicy['status']; rate: number | null; stale: boolean | null; alive: boolean },
): ContractDraft {
  return newsDraft(domain, {
    discovery: { alive: o.alive, checked_at: NOW.toISOString(), http_status: o.alive ? 200 : 503 },
    facts: {
      feeds: [],
      sitemap: null,
      languages: [{ code: o.lang, sources: ['html_lang'] }],
      ai: aiPolicy(o.ai),
      freshness: {
        newest_item_at: o.rate === null ? null : NOW.toISOString(),
        items_last_7d: 0,
        items_per_day: o.rate,
        measured_at: NOW.toISOString(),
        stale: o.stale,
        based_on: o.rate === null ? null : 'feed',
      },
    },
  });
}

describe('the review page: filters, promote all matching, changes and dashboard', () => {
  let t: TestSeedbed;
  let cookie: string;
  beforeAll(async () => {
    t = await createApiSeedbed({ SEEDBED_API_KEYS: API_KEYS_ENV }, { clock: () => NOW });
    const upsert = (d: ContractDraft) => upsertDraft(t, d);
    await upsert(draft('paris.fr', { lang: 'fr', ai: 'disallowed', rate: 12, stale: false, alive: true }));
    await upsert(draft('lyon.fr', { lang: 'fr', ai: 'allowed', rate: 0.5, stale: false, alive: true }));
    await upsert(draft('vieux.fr', { lang: 'fr', ai: 'allowed', rate: 0.01, stale: true, alive: true }));
    await upsert(draft('berlin.fr', { lang: 'de', ai: 'reserved', rate: null, stale: null, alive: false }));
    await upsert(draft('mort.fr', { lang: 'fr', ai: 'allowed', rate: 3, stale: false, alive: false }));
    // Their latest check did not reach them: what a contract run records as health (docs/rechecks.md).
    await t.seedbed.database.db
      .updateTable('seeds')
      .set({
        health_state: 'failing',
        health: JSON.stringify({
          state: 'failing',
          consecutive_failures: 1,
          last_checked_at: NOW.toISOString(),
          last_ok_at: null,
          last_error: 'dead: ENOTFOUND',
          last_batch_id: 'b1',
        }),
      })
      .where('seed_id', 'in', [newsSeedId('berlin.fr'), newsSeedId('mort.fr')])
      .execute();
    // 30 changes over 30 days (one a day, newest today), of two kinds.
    await t.seedbed.database.db
      .insertInto('domain_changes')
      .values(
        Array.from({ length: 30 }, (_, i) => ({
          id: `0-${String(99 - i).padStart(3, '0')}`,
          registrable_domain: i % 2 === 0 ? 'paris.fr' : 'lyon.fr',
          domain_id: 'com:fr:paris.fr',
          kind: i % 3 === 0 ? 'feed_removed' : 'site_dead',
          message: `change ${i}`,
          before: null,
          after: null,
          evidence: '{}',
          batch_id: null,
          detected_at: new Date(NOW.getTime() - i * 24 * 3600 * 1000).toISOString(),
        })),
      )
      .execute();
    const login = await inject(t.app, {
      method: 'POST',
      url: '/ui/login',
      headers: { ...HOST, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ key: API_KEYS.write, next: '/ui' }).toString(),
    });
    cookie = String(login.headers['set-cookie']).split(';')[0] as string;
  });
  afterAll(() => t.close());

  const get = (url: string) => inject(t.app, { method: 'GET', url, headers: { ...HOST, cookie } });
  const ids = async (q: string) =>
    [...(await get(`/ui/seeds?${q}`)).body.matchAll(/<small>([^<]+)<\/small>/g)].map((m) => m[1]);

  it('filters drafts by language, AI policy, freshness and latest check; sorts by publication rate', async () => {
    expect(await ids('language=de')).toEqual([newsSeedId('berlin.fr')]);
    expect(await ids('ai=disallowed')).toEqual([newsSeedId('paris.fr')]);
    expect(await ids('freshness=stale')).toEqual([newsSeedId('vieux.fr')]);
    expect(await ids('freshness=unknown')).toEqual([newsSeedId('berlin.fr')]);
    expect(await ids('alive=false')).toEqual([newsSeedId('berlin.fr'), newsSeedId('mort.fr')]);
    expect(await ids('health=failing')).toEqual([newsSeedId('berlin.fr'), newsSeedId('mort.fr')]);
    expect(await ids('health=ok')).toEqual([]);
    expect(await ids('language=fr&ai=allowed&freshness=fresh&sort=-rate')).toEqual([
      newsSeedId('mort.fr'),
      newsSeedId('lyon.fr'),
    ]);
    expect(await ids('sort=-rate')).toEqual(
      ['paris', 'mort', 'lyon', 'vieux', 'berlin'].map((d) => newsSeedId(`${d}.fr`)),
    );
    // The form shows what is chosen; a malformed value drops that filter only.
    const page = (await get('/ui/seeds?language=fr&ai=allowed&freshness=stale&sort=-rate')).body;
    expect(page).toContain('<option value="-rate" selected>');
    expect(page).toContain('name="language" value="fr"');
    expect(await ids('language=f%25&freshness=old&sort=rate&ai=disallowed')).toEqual([
      newsSeedId('paris.fr'),
    ]);
  });

  it('promotes every draft a filter matches, answered per seed, as the API lists them', async () => {
    const list = (await get('/ui/seeds?language=fr&freshness=fresh')).body;
    expect(list).toContain('Promote all 3 matching drafts');
    expect(list).toContain('Archive all 3 matching draft seeds');
    // Without a filter the page (as the API) offers no promote of everything.
    expect((await get('/ui/seeds')).body).not.toContain('value="promote-matching"');
    const form = new URLSearchParams({
      action: 'promote-matching',
      language: 'fr',
      freshness: 'fresh',
      back: '/ui/seeds',
    });
    const post = (body: URLSearchParams) =>
      inject(t.app, {
        method: 'POST',
        url: '/ui/seeds/bulk',
        headers: { ...HOST, cookie, origin: ORIGIN, 'content-type': 'application/x-www-form-urlencoded' },
        payload: body.toString(),
      });
    const done = await post(form);
    expect(done.statusCode).toBe(200);
    expect(done.body).toContain('Promoted 3 of 3 drafts matching language fr, freshness fresh.');
    for (const d of ['paris', 'lyon', 'mort'])
      expect(done.body).toContain(`>${newsSeedId(`${d}.fr`)}</a></td><td class="">promoted`);
    const active = await inject(t.app, {
      url: '/api/v1/seeds?status=active',
      headers: bearer(API_KEYS.read),
    });
    expect(active.json().data.map((s: { seed_id: string }) => s.seed_id)).toEqual(
      ['lyon', 'mort', 'paris'].map((d) => newsSeedId(`${d}.fr`)),
    );
    const empty = await post(new URLSearchParams({ action: 'promote-matching', back: '/ui/seeds' }));
    expect(empty.statusCode).toBe(400);
    expect(empty.body).toContain('needs a filter');
  });

  it('lists changes by kind and since a day, newest first, a page at a time', async () => {
    const page = (await get('/ui/changes')).body;
    expect(page).toContain('data-changes-total="30"');
    expect(page).toContain('1–25 shown');
    expect(page).toContain('rel="next"');
    const older = (await get('/ui/changes?skip=25')).body;
    expect([...older.matchAll(/<td>change (\d+)<\/td>/g)].map((m) => Number(m[1]))).toEqual([
      25, 26, 27, 28, 29,
    ]);
    const kind = (await get('/ui/changes?kind=feed_removed')).body;
    expect(kind).toContain('data-changes-total="10"');
    expect(kind).not.toContain('>change 1<');
    const since = (await get('/ui/changes?since=2026-06-13&kind=site_dead')).body;
    // Days 0..2 back: changes 0, 1, 2, of which 1 and 2 are site_dead; newest first.
    expect([...since.matchAll(/<td>change (\d+)<\/td>/g)].map((m) => Number(m[1]))).toEqual([1, 2]);
    expect((await get('/ui/changes?since=not-a-day&kind=nope')).body).toContain('data-changes-total="30"');
  });

  it('counts drafts waiting, failing sources and the last 7 days of changes, each linking to its list', async () => {
    const body = (await get('/ui')).body;
    const card = (name: string) =>
      new RegExp(`data-dashboard="${name}"[\\s\\S]*?</section>`).exec(body)?.[0] ?? '';
    expect(card('drafts')).toContain('<strong>2</strong> to review');
    // berlin (draft) and mort (promoted above) failed their latest check.
    expect(card('failing')).toContain(
      '<a href="/ui/seeds?status=active&amp;health=failing"><strong>1</strong> active</a>',
    );
    expect(card('failing')).toContain(
      '<a href="/ui/seeds?status=draft&amp;health=failing"><strong>1</strong> draft</a>',
    );
    // Since 2026-06-08 00:00: days 0..7 back, 8 changes.
    expect(card('changes')).toContain(
      '<a href="/ui/changes?since=2026-06-08"><strong>8</strong> since 2026-06-08</a>',
    );
    expect((await get('/ui/changes?since=2026-06-08')).body).toContain('data-changes-total="8"');
  });
});
