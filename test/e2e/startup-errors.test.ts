// Start-up failures caused by a setting, as real processes: the start stops with exit status 2 and one line
// naming the variable and the address — a database that refuses the connection, a HOST that does not resolve,
// a PORT in use, a sqlite: folder that does not exist — and an unknown SEEDBED_* variable is a warning.
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort } from '../support/closed-port.js';
import { REPO_ROOT, type SeedbedProcess, startSeedbedProcess } from '../support/process.js';

const run = promisify(execFile);

describe('start-up failures name the variable and the address', () => {
  let dir: string;
  const processes: SeedbedProcess[] = [];
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'seedbed-startup-'));
  });
  afterAll(async () => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    await rm(dir, { recursive: true, force: true });
  });

  /** Runs `seedbed serve` with these variables; it must fail. */
  async function failedStart(env: Record<string, string>): Promise<{ code: number; stderr: string }> {
    const base = {
      ...process.env,
      SEEDBED_DATA_DIR: dir,
      NODE_ENV: 'test',
      SEEDBED_LOG_LEVEL: 'warn',
      HOST: '127.0.0.1',
      PORT: '0',
    };
    try {
      await run(process.execPath, ['--import', 'tsx', 'src/main.ts', 'serve'], {
        cwd: REPO_ROOT,
        env: { ...base, ...env },
        timeout: 60_000,
      });
    } catch (error) {
      const failure = error as { code: number; stderr: string };
      return { code: failure.code, stderr: failure.stderr };
    }
    throw new Error(`seedbed started with ${JSON.stringify(env)}`);
  }

  it('a PostgreSQL that refuses the connection: DATABASE_URL and its address, not its password', async () => {
    const port = await closedPort();
    const { code, stderr } = await failedStart({
      DATABASE_URL: `postgres://seedbed:hunter2@127.0.0.1:${port}/seeds`,
    });
    expect(code).toBe(2);
    expect(stderr).toContain(
      `seedbed: DATABASE_URL: cannot connect to PostgreSQL at 127.0.0.1:${port}/seeds (ECONNREFUSED`,
    );
    expect(stderr).not.toContain('hunter2');
    expect(stderr).not.toMatch(/\bat .+\.(ts|js):\d+/);
  });

  it('a HOST that does not resolve: HOST and the address', async () => {
    const { code, stderr } = await failedStart({ HOST: 'no-such-host.invalid', PORT: '18099' });
    expect(code).toBe(2);
    expect(stderr).toMatch(
      /seedbed: HOST: no-such-host\.invalid does not resolve to an address \((ENOTFOUND|EAI_AGAIN)\); cannot listen on no-such-host\.invalid:18099/,
    );
  });

  it('a PORT in use: PORT and the address', async () => {
    const taken: Server = createServer();
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const port = (taken.address() as { port: number }).port;
    try {
      const { code, stderr } = await failedStart({ PORT: String(port) });
      expect(code).toBe(2);
      expect(stderr).toContain(`seedbed: PORT: 127.0.0.1:${port} is already in use`);
    } finally {
      await new Promise((resolve) => taken.close(resolve));
    }
  });

  it('a sqlite: path whose folder does not exist, and a number out of range', async () => {
    const missing = join(dir, 'missing');
    const sqlite = await failedStart({ DATABASE_URL: `sqlite:${missing}/seedbed.db` });
    expect(sqlite.code).toBe(2);
    expect(sqlite.stderr).toContain(`DATABASE_URL: the folder ${missing} does not exist`);
    const range = await failedStart({ SEEDBED_JOB_ATTEMPTS: '0' });
    expect(range.code).toBe(2);
    expect(range.stderr).toContain('SEEDBED_JOB_ATTEMPTS: must be a whole number from 1 to 20 (got "0")');
  });

  it('an unknown SEEDBED_* variable is a warning with the closest name, and the service starts', async () => {
    const seedbed = await startSeedbedProcess({ SEEDBED_DATA_DIR: dir, SEEDBED_LOGLEVEL: 'debug' });
    processes.push(seedbed);
    expect(seedbed.logs.join('\n')).toContain(
      'SEEDBED_LOGLEVEL is not a Seedbed variable and is ignored; did you mean SEEDBED_LOG_LEVEL?',
    );
    expect((await fetch(`${seedbed.url}/health`)).status).toBe(200);
    await seedbed.kill();
  });
});
