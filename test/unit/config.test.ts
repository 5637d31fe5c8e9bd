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
