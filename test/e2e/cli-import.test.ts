// `seedbed import FILE` as a script sees it, run as a real process against a listening service: the answers as
// JSON lines on stdout (or only the summary with --summary), progress on stderr, exit 1 when a line was rejected,
// and `-` reads stdin.
import { spawn } from 'node:child_process';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_KEYS, API_KEYS_ENV, createApiSeedbed } from '../support/api-helpers.js';
import { runCli } from '../support/cli-runner.js';
import type { TestSeedbed } from '../support/harness.js';
import { REPO_ROOT } from '../support/process.js';

const line = (i: number) =>
  JSON.stringify({ domain: `cli${i}.fr`, country: 'fr', category: 'news', name: `Cli ${i}` });

describe('seedbed import', () => {
  let t: TestSeedbed;
  let url: string;
  beforeAll(async () => {
    t = await createApiSeedbed({ SEEDBED_API_KEYS: API_KEYS_ENV });
    url = await t.app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(() => t.close());
  const env = () => ({ SEEDBED_URL: url, SEEDBED_API_KEY: API_KEYS.write });

  it('answers on stdout line by line, progress on stderr, exit 1 when a line was rejected', async () => {
    const file = join(t.dir, 'seeds.jsonl');
    const lines = Array.from({ length: 700 }, (_, i) => line(i));
    lines[600] = '{"domain": "cli600.fr"}';
    await writeFile(file, `${lines.join('\n')}\n`);
    const run = await runCli(['import', file], env());
    expect(run.code, run.stderr).toBe(1);
    const answers = run.stdout
      .trimEnd()
      .split('\n')
      .map((text) => JSON.parse(text));
    expect(answers).toHaveLength(701);
    expect(answers[0]).toEqual({ line: 1, seed_id: 'other:fr:cli0.fr::news', result: 'created' });
    expect(answers[600]).toMatchObject({
      line: 601,
      result: 'rejected',
      errors: [{ path: 'country' }, { path: 'category' }],
    });
    expect(answers.at(-1)).toEqual({
      summary: { lines: 700, created: 699, unchanged: 0, proposed: 0, rejected: 1 },
    });
    expect(run.stderr).not.toContain('\r');
    expect(run.stderr.trim().split('\n').at(-1)).toBe(
      'done: 700 lines sent, 700 answered (699 created, 0 unchanged, 0 proposed, 1 rejected)',
    );

    // The same file again with --summary: only the counts, every line already there.
    const again = await runCli(['import', file, '--summary'], env());
    expect(again.code).toBe(1);
    expect(JSON.parse(again.stdout)).toEqual({
      summary: { lines: 700, created: 0, unchanged: 699, proposed: 0, rejected: 1 },
    });
  });

  it('reads stdin for -, exits 0 when every line went in, and says why the service refused', async () => {
    const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts', 'import', '-', '--summary'], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env() },
    });
    let stdout = '';
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
    });
    child.stdin.end(`${line(1000)}\n${line(1001)}\n`);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(code).toBe(0);
    expect(JSON.parse(stdout)).toEqual({
      summary: { lines: 2, created: 2, unchanged: 0, proposed: 0, rejected: 0 },
    });

    const file = join(t.dir, 'one.jsonl');
    await writeFile(file, `${line(1)}\n`);
    const refused = await runCli(['import', file], { ...env(), SEEDBED_API_KEY: API_KEYS.read });
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe('');
    expect(refused.stderr).toMatch(/answered POST \/api\/v1\/seeds\/import with 403.*lacks the write scope/);
  });
});
