// The SyncTarget contract: one suite both sync adapters must pass (run from sync-target-*.test.ts). Each
// adapter's fixture supplies a fresh remote, a reader that looks at what was committed, and its failing targets.
// A test an adapter cannot pass is skipped only by naming the limitation and its reason.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isFinalFailure, isPermanent } from '../../src/domain/errors.js';
import type { SnapshotFile, SyncTarget } from '../../src/ports/sync-target.js';

export interface CommitInfo {
  parents: string[];
  /** As given to publish (without the newline git adds). */
  message: string;
  author: { name: string; email: string };
}

/** Reads the remote directly, never through the adapter under test. */
export interface SyncTargetReader {
  /** Branch name → head commit id, for every branch of the remote. */
  heads(): Promise<Record<string, string>>;
  commit(id: string): Promise<CommitInfo>;
  /** Every file of a commit, path → exact content. */
  files(id: string): Promise<Record<string, string>>;
  /** Another writer (a person, CI) commits `files` on top of `branch`, creating it if needed; the new head. */
  commitElsewhere(branch: string, files: Record<string, string>, message: string): Promise<string>;
}

export interface TargetOptions {
  branch?: string;
  maxAttempts?: number;
  /** Awaited before each attempt of this target to move the branch (git push, GitHub ref write), from 1. */
  beforeWrite?: (attempt: number) => Promise<void>;
}

export interface FailingTarget {
  target: SyncTarget;
  /** What the error message must say: the adapter's step and the remote's reason. */
  reason: RegExp;
  /** Credentials that must appear in no message or stack. */
  secrets: string[];
}

export interface SyncTargetFixture {
  /** A new adapter instance with its own local state, publishing to the fixture's remote (empty at first). */
  target(options?: TargetOptions): SyncTarget;
  /** The description a target of this remote has for `branch`. */
  description(branch: string): string;
  reader: SyncTargetReader;
  /** The adapter's error class. */
  errorType: abstract new (
    ...args: never[]
  ) => Error;
  /** Makes the remote refuse every update of `branch`; the reason a refused publish must name. */
  protectBranch(branch: string): Promise<RegExp>;
  /** A target whose repository does not exist, whose server does not answer, or that refuses our credentials. */
  failing(kind: FailureKind): Promise<FailingTarget>;
  cleanup(): Promise<void>;
}

export type FailureKind = 'missing' | 'unreachable' | 'denied';

/** Known limitations of an adapter: each value is the reason its test is skipped. */
export interface SyncTargetLimitations {
  /** The first publish into a repository without any commit takes more than one commit. */
  emptyRepositoryInOneCommit?: string;
}

const AUTHOR = { name: 'Seedbed', email: 'seedbed@localhost' };
const snapshot = (n: number): SnapshotFile[] => [
  { path: 'metadata/snapshot.json', content: `{"version":${n}}\n` },
  { path: 'metadata/countries/sg.json', content: '{"country":"sg"}\n' },
];
const asRecord = (files: readonly SnapshotFile[]) =>
  Object.fromEntries(files.map((f) => [f.path, f.content]));
const UNSAFE_PATHS = ['../escape.json', '/abs.json', '.git/config', 'a//b.json', 'metadata/./x.json'];

export function syncTargetContract(
  name: string,
  makeFixture: () => Promise<SyncTargetFixture>,
  limitations: SyncTargetLimitations = {},
): void {
  describe(`SyncTarget contract: ${name}`, () => {
    let fixture: SyncTargetFixture;
    let reader: SyncTargetReader;

    beforeEach(async () => {
      fixture = await makeFixture();
      reader = fixture.reader;
    });

    afterEach(async () => {
      await fixture.cleanup();
    });

    /** Commit ids from `head` back to the root, following first parents. */
    async function history(head: string): Promise<string[]> {
      const ids: string[] = [];
      for (let id: string | undefined = head; id; id = (await reader.commit(id)).parents[0]) ids.push(id);
      return ids;
    }

    /** Runs `publish` on a target whose branch writes are counted; the result or the error, and the count. */
    async function counted(
      options: TargetOptions,
      publish: (target: SyncTarget) => Promise<unknown>,
    ): Promise<{ outcome: unknown; writes: number }> {
      let writes = 0;
      const target = fixture.target({
        ...options,
        beforeWrite: async (attempt) => {
          writes = attempt;
          await options.beforeWrite?.(attempt);
        },
      });
      const outcome = await publish(target).catch((error: unknown) => error);
      return { outcome, writes };
    }

    it('describes itself by remote and branch', () => {
      expect(fixture.target().description).toBe(fixture.description('main'));
      expect(fixture.target({ branch: 'metadata/v2' }).description).toBe(fixture.description('metadata/v2'));
    });

    it('first publish into an empty repository lands exactly the files, as Seedbed, with the message', async () => {
      const result = await fixture.target().publish(snapshot(1), 'metadata snapshot abc');
      expect(result.changed).toBe(true);
      expect(await reader.heads()).toEqual({ main: result.commitId });
      expect(await reader.files(result.commitId!)).toEqual(asRecord(snapshot(1)));
      const commit = await reader.commit(result.commitId!);
      expect(commit.message).toBe('metadata snapshot abc');
      expect(commit.author).toEqual(AUTHOR);
      expect(await fixture.target().publish(snapshot(1), 'again')).toEqual({
        changed: false,
        commitId: result.commitId,
      });
    });

    it.skipIf(limitations.emptyRepositoryInOneCommit !== undefined)(
      `first publish into an empty repository is a single root commit${skipNote(limitations.emptyRepositoryInOneCommit)}`,
      async () => {
        const result = await fixture.target().publish(snapshot(1), 'one');
        expect(await history(result.commitId!)).toEqual([result.commitId]);
      },
    );

    it('the same files again make no commit, from the same instance or a fresh one', async () => {
      const sync = fixture.target();
      const first = await sync.publish(snapshot(1), 'one');
      const heads = await reader.heads();
      expect(await sync.publish(snapshot(1), 'two')).toEqual({ changed: false, commitId: first.commitId });
      expect(await fixture.target().publish(snapshot(1), 'three')).toEqual({
        changed: false,
        commitId: first.commitId,
      });
      expect(await reader.heads()).toEqual(heads);
    });

    it('a changed file adds exactly one commit on top of the previous head, changing only that file', async () => {
      const sync = fixture.target();
      const first = await sync.publish(snapshot(1), 'one');
      const second = await sync.publish(snapshot(2), 'two');
      expect(second.changed).toBe(true);
      expect(second.commitId).not.toBe(first.commitId);
      expect(await reader.heads()).toEqual({ main: second.commitId });
      expect((await reader.commit(second.commitId!)).parents).toEqual([first.commitId]);
      const before = await reader.files(first.commitId!);
      const after = await reader.files(second.commitId!);
      expect(after).toEqual(asRecord(snapshot(2)));
      expect(Object.keys(after).filter((path) => after[path] !== before[path])).toEqual([
        'metadata/snapshot.json',
      ]);
    });

    it('writes only the files it is given: other writers’ files and files left out later stay', async () => {
      const readme = await reader.commitElsewhere('main', { 'README.md': 'hello\n' }, 'other: readme');
      const first = await fixture.target().publish(snapshot(1), 'metadata snapshot abc');
      const commit = await reader.commit(first.commitId!);
      expect(commit.parents).toEqual([readme]);
      expect(commit.message).toBe('metadata snapshot abc');
      expect(commit.author).toEqual(AUTHOR);
      expect(await reader.files(first.commitId!)).toEqual({
        'README.md': 'hello\n',
        ...asRecord(snapshot(1)),
      });

      const onlySnapshot = snapshot(2).slice(0, 1);
      const second = await fixture.target().publish(onlySnapshot, 'two');
      expect(await reader.files(second.commitId!)).toEqual({
        'README.md': 'hello\n',
        ...asRecord(snapshot(2)),
      });
    });

    it('creates a missing branch as a root commit holding just the files, leaving other branches alone', async () => {
      const main = await reader.commitElsewhere('main', { 'README.md': 'hello\n' }, 'other: readme');
      const result = await fixture.target({ branch: 'metadata/v2' }).publish(snapshot(7), 'new branch');
      expect(result.changed).toBe(true);
      expect(await reader.heads()).toEqual({ main, 'metadata/v2': result.commitId });
      expect((await reader.commit(result.commitId!)).parents).toEqual([]);
      expect(await reader.files(result.commitId!)).toEqual(asRecord(snapshot(7)));
    });

    it('rebuilds on the new head when another writer moves the branch between its read and its write', async () => {
      const first = await fixture.target().publish(snapshot(1), 'one');
      let other = '';
      const { outcome, writes } = await counted(
        {
          beforeWrite: async (attempt) => {
            if (attempt === 1) {
              other = await reader.commitElsewhere('main', { 'docs/notes.md': 'theirs\n' }, 'someone else');
            }
          },
        },
        (sync) => sync.publish(snapshot(2), 'two'),
      );
      expect(writes).toBe(2); // the refused write, then the one rebuilt on the other writer's commit
      const result = outcome as { changed: boolean; commitId: string };
      expect(result.changed).toBe(true);
      expect(await reader.heads()).toEqual({ main: result.commitId });
      expect(await history(result.commitId)).toEqual([
        result.commitId,
        other,
        ...(await history(first.commitId!)),
      ]);
      expect(await reader.files(result.commitId)).toEqual({
        'docs/notes.md': 'theirs\n',
        ...asRecord(snapshot(2)),
      });
    });

    it('gives up after the bounded number of attempts when the branch keeps moving', async () => {
      await fixture.target().publish(snapshot(1), 'one');
      let last = '';
      const { outcome, writes } = await counted(
        {
          maxAttempts: 2,
          beforeWrite: async (attempt) => {
            last = await reader.commitElsewhere('main', { [`noise/${attempt}.txt`]: 'x' }, 'noise');
          },
        },
        (sync) => sync.publish(snapshot(2), 'two'),
      );
      expect(outcome).toBeInstanceOf(fixture.errorType);
      const message = (outcome as Error).message;
      expect(message).toContain(`gave up publishing to ${fixture.description('main')} after 2 attempts`);
      expect(writes).toBe(2);
      expect(await reader.heads()).toEqual({ main: last });
      // A branch that kept moving may be quiet on the next try: the queue retries the task.
      expect(isFinalFailure(outcome, 1, 3)).toBe(false);
    });

    it('a write the remote refuses fails at once with its reason, not as a lost race', async () => {
      await fixture.target().publish(snapshot(1), 'one');
      const heads = await reader.heads();
      const reason = await fixture.protectBranch('main');
      const { outcome, writes } = await counted({}, (sync) => sync.publish(snapshot(2), 'two'));
      expect(outcome).toBeInstanceOf(fixture.errorType);
      expect((outcome as Error).message).toContain(fixture.description('main'));
      expect((outcome as Error).message).toMatch(reason);
      expect(writes).toBe(1);
      expect(await reader.heads()).toEqual(heads);
    });

    it('publishes one at a time on one instance, in call order', async () => {
      const readme = await reader.commitElsewhere('main', { 'README.md': 'hello\n' }, 'other: readme');
      const sync = fixture.target();
      const results = await Promise.all([1, 2, 3].map((n) => sync.publish(snapshot(n), `n${n}`)));
      expect(results.every((r) => r.changed)).toBe(true);
      expect(await history(results[2]!.commitId!)).toEqual([
        ...results.map((r) => r.commitId).reverse(),
        readme,
      ]);
      expect((await reader.files(results[2]!.commitId!))['metadata/snapshot.json']).toBe('{"version":3}\n');
    });

    it('refuses unsafe paths and an empty message before writing anything', async () => {
      const sync = fixture.target();
      for (const path of UNSAFE_PATHS) {
        await expect(sync.publish([{ path, content: 'x' }], 'bad')).rejects.toThrow(fixture.errorType);
      }
      await expect(sync.publish(snapshot(1), '  \n')).rejects.toThrow(fixture.errorType);
      expect(await reader.heads()).toEqual({});
    });

    // The metadata worker rethrows a publish error and the queue decides with isFinalFailure(): both adapters'
    // failures to reach or use the remote are retried (then the task fails with the last error), never
    // dead-lettered at the first attempt.
    const failures: { kind: FailureKind; what: string }[] = [
      { kind: 'missing', what: 'a repository that does not exist' },
      { kind: 'unreachable', what: 'a server that does not answer' },
      { kind: 'denied', what: 'a server that refuses our credentials' },
    ];
    it.each(
      failures,
    )('$what: fails with the reason, names the target without secrets, the queue retries', async ({
      kind,
    }) => {
      const { target, reason, secrets } = await fixture.failing(kind);
      const error = await target.publish(snapshot(1), 'one').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(fixture.errorType);
      const { message, stack } = error as Error;
      expect(message).toContain(target.description);
      expect(message).toMatch(reason);
      for (const secret of secrets) {
        for (const text of [message, String(stack), target.description]) expect(text).not.toContain(secret);
      }
      expect(isPermanent(error)).toBe(false);
      expect(isFinalFailure(error, 1, 3)).toBe(false);
    });
  });
}

function skipNote(reason: string | undefined): string {
  return reason === undefined ? '' : ` (skipped: ${reason})`;
}
