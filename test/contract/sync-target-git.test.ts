// Runs the SyncTarget contract against the git adapter: a fresh bare repository over file:// per test, read
// back with the git CLI; the failing targets are a missing repository, a closed port and an https server
// (the fake internet's test CA) that answers 403.
import { chmod, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
  createGitRunner,
  createGitSyncTarget,
  GitSyncError,
  type RunGit,
} from '../../src/adapters/sync/git-sync-target.js';
import { closedPort } from '../support/closed-port.js';
import { commitElsewhere, run, startHttpsGitServer } from '../support/git-remote.js';
import {
  type CommitInfo,
  type FailingTarget,
  type FailureKind,
  type SyncTargetFixture,
  syncTargetContract,
} from './sync-target.contract.js';

const TOKEN = 'seedbed-test-token-Zq81';
const ENCODED = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');

syncTargetContract('git over file://', async (): Promise<SyncTargetFixture> => {
  const dir = await mkdtemp(join(tmpdir(), 'seedbed-git-contract-'));
  const bare = join(dir, 'remote.git');
  await run('git', ['init', '--quiet', '--bare', bare]);
  const remoteUrl = pathToFileURL(bare).href;
  const closers: (() => Promise<void>)[] = [];
  let clones = 0;
  const raw = async (...args: string[]) => (await run('git', args, { cwd: bare })).stdout;

  async function failing(kind: FailureKind): Promise<FailingTarget> {
    const workDir = join(dir, `failing-${kind}`);
    if (kind === 'missing') {
      const url = pathToFileURL(join(dir, 'missing.git')).href;
      return {
        target: createGitSyncTarget({ url, branch: 'main', workDir }),
        reason: /git ls-remote failed for file:\/\/.*missing\.git#main/,
        secrets: [],
      };
    }
    if (kind === 'unreachable') {
      return {
        target: createGitSyncTarget({
          url: `https://127.0.0.1:${await closedPort()}/org/meta.git`,
          branch: 'main',
          token: TOKEN,
          workDir,
        }),
        reason:
          /git ls-remote failed for https:\/\/127\.0\.0\.1:\d+\/org\/meta\.git#main: .*(connect|refused)/i,
        secrets: [TOKEN, ENCODED],
      };
    }
    const server = await startHttpsGitServer((_req, res) => {
      res.writeHead(403).end('forbidden');
    });
    closers.push(server.close);
    return {
      target: createGitSyncTarget({
        url: `${server.origin}/org/meta.git`,
        branch: 'main',
        token: TOKEN,
        workDir,
        runGit: server.runGit,
      }),
      reason: /git ls-remote failed for https:\/\/news\.test:\d+\/org\/meta\.git#main: .*403/,
      secrets: [TOKEN, ENCODED],
    };
  }

  return {
    target({ branch = 'main', maxAttempts, beforeWrite } = {}) {
      let runGit: RunGit | undefined;
      if (beforeWrite) {
        const real = createGitRunner();
        let pushes = 0;
        runGit = async (args, options) => {
          if (args[0] === 'push') await beforeWrite(++pushes);
          return real(args, options);
        };
      }
      return createGitSyncTarget({
        url: remoteUrl,
        branch,
        workDir: join(dir, `clone-${++clones}`),
        ...(runGit ? { runGit } : {}),
        ...(maxAttempts ? { maxAttempts } : {}),
      });
    },
    description: (branch) => `${remoteUrl}#${branch}`,
    errorType: GitSyncError,
    reader: {
      async heads() {
        const lines = await raw('for-each-ref', '--format=%(refname:strip=2) %(objectname)', 'refs/heads');
        return Object.fromEntries(
          lines
            .split('\n')
            .filter(Boolean)
            .map((line) => line.split(' ')),
        );
      },
      async commit(id): Promise<CommitInfo> {
        const text = await raw('cat-file', 'commit', id);
        const cut = text.indexOf('\n\n');
        const header = text.slice(0, cut).split('\n');
        const author = /^author (.*) <(.*)> \d+ [+-]\d{4}$/.exec(
          header.find((l) => l.startsWith('author '))!,
        )!;
        return {
          parents: header.filter((l) => l.startsWith('parent ')).map((l) => l.slice('parent '.length)),
          // git ends every message with a newline; the adapter was given none.
          message: text.slice(cut + 2).replace(/\n$/, ''),
          author: { name: author[1]!, email: author[2]! },
        };
      },
      async files(id) {
        const entries = (await raw('ls-tree', '-r', '-z', id)).split('\0').filter(Boolean);
        const files: Record<string, string> = {};
        for (const entry of entries) {
          const [info = '', path = ''] = entry.split('\t');
          files[path] = await raw('cat-file', 'blob', info.split(' ')[2]!);
        }
        return files;
      },
      commitElsewhere: (branch, files, message) => commitElsewhere(remoteUrl, dir, branch, files, message),
    },
    async protectBranch(branch) {
      // A server-side hook, as a hosting service's branch protection refuses a push.
      const hook = join(bare, 'hooks', 'pre-receive');
      await writeFile(
        hook,
        [
          '#!/bin/sh',
          'while read old new ref; do',
          `  if [ "$ref" = "refs/heads/${branch}" ]; then echo "protected branch: $ref takes no direct pushes" >&2; exit 1; fi`,
          'done',
          '',
        ].join('\n'),
      );
      await chmod(hook, 0o755);
      return new RegExp(
        `git push failed for .*: .*protected branch: refs/heads/${branch} takes no direct pushes`,
      );
    },
    failing,
    async cleanup() {
      for (const close of closers) await close();
      await rm(dir, { recursive: true, force: true });
    },
  };
});
