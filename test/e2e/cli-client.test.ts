// The client commands as a script sees them, run as real processes against a service: stdout is JSON and
// nothing else, progress and messages go to stderr (plain lines when stderr is not a terminal), item lists page
// past 100, promote takes every filter, and errors name the address and the fix.
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS, API_KEYS_ENV, createApiSeedbed } from '../support/api-helpers.js';
import { runCli } from '../support/cli-runner.js';
import { closedPort } from '../support/closed-port.js';
import type { TestSeedbed } from '../support/harness.js';

describe('seedbed client commands for scripts', () => {
  let t: TestSeedbed;
  let url: string;
  beforeAll(async () => {
    t = await createApiSeedbed({ SEEDBED_API_KEYS: API_KEYS_ENV });
    t.startWorkers(['RESEARCH_QUEUE']);
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { SEEDBED_URL: url, SEEDBED_API_KEY: API_KEYS.admin, ...env });

  let batchId: string;

  it('submit --wait: the final batch as JSON on stdout, progress as plain lines on stderr', async () => {
    const file = join(t.dir, 'urls.txt');
    const urls = [
      ...Array.from({ length: 240 }, (_, i) => `https://agency${i}.gov.sg/news`),
      ...Array.from({ length: 10 }, (_, i) => `not a url ${i}`),
    ];
    await writeFile(file, `# research\n${urls.join('\n')}\n`);
    const run = await cli([
      'submit',
      'research',
      file,
      '--country',
      'sg',
      '--category',
      'news',
      '--chunk-size',
      '50',
      '--wait',
    ]);
    expect(run.code, run.stderr).toBe(0);
    const batch = JSON.parse(run.stdout);
    expect(batch).toMatchObject({ status: 'completed_with_errors', total_items: 250 });
    expect(batch.items).toMatchObject({ succeeded: 240, failed: 10 });
    batchId = batch.batchId;
    expect(run.stderr).not.toContain('\r');
    const lines = run.stderr.trim().split('\n');
    expect(lines.at(-1)).toBe('completed_with_errors: 240 succeeded, 10 failed, 0 skipped, 0 pending of 250');
    expect(new Set(lines).size).toBe(lines.length);
  });

  it('batch --items pages past 100: --all, --limit/--offset, a status', async () => {
    const all = await cli(['batch', batchId, '--items', '--all']);
    expect(all.code, all.stderr).toBe(0);
    const every = JSON.parse(all.stdout);
    expect(every.data).toHaveLength(250);
    expect(every.pagination).toEqual({ limit: 250, offset: 0, total: 250 });
    expect(new Set(every.data.map((i: { item_index: number }) => i.item_index)).size).toBe(250);

    const window = JSON.parse(
      (await cli(['batch', batchId, '--items', '--limit', '150', '--offset', '90'])).stdout,
    );
    expect(window.data).toHaveLength(150);
    expect(window.data[0].item_index).toBe(90);
    expect(window.data.at(-1).item_index).toBe(239);

    const failed = JSON.parse((await cli(['batch', batchId, '--items', 'failed', '--all'])).stdout);
    expect(failed.pagination.total).toBe(10);
    expect(failed.data.every((i: { status: string }) => i.status === 'failed')).toBe(true);
    expect(JSON.parse((await cli(['batch', batchId, '--items'])).stdout).data).toHaveLength(50);
  });

  it('promote takes every filter of the API, and refuses ids with a filter', async () => {
    for (const [domain, category] of [
      ['mom.gov.sg', 'news'],
      ['straitstimes.com', 'news'],
      ['moh.gov.sg', 'policy'],
    ]) {
      const made = await t.app.inject({
        method: 'POST',
        url: '/api/v1/seeds',
        headers: { authorization: `Bearer ${API_KEYS.admin}` },
        payload: { domain, country: 'sg', category, policy: { robots_allowed: true } },
      });
      expect(made.statusCode).toBe(201);
    }
    const run = await cli([
      'promote',
      '--country',
      'sg',
      '--category',
      'news',
      '--source-type',
      'government',
      '--robots-allowed',
      'true',
      '--limit',
      '10',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({
      promoted: 1,
      results: [{ seed_id: 'gov:sg:mom.gov.sg::news' }],
    });
    const both = await cli(['promote', 'gov:sg:moh.gov.sg::policy', '--country', 'sg']);
    expect(both).toMatchObject({ code: 1, stdout: '' });
    expect(both.stderr).toContain('not both');
    expect((await cli(['promote', '--robots-allowed', 'maybe'])).stderr).toContain('true or false');
  });

  it('archive by filter past 1,000 is a batch that --wait follows; by id it is answered at once', async () => {
    t.startWorkers(['SEED_ACTION_QUEUE']);
    const lines = Array.from({ length: 1001 }, (_, i) =>
      JSON.stringify({ domain: `paper${i}.nz`, country: 'nz', category: 'news' }),
    );
    const imported = await t.app.inject({
      method: 'POST',
      url: '/api/v1/seeds/import',
      headers: { authorization: `Bearer ${API_KEYS.admin}`, 'content-type': 'application/x-ndjson' },
      payload: `${lines.join('\n')}\n`,
    });
    expect(imported.statusCode).toBe(200);
    const run = await cli(['archive', '--country', 'nz', '--status', 'draft', '--wait']);
    expect(run.code, run.stderr).toBe(0);
    expect(JSON.parse(run.stdout)).toMatchObject({ type: 'archive', status: 'completed', total_items: 1001 });
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'completed: 1001 succeeded, 0 failed, 0 skipped, 0 pending of 1001',
    );
    const first = JSON.parse(imported.body.split('\n')[0] as string) as { seed_id: string };
    const again = await cli(['archive', first.seed_id]);
    expect(again.code, again.stderr).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({
      archived: 0,
      results: [{ result: 'skipped', reason: 'already archived' }],
    });
  });

  it('recheck sends the active seeds matching back through the contract pipeline; drafts are left alone', async () => {
    const run = await cli(['recheck', '--country', 'sg']);
    expect(run.code, run.stderr).toBe(0);
    const plan = JSON.parse(run.stdout);
    expect(plan).toMatchObject({ tick: null, seeds: 1 });
    expect(plan.batches).toHaveLength(1);
    expect(plan.batches[0]).toMatchObject({
      type: 'recheck',
      country: 'sg',
      category: 'news',
      total_items: 1,
    });
    const draft = await cli(['recheck', 'gov:sg:moh.gov.sg::policy']);
    expect(JSON.parse(draft.stdout)).toEqual({ tick: null, seeds: 0, batches: [] });
    const bad = await cli(['recheck', '--country', 'not-a-country']);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toContain('country');
  });

  it('export streams the seeds of the filters to stdout or a file; a bad filter is explained', async () => {
    const jsonl = await cli(['export', '--country', 'sg', '--status', 'draft']);
    expect(jsonl.code, jsonl.stderr).toBe(0);
    expect(
      jsonl.stdout
        .trimEnd()
        .split('\n')
        .map((line) => JSON.parse(line).seed_id),
    ).toEqual(['com:sg:straitstimes.com::news', 'gov:sg:moh.gov.sg::policy']);
    const file = join(t.dir, 'seeds.csv');
    const csv = await cli(['export', '--format', 'csv', '--status', 'active', '--output', file]);
    expect(csv).toMatchObject({ code: 0, stdout: '' });
    const rows = (await readFile(file, 'utf8')).split('\r\n');
    expect(rows[0]).toMatch(/^seed_id,domain_id,/);
    expect(rows.slice(1)).toEqual([expect.stringMatching(/^gov:sg:mom\.gov\.sg::news,/), '']);
    const bad = await cli(['export', '--format', 'pdf']);
    expect(bad).toMatchObject({ code: 1, stdout: '' });
    expect(bad.stderr).toContain('querystring.format');
  });

  it('errors name the address and the fix, on stderr only', async () => {
    const port = await closedPort();
    const down = await cli(['batch', batchId], { SEEDBED_URL: `http://127.0.0.1:${port}` });
    expect(down).toMatchObject({ code: 1, stdout: '' });
    expect(down.stderr).toContain(
      `seedbed: cannot reach Seedbed at http://127.0.0.1:${port} (ECONNREFUSED): is it running? set SEEDBED_URL to its address`,
    );
    const noKey = await cli(['batch', batchId], { SEEDBED_API_KEY: '' });
    expect(noKey).toMatchObject({ code: 1, stdout: '' });
    expect(noKey.stderr).toContain('Set SEEDBED_API_KEY');
    const readOnly = await cli(['promote', '--country', 'sg'], { SEEDBED_API_KEY: API_KEYS.read });
    expect(readOnly.stderr).toContain('lacks the write scope');
  });
});
