import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

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
