// What only the git sync adapter does, against real repositories: its committer identity, two publishers
// racing to push, two instances sharing one clone folder, and the https token kept out of errors and
// .git/config. What every SyncTarget must do is in test/contract/sync-target.contract.ts.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  createGitRunner,
  createGitSyncTarget,
  GitSyncError,
  type RunGit,
} from '../../src/adapters/sync/git-sync-target.js';
import type { SnapshotFile } from '../../src/ports/sync-target.js';
import { gitAs, run, startHttpsGitServer } from '../support/git-remote.js';

let dir: string;
let bare: string;
let remoteUrl: string;

const remote = (...args: string[]) => gitAs(bare, ...args);
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
  it('commits as Seedbed, author and committer alike, whatever git identity the machine has', async () => {
    await target('work').publish(snapshot(1), 'metadata snapshot abc');
    expect(await remote('log', '-1', '--format=%an <%ae>|%cn <%ce>|%s', 'main')).toBe(
      'Seedbed <seedbed@localhost>|Seedbed <seedbed@localhost>|metadata snapshot abc',
    );
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

  it('two instances sharing one clone folder: the second finds nothing to commit', async () => {
    const first = await target('work').publish(snapshot(1), 'one');
    expect(await target('work').publish(snapshot(1), 'two')).toEqual({
      changed: false,
      commitId: first.commitId,
    });
    expect(await count()).toBe(1);
  });

  it('two instances (two processes) sharing one clone folder take turns through its lock file', async () => {
    const [a, b] = [target('shared'), target('shared')];
    const results = await Promise.all([a.publish(snapshot(1), 'a'), b.publish(snapshot(2), 'b')]);
    expect(results.every((r) => r.changed)).toBe(true);
    expect(await count()).toBe(2);
    await remote('fsck', '--strict');
  });
});

describe('git sync target over https', () => {
  const TOKEN = 'seedbed-test-token-Zq81';
  const encoded = Buffer.from(`x-access-token:${TOKEN}`).toString('base64');

  it('sends the token as a header, and neither the error nor .git/config contains it', async () => {
    const seen: (string | undefined)[] = [];
    const server = await startHttpsGitServer((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(503).end('down for maintenance');
    });
    try {
      const workDir = join(dir, 'https');
      const sync = createGitSyncTarget({
        url: `${server.origin}/org/meta.git`,
        branch: 'main',
        token: TOKEN,
        workDir,
        runGit: server.runGit,
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
      await server.close();
    }
  });
});
