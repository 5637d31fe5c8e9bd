// Parses SEEDBED_SYNC_TARGET (git+file://…, git+https://… or github://owner/repo, each with an optional
// #branch) into a typed target, refusing everything else with a message that says what was wrong; and the
// rule both adapters apply to the paths of the files they write.

export type SyncTargetSpec =
  | { kind: 'git'; url: string; branch: string }
  | { kind: 'github'; owner: string; repo: string; branch: string };

export class SyncTargetError extends Error {
  override readonly name = 'SyncTargetError';
}

const DEFAULT_BRANCH = 'main';
const FORMS =
  'git+file:///path/repo.git#branch, git+https://host/org/repo.git#branch or github://owner/repo#branch';

export function parseSyncTarget(text: string): SyncTargetSpec {
  const input = text.trim();
  if (input === '') throw new SyncTargetError(`sync target is empty: use ${FORMS}`);
  const hash = input.indexOf('#');
  const location = hash === -1 ? input : input.slice(0, hash);
  const branch = hash === -1 ? DEFAULT_BRANCH : input.slice(hash + 1);
  const branchProblem = branchNameProblem(branch);
  if (branchProblem) throw new SyncTargetError(`branch "${printable(branch)}" ${branchProblem}`);

  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location)?.[1]?.toLowerCase();
  if (scheme === 'git+file') return { kind: 'git', url: fileUrl(location), branch };
  if (scheme === 'git+https') return { kind: 'git', url: httpsUrl(location), branch };
  if (scheme === 'github') return { kind: 'github', ...githubRepo(location), branch };
  if (scheme === 'git+http' || scheme === 'http') {
    throw new SyncTargetError('plain http is refused (the token would travel in clear): use git+https://');
  }
  if (scheme === 'https' || scheme === 'file') {
    throw new SyncTargetError(`write git+${location} to say that the remote is a git repository`);
  }
  if (scheme === 'ssh' || scheme === 'git+ssh' || scheme === 'git' || /^[\w.-]+@[\w.-]+:/.test(location)) {
    throw new SyncTargetError(`ssh and git:// remotes are not supported: use ${FORMS}`);
  }
  throw new SyncTargetError(`unsupported sync target "${printable(location)}": use ${FORMS}`);
}

/** Why `name` is not an acceptable branch name, or null. A subset of git check-ref-format, plus no spaces. */
export function branchNameProblem(name: string): string | null {
  if (name === '') return 'is empty';
  if (name.length > 200) return 'is longer than 200 characters';
  // Control characters are exactly what this check is looking for.
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters on purpose
  if (/[\u0000-\u001f\u007f]/.test(name)) return 'contains a control character';
  if (/\s/.test(name)) return 'contains whitespace';
  if (name.startsWith('-')) return 'starts with "-" (git would read it as an option)';
  if (name.includes('..')) return 'contains ".."';
  if (/[~^:?*[\\]/.test(name)) return 'contains one of ~ ^ : ? * [ \\';
  if (name.includes('@{') || name === '@') return 'contains "@{" or is "@"';
  if (name.startsWith('/') || name.endsWith('/') || name.includes('//')) return 'has an empty path component';
  if (name.endsWith('.')) return 'ends with "."';
  for (const part of name.split('/')) {
    if (part.startsWith('.')) return 'has a component starting with "."';
    if (part.endsWith('.lock')) return 'has a component ending in ".lock"';
  }
  return null;
}

/** Why `path` is not a plain repository-relative file path (one that cannot escape or touch .git), or null. */
export function snapshotPathProblem(path: string): string | null {
  if (path === '') return 'is empty';
  if (path.startsWith('/')) return 'is absolute';
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters on purpose
  if (/[\u0000-\u001f\u007f\\]/.test(path)) return 'contains a control character or a backslash';
  for (const part of path.split('/')) {
    if (part === '' || part === '.' || part === '..') return 'has an empty, "." or ".." component';
    if (part.toLowerCase() === '.git') return 'goes into .git';
  }
  return null;
}

function fileUrl(location: string): string {
  const url = parseUrl(location.slice('git+'.length));
  if (url.hostname !== '' && url.hostname !== 'localhost') {
    throw new SyncTargetError(
      `git+file:// takes an absolute path, not a host ("${url.hostname}"): write git+file:///path/repo.git`,
    );
  }
  if (url.search) throw new SyncTargetError('git+file:// URLs take no query string');
  const path = decodeURIComponent(url.pathname);
  if (path === '/' || path === '') throw new SyncTargetError('git+file:// needs the path of a repository');
  // biome-ignore lint/suspicious/noControlCharactersInRegex: refusing control characters on purpose
  if (/[\u0000-\u001f\u007f]/.test(path))
    throw new SyncTargetError('the repository path contains a control character');
  return `file://${url.pathname}`;
}

function httpsUrl(location: string): string {
  const url = parseUrl(location.slice('git+'.length));
  if (url.username || url.password) {
    // A URL with credentials would end up in .git/config and in every log line that names the target.
    throw new SyncTargetError('credentials in the URL are refused: put the token in SEEDBED_SYNC_TOKEN');
  }
  if (url.hostname === '') throw new SyncTargetError('git+https:// needs a host');
  if (url.pathname === '/' || url.pathname === '') {
    throw new SyncTargetError('git+https:// needs the repository path, e.g. /org/repo.git');
  }
  if (url.search) throw new SyncTargetError('git+https:// URLs take no query string');
  return `https://${url.host}${url.pathname}`;
}

// GitHub's own rules: owners are 1–39 letters, digits and single inner hyphens; repositories are up to 100 of
// letters, digits, ".", "_" and "-", and never "." or "..".
const OWNER = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;
const REPO = /^[A-Za-z0-9._-]{1,100}$/;

function githubRepo(location: string): { owner: string; repo: string } {
  const rest = location.slice(location.indexOf('://') + 3);
  if (rest.includes('@'))
    throw new SyncTargetError('github:// takes no credentials: put the token in GITHUB_TOKEN');
  if (rest.includes('?')) throw new SyncTargetError('github:// takes no query string');
  const parts = rest.replace(/\/$/, '').split('/');
  if (parts.length !== 2)
    throw new SyncTargetError('github:// takes exactly owner/repo, e.g. github://acme/metadata');
  const [owner = '', rawRepo = ''] = parts;
  const repo = rawRepo.endsWith('.git') ? rawRepo.slice(0, -'.git'.length) : rawRepo;
  if (!OWNER.test(owner)) {
    throw new SyncTargetError(
      `GitHub owner "${printable(owner)}" must be 1–39 letters, digits or single inner hyphens`,
    );
  }
  if (!REPO.test(repo) || repo === '.' || repo === '..') {
    throw new SyncTargetError(
      `GitHub repository "${printable(repo)}" must be 1–100 letters, digits, ".", "_" or "-"`,
    );
  }
  return { owner, repo };
}

function parseUrl(text: string): URL {
  try {
    return new URL(text);
  } catch {
    throw new SyncTargetError(`"${printable(text)}" is not a valid URL`);
  }
}

/** Shows control characters as escapes so an error message cannot be used to forge log lines. */
function printable(text: string): string {
  return JSON.stringify(text).slice(1, -1);
}
