// Publishes snapshot files to a git remote (file:// or https://) through the git CLI, from a local clone
// kept in a cache folder: one commit per real change, none when nothing changed, never a forced push.
import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdir, open, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { dirname, join } from 'node:path';
import type { PublishResult, SnapshotFile, SyncTarget } from '../../ports/sync-target.js';
import { oneAtATime, publishProblem } from './publishing.js';

export interface GitResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `git <args>` in `cwd` with `env` added to the environment; resolves with any exit code. */
export type RunGit = (
  args: readonly string[],
  options: { cwd: string; env: Record<string, string> },
) => Promise<GitResult>;

export interface GitSyncTargetOptions {
  /** file:///… or https://… — never with credentials in it. */
  url: string;
  branch: string;
  /** For https remotes: sent as an HTTP header through the environment, never written to disk. */
  token?: string;
  /** The local clone; a cache folder under the data dir, one per target. */
  workDir: string;
  author?: { name: string; email: string };
  runGit?: RunGit;
  /** Attempts when another publisher moves the branch between our fetch and our push. */
  maxAttempts?: number;
  /** Kills one git command that takes longer than this (a hung remote). */
  commandTimeoutMs?: number;
}

const DEFAULT_AUTHOR = { name: 'Seedbed', email: 'seedbed@localhost' };

// Variables that would point git at another repository or inject config; the parent environment may carry
// them (for example when the service is started from a git hook).
const INHERITED_GIT_VARS =
  /^GIT_(DIR|WORK_TREE|INDEX_FILE|OBJECT_DIRECTORY|ALTERNATE_OBJECT_DIRECTORIES|CONFIG_.*|NAMESPACE|PREFIX)$/;

/** The default runner: execFile (no shell), the parent environment minus repository-redirecting variables. */
export function createGitRunner(options: { timeoutMs?: number } = {}): RunGit {
  const timeout = options.timeoutMs ?? 120_000;
  return (args, { cwd, env }) =>
    new Promise((resolve, reject) => {
      const base = Object.fromEntries(
        Object.entries(process.env).filter(([k]) => !INHERITED_GIT_VARS.test(k)),
      );
      execFile(
        'git',
        [...args],
        { cwd, env: { ...base, ...env }, timeout, maxBuffer: 16 * 1024 * 1024, encoding: 'utf8' },
        (error, stdout, stderr) => {
          if (!error) return resolve({ code: 0, stdout, stderr });
          const { code, killed } = error as NodeJS.ErrnoException & { killed?: boolean };
          if (typeof code === 'number') return resolve({ code, stdout, stderr });
          if (killed)
            return resolve({ code: -1, stdout, stderr: `${stderr}\ngit timed out after ${timeout} ms` });
          reject(
            new Error(
              code === 'ENOENT' ? 'the git CLI is not installed' : `cannot run git: ${error.message}`,
            ),
          );
        },
      );
    });
}

export class GitSyncError extends Error {
  override readonly name = 'GitSyncError';
}

export function createGitSyncTarget(options: GitSyncTargetOptions): SyncTarget {
  const { url, branch, workDir } = options;
  const parsed = new URL(url);
  if (parsed.protocol !== 'file:' && parsed.protocol !== 'https:') {
    throw new GitSyncError(`git sync needs a file:// or https:// remote, not ${parsed.protocol}`);
  }
  if (parsed.username || parsed.password) {
    throw new GitSyncError(
      'the remote URL must not carry credentials (they would be written to .git/config)',
    );
  }
  const author = options.author ?? DEFAULT_AUTHOR;
  const runGit = options.runGit ?? createGitRunner({ timeoutMs: options.commandTimeoutMs });
  const maxAttempts = options.maxAttempts ?? 5;
  const secrets = options.token ? [options.token, basicAuth(options.token)] : [];
  const description = `${url}#${branch}`;

  const env: Record<string, string> = {
    GIT_TERMINAL_PROMPT: '0',
    GIT_AUTHOR_NAME: author.name,
    GIT_AUTHOR_EMAIL: author.email,
    GIT_COMMITTER_NAME: author.name,
    GIT_COMMITTER_EMAIL: author.email,
  };
  const config: [string, string][] = [
    ['core.autocrlf', 'false'],
    ['commit.gpgsign', 'false'],
    // A global core.hooksPath would otherwise run the operator's hooks inside the service.
    ['core.hooksPath', '/dev/null'],
  ];
  if (options.token && parsed.protocol === 'https:') {
    // Config through GIT_CONFIG_* lives only in this process's environment: not on disk, not on the command line.
    config.push(['http.extraHeader', `Authorization: Basic ${basicAuth(options.token)}`]);
  }
  config.forEach(([key, value], i) => {
    env[`GIT_CONFIG_KEY_${i}`] = key;
    env[`GIT_CONFIG_VALUE_${i}`] = value;
  });
  env['GIT_CONFIG_COUNT'] = String(config.length);

  const redact = (text: string) => secrets.reduce((out, s) => out.split(s).join('***'), text);

  async function git(args: string[], allowed: number[] = [0]): Promise<GitResult> {
    const result = await runGit(args, { cwd: workDir, env });
    if (!allowed.includes(result.code)) {
      const detail = redact(result.stderr.trim() || result.stdout.trim()) || `exit code ${result.code}`;
      throw new GitSyncError(`git ${args[0]} failed for ${description}: ${detail}`);
    }
    return result;
  }

  async function ensureRepository(): Promise<void> {
    await mkdir(workDir, { recursive: true });
    const inside = await runGit(['rev-parse', '--show-toplevel'], { cwd: workDir, env });
    if (inside.code !== 0 || !(await sameDir(inside.stdout.trim(), workDir))) {
      await git(['init', '--quiet', '.']);
    }
    const remote = await git(['remote', 'get-url', 'origin'], [0, 2]);
    if (remote.code === 2) await git(['remote', 'add', 'origin', url]);
    else if (remote.stdout.trim() !== url) await git(['remote', 'set-url', 'origin', url]);
  }

  /** The remote branch head, or null when the branch (or the whole repository) has no commits yet. */
  async function remoteHead(): Promise<string | null> {
    const found = await git(['ls-remote', '--exit-code', 'origin', `refs/heads/${branch}`], [0, 2]);
    return found.code === 0 ? (found.stdout.split(/\s/)[0] ?? null) : null;
  }

  /** Makes the work tree exactly the remote branch (or empty for a new branch), whatever a failed run left. */
  async function resetTo(head: string | null): Promise<void> {
    await git(['symbolic-ref', 'HEAD', `refs/heads/${branch}`]);
    if (head) {
      await git([
        'fetch',
        '--quiet',
        '--no-tags',
        'origin',
        `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
      ]);
      await git(['reset', '--quiet', '--hard', head]);
    } else {
      await git(['update-ref', '-d', `refs/heads/${branch}`]);
      await git(['read-tree', '--empty']);
    }
    await git(['clean', '--quiet', '-f', '-d', '-x']);
  }

  async function attempt(files: readonly SnapshotFile[], message: string): Promise<PublishResult | 'moved'> {
    const head = await remoteHead();
    await resetTo(head);
    for (const file of files) {
      const target = join(workDir, file.path);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, file.content);
    }
    if (files.length > 0) await git(['add', '--force', '--', ...files.map((f) => f.path)]);
    const staged = head
      ? await git(['diff', '--cached', '--quiet'], [0, 1])
      : { code: files.length > 0 ? 1 : 0 };
    if (staged.code === 0) return { changed: false, commitId: head };
    await git(['commit', '--quiet', '--no-verify', '--cleanup=whitespace', `--message=${message}`]);
    const commitId = (await git(['rev-parse', 'HEAD'])).stdout.trim();
    const push = await runGit(['push', '--quiet', '--porcelain', 'origin', `HEAD:refs/heads/${branch}`], {
      cwd: workDir,
      env,
    });
    if (push.code === 0) return { changed: true, commitId };
    // Whatever git said, the push lost a race exactly when the branch is no longer where we built on.
    if ((await remoteHead()) !== head) return 'moved';
    throw new GitSyncError(
      `git push failed for ${description}: ${redact(push.stderr.trim() || push.stdout.trim())}`,
    );
  }

  async function publish(files: readonly SnapshotFile[], message: string): Promise<PublishResult> {
    const problem = publishProblem(files, message);
    if (problem) throw new GitSyncError(problem);
    await mkdir(dirname(workDir), { recursive: true });
    return withLockFile(`${workDir}.lock`, async () => {
      await ensureRepository();
      for (let i = 1; i <= maxAttempts; i++) {
        const result = await attempt(files, message);
        if (result !== 'moved') return result;
        // Two publishers that lost to each other would otherwise retry in lockstep.
        await sleep(20 * i + Math.random() * 30);
      }
      throw new GitSyncError(
        `gave up publishing to ${description} after ${maxAttempts} attempts: the branch kept moving under us`,
      );
    });
  }

  return {
    description,
    // One publish at a time per process: they share the clone in workDir.
    publish: oneAtATime(publish),
  };
}

function basicAuth(token: string): string {
  return Buffer.from(`x-access-token:${token}`).toString('base64');
}

async function sameDir(a: string, b: string): Promise<boolean> {
  try {
    const [x, y] = await Promise.all([stat(a), stat(b)]);
    return x.ino === y.ino && x.dev === y.dev;
  } catch {
    return false;
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Keeps two processes that share a data dir out of the same clone. The lock file names its holder; a lock
 * left by a dead process on this host, or older than staleMs, is taken over.
 */
async function withLockFile<T>(path: string, fn: () => Promise<T>, staleMs = 10 * 60_000): Promise<T> {
  const me = `${hostname()} ${process.pid} ${randomUUID()}`;
  for (let waited = 0; ; waited++) {
    try {
      const handle = await open(path, 'wx');
      await handle.writeFile(me);
      await handle.close();
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (await isStale(path, staleMs)) await rm(path, { force: true });
      else if (waited > 6000) throw new GitSyncError(`timed out waiting for the lock ${path}`);
      else await sleep(50);
    }
  }
  try {
    return await fn();
  } finally {
    // Only remove our own lock: a stale-lock takeover may have replaced it.
    if ((await readFile(path, 'utf8').catch(() => '')) === me) await rm(path, { force: true });
  }
}

async function isStale(path: string, staleMs: number): Promise<boolean> {
  try {
    const [text, info] = await Promise.all([readFile(path, 'utf8'), stat(path)]);
    const [host, pid] = text.split(' ');
    if (host === hostname() && pid && !isAlive(Number(pid))) return true;
    return Date.now() - info.mtimeMs > staleMs;
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
