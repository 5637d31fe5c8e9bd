// POST /api/v1/seeds/import: JSON lines in, one answer per line out (then a summary), idempotent by seed id. An
// export imported into an empty instance recreates its seeds and, sent again, is unchanged line for line; a
// seed that differs gets a proposed revision (a person's edit is never overwritten); a bad line is rejected by
// number and field while the others go in; the body is bounded (413) and only JSON lines are taken (415).
import { request } from 'node:http';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GROUP_LINES } from '../../src/services/seed-import.js';
import { FOLD_AT } from '../../src/services/seed-repository/totals.js';
import { createApiSeedbed, expectJson, expectProblem, inject, newsDraft } from '../support/api-helpers.js';
import { writeDraft } from '../support/contract-runs.js';
import type { TestSeedbed } from '../support/harness.js';

const CONTRACT = ['name', 'entry_url', 'fetch', 'schedule'] as const;
const IDENTITY = [
  'seed_id',
  'domain_id',
  'registrable_domain',
  'country',
  'category',
  'content_type',
] as const;
const pick = (seed: Record<string, unknown>, keys: readonly string[]) =>
  Object.fromEntries(keys.map((key) => [key, seed[key]]));
const withoutAi = (policy: Record<string, unknown>) => {
  const { ai: _ai, ...rest } = policy;
  return rest;
};

type Answer = {
  line: number;
  seed_id: string | null;
  result: string;
  reason?: string;
  errors?: Array<{ path: string; message: string }>;
  proposed_revision?: number;
  summary?: Record<string, number>;
  error?: { status: number; code: string };
};

function answersOf(body: string): Answer[] {
  expect(body.endsWith('\n')).toBe(true);
  return body
    .trimEnd()
    .split('\n')
    .map((line) => JSON.parse(line) as Answer);
}

/** A seed line as a person would write it: `site<i>.fr`, French news, read through its feed. */
const seedLine = (i: number, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    domain: `site${i}.fr`,
    country: 'fr',
    category: 'news',
    name: `Site ${i}`,
    fetch: { type: 'rss', urls: [`https://site${i}.fr/feed`] },
    ...extra,
  });

/** The body bound of the second instance: a group of 300-byte lines and a little more. */
const BOUND = GROUP_LINES * 400;

describe('POST /api/v1/seeds/import', () => {
  let origin: TestSeedbed;
  let copy: TestSeedbed;
  let exported: string;
  const post = (t: TestSeedbed, payload: string | Readable, contentType = 'application/x-ndjson') =>
    inject(t.app, {
      method: 'POST',
      url: '/api/v1/seeds/import',
      headers: { 'content-type': contentType },
      payload,
    });

  beforeAll(async () => {
    [origin, copy] = await Promise.all([
      createApiSeedbed(),
      // A group of short lines fits under this bound, and a few groups do not.
      createApiSeedbed({ SEEDBED_MAX_IMPORT_BYTES: String(BOUND) }),
    ]);
    const { database, services } = origin.seedbed;
    // Seeds of every kind: contract runs with facts (an AI policy shown in policy), a person's seed promoted and
    // edited, a seed without a name or schedule.
    await database.transaction(async (trx) => {
      for (const host of ['lemonde.fr', 'liberation.fr', 'lefigaro.fr'])
        await writeDraft(services, trx, {
          ...newsDraft(host),
          facts: {
            feeds: [],
            sitemap: null,
            ai: {
              crawler_list: '2026-11-23',
              robots: 'read',
              disallowed_agents: ['GPTBot'],
              allowed_agents: [],
              named: [{ agent: 'GPTBot', allowed: false, line: 1 }],
              tdm_reservation: false,
              tdm_policy_url: null,
              tdm_source: null,
              noai: false,
              noimageai: false,
              status: 'disallowed',
            },
          },
        });
      await writeDraft(services, trx, { ...newsDraft('ouest-france.fr'), name: null, schedule: null });
    });
    const made = await services.seeds.create({
      domain: 'https://www.mom.gov.sg/newsroom',
      country: 'sg',
      category: 'news',
      content_type: 'press',
      schedule: '*/30 * * * *',
      policy: { robots_allowed: true, crawl_delay: 2 },
    });
    await services.seeds.promote({ seedIds: [made.seed_id] });
    await services.seeds.patch(made.seed_id, { schedule: '0 * * * *' }, 'reviewer');
    const response = await inject(origin.app, { method: 'GET', url: '/api/v1/seeds/export' });
    expect(response.statusCode).toBe(200);
    exported = response.body;
  });
  afterAll(() => Promise.all([origin?.close(), copy?.close()]));

  it('an export imported into an empty instance recreates its seeds as drafts, then answers unchanged for every line', async () => {
    const originals = exported
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(originals).toHaveLength(5);
    const first = await post(copy, exported);
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const answers = answersOf(first.body);
    expect(answers.slice(0, -1)).toEqual(
      originals.map((seed, i) => ({ line: i + 1, seed_id: seed.seed_id, result: 'created' })),
    );
    expect(answers.at(-1)).toEqual({
      summary: { lines: 5, created: 5, unchanged: 0, proposed: 0, rejected: 0 },
    });
    for (const original of originals) {
      const id = encodeURIComponent(original.seed_id as string);
      const made = expectJson(await inject(copy.app, { method: 'GET', url: `/api/v1/seeds/${id}` }), 200);
      expect(pick(made, IDENTITY)).toEqual(pick(original, IDENTITY));
      expect(pick(made, CONTRACT)).toEqual(pick(original, CONTRACT));
      expect(made.source_type).toBe(original.source_type);
      // The contract policy; the AI policy is a fact of discovery, found again by the next run here.
      expect(made.policy).toEqual(withoutAi(original.policy as Record<string, unknown>));
      expect(made).toMatchObject({ status: 'draft', version: 1, provenance: { source: 'import' } });
    }
    const again = answersOf((await post(copy, exported)).body);
    expect(again.slice(0, -1).map((a) => a.result)).toEqual(Array(5).fill('unchanged'));
    expect(again.at(-1)?.summary).toMatchObject({ lines: 5, unchanged: 5 });
  });

  it("a seed that differs gets a proposed revision by the importer: a person's edit is kept, and sending again records nothing new", async () => {
    const seedId = 'com:fr:lemonde.fr::news';
    const url = `/api/v1/seeds/${encodeURIComponent(seedId)}`;
    expectJson(await inject(copy.app, { method: 'PATCH', url, payload: { schedule: '0 6 * * *' } }), 200);
    const answers = answersOf((await post(copy, exported)).body);
    const lemonde = answers.find((a) => a.seed_id === seedId);
    expect(lemonde).toEqual({
      line: expect.any(Number),
      seed_id: seedId,
      result: 'proposed',
      proposed_revision: 3,
    });
    expect(answers.at(-1)?.summary).toMatchObject({ lines: 5, unchanged: 4, proposed: 1 });
    const seed = expectJson(await inject(copy.app, { method: 'GET', url }), 200);
    expect(seed).toMatchObject({ schedule: '0 6 * * *', version: 2 });
    const revisions = expectJson(await inject(copy.app, { method: 'GET', url: `${url}/revisions` }), 200);
    expect(revisions.data.at(-1)).toMatchObject({
      number: 3,
      status: 'proposed',
      author: expect.stringMatching(/^anonymous/),
      base_version: 2,
      changes: { schedule: { before: '0 6 * * *', after: '5 * * * *' } },
    });
    const twice = answersOf((await post(copy, exported)).body).find((a) => a.seed_id === seedId);
    expect(twice).toMatchObject({ result: 'proposed', proposed_revision: 3 });
    const after = expectJson(await inject(copy.app, { method: 'GET', url: `${url}/revisions` }), 200);
    expect(after.pagination.total).toBe(3);
  });

  it('even a draft nobody edited is proposed to, never overwritten', async () => {
    // On the origin, the seed is a contract run's draft: no field of it is a person's.
    const line = JSON.stringify({
      seed_id: 'com:fr:liberation.fr::news',
      country: 'fr',
      category: 'news',
      name: 'Libé',
    });
    const [answer] = answersOf((await post(origin, `${line}\n`)).body);
    expect(answer).toMatchObject({ result: 'proposed', proposed_revision: 2 });
    const seed = expectJson(
      await inject(origin.app, {
        method: 'GET',
        url: `/api/v1/seeds/${encodeURIComponent('com:fr:liberation.fr::news')}`,
      }),
      200,
    );
    expect(seed.name).toBe('liberation.fr');
  });

  it('bad lines are rejected by line number and field; the lines around them go in', async () => {
    const body = [
      seedLine(1),
      '{"domain": "site2.fr", "country": "fr",',
      '',
      seedLine(3, { fetch: { type: 'rss', urls: ['ftp://site3.fr/feed'] } }),
      JSON.stringify({ domain: 'site4.fr', category: 'news' }),
      seedLine(5, { surprise: true }),
      JSON.stringify({ seed_id: 'gov:sg:site6.fr::news', country: 'fr', category: 'news' }),
      seedLine(7),
    ].join('\n');
    const utf8 = Buffer.concat([
      Buffer.from(`${body}\n`),
      Buffer.from([0x7b, 0xff, 0x7d, 0x0a]),
      Buffer.from(seedLine(9)),
    ]);
    const response = await post(copy, utf8 as unknown as string);
    const answers = answersOf(response.body);
    expect(answers.slice(0, -1).map((a) => [a.line, a.result])).toEqual([
      [1, 'created'],
      [2, 'rejected'],
      [4, 'rejected'],
      [5, 'rejected'],
      [6, 'rejected'],
      [7, 'rejected'],
      [8, 'created'],
      [9, 'rejected'],
      [10, 'created'],
    ]);
    const at = (line: number) => answers.find((a) => a.line === line) as Answer;
    expect(at(2).reason).toMatch(/^line 2 is not valid JSON/);
    expect(at(2).seed_id).toBeNull();
    expect(at(4).errors?.map((e) => e.path)).toEqual(['fetch.urls.0']);
    expect(at(5).errors?.map((e) => e.path)).toEqual(['country']);
    expect(at(6).errors).toEqual([{ path: 'surprise', message: 'is not a known field' }]);
    expect(at(7)).toMatchObject({
      seed_id: 'gov:sg:site6.fr::news',
      errors: [{ path: expect.stringMatching(/^(seed_id|domain_id)$/) }],
    });
    expect(at(9).reason).toBe('line 9 is not valid UTF-8 at byte 1');
    expect(answers.at(-1)).toEqual({
      summary: { lines: 9, created: 3, unchanged: 0, proposed: 0, rejected: 6 },
    });
  });

  it('a line over 1 MiB is rejected by number without stopping the import', async () => {
    const long = JSON.stringify({
      domain: 'big.fr',
      country: 'fr',
      category: 'news',
      name: 'x'.repeat(1024 * 1024),
    });
    const t = await createApiSeedbed({ SEEDBED_MAX_IMPORT_BYTES: String(4 * 1024 * 1024) });
    try {
      const answers = answersOf((await post(t, `${seedLine(11)}\n${long}\n${seedLine(12)}`)).body);
      expect(answers.slice(0, 3)).toEqual([
        { line: 1, seed_id: 'other:fr:site11.fr::news', result: 'created' },
        { line: 2, seed_id: null, result: 'rejected', reason: 'line 2 is longer than 1048576 bytes' },
        { line: 3, seed_id: 'other:fr:site12.fr::news', result: 'created' },
      ]);
    } finally {
      await t.close();
    }
  });

  it('a large import leaves the kept totals folded: a row per key, summing to the seeds (PostgreSQL folds as it ends)', async () => {
    const lines = Array.from({ length: FOLD_AT + 10 }, (_, i) => seedLine(50_000 + i));
    const answers = answersOf((await post(origin, lines.join('\n'))).body);
    expect(answers.at(-1)?.summary).toMatchObject({ created: lines.length, rejected: 0 });
    const { db } = origin.seedbed.database;
    const seeds = await db
      .selectFrom('seeds')
      .select((eb) => eb.fn.countAll().as('n'))
      .executeTakeFirstOrThrow();
    for (const [table, key] of [
      ['seed_totals', ['status', 'country']],
      ['seed_fact_totals', ['country', 'status', 'category', 'news_verdict', 'health_state', 'ai_status']],
    ] as const) {
      const rows = await db
        .selectFrom(table)
        .select(key as unknown as 'status')
        .select((eb) => eb.fn.sum<number>('n').as('n'))
        .groupBy(key as unknown as 'status')
        .execute();
      const stored = await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow();
      // One row a key: nothing of the import's changes left to fold.
      expect(Number(stored.n)).toBe(rows.length);
      const everyCountry =
        table === 'seed_totals' ? rows : rows.filter((r) => (r as { country?: string }).country === '');
      expect(everyCountry.reduce((sum, r) => sum + Number(r.n), 0)).toBe(Number(seeds.n));
    }
  });

  it('answers every line in order across groups, a seed named twice read as its first line left it', async () => {
    const lines = Array.from({ length: GROUP_LINES * 2 + 100 }, (_, i) =>
      i % 97 === 96 ? 'nope' : seedLine(1000 + i),
    );
    lines[10] = seedLine(1000, { name: 'Twice' });
    lines[GROUP_LINES + 3] = seedLine(1000, { name: 'Renamed' });
    const answers = answersOf((await post(origin, lines.join('\n'))).body);
    const results = answers.slice(0, -1);
    expect(results.map((a) => a.line)).toEqual(lines.map((_, i) => i + 1));
    // Within the group that created it, and in a later group: each a proposal, the later replacing the earlier.
    expect(results[10]).toMatchObject({
      seed_id: 'other:fr:site1000.fr::news',
      result: 'proposed',
      proposed_revision: 2,
    });
    expect(results[GROUP_LINES + 3]).toMatchObject({ result: 'proposed', proposed_revision: 3 });
    const rejected = lines.filter((l) => l === 'nope').length;
    expect(answers.at(-1)?.summary).toEqual({
      lines: lines.length,
      created: lines.length - rejected - 2,
      unchanged: 0,
      proposed: 2,
      rejected,
    });
  });

  it('a body over the bound is a 413 problem, declared or found while reading', async () => {
    const big = Array.from({ length: GROUP_LINES * 4 }, (_, i) => seedLine(5000 + i)).join('\n');
    expect(big.length).toBeGreaterThan(BOUND);
    expectProblem(await post(copy, big), 413, 'body_too_large');
    // No Content-Length: the bound is met while reading, before the first group is answered.
    const small = Array.from({ length: GROUP_LINES / 2 }, () => 'x'.repeat(1000)).join('\n');
    expect(small.length).toBeGreaterThan(BOUND);
    expectProblem(await post(copy, Readable.from([small])), 413, 'body_too_large');
  });

  it('once answers went out, a body over the bound ends them with the problem; the answered lines are committed', async () => {
    const lines = Array.from({ length: GROUP_LINES * 1.6 }, (_, i) =>
      seedLine(7000 + i, { name: `Site ${7000 + i} ${'.'.repeat(200)}` }),
    );
    expect(lines.slice(0, GROUP_LINES + 50).join('\n').length).toBeLessThan(BOUND);
    expect(lines.join('\n').length).toBeGreaterThan(BOUND);
    // A line a chunk, without Content-Length: the bound is met while reading, after the first group.
    const answers = answersOf((await post(copy, Readable.from(lines.map((l) => `${l}\n`)))).body);
    expect(answers).toHaveLength(GROUP_LINES + 1);
    expect(answers.at(-1)).toMatchObject({
      error: { status: 413, code: 'body_too_large' },
      summary: { lines: GROUP_LINES, created: GROUP_LINES },
    });
    // Sent again in parts under the bound: the committed lines are unchanged, the others created.
    const again = answersOf((await post(copy, lines.slice(0, GROUP_LINES + 50).join('\n'))).body);
    expect(again.at(-1)?.summary).toEqual({
      lines: GROUP_LINES + 50,
      created: 50,
      unchanged: GROUP_LINES,
      proposed: 0,
      rejected: 0,
    });
  });

  it('only JSON lines are taken: JSON or CSV is a 415 problem', async () => {
    expectProblem(await post(copy, seedLine(1), 'application/json'), 415, 'unsupported_media_type');
    expectProblem(await post(copy, 'domain\nsite1.fr\n', 'text/csv'), 415, 'unsupported_media_type');
    expectProblem(
      await post(copy, seedLine(1), 'application/x-ndjson; charset=latin1'),
      415,
      'unsupported_charset',
    );
  });

  it('answers stream: the first group is answered while the rest of the body is still to be sent', async () => {
    const url = await copy.app.listen({ host: '127.0.0.1', port: 0 });
    const firstAnswers = await new Promise<string>((resolve, reject) => {
      let first = '';
      const req = request(`${url}/api/v1/seeds/import`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
      });
      req.on('error', reject);
      req.on('response', (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          text += chunk;
          // The body is not finished: only an answer streamed before its end can be read here.
          if (!first && text.includes('\n')) {
            first = text;
            req.end(`${seedLine(29999)}\n`);
          }
        });
        res.on('end', () => resolve(first));
      });
      req.write(`${Array.from({ length: GROUP_LINES }, (_, i) => seedLine(20000 + i)).join('\n')}\n`);
    });
    expect(JSON.parse(firstAnswers.split('\n')[0] as string)).toEqual({
      line: 1,
      seed_id: 'other:fr:site20000.fr::news',
      result: 'created',
    });
  });
});
