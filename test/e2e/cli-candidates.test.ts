// `discover` and `candidates` as a script sees them, run as real processes against a service with a discovery
// worker: the batch followed to its end, lists imported and read back, decisions refused without what they need.
// No test reaches the internet: the one seed's host is mapped (SEEDBED_FETCH_RESOLVE) to a local port nobody
// listens on, so its homepage is refused at once wherever the test runs, and the imported candidates are never
// qualified (they are for another country than the discovery's).
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS, API_KEYS_ENV, createApiSeedbed } from '../support/api-helpers.js';
import { runCli } from '../support/cli-runner.js';
import { closedPort } from '../support/closed-port.js';
import type { TestSeedbed } from '../support/harness.js';

const SEED = 'unreachable-news.de';

interface ImportAnswer {
  format: string;
  summary: Record<string, number>;
  results: Array<{ line: number; input: string; domain: string | null; result: string; reason?: string }>;
}

describe('seedbed discover and candidates', () => {
  let t: TestSeedbed;
  let url: string;
  beforeAll(async () => {
    const port = await closedPort();
    t = await createApiSeedbed({
      SEEDBED_API_KEYS: API_KEYS_ENV,
      SEEDBED_FETCH_RESOLVE: `${SEED}=127.0.0.1:${port},*.${SEED}=127.0.0.1:${port}`,
    });
    t.startWorkers(['DISCOVERY_QUEUE']);
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());

  const cli = (...args: string[]) => runCli(args, { SEEDBED_URL: url, SEEDBED_API_KEY: API_KEYS.admin });
  const json = <T = Record<string, unknown>>(stdout: string) => JSON.parse(stdout) as T;

  it('discover with nothing to read or qualify: the problem on stderr, nothing on stdout, exit 1', async () => {
    const run = await cli('discover', '--country', 'nz', '--wait');
    expect(run).toMatchObject({ code: 1, stdout: '' });
    expect(run.stderr).toContain('answered POST /api/v1/queues/discovery with 422');
    expect(run.stderr).toContain('nothing to discover from in nz');
  });

  it('discover --wait follows the batch to its end: the final batch on stdout, progress lines on stderr', async () => {
    const made = await t.app.inject({
      method: 'POST',
      url: '/api/v1/seeds',
      headers: { authorization: `Bearer ${API_KEYS.admin}` },
      payload: { domain: SEED, country: 'de', category: 'news' },
    });
    expect(made.statusCode, made.body).toBe(201);
    const run = await cli('discover', '--country', 'de', '--rounds', '2', '--wait');
    expect(run.code, run.stderr).toBe(0);
    // One document: the final view, not the batch as created.
    const batch = json<{ batchId: string; type: string; status: string; items: Record<string, number> }>(
      run.stdout,
    );
    expect(batch).toMatchObject({ type: 'discovery', country: 'de', status: 'completed', total_items: 1 });
    expect(batch.items).toMatchObject({ succeeded: 0, failed: 0, skipped: 1, pending: 0 });
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'completed: 0 succeeded, 0 failed, 1 skipped, 0 pending of 1',
    );
    // The seed was read and could not be: its item says so.
    const items = await cli('batch', batch.batchId, '--items', '--all');
    expect(json<{ data: Array<{ status: string; outcome: string }> }>(items.stdout).data).toEqual([
      expect.objectContaining({ status: 'skipped', outcome: 'unread' }),
    ]);
  });

  it('candidates import of a CSV: each line answered, the format read from the extension', async () => {
    const file = join(t.dir, 'gaps.csv');
    await writeFile(
      file,
      [
        'name,domain,source',
        'Die Zeit,zeit.de,',
        'Der Spiegel,https://www.spiegel.de/politik/,press list',
        `The seed,${SEED},`,
        'A channel,youtube.com,',
        'Nothing,,',
      ].join('\r\n'),
    );
    const run = await cli('candidates', 'import', file, '--source', 'gaps', '--country', 'at');
    expect(run.code, run.stderr).toBe(0);
    const answer = json<ImportAnswer>(run.stdout);
    expect(answer.format).toBe('csv');
    expect(answer.summary).toEqual({ new: 2, candidate: 0, seed: 1, platform: 1, invalid: 1 });
    expect(answer.results.map((r) => [r.line, r.domain, r.result])).toEqual([
      [2, 'zeit.de', 'new'],
      [3, 'spiegel.de', 'new'],
      [4, SEED, 'seed'],
      [5, 'youtube.com', 'platform'],
      [6, null, 'invalid'],
    ]);
  });

  it('candidates import of an OPML file, then list and show what the two lists named', async () => {
    const file = join(t.dir, 'feeds.opml');
    await writeFile(
      file,
      `<?xml version="1.0"?><opml version="2.0"><head><title>Feeds</title></head><body>
        <outline text="News">
          <outline text="Der Standard" type="rss" xmlUrl="https://www.derstandard.at/rss" htmlUrl="https://www.derstandard.at/"/>
          <outline text="Krone" type="rss" xmlUrl="https://www.krone.at/rss"/>
          <outline text="Zeit" type="rss" xmlUrl="https://newsfeed.zeit.de/index"/>
        </outline>
      </body></opml>`,
    );
    const run = await cli('candidates', 'import', file, '--country', 'at');
    expect(run.code, run.stderr).toBe(0);
    const answer = json<ImportAnswer>(run.stdout);
    expect(answer.format).toBe('opml');
    expect(answer.results.map((r) => [r.domain, r.result])).toEqual([
      ['derstandard.at', 'new'],
      ['krone.at', 'new'],
      ['zeit.de', 'candidate'],
    ]);

    const list = await cli('candidates', 'list', '--country', 'at', '--state', 'new', '--all');
    expect(list.code, list.stderr).toBe(0);
    const page = json<{ data: Array<{ domain: string }>; pagination: unknown }>(list.stdout);
    expect(page.data.map((c) => c.domain)).toEqual(['derstandard.at', 'krone.at', 'spiegel.de', 'zeit.de']);
    expect(page.pagination).toEqual({ limit: 4, offset: 0, total: 4 });
    const window = json<{ data: Array<{ domain: string }> }>(
      (await cli('candidates', 'list', '--country', 'at', '--limit', '2', '--offset', '1')).stdout,
    );
    expect(window.data.map((c) => c.domain)).toEqual(['krone.at', 'spiegel.de']);

    const show = await cli('candidates', 'show', 'zeit.de');
    expect(show.code, show.stderr).toBe(0);
    const zeit = json<{ state: string; sources: string[]; cited_by: Array<{ seed_id: string }> }>(
      show.stdout,
    );
    expect(zeit).toMatchObject({ domain: 'zeit.de', state: 'new', country: 'at', citations: 2 });
    expect(zeit.sources).toEqual(['gaps', 'import']);
    expect(zeit.cited_by.map((c) => c.seed_id)).toEqual(['import:gaps', 'import:import']);
    const missing = await cli('candidates', 'show', 'nowhere.at');
    expect(missing).toMatchObject({ code: 1, stdout: '' });
    expect(missing.stderr).toContain('answered GET /api/v1/candidates/nowhere.at with 404');
  });

  it('candidates reject: without --reason exit 2 and nothing decided; with one, remembered', async () => {
    const bare = await cli('candidates', 'reject', 'krone.at');
    expect(bare).toMatchObject({ code: 2, stdout: '' });
    expect(bare.stderr).toContain('--reason is required');
    expect(json<{ state: string }>((await cli('candidates', 'show', 'krone.at')).stdout).state).toBe('new');

    const run = await cli('candidates', 'reject', 'krone.at', 'nowhere.at', '--reason', 'a tabloid');
    expect(run.code, run.stderr).toBe(0);
    expect(json(run.stdout)).toEqual({
      results: [
        { domain: 'krone.at', result: 'rejected' },
        { domain: 'nowhere.at', result: 'skipped', reason: 'not a candidate' },
      ],
    });
    const krone = json((await cli('candidates', 'show', 'krone.at')).stdout);
    expect(krone).toMatchObject({ state: 'rejected', reject_reason: 'a tabloid', decided_by: 'boss' });
    const rejected = json<{ data: Array<{ domain: string }> }>(
      (await cli('candidates', 'list', '--state', 'rejected')).stdout,
    );
    expect(rejected.data.map((c) => c.domain)).toEqual(['krone.at']);
  });

  it('candidates accept of a candidate never qualified: skipped, with the reason; nothing made', async () => {
    const run = await cli('candidates', 'accept', 'derstandard.at', '--country', 'at');
    expect(run.code, run.stderr).toBe(0);
    expect(json(run.stdout)).toEqual({
      results: [
        {
          domain: 'derstandard.at',
          result: 'skipped',
          reason: 'not qualified yet: run a discovery batch (POST /api/v1/queues/discovery) first',
        },
      ],
    });
    expect(json<{ state: string }>((await cli('candidates', 'show', 'derstandard.at')).stdout).state).toBe(
      'new',
    );
    const seeds = await t.app.inject({
      method: 'GET',
      url: '/api/v1/seeds?country=at',
      headers: { authorization: `Bearer ${API_KEYS.admin}` },
    });
    expect(seeds.json().data).toEqual([]);
  });
});
