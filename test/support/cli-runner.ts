// Runs `seedbed <args>` as a real process (the CLI through tsx) and answers its exit status, stdout and stderr;
// never throws, so a test can assert a failure as plainly as a success.
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { REPO_ROOT } from './process.js';

const exec = promisify(execFile);

export interface CliRun {
  code: number;
  stdout: string;
  stderr: string;
}

export async function runCli(args: string[], env: Record<string, string>): Promise<CliRun> {
  try {
    const { stdout, stderr } = await exec(process.execPath, ['--import', 'tsx', 'src/main.ts', ...args], {
      cwd: REPO_ROOT,
      env: { ...process.env, ...env },
      timeout: 60_000,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}
