// Where the metadata snapshot is published: a git repository (file or https remote) or GitHub's API.

export interface SnapshotFile {
  /** Repository-relative path, e.g. metadata/snapshot.json. */
  path: string;
  content: string;
}

export interface PublishResult {
  /** The commit that now holds the files; the existing head when nothing changed. */
  commitId: string | null;
  changed: boolean;
}

export interface SyncTarget {
  /** Safe to log: no credentials. */
  readonly description: string;
  publish(files: readonly SnapshotFile[], message: string): Promise<PublishResult>;
}
