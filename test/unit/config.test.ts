import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadAuthorityOverrides } from '../../src/composition.js';
import { ConfigError, loadConfig } from '../../src/config.js';
import { SHIPPED_AUTHORITY_OVERRIDES } from '../../src/domain/domains.js';

describe('loadConfig', () => {
  it('gives the embedded default on an empty environment, listening on loopback', () => {
    const config = loadConfig({});
    expect(config.http).toMatchObject({ host: '127.0.0.1', port: 8080 });
    expect(config.database).toMatchObject({ kind: 'sqlite' });
    expect(config.database.kind === 'sqlite' && config.database.path.endsWith('data/seedbed.db')).toBe(true);
    expect(config.objects).toMatchObject({ kind: 'fs' });
    expect(config.queue).toMatchObject({ kind: 'embedded', maxAttempts: 4, leaseSeconds: 60 });
    expect(config.sync.cron).toBe('0 */6 * * *');
  });

  it('picks pg-boss with PostgreSQL and S3 from an s3:// URL', () => {
    const config = loadConfig({
      DATABASE_URL: 'postgres://u@h/db',
      SEEDBED_OBJECTS: 's3://bucket/pre',
      S3_ENDPOINT: 'http://127.0.0.1:9000',
    });
    expect(config.queue.kind).toBe('pg-boss');
    expect(config.objects).toMatchObject({
      kind: 's3',
      url: 's3://bucket/pre',
      endpoint: 'http://127.0.0.1:9000',
    });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SEEDBED_QUEUE: 'rabbit' }, 'SEEDBED_QUEUE'],
    [{ SEEDBED_QUEUE: 'pg-boss' }, 'SEEDBED_QUEUE'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL'],
    [{ SEEDBED_OBJECTS: 'gs://bucket' }, 'SEEDBED_OBJECTS'],
    [{ SEEDBED_SYNC_TARGET: 'ssh://git@host/repo' }, 'SEEDBED_SYNC_TARGET'],
    [{ SEEDBED_SYNC_CRON: 'every day' }, 'SEEDBED_SYNC_CRON'],
    [{ SEEDBED_RECHECK_CRON: '61 * * * *' }, 'SEEDBED_RECHECK_CRON'],
    [{ SEEDBED_AUTO_SUSPEND: '0' }, 'SEEDBED_AUTO_SUSPEND'],
    [{ SEEDBED_LOG_LEVEL: 'loud' }, 'SEEDBED_LOG_LEVEL'],
    [{ SEEDBED_JOB_LEASE_SECONDS: '1' }, 'SEEDBED_JOB_LEASE_SECONDS'],
    [{ S3_ENDPOINT: 'not a url' }, 'S3_ENDPOINT'],
    [{ SEEDBED_NETWORK_CANARY: 'www.google.com' }, 'SEEDBED_NETWORK_CANARY'],
    [{ SEEDBED_NETWORK_CANARY: 'https://a.example/,ftp://b.example/' }, 'SEEDBED_NETWORK_CANARY'],
    [{ SEEDBED_NETWORK_CANARY: ' , ' }, 'SEEDBED_NETWORK_CANARY'],
  ])('refuses %j with a message naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(variable);
  });

  it('asks two default canaries, none with off, or the URLs given', () => {
    expect(loadConfig({}).fetch.canary).toEqual([
      'https://www.google.com/generate_204',
      'https://cp.cloudflare.com/generate_204',
    ]);
    expect(loadConfig({ SEEDBED_NETWORK_CANARY: 'OFF' }).fetch.canary).toEqual([]);
    expect(
      loadConfig({ SEEDBED_NETWORK_CANARY: ' http://canary.test/204 , https://b.example/ ' }).fetch.canary,
    ).toEqual(['http://canary.test/204', 'https://b.example/']);
  });

  it('sizes the fetch budget, the domain pool from it, and the domain deadline', () => {
    expect(loadConfig({}).fetch).toMatchObject({ concurrency: 128, domains: 768, domainDeadlineMs: 120_000 });
    expect(loadConfig({ SEEDBED_FETCH_CONCURRENCY: '300' }).fetch).toMatchObject({
      concurrency: 300,
      domains: 1800,
    });
    expect(
      loadConfig({ SEEDBED_DOMAIN_CONCURRENCY: '50', SEEDBED_DOMAIN_DEADLINE_SECONDS: '30' }).fetch,
    ).toMatchObject({ concurrency: 128, domains: 50, domainDeadlineMs: 30_000 });
  });

  it('claims 64 research chunks at once on SQLite, the general setting on PostgreSQL, or the number given', () => {
    expect(loadConfig({}).queue).toMatchObject({ concurrency: 2, researchConcurrency: 64 });
    const postgres = { DATABASE_URL: 'postgres://db.test/seedbed', SEEDBED_WORKER_CONCURRENCY: '3' };
    expect(loadConfig(postgres).queue).toMatchObject({ concurrency: 3, researchConcurrency: 3 });
    expect(loadConfig({ ...postgres, SEEDBED_RESEARCH_CONCURRENCY: '8' }).queue.researchConcurrency).toBe(8);
    expect(loadConfig({ SEEDBED_RESEARCH_CONCURRENCY: '1' }).queue.researchConcurrency).toBe(1);
  });

  it('reads feeds on one worker thread by default, on the main thread with 0', () => {
    expect(loadConfig({}).collection.feedWorkers).toBe(1);
    expect(loadConfig({ SEEDBED_FEED_WORKERS: '0' }).collection.feedWorkers).toBe(0);
    expect(() => loadConfig({ SEEDBED_FEED_WORKERS: '17' })).toThrow(/SEEDBED_FEED_WORKERS/);
  });

  it('runs the fetcher on a thread of its own by default, on the main thread with 0', () => {
    expect(loadConfig({}).fetch.thread).toBe(true);
    expect(loadConfig({ SEEDBED_FETCH_THREAD: '0' }).fetch.thread).toBe(false);
    expect(() => loadConfig({ SEEDBED_FETCH_THREAD: '2' })).toThrow(/SEEDBED_FETCH_THREAD/);
  });

  it('looks ahead as many domains as the pool runs, unless told otherwise (0: off)', () => {
    expect(loadConfig({}).fetch.domainLookahead).toBe(768);
    expect(loadConfig({ SEEDBED_DOMAIN_CONCURRENCY: '50' }).fetch.domainLookahead).toBe(50);
    expect(loadConfig({ SEEDBED_DOMAIN_LOOKAHEAD: '0' }).fetch.domainLookahead).toBe(0);
  });

  it.each([
    [{ SEEDBED_FETCH_CONCURRENCY: '0' }, 'SEEDBED_FETCH_CONCURRENCY'],
    [{ SEEDBED_DOMAIN_CONCURRENCY: 'many' }, 'SEEDBED_DOMAIN_CONCURRENCY'],
    [{ SEEDBED_DOMAIN_DEADLINE_SECONDS: '0' }, 'SEEDBED_DOMAIN_DEADLINE_SECONDS'],
    [{ SEEDBED_DOMAIN_LOOKAHEAD: '-1' }, 'SEEDBED_DOMAIN_LOOKAHEAD'],
  ])('refuses a fetch setting %j naming %s', (env, variable) => {
    expect(() => loadConfig(env)).toThrow(variable);
  });

  it('re-checks hourly by default, off with off; auto-suspend is off unless a count is given', () => {
    expect(loadConfig({}).recheck).toEqual({ cron: '0 * * * *', autoSuspendAfter: null });
    expect(loadConfig({ SEEDBED_RECHECK_CRON: 'off', SEEDBED_AUTO_SUSPEND: '3' }).recheck).toEqual({
      cron: null,
      autoSuspendAfter: 3,
    });
  });

  it('treats empty variables as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: '' }).http.port).toBe(8080);
  });
});

describe('SEEDBED_AUTHORITY_OVERRIDES', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-config-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  async function configWith(content: string) {
    const file = join(dir, `overrides-${Math.random().toString(36).slice(2)}.json`);
    await writeFile(file, content);
    return loadConfig({ SEEDBED_AUTHORITY_OVERRIDES: file });
  }

  it('is unset by default, and then the shipped table is the table', async () => {
    const config = loadConfig({});
    expect(config.authority.overridesFile).toBeUndefined();
    expect(await loadAuthorityOverrides(config)).toBe(SHIPPED_AUTHORITY_OVERRIDES);
  });

  it('is resolved to an absolute path', () => {
    expect(loadConfig({ SEEDBED_AUTHORITY_OVERRIDES: 'conf/ours.json' }).authority.overridesFile).toBe(
      resolve('conf/ours.json'),
    );
  });

  it("adds the operator's entries to the shipped table", async () => {
    const table = await loadAuthorityOverrides(
      await configWith(
        JSON.stringify({ domains: { 'stadt-example.de': { authority: 'gov', country: 'de' } } }),
      ),
    );
    expect(table.get('stadt-example.de')).toEqual({ authority: 'gov', country: 'de' });
    expect(table.get('bund.de')).toMatchObject({ authority: 'gov' });
  });

  it.each([
    ['not JSON', '{domains:', /SEEDBED_AUTHORITY_OVERRIDES: cannot read/],
    ['a subdomain key', JSON.stringify({ domains: { 'www.x.de': { authority: 'gov' } } }), /www\.x\.de/],
    ['a bad authority', JSON.stringify({ domains: { 'x.de': { authority: 'state' } } }), /x\.de\.authority/],
  ])('refuses %s with a message naming the variable', async (_name, content, message) => {
    const config = await configWith(content);
    await expect(loadAuthorityOverrides(config)).rejects.toThrow(ConfigError);
    await expect(loadAuthorityOverrides(config)).rejects.toThrow(/SEEDBED_AUTHORITY_OVERRIDES/);
    await expect(loadAuthorityOverrides(config)).rejects.toThrow(message);
  });

  it('refuses a file that does not exist', async () => {
    const config = loadConfig({ SEEDBED_AUTHORITY_OVERRIDES: join(dir, 'missing.json') });
    await expect(loadAuthorityOverrides(config)).rejects.toThrow(
      /SEEDBED_AUTHORITY_OVERRIDES: cannot read .*missing\.json/,
    );
  });
});

describe('config that catches mistakes', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-config-'));
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  const messageOf = (env: Record<string, string>) => {
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as Error).message;
    }
    throw new Error(`${JSON.stringify(env)} was accepted`);
  };

  it.each([
    [{ PORT: '99999' }, 'PORT: must be a whole number from 0 to 65535 (got "99999")'],
    [{ PORT: 'eighty' }, 'PORT: must be a whole number from 0 to 65535 (got "eighty")'],
    [{ PORT: '0x50' }, 'PORT: must be a whole number from 0 to 65535 (got "0x50")'],
    [{ PORT: '80.5' }, 'PORT: must be a whole number from 0 to 65535'],
    [{ SEEDBED_JOB_ATTEMPTS: '0' }, 'SEEDBED_JOB_ATTEMPTS: must be a whole number from 1 to 20 (got "0")'],
    [{ SEEDBED_WORKER_CONCURRENCY: '65' }, 'SEEDBED_WORKER_CONCURRENCY: must be a whole number from 1 to 64'],
    [
      { SEEDBED_RESEARCH_CONCURRENCY: '0' },
      'SEEDBED_RESEARCH_CONCURRENCY: must be a whole number from 1 to 64',
    ],
    [
      { SEEDBED_JOB_LEASE_SECONDS: '1e3' },
      'SEEDBED_JOB_LEASE_SECONDS: must be a whole number from 2 to 3600',
    ],
  ])('a number out of range states the range: %j', (env, expected) => {
    expect(messageOf(env)).toContain(expected);
  });

  it('takes a number written with spaces around it', () => {
    expect(loadConfig({ PORT: ' 8081 ' }).http.port).toBe(8081);
  });

  it('never repeats a value that may hold a secret', () => {
    const message = messageOf({ PORT: 'x', SEEDBED_API_KEYS: '', DATABASE_URL: 'mysql://u:hunter2@db/x' });
    expect(message).not.toContain('hunter2');
    expect(messageOf({ DATABASE_URL: 'mysql://u:hunter2@db/x' })).not.toContain('hunter2');
  });

  it('warns about an unknown SEEDBED_* variable with the closest known name', () => {
    const { warnings } = loadConfig({
      SEEDBED_LOGLEVEL: 'debug',
      SEEDBED_PORT: '9000',
      SEEDBED_JOB_ATEMPTS: '3',
      SEEDBED_DATADIR: '/srv',
      SEEDBED_SOMETHING_ELSE_ENTIRELY: '1',
      // Known, and read elsewhere (the CLI, the tests), or not ours at all: no warning.
      SEEDBED_URL: 'http://127.0.0.1:8080',
      SEEDBED_LOG_LEVEL: 'info',
      PATH: '/usr/bin',
      SEEDBEDX: '1',
    });
    expect(warnings).toEqual([
      'SEEDBED_DATADIR is not a Seedbed variable and is ignored; did you mean SEEDBED_DATA_DIR?',
      'SEEDBED_JOB_ATEMPTS is not a Seedbed variable and is ignored; did you mean SEEDBED_JOB_ATTEMPTS?',
      'SEEDBED_LOGLEVEL is not a Seedbed variable and is ignored; did you mean SEEDBED_LOG_LEVEL?',
      'SEEDBED_PORT is not a Seedbed variable and is ignored; did you mean PORT?',
      'SEEDBED_SOMETHING_ELSE_ENTIRELY is not a Seedbed variable and is ignored',
    ]);
    expect(loadConfig({}).warnings).toEqual([]);
  });

  it('refuses a sqlite: path whose folder does not exist, naming the variable and the folder', () => {
    const missing = join(dir, 'no-such-folder');
    expect(messageOf({ DATABASE_URL: `sqlite:${missing}/seedbed.db` })).toBe(
      `DATABASE_URL: the folder ${missing} does not exist; create it or correct the path`,
    );
    expect(messageOf({ DATABASE_URL: 'sqlite:' })).toMatch(/^DATABASE_URL: sqlite: needs a file path/);
    expect(loadConfig({ DATABASE_URL: `sqlite:${dir}/seedbed.db` }).database).toEqual({
      kind: 'sqlite',
      path: join(dir, 'seedbed.db'),
      variable: 'DATABASE_URL',
    });
    // The data directory itself is created when missing: only a path named explicitly must exist.
    expect(loadConfig({ SEEDBED_DATA_DIR: missing }).database).toMatchObject({
      variable: 'SEEDBED_DATA_DIR',
    });
  });
});
