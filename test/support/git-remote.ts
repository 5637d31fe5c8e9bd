// Real git remotes for the git sync tests: a bare repository, the test's own git hand (another writer, the
// inspector), and a local https server behind the fake internet's test CA for the token and error paths.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile } from 'node:fs/promises';
import type { RequestListener } from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { createGitRunner, type RunGit } from '../../src/adapters/sync/git-sync-target.js';

export const run = promisify(execFile);
const CERTS = fileURLToPath(new URL('../fixtures/fake-internet/certs/', import.meta.url));

/** git as the test's own hand, with its own identity (never Seedbed's). Output trimmed. */
export async function gitAs(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    'git',
    ['-c', 'user.name=Other', '-c', 'user.email=other@example.test', ...args],
    { cwd },
  );
  return stdout.trim();
}

/** Another clone under `scratch` commits `files` on top of `branch` (creating it) and pushes; the new head. */
export async function commitElsewhere(
  remoteUrl: string,
  scratch: string,
  branch: string,
  files: Record<string, string>,
  message: string,
): Promise<string> {
  const other = await mkdtemp(join(scratch, 'other-'));
  await gitAs(other, 'clone', '--quiet', remoteUrl, '.');
  if (await gitAs(other, 'ls-remote', '--heads', 'origin', branch))
    await gitAs(other, 'checkout', '-q', '-B', branch, `origin/${branch}`);
  else await gitAs(other, 'checkout', '-q', '--orphan', branch);
  for (const [path, content] of Object.entries(files)) {
    await run('sh', ['-c', 'mkdir -p "$(dirname "$1")" && printf %s "$2" > "$1"', 'sh', path, content], {
      cwd: other,
    });
  }
  await gitAs(other, 'add', '--', ...Object.keys(files));
  await gitAs(other, 'commit', '--quiet', '-m', message);
  await gitAs(other, 'push', '--quiet', 'origin', `HEAD:refs/heads/${branch}`);
  return gitAs(other, 'rev-parse', 'HEAD');
}

export interface HttpsGitServer {
  port: number;
  /** https://news.test:<port> — a name in the test certificate, routed to the local server. */
  origin: string;
  /** The real git runner, routing news.test to this server and trusting the test CA. */
  runGit: RunGit;
  close(): Promise<void>;
}

/** A local https server answering every request with `handler`, and a git runner that reaches it. */
export async function startHttpsGitServer(handler: RequestListener): Promise<HttpsGitServer> {
  const server = https.createServer(
    { cert: await readFile(join(CERTS, 'server.pem')), key: await readFile(join(CERTS, 'server-key.pem')) },
    handler,
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const real = createGitRunner();
  return {
    port,
    origin: `https://news.test:${port}`,
    runGit: (args, options) =>
      real(['-c', `http.curloptResolve=news.test:${port}:127.0.0.1`, ...args], {
        ...options,
        env: { ...options.env, GIT_SSL_CAINFO: join(CERTS, 'ca.pem') },
      }),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
