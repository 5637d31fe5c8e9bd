// Runs the SyncTarget contract against the GitHub adapter: the real Octokit client over real HTTP to a fresh
// fake GitHub (test/fixtures/fake-github) per test, read back from the fake's in-memory git object store.
import { Octokit } from '@octokit/rest';
import { createGithubSyncTarget, GithubSyncError } from '../../src/adapters/sync/github-sync-target.js';
import { startFakeGithub } from '../fixtures/fake-github/index.js';
import { closedPort } from '../support/closed-port.js';
import {
  type FailingTarget,
  type FailureKind,
  type SyncTargetFixture,
  syncTargetContract,
} from './sync-target.contract.js';

const TOKEN = 'ghp_fakeTokenForTests0123';
const WRONG_TOKEN = 'ghp_wrong_token_987';
const QUIET = { debug: () => {}, info: () => {}, warn: () => {}, error: () => {} };

/** A client that awaits `beforeWrite` before each request that moves a branch (ref update or create, contents PUT). */
function octokitWithWriteHook(baseUrl: string, beforeWrite: (attempt: number) => Promise<void>): Octokit {
  let writes = 0;
  return new Octokit({
    auth: TOKEN,
    baseUrl,
    log: QUIET,
    request: {
      fetch: async (url: string, init?: RequestInit) => {
        const method = init?.method ?? 'GET';
        const path = new URL(url).pathname;
        const movesBranch =
          (method === 'PATCH' && path.includes('/git/refs/')) ||
          (method === 'POST' && path.endsWith('/git/refs')) ||
          (method === 'PUT' && path.includes('/contents/'));
        if (movesBranch) await beforeWrite(++writes);
        return fetch(url, init);
      },
    },
  });
}

syncTargetContract(
  'GitHub REST API (fake GitHub)',
  async (): Promise<SyncTargetFixture> => {
    const fake = await startFakeGithub({ owner: 'acme', repo: 'meta', token: TOKEN });
    const { store } = fake;

    async function failing(kind: FailureKind): Promise<FailingTarget> {
      const base = { owner: 'acme', repo: 'meta', branch: 'main', token: TOKEN, baseUrl: fake.baseUrl };
      if (kind === 'missing') {
        return {
          target: createGithubSyncTarget({ ...base, repo: 'missing' }),
          reason: /reading the repository failed for github:\/\/acme\/missing#main: 404 Not Found/,
          secrets: [TOKEN],
        };
      }
      if (kind === 'unreachable') {
        return {
          target: createGithubSyncTarget({ ...base, baseUrl: `http://127.0.0.1:${await closedPort()}` }),
          reason: /reading the branch failed for github:\/\/acme\/meta#main: .*ECONNREFUSED/,
          secrets: [TOKEN],
        };
      }
      return {
        target: createGithubSyncTarget({ ...base, token: WRONG_TOKEN }),
        reason: /reading the branch failed for github:\/\/acme\/meta#main: 401 Bad credentials/,
        secrets: [WRONG_TOKEN],
      };
    }

    return {
      target: ({ branch = 'main', maxAttempts, beforeWrite } = {}) =>
        createGithubSyncTarget({
          owner: 'acme',
          repo: 'meta',
          branch,
          token: TOKEN,
          baseUrl: fake.baseUrl,
          ...(maxAttempts ? { maxAttempts } : {}),
          ...(beforeWrite ? { octokit: octokitWithWriteHook(fake.baseUrl, beforeWrite) } : {}),
        }),
      description: (branch) => `github://acme/meta#${branch}`,
      errorType: GithubSyncError,
      reader: {
        heads: async () => Object.fromEntries(store.branches),
        async commit(id) {
          const commit = store.commits.get(id);
          if (!commit) throw new Error(`no commit ${id} in the fake GitHub`);
          return { parents: [...commit.parents], message: commit.message, author: { ...commit.author } };
        },
        files: async (id) => store.files(id),
        commitElsewhere: async (branch, files, message) => store.commitOnBranch(branch, files, message),
      },
      async protectBranch(branch) {
        fake.protectedBranches.add(branch);
        return new RegExp(
          `updating the branch failed for .*: 422 Protected branch update failed for refs/heads/${branch}`,
        );
      },
      failing,
      cleanup: () => fake.close(),
    };
  },
  {
    emptyRepositoryInOneCommit:
      'GitHub’s Git Data API refuses writes into a repository without commits (409), so the first file goes in ' +
      'through the contents API and the rest follows as a second commit',
  },
);
