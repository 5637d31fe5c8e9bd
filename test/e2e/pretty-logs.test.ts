// `seedbed serve` on a terminal (a pseudo-terminal made by util-linux `script`): pretty log lines, not JSON, and
// the open-mode warning as a red banner. Off a terminal the same warning is a JSON line (cli-keys.test.ts).
import { execFileSync, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../support/process.js';

function hasScript(): boolean {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}
const scriptAvailable = hasScript();
if (!scriptAvailable)
  console.warn('[skip] util-linux `script` is not installed: no pseudo-terminal for this test');

describe.skipIf(!scriptAvailable)('logs on a terminal', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  it('are pretty lines, and the open-mode warning stands out', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'seedbed-tty-'));
    dirs.push(dir);
    const command = `exec ${process.execPath} --import tsx src/main.ts serve`;
    // Its own process group, so the whole of it (script and seedbed) is stopped at the end.
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: REPO_ROOT,
      detached: true,
      env: {
        ...process.env,
        PORT: '0',
        HOST: '127.0.0.1',
        SEEDBED_DATA_DIR: dir,
        SEEDBED_LOG_LEVEL: 'info',
        SEEDBED_NETWORK_CANARY: 'off',
        NODE_ENV: 'development',
        TERM: 'xterm',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`seedbed did not start:\n${out}`)), 60_000);
        child.stdout.on('data', (chunk: Buffer) => {
          out += chunk.toString();
          if (out.includes('seedbed is listening')) {
            clearTimeout(timer);
            resolve();
          }
        });
        child.once('exit', () => reject(new Error(`script exited:\n${out}`)));
      });
    } finally {
      if (child.pid) process.kill(-child.pid, 'SIGTERM');
    }
    const lines = out.split(/\r?\n/);
    const open = lines.find((line) => line.includes('NO API KEYS CONFIGURED')) ?? '';
    expect(open).toContain('\u001b[1;97;41m !!! NO API KEYS CONFIGURED');
    expect(open).toContain('WARN');
    expect(lines.find((line) => line.includes('seedbed is listening'))).not.toMatch(/^\{/);
    expect(out).not.toContain('"level":');
  });
});
