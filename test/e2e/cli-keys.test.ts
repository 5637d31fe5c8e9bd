// The operator's CLI around keys and production mode, as real processes: production refuses to start
// without keys; `seedbed keys create` prints a key once and stores only its hash; the key then works.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import BetterSqlite3 from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, type SeedbedProcess, startSeedbedProcess } from '../support/process.js';

const run = promisify(execFile);

describe('seedbed keys and production mode', () => {
  let dir: string;
  let env: Record<string, string>;
  const processes: SeedbedProcess[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-keys-'));
    env = {
      ...process.env,
      SEEDBED_DATA_DIR: dir,
      NODE_ENV: 'production',
      SEEDBED_LOG_LEVEL: 'warn',
      PORT: '0',
    } as Record<string, string>;
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await rm(dir, { recursive: true, force: true });
  });

  it('refuses to start in production without any key, naming what to do', async () => {
    await expect(
      run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], { cwd: REPO_ROOT, env }),
    ).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('SEEDBED_API_KEYS'),
    });
  });

  it('creates a key shown once, stores only its hash, and the service then runs closed', async () => {
    const { stdout, stderr } = await run(
      process.execPath,
      ['--import', 'tsx', 'src/main.ts', 'keys', 'create', 'ops', '--scopes', 'read'],
      {
        cwd: REPO_ROOT,
        env,
      },
    );
    const created = JSON.parse(stdout) as { name: string; key: string; scopes: string[] };
    expect(created).toMatchObject({ name: 'ops', scopes: ['read'] });
    // Where the key went is said on stderr, resolved as the server resolves it; stdout is the JSON alone.
    expect(stderr).toContain(
      `seedbed: using the SQLite database ${join(dir, 'seedbed.db')} (data directory ${dir})`,
    );
    const db = new BetterSqlite3(join(dir, 'seedbed.db'), { readonly: true });
    const stored = db.prepare('select key_hash from api_keys where name = ?').get('ops') as {
      key_hash: string;
    };
    db.close();
    expect(stored.key_hash).not.toContain(created.key);
    expect(stored.key_hash).toMatch(/^[0-9a-f]{64}$/);

    const seedbed = await startSeedbedProcess({ ...env, SEEDBED_LOG_LEVEL: 'info' });
    processes.push(seedbed);
    expect((await fetch(`${seedbed.url}/api/v1/seeds`)).status).toBe(401);
    const authorized = await fetch(`${seedbed.url}/api/v1/seeds`, {
      headers: { authorization: `Bearer ${created.key}` },
    });
    expect(authorized.status).toBe(200);
    const write = await fetch(`${seedbed.url}/api/v1/seeds`, {
      method: 'POST',
      headers: { authorization: `Bearer ${created.key}`, 'content-type': 'application/json' },
      body: JSON.stringify({ domain: 'example.com', country: 'gb', category: 'news' }),
    });
    expect(write.status).toBe(403);
    expect((await fetch(`${seedbed.url}/health`)).status).toBe(200);
  });

  it('keys list and revoke answer JSON on stdout', async () => {
    const cli = (args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'keys', ...args], { cwd: REPO_ROOT, env });
    await cli(['create', 'temp', '--scopes', 'write']);
    const listed = JSON.parse((await cli(['list'])).stdout) as Array<{ name: string }>;
    expect(listed.map((k) => k.name)).toContain('temp');
    expect(JSON.parse((await cli(['revoke', 'temp'])).stdout)).toEqual({ revoked: 'temp' });
  });

  it('a key created with the CLI while the service runs open is enforced on the next request', async () => {
    const openDir = await mkdtemp(join(tmpdir(), 'seedbed-open-'));
    const openEnv = { ...env, SEEDBED_DATA_DIR: openDir, NODE_ENV: 'development', SEEDBED_LOG_LEVEL: 'info' };
    try {
      const seedbed = await startSeedbedProcess(openEnv);
      processes.push(seedbed);
      // Off a terminal the warning is a JSON line marked for alerting.
      const warning = seedbed.logs.find((line) => line.includes('NO API KEYS CONFIGURED')) ?? '';
      expect(JSON.parse(warning)).toMatchObject({ level: 40, alert: 'open_mode' });
      expect((await fetch(`${seedbed.url}/api/v1/seeds`)).status).toBe(200);

      const { stdout } = await run(
        process.execPath,
        ['--import', 'tsx', 'src/main.ts', 'keys', 'create', 'alice', '--scopes', 'read,write'],
        { cwd: REPO_ROOT, env: openEnv },
      );
      const created = JSON.parse(stdout) as { key: string };

      const without = await fetch(`${seedbed.url}/api/v1/seeds`);
      expect(without.status).toBe(401);
      expect(without.headers.get('content-type')).toMatch(/^application\/problem\+json/);
      const literal = await fetch(`${seedbed.url}/api/v1/seeds`, {
        headers: { authorization: 'Bearer <key>' },
      });
      expect(literal.status).toBe(401);
      const withKey = await fetch(`${seedbed.url}/api/v1/seeds`, {
        headers: { authorization: `Bearer ${created.key}` },
      });
      expect(withKey.status).toBe(200);
      expect(seedbed.logs.join('\n')).toContain('open mode has ended');
      await seedbed.kill();
    } finally {
      await rm(openDir, { recursive: true, force: true });
    }
  });
});
