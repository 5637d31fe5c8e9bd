// The git sync adapter against real repositories: a bare repository in a temp dir reached through file://,
// and a local https server (the fake internet's test CA) for the token and error paths.
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createGitRunner,
  createGitSyncTarget,
  GitSyncError,
  type RunGit,
} from '../../src/adapters/sync/git-sync-target.js';
import type { SnapshotFile } from '../../src/ports/sync-target.js';

const run = promisify(execFile);
const CERTS = fileURLToPath(new URL('../fixtures/fake-internet/certs/', import.meta.url));

let dir: string;
let bare: string;
let remoteUrl: string;

/** git as the test's own hand (the "other writer" and the inspector), with its own identity. */
async function git(cwd: string, ...args: string[]): Promise<string> {
  const { stdout } = await run(
    'git',
    ['-c', 'user.name=Other', '-c', 'user.email=other@example.test', ...args],
    {
      cwd,
    },
  );
  return stdout.trim();
}
const remote = (...args: string[]) => git(bare, ...args);
const count = async (ref = 'main') => Number(await remote('rev-list', '--count', ref));
const treeOf = async (ref = 'main') => (await remote('ls-tree', '-r', '--name-only', ref)).split('\n').sort();
const show = (path: string, ref = 'main') => remote('show', `${ref}:${path}`);

function target(name: string, runGit?: RunGit) {
  return createGitSyncTarget({
    url: remoteUrl,
    branch: 'main',
    workDir: join(dir, name),
    ...(runGit ? { runGit } : {}),
  });
}

const snapshot = (n: number): SnapshotFile[] => [
  { path: 'metadata/snapshot.json', content: `{"version":${n}}\n` },
  { path: 'metadata/countries/sg.json', content: '{"country":"sg"}\n' },
];

/** Another clone that commits a file and pushes, as a second publisher elsewhere would. */
async function pushFromElsewhere(path: string, content: string): Promise<string> {
  const other = await mkdtemp(join(dir, 'other-'));
  await git(other, 'clone', '--quiet', remoteUrl, '.');
  if (await git(other, 'ls-remote', '--heads', 'origin', 'main'))
    await git(other, 'checkout', '-q', '-B', 'main', 'origin/main');
  await run('sh', ['-c', 'mkdir -p "$(dirname "$1")" && printf %s "$2" > "$1"', 'sh', path, content], {
    cwd: other,
  });
  await git(other, 'add', path);
  await git(other, 'commit', '--quiet', '-m', `other: ${path}`);
  await git(other, 'push', '--quiet', 'origin', 'HEAD:main');
  return git(other, 'rev-parse', 'HEAD');
}

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'seedbed-git-sync-'));
  bare = join(dir, 'remote.git');
  await run('git', ['init', '--quiet', '--bare', bare]);
  remoteUrl = pathToFileURL(bare).href;
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('git sync target over file://', () => {
  it('first publish into an empty repository makes one root commit holding exactly the files', async () => {
    const result = await target('work').publish(snapshot(1), 'metadata snapshot abc');
    expect(result.changed).toBe(true);
    expect(result.commitId).toBe(await remote('rev-parse', 'main'));
    expect(await count()).toBe(1);
    expect(await treeOf()).toEqual(['metadata/countries/sg.json', 'metadata/snapshot.json']);
    expect(await show('metadata/snapshot.json')).toBe('{"version":1}');
    expect(await remote('log', '-1', '--format=%an <%ae>|%cn <%ce>|%s', 'main')).toBe(
      'Seedbed <seedbed@localhost>|Seedbed <seedbed@localhost>|metadata snapshot abc',
    );
  });

  it('publishing the same files again makes no commit, from the same clone or a fresh one', async () => {
    const first = await target('work').publish(snapshot(1), 'one');
    const again = await target('work').publish(snapshot(1), 'two');
    expect(again).toEqual({ changed: false, commitId: first.commitId });
    const fresh = await target('elsewhere').publish(snapshot(1), 'three');
    expect(fresh).toEqual({ changed: false, commitId: first.commitId });
    expect(await count()).toBe(1);
  });

  it('a changed file adds exactly one commit on top of the previous head', async () => {
    const sync = target('work');
    const first = await sync.publish(snapshot(1), 'one');
    const second = await sync.publish(snapshot(2), 'two');
    expect(second.changed).toBe(true);
    expect(second.commitId).not.toBe(first.commitId);
    expect(await count()).toBe(2);
    expect(await remote('rev-parse', 'main^')).toBe(first.commitId);
    expect(await remote('diff', '--name-only', 'main^', 'main')).toBe('metadata/snapshot.json');
  });

  it('keeps files other writers put in the repository and creates a missing branch without touching others', async () => {
    const readme = await pushFromElsewhere('README.md', 'hello');
    await target('work').publish(snapshot(1), 'one');
    expect(await remote('rev-parse', 'main^')).toBe(readme);
    expect(await treeOf()).toEqual(['README.md', 'metadata/countries/sg.json', 'metadata/snapshot.json']);

    const other = createGitSyncTarget({ url: remoteUrl, branch: 'metadata/v2', workDir: join(dir, 'v2') });
    const created = await other.publish(snapshot(7), 'new branch');
    expect(created.changed).toBe(true);
    expect(await count('metadata/v2')).toBe(1);
    expect(await treeOf('metadata/v2')).toEqual(['metadata/countries/sg.json', 'metadata/snapshot.json']);
    expect(await count('main')).toBe(2);
  });

  it('retries when someone else pushes between our fetch and our push, keeping both changes', async () => {
    await target('seed').publish(snapshot(1), 'one');
    const real = createGitRunner();
    let otherHead = '';
    let pushes = 0;
    const racing: RunGit = async (args, options) => {
      if (args[0] === 'push' && pushes++ === 0)
        otherHead = await pushFromElsewhere('docs/notes.md', 'theirs');
      return real(args, options);
    };
    const result = await target('work', racing).publish(snapshot(2), 'two');
    expect(pushes).toBe(2);
    expect(result.changed).toBe(true);
    expect(await count()).toBe(3);
    expect(await remote('rev-parse', 'main^')).toBe(otherHead);
    expect(await show('docs/notes.md')).toBe('theirs');
    expect(await show('metadata/snapshot.json')).toBe('{"version":2}');
  });

  it('two publishers pushing at the same moment both land, one after the other, with consistent trees', async () => {
    await target('seed').publish(snapshot(1), 'base');
    const real = createGitRunner();
    // Hold each publisher's first push until both have committed locally: exactly one can win the race.
    let arrived = 0;
    let pushes = 0;
    let release!: () => void;
    const bothReady = new Promise<void>((resolve) => {
      release = resolve;
    });
    const barrier = (): RunGit => {
      let first = true;
      return async (args, options) => {
        if (args[0] === 'push') pushes++;
        if (args[0] === 'push' && first) {
          first = false;
          if (++arrived === 2) release();
          await bothReady;
        }
        return real(args, options);
      };
    };
    const a = target('a', barrier());
    const b = target('b', barrier());
    const filesA = [
      { path: 'metadata/snapshot.json', content: '{"from":"a"}\n' },
      { path: 'metadata/countries/aa.json', content: 'a\n' },
    ];
    const filesB = [
      { path: 'metadata/snapshot.json', content: '{"from":"b"}\n' },
      { path: 'metadata/countries/bb.json', content: 'b\n' },
    ];
    const [ra, rb] = await Promise.all([a.publish(filesA, 'from a'), b.publish(filesB, 'from b')]);
    expect(ra.changed && rb.changed).toBe(true);
    expect(pushes).toBe(3); // the loser pushed again after rebuilding on the winner
    expect(await count()).toBe(3);
    expect(await remote('rev-list', '--merges', '--count', 'main')).toBe('0');
    await remote('fsck', '--strict');

    const [later, earlier] = (await remote('log', '--format=%s', '-2', 'main')).split('\n');
    expect(new Set([later, earlier])).toEqual(new Set(['from a', 'from b']));
    // The last commit wrote the whole snapshot.json it was given, and the other side's country file survived.
    const winner = later === 'from a' ? 'a' : 'b';
    expect(await show('metadata/snapshot.json')).toBe(`{"from":"${winner}"}`);
    expect(await treeOf()).toEqual([
      'metadata/countries/aa.json',
      'metadata/countries/bb.json',
      'metadata/countries/sg.json',
      'metadata/snapshot.json',
    ]);
    expect(await show('metadata/snapshot.json', 'main^')).toBe(`{"from":"${winner === 'a' ? 'b' : 'a'}"}`);
  });

  it('serialises concurrent publishes on one instance', async () => {
    const sync = target('work');
    const results = await Promise.all([1, 2, 3].map((n) => sync.publish(snapshot(n), `n${n}`)));
    expect(results.every((r) => r.changed)).toBe(true);
    expect(await count()).toBe(3);
    expect(await show('metadata/snapshot.json')).toBe('{"version":3}');
  });

  it('two instances (two processes) sharing one clone folder take turns through its lock file', async () => {
    const [a, b] = [target('shared'), target('shared')];
    const results = await Promise.all([a.publish(snapshot(1), 'a'), b.publish(snapshot(2), 'b')]);
    expect(results.every((r) => r.changed)).toBe(true);
    expect(await count()).toBe(2);
    await remote('fsck', '--strict');
  });

  it('refuses paths that would leave the clone or touch .git', async () => {
    const sync = target('work');
    for (const path of ['../escape.json', '/abs.json', '.git/config', 'a//b.json', 'metadata/./x.json']) {
      await expect(sync.publish([{ path, content: 'x' }], 'bad')).rejects.toThrow(GitSyncError);
    }
    expect(await remote('for-each-ref')).toBe('');
  });

  it('fails clearly when the remote repository does not exist', async () => {
    const sync = createGitSyncTarget({
      url: pathToFileURL(join(dir, 'missing.git')).href,
      branch: 'main',
      workDir: join(dir, 'w'),
    });
    await expect(sync.publish(snapshot(1), 'one')).rejects.toThrow(
      /git ls-remote failed for file:\/\/.*missing\.git#main/,
    );
  });
});

describe('git sync target over https', () => {
  const TOKEN = 'seedbed-test-token-Zq81';
  const encoded = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');

  it('sends the token as a header, and neither the error nor .git/config contains it', async () => {
    const seen: (string | undefined)[] = [];
    const server = https.createServer(
      { cert: await readFile(join(CERTS, 'server.pem')), key: await readFile(join(CERTS, 'server-key.pem')) },
      (req, res) => {
        seen.push(req.headers.authorization);
        res.writeHead(503).end('down for maintenance');
      },
    );
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;
    const real = createGitRunner();
    // Route news.test (a name in the test certificate) to the local server and trust the test CA.
    const viaTestCa: RunGit = (args, options) =>
      real(['-c', `http.curloptResolve=news.test:${port}:127.0.0.1`, ...args], {
        ...options,
        env: { ...options.env, GIT_SSL_CAINFO: join(CERTS, 'ca.pem') },
      });
    try {
      const workDir = join(dir, 'https');
      const sync = createGitSyncTarget({
        url: `https://news.test:${port}/org/meta.git`,
        branch: 'main',
        token: TOKEN,
        workDir,
        runGit: viaTestCa,
      });
      const error = await sync.publish(snapshot(1), 'one').catch((e: unknown) => e);
      expect(error).toBeInstanceOf(GitSyncError);
      const message = (error as Error).message;
      expect(message).toMatch(
        /git ls-remote failed for https:\/\/news\.test:\d+\/org\/meta\.git#main: .*503/,
      );
      expect(seen).toContain(`Basic ${encoded}`);
      for (const text of [
        message,
        String((error as Error).stack),
        await readFile(join(workDir, '.git', 'config'), 'utf8'),
      ]) {
        expect(text).not.toContain(TOKEN);
        expect(text).not.toContain(encoded);
      }
    } finally {
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it('an unreachable remote fails with git’s reason and no token', async () => {
    const closed = https.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const sync = createGitSyncTarget({
      url: `https://127.0.0.1:${port}/org/meta.git`,
      branch: 'main',
      token: TOKEN,
      workDir: join(dir, 'unreachable'),
    });
    const error = (await sync.publish(snapshot(1), 'one').catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(GitSyncError);
    expect(error.message).toMatch(
      /git ls-remote failed for https:\/\/127\.0\.0\.1:\d+\/org\/meta\.git#main: .*(connect|refused)/i,
    );
    expect(error.message).not.toContain(TOKEN);
    expect(error.message).not.toContain(encoded);
  });
});
