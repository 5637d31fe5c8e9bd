// A metadata task (a snapshot build and sync run) moves through these states; the list is written once here.
export const TASK_STATUSES = [
  'queued',
  'running',
  'retrying',
  'succeeded',
  'unchanged',
  'failed',
  'skipped',
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];

/** A task in one of these is still under way: a scheduled tick's job may carry it on, never start it twice. */
export const UNFINISHED_TASK_STATUSES: readonly TaskStatus[] = ['queued', 'running', 'retrying'];
