// The GitHub sync adapter against a local server that stands in for the GitHub REST API
// (test/fixtures/fake-github): the real @octokit/rest client, real HTTP, an in-memory git object store.
import { afterEach, describe, expect, it } from 'vitest';
import {
  createGithubSyncTarget,
  GithubSyncError,
  gitBlobSha,
} from '../../src/adapters/sync/github-sync-target.js';
import type { SnapshotFile } from '../../src/ports/sync-target.js';
import { type FakeGithub, startFakeGithub } from '../fixtures/fake-github/index.js';

const TOKEN = 'ghp_fakeTokenForTests0123';
let fake: FakeGithub;

async function start(initialFiles?: Record<string, string>) {
  fake = await startFakeGithub({
    owner: 'acme',
    repo: 'meta',
    token: TOKEN,
    ...(initialFiles ? { initialFiles } : {}),
  });
  return fake;
}

function target(branch = 'main', token = TOKEN) {
  return createGithubSyncTarget({ owner: 'acme', repo: 'meta', branch, token, baseUrl: fake.baseUrl });
}

const snapshot = (n: number): SnapshotFile[] => [
  { path: 'metadata/snapshot.json', content: `{"version":${n}}\n` },
  { path: 'metadata/countries/sg.json', content: '{"country":"sg"}\n' },
];
const writes = () => ['/git/blobs', '/git/trees', '/git/commits'].map((p) => fake.count('POST', p));

afterEach(async () => {
  await fake?.close();
});

describe('gitBlobSha', () => {
  it('matches git hash-object (known ids)', () => {
    expect(gitBlobSha('')).toBe('e69de29bb2d1d6434b8b29ae775ad8c2e48c5391');
    expect(gitBlobSha('hello\n')).toBe('ce013625030ba8dba906f756967f9e9ca394464a');
    // Length is in bytes, not characters.
    expect(gitBlobSha('é')).not.toBe(gitBlobSha('e'));
  });
});

describe('GitHub sync target', () => {
  it('first publish creates a commit on top of the branch and moves the ref', async () => {
    await start({ 'README.md': 'hello\n' });
    const before = fake.store.branches.get('main')!;
    const result = await target().publish(snapshot(1), 'metadata snapshot abc');
    expect(result.changed).toBe(true);
    expect(fake.store.branches.get('main')).toBe(result.commitId);
    const commit = fake.store.commits.get(result.commitId!)!;
    expect(commit.parents).toEqual([before]);
    expect(commit.message).toBe('metadata snapshot abc');
    expect(commit.author).toEqual({ name: 'Seedbed', email: 'seedbed@localhost' });
    expect(fake.store.files(result.commitId!)).toEqual({
      'README.md': 'hello\n',
      'metadata/snapshot.json': '{"version":1}\n',
      'metadata/countries/sg.json': '{"country":"sg"}\n',
    });
    expect(fake.count('PATCH', '/git/refs/heads/main')).toBe(1);
  });

  it('an identical publish makes no commit and no blob, tree or commit POSTs', async () => {
    await start({ 'README.md': 'hello\n' });
    const first = await target().publish(snapshot(1), 'one');
    const commits = fake.store.commits.size;
    const posted = writes();
    const again = await target().publish(snapshot(1), 'two');
    expect(again).toEqual({ changed: false, commitId: first.commitId });
    expect(writes()).toEqual(posted);
    expect(fake.count('PATCH', '/git/refs')).toBe(1);
    expect(fake.store.commits.size).toBe(commits);
  });

  it('a changed file makes exactly one commit whose parent is the previous head, uploading only that blob', async () => {
    await start({ 'README.md': 'hello\n' });
    const first = await target().publish(snapshot(1), 'one');
    const [blobs, trees, commits] = writes();
    const second = await target().publish(snapshot(2), 'two');
    expect(second.changed).toBe(true);
    expect(fake.store.commits.get(second.commitId!)!.parents).toEqual([first.commitId]);
    expect(writes()).toEqual([blobs! + 1, trees! + 1, commits! + 1]);
    expect(fake.store.files(second.commitId!)['metadata/snapshot.json']).toBe('{"version":2}\n');
    expect(fake.store.files(second.commitId!)['metadata/countries/sg.json']).toBe('{"country":"sg"}\n');
  });

  it('sends the token in the Authorization header of every request', async () => {
    await start({ 'README.md': 'hello\n' });
    await target().publish(snapshot(1), 'one');
    expect(fake.requests.length).toBeGreaterThan(0);
    for (const request of fake.requests) expect(request.authorization).toBe(`token ${TOKEN}`);
  });

  it('a wrong token fails with a clear 401 that does not echo the token', async () => {
    await start({ 'README.md': 'hello\n' });
    const error = (await target('main', 'ghp_wrong_token_987')
      .publish(snapshot(1), 'one')
      .catch((e) => e)) as Error;
    expect(error).toBeInstanceOf(GithubSyncError);
    expect(error.message).toMatch(
      /reading the branch failed for github:\/\/acme\/meta#main: 401 Bad credentials/,
    );
    expect(error.message).not.toContain('ghp_wrong_token_987');
  });

  it('retries from the new head after a 422 not-a-fast-forward, keeping the other writer’s change', async () => {
    await start({ 'README.md': 'hello\n' });
    await target().publish(snapshot(1), 'one');
    let other = '';
    fake.beforeRefUpdate = () => {
      fake.beforeRefUpdate = undefined;
      other = fake.store.commitOnBranch('main', { 'docs/notes.md': 'theirs\n' }, 'someone else');
    };
    const result = await target().publish(snapshot(2), 'two');
    expect(fake.count('PATCH', '/git/refs/heads/main')).toBe(3); // one, the refused one, the retry
    expect(fake.store.branches.get('main')).toBe(result.commitId);
    expect(fake.store.commits.get(result.commitId!)!.parents).toEqual([other]);
    const files = fake.store.files(result.commitId!);
    expect(files['docs/notes.md']).toBe('theirs\n');
    expect(files['metadata/snapshot.json']).toBe('{"version":2}\n');
  });

  it('gives up after the bounded number of attempts when the branch keeps moving', async () => {
    await start({ 'README.md': 'hello\n' });
    let n = 0;
    fake.beforeRefUpdate = () => {
      fake.store.commitOnBranch('main', { [`noise/${n++}.txt`]: 'x' }, 'noise');
    };
    const sync = createGithubSyncTarget({
      owner: 'acme',
      repo: 'meta',
      branch: 'main',
      token: TOKEN,
      baseUrl: fake.baseUrl,
      maxAttempts: 2,
    });
    await expect(sync.publish(snapshot(1), 'one')).rejects.toThrow(/gave up .* after 2 attempts/);
    expect(fake.count('PATCH', '/git/refs/heads/main')).toBe(2);
  });

  it('creates a missing branch with a root commit and a new ref, leaving the others alone', async () => {
    await start({ 'README.md': 'hello\n' });
    const main = fake.store.branches.get('main');
    const result = await target('metadata').publish(snapshot(1), 'one');
    expect(fake.store.branches.get('metadata')).toBe(result.commitId);
    expect(fake.store.commits.get(result.commitId!)!.parents).toEqual([]);
    expect(Object.keys(fake.store.files(result.commitId!)).sort()).toEqual([
      'metadata/countries/sg.json',
      'metadata/snapshot.json',
    ]);
    expect(fake.count('POST', '/git/refs')).toBe(1);
    expect(fake.store.branches.get('main')).toBe(main);
  });

  it('starts an empty repository (where the Git Data API answers 409) and lands every file', async () => {
    await start();
    const result = await target().publish(snapshot(1), 'one');
    expect(result.changed).toBe(true);
    expect(fake.store.branches.get('main')).toBe(result.commitId);
    expect(fake.store.files(result.commitId!)).toEqual({
      'metadata/snapshot.json': '{"version":1}\n',
      'metadata/countries/sg.json': '{"country":"sg"}\n',
    });
    expect(await target().publish(snapshot(1), 'again')).toEqual({
      changed: false,
      commitId: result.commitId,
    });
  });
});
