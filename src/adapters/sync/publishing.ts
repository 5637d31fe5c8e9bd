// What both sync targets share around a publish: the checks on what may be written, and running one publish
// at a time within the process.
import type { PublishResult, SnapshotFile } from '../../ports/sync-target.js';
import { snapshotPathProblem } from './parse-sync-target.js';

/** Why these files and this message cannot be published, or null when they can. */
export function publishProblem(files: readonly SnapshotFile[], message: string): string | null {
  for (const file of files) {
    const problem = snapshotPathProblem(file.path);
    if (problem) return `refusing to write "${file.path}": the path ${problem}`;
  }
  return message.trim() === '' ? 'a commit message is required' : null;
}

type Publish = (files: readonly SnapshotFile[], message: string) => Promise<PublishResult>;

/** Calls run one after another; a failed call does not stop the next one. */
export function oneAtATime(publish: Publish): Publish {
  let tail: Promise<unknown> = Promise.resolve();
  return (files, message) => {
    const run = tail.then(() => publish(files, message));
    tail = run.catch(() => undefined);
    return run;
  };
}
