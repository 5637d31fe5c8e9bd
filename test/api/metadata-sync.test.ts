// Metadata sync through the API to a real bare git repository: the committed snapshot matches
// GET /metadata/snapshot, and a second sync with nothing changed adds no commit.
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestSeedbed, type TestSeedbed } from '../support/harness.js';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

describe('metadata sync to a git repository', () => {
  let t: TestSeedbed;
  let remote: string;
  beforeAll(async () => {
    remote = await mkdtemp(join(tmpdir(), 'seedbed-meta-'));
    git(remote, 'init', '--bare', '--initial-branch=main', '.');
    t = await createTestSeedbed({ SEEDBED_SYNC_TARGET: `git+file://${remote}#main` });
    t.startWorkers(['METADATA_QUEUE']);
  });
  afterAll(async () => {
    await t.close();
    await rm(remote, { recursive: true, force: true });
  });

  async function sync(url: string) {
    const response = await t.app.inject({ method: 'POST', url });
    expect(response.statusCode, response.body).toBe(202);
    const taskId = response.json().taskId as string;
    for (;;) {
      const task = await t.seedbed.services.metadata.getTask(taskId);
      if (!['queued', 'running', 'retrying'].includes(task.status)) return task;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  }

  it('commits the snapshot, then adds no commit when nothing changed', async () => {
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/datasets',
      payload: {
        meta: { country: 'sg', category: 'news', date: '2026-11-20' },
        records: [{ raw_url: 'https://a.gov.sg/' }],
      },
    });
    const first = await sync('/api/v1/metadata/sync');
    expect(first).toMatchObject({ status: 'succeeded', error: null });
    expect(first.commit_id).toBe(git(remote, 'rev-parse', 'main'));

    const committed = JSON.parse(git(remote, 'show', 'main:metadata/snapshot.json'));
    const { generated_at: _, ...served } = (await t.app.inject({ url: '/api/v1/metadata/snapshot' })).json();
    expect(committed).toEqual(served);
    const country = JSON.parse(git(remote, 'show', 'main:metadata/countries/sg.json'));
    expect(country.totals.records).toBe(1);

    const second = await sync('/api/v1/queues/trigger/metadata-sync');
    expect(second).toMatchObject({ status: 'unchanged', commit_id: first.commit_id });
    expect(git(remote, 'rev-list', '--count', 'main')).toBe('1');

    const tasks = (await t.app.inject({ url: '/api/v1/metadata/tasks' })).json();
    expect(tasks.data.map((task: any) => task.status)).toEqual(['unchanged', 'succeeded']);
  });

  it('commits the active seeds as seeds/{cc}.jsonl; unchanged seeds make no commit, a suspended one empties it', async () => {
    const inject = (method: 'POST' | 'PATCH', url: string, payload: object) =>
      t.app.inject({ method, url, payload });
    for (const domain of ['mom.gov.sg', 'hdb.gov.sg', 'iras.gov.sg'])
      await inject('POST', '/api/v1/seeds', { domain, country: 'sg', category: 'news' });
    await inject('POST', '/api/v1/seeds', { domain: 'thestar.com.my', country: 'my', category: 'news' });
    await inject('POST', '/api/v1/seeds/promote', {
      seedIds: ['gov:sg:mom.gov.sg::news', 'gov:sg:hdb.gov.sg::news', 'com:my:thestar.com.my::news'],
    });
    const before = Number(git(remote, 'rev-list', '--count', 'main'));
    const first = await sync('/api/v1/metadata/sync');
    expect(first.status).toBe('succeeded');
    const sg = git(remote, 'show', 'main:seeds/sg.jsonl');
    // Exactly the active seeds, as the export gives them (the draft iras.gov.sg is not there).
    const exported = (await t.app.inject({ url: '/api/v1/seeds/export?country=sg&status=active' })).body;
    expect(`${sg}\n`).toBe(exported);
    expect(sg.split('\n').map((line) => JSON.parse(line).seed_id)).toEqual([
      'gov:sg:hdb.gov.sg::news',
      'gov:sg:mom.gov.sg::news',
    ]);
    expect(JSON.parse(git(remote, 'show', 'main:seeds/my.jsonl')).seed_id).toBe(
      'com:my:thestar.com.my::news',
    );

    expect(await sync('/api/v1/metadata/sync')).toMatchObject({
      status: 'unchanged',
      commit_id: first.commit_id,
    });
    expect(Number(git(remote, 'rev-list', '--count', 'main'))).toBe(before + 1);

    await inject('PATCH', `/api/v1/seeds/${encodeURIComponent('com:my:thestar.com.my::news')}`, {
      status: 'suspended',
    });
    expect((await sync('/api/v1/metadata/sync')).status).toBe('succeeded');
    expect(git(remote, 'show', 'main:seeds/my.jsonl')).toBe('');
    // The snapshot's seed counts by status changed with it; sg's file did not.
    expect(git(remote, 'diff', '--name-only', 'main~1', 'main').split('\n')).toEqual([
      'metadata/snapshot.json',
      'seeds/my.jsonl',
    ]);
  });

  it('runs a cron tick as one task, even when the tick is delivered twice', async () => {
    const slot = '2026-11-21T06:00:00.000Z';
    const { database, queue } = t.seedbed;
    // As the scheduler would, twice (two processes firing the same tick after the first job finished).
    for (let i = 0; i < 2; i++) {
      await database.transaction((trx) =>
        queue.enqueue(trx, [{ queue: 'METADATA_QUEUE', payload: { scheduled: true, slot } }]),
      );
    }
    let task: any;
    for (;;) {
      task = await t.seedbed.services.metadata.getTask(`cron-${slot}`).catch(() => null);
      const pending = (await queue.stats()).find((s) => s.queue === 'METADATA_QUEUE');
      if (
        task &&
        !['queued', 'running'].includes(task.status) &&
        pending?.queued === 0 &&
        pending.active === 0
      )
        break;
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
    expect(task).toMatchObject({ trigger: 'cron', status: 'unchanged', attempts: 1 });
    const cronTasks = (
      await t.seedbed.database.db
        .selectFrom('metadata_tasks')
        .select('id')
        .where('trigger', '=', 'cron')
        .execute()
    ).length;
    expect(cronTasks).toBe(1);
  });
});

describe('a sync that cannot reach its repository', () => {
  it('is retried, then recorded as failed with the reason', async () => {
    const missing = join(tmpdir(), `seedbed-no-such-repo-${process.pid}.git`);
    const t = await createTestSeedbed({
      SEEDBED_SYNC_TARGET: `git+file://${missing}#main`,
      SEEDBED_JOB_ATTEMPTS: '2',
    });
    try {
      t.startWorkers(['METADATA_QUEUE']);
      const response = await t.app.inject({ method: 'POST', url: '/api/v1/metadata/sync' });
      expect(response.statusCode).toBe(202);
      const taskId = response.json().taskId as string;
      let task: any;
      for (;;) {
        task = await t.seedbed.services.metadata.getTask(taskId);
        if (task.status === 'failed') break;
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      expect(task.attempts).toBe(2);
      expect(task.error).toMatch(/repositor|not found|does not exist|no such/i);
      expect(task.finished_at).not.toBeNull();
    } finally {
      await t.close();
    }
  });
});
