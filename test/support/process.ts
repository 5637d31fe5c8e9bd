// Runs `seedbed` as a real child process (the CLI through tsx), for tests that kill, restart or
// run several processes. The process listens on a free port and reports it in its start-up log line.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface SeedbedProcess {
  child: ChildProcess;
  /** The API base URL; empty for a worker-only process. */
  url: string;
  logs: string[];
  exited: Promise<number | null>;
  kill(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startSeedbedProcess(
  env: Record<string, string>,
  args: string[] = ['serve'],
  readyMessage = args[0] === 'worker' ? 'seedbed worker started' : 'seedbed is listening',
  /** What node runs: the sources through tsx, or a build (`['dist/main.js']`, as a bench measuring memory does). */
  entry: readonly string[] = ['--import', 'tsx', 'src/main.ts'],
): Promise<SeedbedProcess> {
  const child = spawn(process.execPath, [...entry, ...args], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      SEEDBED_LOG_LEVEL: 'info',
      NODE_ENV: 'test',
      // An hourly tick landing mid-test would add recheck batches the test did not ask for.
      SEEDBED_RECHECK_CRON: 'off',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`seedbed did not start in time:\n${logs.join('\n')}`)),
      60_000,
    );
    let buffer = '';
    child.stdout?.on('data', (data: Buffer) => {
      buffer += data.toString();
      const lines = buffer.split('\n');
      buffer = lines.pop() ?? '';
      for (const line of lines) {
        logs.push(line);
        if (line.includes(readyMessage)) {
          clearTimeout(timer);
          try {
            resolve((JSON.parse(line) as { url?: string }).url ?? '');
          } catch {
            resolve('');
          }
        }
      }
    });
    child.stderr?.on('data', (data: Buffer) => logs.push(data.toString()));
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`seedbed exited with ${code} before it was ready:\n${logs.join('\n')}`));
    });
  });
  return {
    child,
    url,
    logs,
    exited,
    async kill(signal: NodeJS.Signals = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      return exited;
    },
  };
}

export async function getJson<T = any>(base: string, path: string): Promise<T> {
  const response = await fetch(new URL(path, base));
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export async function postJson<T = any>(
  base: string,
  path: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: T }> {
  const response = await fetch(new URL(path, base), {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as T };
}
