import { describe, expect, it } from 'vitest';
import { createSyncTarget } from '../../../../src/adapters/sync/index.js';
import {
  branchNameProblem,
  parseSyncTarget,
  SyncTargetError,
  snapshotPathProblem,
} from '../../../../src/adapters/sync/parse-sync-target.js';
import { ConfigError } from '../../../../src/config.js';

describe('parseSyncTarget: accepted forms', () => {
  it('reads a git+file remote and its branch', () => {
    expect(parseSyncTarget('git+file:///srv/meta.git#main')).toEqual({
      kind: 'git',
      url: 'file:///srv/meta.git',
      branch: 'main',
    });
  });

  it('reads a git+https remote with a port and a nested branch', () => {
    expect(parseSyncTarget('git+https://git.example.org:8443/org/repo.git#release/metadata')).toEqual({
      kind: 'git',
      url: 'https://git.example.org:8443/org/repo.git',
      branch: 'release/metadata',
    });
  });

  it('reads github://owner/repo and strips a trailing .git', () => {
    expect(parseSyncTarget('github://acme-labs/news.meta#data')).toEqual({
      kind: 'github',
      owner: 'acme-labs',
      repo: 'news.meta',
      branch: 'data',
    });
    expect(parseSyncTarget('github://acme/metadata.git#main')).toMatchObject({ repo: 'metadata' });
  });

  it('defaults the branch to main when there is no fragment', () => {
    expect(parseSyncTarget('github://acme/metadata').branch).toBe('main');
    expect(parseSyncTarget('git+file:///srv/meta.git').branch).toBe('main');
    expect(parseSyncTarget('git+https://host/org/repo.git').branch).toBe('main');
  });

  it('ignores whitespace around the whole value (a value read from a file ends in a newline)', () => {
    expect(parseSyncTarget('  github://acme/meta#data\n')).toMatchObject({ repo: 'meta', branch: 'data' });
  });

  it('accepts git+file://localhost/ as a local path', () => {
    expect(parseSyncTarget('git+file://localhost/srv/meta.git#main')).toMatchObject({
      url: 'file:///srv/meta.git',
    });
  });
});

describe('parseSyncTarget: refusals', () => {
  const refused: [string, RegExp][] = [
    ['', /empty/],
    ['ssh://git@host/org/repo.git#main', /ssh/],
    ['git+ssh://git@host/org/repo.git#main', /ssh/],
    ['git@github.com:org/repo.git', /ssh/],
    ['git+http://host/org/repo.git#main', /plain http/],
    ['https://host/org/repo.git#main', /git\+https/],
    ['file:///srv/meta.git', /git\+file/],
    ['s3://bucket/meta', /unsupported/],
    ['/srv/meta.git', /unsupported/],
    ['git+https://user:secret@host/org/repo.git#main', /credentials/],
    ['git+https://x-access-token@host/org/repo.git#main', /credentials/],
    ['git+https://host#main', /repository path/],
    ['git+https://host/org/repo.git?x=1#main', /query/],
    ['git+file://server/srv/meta.git#main', /absolute path/],
    ['git+file:///#main', /path of a repository/],
    ['github://acme#main', /owner\/repo/],
    ['github://acme/meta/extra#main', /owner\/repo/],
    ['github://-acme/meta#main', /owner/],
    ['github://acme-/meta#main', /owner/],
    ['github://ac--me/meta#main', /owner/],
    ['github://a_cme/meta#main', /owner/],
    [`github://${'a'.repeat(40)}/meta#main`, /owner/],
    ['github://acme/me ta#main', /repository/],
    ['github://acme/..#main', /repository/],
    ['github://token@acme/meta#main', /credentials/],
  ];
  for (const [input, message] of refused) {
    it(`refuses ${JSON.stringify(input)}`, () => {
      expect(() => parseSyncTarget(input)).toThrow(SyncTargetError);
      expect(() => parseSyncTarget(input)).toThrow(message);
    });
  }
});

describe('branch names', () => {
  const bad: [string, RegExp][] = [
    ['', /empty/],
    ['a..b', /"\.\."/],
    ['-delete', /starts with "-"/],
    ['my branch', /whitespace/],
    ['main\u0007', /control character/],
    ['ma\nin', /control character/],
    ['a:b', /~ \^ :/],
    ['a~1', /~ \^ :/],
    ['feature/', /empty path component/],
    ['a//b', /empty path component/],
    ['x.lock', /\.lock/],
    ['.hidden', /starting with "\."/],
    ['a@{1}', /@\{/],
    ['main.', /ends with/],
  ];
  for (const [name, message] of bad) {
    it(`refuses ${JSON.stringify(name)}`, () => {
      expect(branchNameProblem(name)).toMatch(message);
      expect(() => parseSyncTarget(`github://acme/meta#${name}`)).toThrow(SyncTargetError);
    });
  }

  it('accepts ordinary names', () => {
    for (const name of ['main', 'metadata', 'release/2026-11', 'v1.2', 'a_b-c'])
      expect(branchNameProblem(name)).toBeNull();
  });

  it('shows control characters escaped in the error, so it cannot forge a log line', () => {
    expect(() => parseSyncTarget('github://acme/meta#ma\nin')).toThrow('ma\\nin');
  });
});

describe('snapshot file paths', () => {
  it('accepts plain relative paths', () => {
    expect(snapshotPathProblem('metadata/snapshot.json')).toBeNull();
    expect(snapshotPathProblem('metadata/countries/sg.json')).toBeNull();
  });

  it('refuses paths that could escape the repository or reach .git', () => {
    expect(snapshotPathProblem('')).toMatch(/empty/);
    expect(snapshotPathProblem('/etc/passwd')).toMatch(/absolute/);
    expect(snapshotPathProblem('../x.json')).toMatch(/"\.\."/);
    expect(snapshotPathProblem('metadata/../../x.json')).toMatch(/"\.\."/);
    expect(snapshotPathProblem('a//b')).toMatch(/empty/);
    expect(snapshotPathProblem('.git/config')).toMatch(/\.git/);
    expect(snapshotPathProblem('metadata/.GIT/hooks/x')).toMatch(/\.git/);
    expect(snapshotPathProblem('a\\b')).toMatch(/backslash/);
    expect(snapshotPathProblem('a\u0000b')).toMatch(/control/);
  });
});

describe('createSyncTarget', () => {
  it('names SEEDBED_SYNC_TARGET when the target is invalid', () => {
    expect(() => createSyncTarget({ target: 'ssh://host/repo', dataDir: '/tmp/x' })).toThrow(ConfigError);
    expect(() => createSyncTarget({ target: 'ssh://host/repo', dataDir: '/tmp/x' })).toThrow(
      /^SEEDBED_SYNC_TARGET: /,
    );
  });

  it('refuses github:// without GITHUB_TOKEN, naming the variable', () => {
    expect(() =>
      createSyncTarget({ target: 'github://acme/meta#main', token: 'x', dataDir: '/tmp/x' }),
    ).toThrow(/GITHUB_TOKEN/);
  });

  it('builds adapters whose description carries no credentials', () => {
    const github = createSyncTarget({
      target: 'github://acme/meta#data',
      githubToken: 'ghp_secret',
      dataDir: '/tmp/x',
    });
    expect(github.description).toBe('github://acme/meta#data');
    const git = createSyncTarget({
      target: 'git+https://host/org/repo.git#main',
      token: 'tok_secret',
      dataDir: '/tmp/x',
    });
    expect(git.description).toBe('https://host/org/repo.git#main');
    expect(createSyncTarget({ target: 'git+file:///srv/meta.git', dataDir: '/tmp/x' }).description).toBe(
      'file:///srv/meta.git#main',
    );
  });
});
