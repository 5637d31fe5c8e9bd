// Publishes snapshot files to a GitHub repository through the REST Git Data API (no clone): blobs, a tree on
// top of the branch's tree, a commit, then a non-forced ref update. No commit when every blob is unchanged.
import { createHash } from 'node:crypto';
import { Octokit } from '@octokit/rest';
import type { PublishResult, SnapshotFile, SyncTarget } from '../../ports/sync-target.js';
import { oneAtATime, publishProblem } from './publishing.js';

export interface GithubSyncTargetOptions {
  owner: string;
  repo: string;
  branch: string;
  token: string;
  /** API root; tests point it at a local server. Defaults to https://api.github.com. */
  baseUrl?: string;
  /** A ready client (its own auth and base URL); `token` and `baseUrl` are then unused. */
  octokit?: Octokit;
  author?: { name: string; email: string };
  /** Attempts when another writer moves the branch between reading it and updating it. */
  maxAttempts?: number;
}

export class GithubSyncError extends Error {
  override readonly name = 'GithubSyncError';
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

const DEFAULT_AUTHOR = { name: 'Seedbed', email: 'seedbed@localhost' };

/** The id git gives a file's content: sha1 over "blob <byte length>\0<bytes>". */
export function gitBlobSha(content: string): string {
  const bytes = Buffer.from(content, 'utf8');
  return createHash('sha1').update(`blob ${bytes.length}\0`).update(bytes).digest('hex');
}

interface TreeEntry {
  path?: string;
  mode?: string;
  type?: string;
  sha?: string | null;
}

export function createGithubSyncTarget(options: GithubSyncTargetOptions): SyncTarget {
  const { owner, repo, branch } = options;
  const octokit =
    options.octokit ??
    new Octokit({
      auth: options.token,
      userAgent: 'seedbed-metadata-sync',
      // 404/409/422 are expected answers here (missing branch, empty repository, lost race); errors that
      // matter are thrown with context instead of logged by the client.
      log: { debug: () => {}, info: () => {}, warn: console.warn, error: () => {} },
      ...(options.baseUrl ? { baseUrl: options.baseUrl } : {}),
    });
  const author = options.author ?? DEFAULT_AUTHOR;
  const maxAttempts = options.maxAttempts ?? 5;
  const description = `github://${owner}/${repo}#${branch}`;
  const ref = `heads/${branch}`;

  async function call<T>(step: string, fn: () => Promise<{ data: T }>): Promise<T> {
    try {
      return (await fn()).data;
    } catch (error) {
      throw wrap(step, error);
    }
  }

  function wrap(step: string, error: unknown): GithubSyncError {
    const status = statusOf(error);
    const detail = messageOf(error);
    const hint =
      status === 401
        ? ' (check GITHUB_TOKEN)'
        : status === 403 || status === 404
          ? ' (does the token have contents:write on it?)'
          : '';
    return new GithubSyncError(
      `GitHub ${step} failed for ${description}: ${status ?? ''} ${detail}${hint}`.replace(/ {2,}/g, ' '),
      status,
    );
  }

  /** The branch head, or null when the branch does not exist (404) or the repository is empty (409). */
  async function head(): Promise<string | null> {
    try {
      const { data } = await octokit.rest.git.getRef({ owner, repo, ref });
      return data.object.sha;
    } catch (error) {
      const status = statusOf(error);
      if (status === 404 || status === 409) return null;
      throw wrap('reading the branch', error);
    }
  }

  /** Entries of the directory `dir` ('' = root) under `rootTree`, walking only the directories we write to. */
  function directoryReader(rootTree: string) {
    const cache = new Map<string, Promise<Map<string, TreeEntry>>>();
    const read = (dir: string): Promise<Map<string, TreeEntry>> => {
      let found = cache.get(dir);
      if (!found) {
        found = (async () => {
          let sha: string | null | undefined = rootTree;
          if (dir !== '') {
            const cut = dir.lastIndexOf('/');
            const parent = await read(cut === -1 ? '' : dir.slice(0, cut));
            const entry = parent.get(dir.slice(cut + 1));
            sha = entry?.type === 'tree' ? entry.sha : null;
          }
          if (!sha) return new Map();
          const tree = await call('reading a tree', () =>
            octokit.rest.git.getTree({ owner, repo, tree_sha: sha }),
          );
          return new Map(tree.tree.map((e) => [e.path ?? '', e]));
        })();
        cache.set(dir, found);
      }
      return found;
    };
    return read;
  }

  async function attempt(
    files: readonly SnapshotFile[],
    message: string,
  ): Promise<PublishResult | 'moved' | 'bootstrapped'> {
    const parent = await head();
    let changed: readonly SnapshotFile[] = files;
    let baseTree: string | undefined;
    if (parent) {
      const commit = await call('reading the head commit', () =>
        octokit.rest.git.getCommit({ owner, repo, commit_sha: parent }),
      );
      baseTree = commit.tree.sha;
      const read = directoryReader(baseTree);
      const same = await Promise.all(
        files.map(async (file) => {
          const cut = file.path.lastIndexOf('/');
          const entries = await read(cut === -1 ? '' : file.path.slice(0, cut));
          const entry = entries.get(file.path.slice(cut + 1));
          return entry?.type === 'blob' && entry.sha === gitBlobSha(file.content);
        }),
      );
      changed = files.filter((_, i) => !same[i]);
    }
    if (changed.length === 0) return { changed: false, commitId: parent };
    if (!parent && !(await repositoryHasCommits())) return bootstrapEmptyRepository(files[0]!, message);

    const entries: { path: string; mode: '100644'; type: 'blob'; sha: string }[] = [];
    for (const file of changed) {
      const blob = await call('creating a blob', () =>
        octokit.rest.git.createBlob({ owner, repo, content: file.content, encoding: 'utf-8' }),
      );
      entries.push({ path: file.path, mode: '100644', type: 'blob', sha: blob.sha });
    }
    const tree = await call('creating a tree', () =>
      octokit.rest.git.createTree({
        owner,
        repo,
        tree: entries,
        ...(baseTree ? { base_tree: baseTree } : {}),
      }),
    );
    const commit = await call('creating a commit', () =>
      octokit.rest.git.createCommit({
        owner,
        repo,
        message,
        tree: tree.sha,
        parents: parent ? [parent] : [],
        author,
      }),
    );
    try {
      if (parent) await octokit.rest.git.updateRef({ owner, repo, ref, sha: commit.sha, force: false });
      else await octokit.rest.git.createRef({ owner, repo, ref: `refs/${ref}`, sha: commit.sha });
    } catch (error) {
      // 422 is "not a fast forward" (update) or "already exists" (create): someone else wrote first.
      // Re-reading the head tells a lost race from a real refusal, whatever the message says.
      if (statusOf(error) === 422 && (await head()) !== parent) return 'moved';
      throw wrap(parent ? 'updating the branch' : 'creating the branch', error);
    }
    return { changed: true, commitId: commit.sha };
  }

  /** A missing branch in a repository that has other commits, versus a repository with no commits at all. */
  async function repositoryHasCommits(): Promise<boolean> {
    try {
      const { data } = await octokit.rest.git.listMatchingRefs({ owner, repo, ref: 'heads/' });
      return data.length > 0;
    } catch (error) {
      if (statusOf(error) === 409) return false;
      throw wrap('reading the repository', error);
    }
  }

  /**
   * GitHub's Git Data API refuses to write into a repository with no commits (409 "Git Repository is empty"),
   * so the first file goes in through the contents API, which creates the branch; the caller then retries
   * and puts the rest on top as an ordinary commit.
   */
  async function bootstrapEmptyRepository(first: SnapshotFile, message: string): Promise<'bootstrapped'> {
    try {
      await octokit.rest.repos.createOrUpdateFileContents({
        owner,
        repo,
        path: first.path,
        branch,
        message,
        content: Buffer.from(first.content, 'utf8').toString('base64'),
        author,
        committer: author,
      });
    } catch (error) {
      // Another publisher created it first: carry on from theirs.
      if (statusOf(error) !== 409 && statusOf(error) !== 422) throw wrap('creating the first commit', error);
    }
    return 'bootstrapped';
  }

  async function publish(files: readonly SnapshotFile[], message: string): Promise<PublishResult> {
    const problem = publishProblem(files, message);
    if (problem) throw new GithubSyncError(problem);
    let bootstrapped = false;
    for (let lost = 0; ; ) {
      const result = await attempt(files, message);
      if (result === 'bootstrapped' && !bootstrapped) {
        // Starting an empty repository is a step of its own, not a lost race.
        bootstrapped = true;
        continue;
      }
      if (result !== 'moved' && result !== 'bootstrapped') return result;
      if (++lost >= maxAttempts) {
        throw new GithubSyncError(
          `gave up publishing to ${description} after ${maxAttempts} attempts: the branch kept moving under us`,
        );
      }
      await new Promise((r) => setTimeout(r, 20 * lost + Math.random() * 30));
    }
  }

  return {
    description,
    // Serialised within the process: concurrent publishes would only race each other into retries.
    publish: oneAtATime(publish),
  };
}

function statusOf(error: unknown): number | undefined {
  const status = (error as { status?: unknown } | null)?.status;
  return typeof status === 'number' ? status : undefined;
}

function messageOf(error: unknown): string {
  const body = (error as { response?: { data?: { message?: unknown } } } | null)?.response?.data;
  if (typeof body?.message === 'string') return body.message;
  return error instanceof Error ? error.message : String(error);
}
