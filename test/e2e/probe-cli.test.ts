// `seedbed probe <domain>` as an operator runs it: a real process, SEEDBED_FETCH_RESOLVE pointing at the
// fake internet and NODE_EXTRA_CA_CERTS trusting its CA. It prints the would-be seed and stores nothing.
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type FakeInternet, SITES, startFakeInternet } from '../fixtures/fake-internet/index.js';
import { REPO_ROOT } from '../support/process.js';

const run = promisify(execFile);

describe('seedbed probe', () => {
  let net: FakeInternet;
  let dir: string;
  beforeAll(async () => {
    net = await startFakeInternet();
    dir = await mkdtemp(join(tmpdir(), 'seedbed-probe-'));
    await writeFile(join(dir, 'ca.pem'), net.caCert);
  });
  afterAll(async () => {
    await net.close();
    await rm(dir, { recursive: true, force: true });
  });

  it('prints liveness and the draft contract of one domain without storing anything', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'probe', SITES.news, '--country', 'sg'],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          SEEDBED_FETCH_RESOLVE: net.resolveSpec,
          NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
          SEEDBED_DATA_DIR: join(dir, 'data'),
        },
      },
    );
    const report = JSON.parse(stdout);
    expect(report.liveness).toMatchObject({ state: 'alive', https: true });
    expect(report.metadata.domain_id).toBe(`other:sg:${SITES.news}`);
    expect(report.registrable_domain).toBe(SITES.news);
    expect(report.draft.fetch.type).toBe('rss');
    expect(existsSync(join(dir, 'data'))).toBe(false);
    expect(net.hits(SITES.news, '/robots.txt')).toBeGreaterThan(0);
  });

  const probe = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'probe', ...args], {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        SEEDBED_FETCH_RESOLVE: net.resolveSpec,
        NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem'),
        SEEDBED_DATA_DIR: join(dir, 'data'),
      },
    });

  // www.news.test is not served (404): the registrable domain and domain id must still agree, and a run that
  // made no draft must say so through its exit status, the reason on stderr, the report still on stdout.
  it('exits non-zero with the reason on stderr when no draft could be made', async () => {
    const failure = await probe(`https://www.${SITES.news}/politik/`, '--country', 'GB').then(
      () => {
        throw new Error('probe exited 0 without a draft');
      },
      (error: { code: number; stdout: string; stderr: string }) => error,
    );
    expect(failure.code).toBe(3);
    expect(failure.stderr).toContain(`no draft for www.${SITES.news}: domain is dead`);
    const report = JSON.parse(failure.stdout);
    expect(report).toMatchObject({
      domain: `www.${SITES.news}`,
      registrable_domain: SITES.news,
      domain_id: `other:gb:${SITES.news}`,
      draft: null,
    });
    expect(report.metadata).toMatchObject({
      registrable_domain: SITES.news,
      domain_id: `other:gb:${SITES.news}`,
    });
  });

  it('refuses a country that is not an ISO code', async () => {
    await expect(probe(SITES.news, '--country', 'xx')).rejects.toMatchObject({
      code: 1,
      stderr: expect.stringContaining('--country xx'),
    });
  });

  it('answers NETWORK_UNAVAILABLE, not dead, when the domain and the network canary both fail', async () => {
    // No draft: probe exits 3, the report still on stdout.
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'probe', SITES.unresolvable],
      {
        cwd: REPO_ROOT,
        env: {
          ...process.env,
          SEEDBED_FETCH_RESOLVE: net.resolveSpec,
          // .invalid never resolves (RFC 6761): a canary that cannot answer, as when our network is down.
          SEEDBED_NETWORK_CANARY: 'http://canary.invalid/generate_204',
          SEEDBED_DATA_DIR: join(dir, 'data'),
        },
      },
    ).then(
      () => {
        throw new Error('probe exited 0 without a draft');
      },
      (error: { code: number; stdout: string }) => {
        expect(error.code).toBe(3);
        return error;
      },
    );
    const report = JSON.parse(stdout);
    expect(report.liveness).toMatchObject({
      state: 'error',
      alive: false,
      error_code: 'NETWORK_UNAVAILABLE',
      evidence: { kind: 'network', network_up: false },
    });
    expect(report.draft).toBeNull();
  });

  it('refuses a private address', async () => {
    await expect(
      run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'probe', '127.0.0.1'], {
        cwd: REPO_ROOT,
        env: { ...process.env, SEEDBED_DATA_DIR: join(dir, 'data') },
      }),
    ).rejects.toMatchObject({ stderr: expect.stringContaining('IP address') });
  });
});
