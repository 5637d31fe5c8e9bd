// What only the GitHub sync adapter does, against a local server that stands in for the GitHub REST API
// (test/fixtures/fake-github): which API calls it makes (none when unchanged, one blob per changed file, one
// ref write), the token header, and how it starts an empty repository. What every SyncTarget must do is in
// test/contract/sync-target.contract.ts.
import { afterEach, describe, expect, it } from 'vitest';
import { createGithubSyncTarget, gitBlobSha } from '../../src/adapters/sync/github-sync-target.js';
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

function target(branch = 'main') {
  return createGithubSyncTarget({ owner: 'acme', repo: 'meta', branch, token: TOKEN, baseUrl: fake.baseUrl });
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
  it('a publish on an existing branch moves it with one ref update', async () => {
    await start({ 'README.md': 'hello\n' });
    const result = await target().publish(snapshot(1), 'metadata snapshot abc');
    expect(result.changed).toBe(true);
    expect(fake.count('PATCH', '/git/refs/heads/main')).toBe(1);
    expect(fake.count('POST', '/git/refs')).toBe(0);
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

  it('a changed file uploads only that blob, with one tree and one commit', async () => {
    await start({ 'README.md': 'hello\n' });
    await target().publish(snapshot(1), 'one');
    const [blobs, trees, commits] = writes();
    const second = await target().publish(snapshot(2), 'two');
    expect(second.changed).toBe(true);
    expect(writes()).toEqual([blobs! + 1, trees! + 1, commits! + 1]);
  });

  it('sends the token in the Authorization header of every request', async () => {
    await start({ 'README.md': 'hello\n' });
    await target().publish(snapshot(1), 'one');
    expect(fake.requests.length).toBeGreaterThan(0);
    for (const request of fake.requests) expect(request.authorization).toBe(`token ${TOKEN}`);
  });

  it('creates a missing branch with one new ref', async () => {
    await start({ 'README.md': 'hello\n' });
    const result = await target('metadata').publish(snapshot(1), 'one');
    expect(fake.store.branches.get('metadata')).toBe(result.commitId);
    expect(fake.count('POST', '/git/refs')).toBe(1);
    expect(fake.count('PATCH', '/git/refs')).toBe(0);
  });

  it('starts an empty repository with the first file through the contents API, then the rest on top', async () => {
    await start();
    const result = await target().publish(snapshot(1), 'one');
    expect(fake.count('PUT', '/contents/metadata/snapshot.json')).toBe(1);
    const [bootstrap] = fake.store.commits.get(result.commitId!)!.parents;
    expect(fake.store.commits.get(bootstrap!)!.parents).toEqual([]);
    expect(fake.store.files(bootstrap!)).toEqual({ 'metadata/snapshot.json': '{"version":1}\n' });
    expect(fake.store.files(result.commitId!)).toEqual({
      'metadata/snapshot.json': '{"version":1}\n',
      'metadata/countries/sg.json': '{"country":"sg"}\n',
    });
  });
});
