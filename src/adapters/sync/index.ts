// Chooses the metadata sync adapter from SEEDBED_SYNC_TARGET: the git CLI for git+file/git+https remotes,
// GitHub's REST API for github://. Called from the composition root only.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { ConfigError } from '../../config.js';
import type { SyncTarget } from '../../ports/sync-target.js';
import { createGitSyncTarget } from './git-sync-target.js';
import { createGithubSyncTarget } from './github-sync-target.js';
import { parseSyncTarget, SyncTargetError, type SyncTargetSpec } from './parse-sync-target.js';

export { parseSyncTarget, SyncTargetError, type SyncTargetSpec };

export interface SyncTargetConfig {
  /** SEEDBED_SYNC_TARGET */
  target: string;
  /** SEEDBED_SYNC_TOKEN: for git+https remotes. */
  token?: string;
  /** GITHUB_TOKEN: for github:// targets. */
  githubToken?: string;
  /** SEEDBED_DATA_DIR: the git adapter keeps its clone under <dataDir>/sync/. */
  dataDir: string;
}

export function createSyncTarget(config: SyncTargetConfig): SyncTarget {
  let spec: SyncTargetSpec;
  try {
    spec = parseSyncTarget(config.target);
  } catch (error) {
    if (error instanceof SyncTargetError) throw new ConfigError(`SEEDBED_SYNC_TARGET: ${error.message}`);
    throw error;
  }
  if (spec.kind === 'github') {
    if (!config.githubToken) {
      throw new ConfigError(
        'GITHUB_TOKEN: required when SEEDBED_SYNC_TARGET is github://… (it needs contents:write)',
      );
    }
    return createGithubSyncTarget({ ...spec, token: config.githubToken });
  }
  // One clone per remote and branch, so changing the target never reuses a clone of another repository.
  const key = createHash('sha256').update(`${spec.url}#${spec.branch}`).digest('hex').slice(0, 16);
  return createGitSyncTarget({
    url: spec.url,
    branch: spec.branch,
    workDir: join(config.dataDir, 'sync', `git-${key}`),
    ...(spec.url.startsWith('https:') && config.token ? { token: config.token } : {}),
  });
}
