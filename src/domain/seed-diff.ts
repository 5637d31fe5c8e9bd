// Field diffs of a seed's contract and the rule "human edits win" (docs/design.md §3): what a contract run may apply
// to a seed by itself, and what it can only propose to a person. Pure.
import { isDeepStrictEqual } from 'node:util';
import type { SeedStatus } from './seeds.js';

/** The fields a revision records: the contract (which raises the version) and the name. */
export const REVISION_FIELDS = ['name', 'entry_url', 'fetch', 'schedule', 'policy'] as const;
export type RevisionField = (typeof REVISION_FIELDS)[number];

export type RevisionValues = { [K in RevisionField]?: unknown };
export type FieldDiff = { [K in RevisionField]?: { before: unknown; after: unknown } };

/** The fields of `next` whose value differs from `current`; a field `next` leaves out is not compared. */
export function diffFields(current: RevisionValues, next: RevisionValues): FieldDiff {
  const diff: FieldDiff = {};
  for (const field of REVISION_FIELDS) {
    if (!(field in next)) continue;
    const before = current[field] ?? null;
    const after = next[field] ?? null;
    if (!isDeepStrictEqual(before, after)) diff[field] = { before, after };
  }
  return diff;
}

export function isEmptyDiff(diff: FieldDiff): boolean {
  return Object.keys(diff).length === 0;
}

/**
 * Splits what a contract run found into what it applies and what it proposes. A draft takes every field a
 * person did not set; an active, suspended or archived seed takes nothing by itself (its contract is a
 * person's decision), so everything different is proposed.
 */
export function planContractRun(
  status: SeedStatus,
  humanFields: readonly string[],
  diff: FieldDiff,
): { apply: FieldDiff; propose: FieldDiff } {
  const apply: FieldDiff = {};
  const propose: FieldDiff = {};
  for (const field of REVISION_FIELDS) {
    const change = diff[field];
    if (!change) continue;
    if (status === 'draft' && !humanFields.includes(field)) apply[field] = change;
    else propose[field] = change;
  }
  return { apply, propose };
}

/** Whether a proposal still applies: every field it changes still holds the value it was computed from. */
export function proposalStillApplies(current: RevisionValues, diff: FieldDiff): boolean {
  return REVISION_FIELDS.every((field) => {
    const change = diff[field];
    return !change || isDeepStrictEqual(current[field] ?? null, change.before);
  });
}

/** Two proposals that would change the same fields to the same values. */
export function sameProposal(a: FieldDiff, b: FieldDiff): boolean {
  const after = (d: FieldDiff) =>
    Object.fromEntries(REVISION_FIELDS.filter((f) => d[f]).map((f) => [f, d[f]?.after]));
  return isDeepStrictEqual(after(a), after(b));
}

/** The values a diff leads to. */
export function afterValues(diff: FieldDiff): RevisionValues {
  const values: RevisionValues = {};
  for (const field of REVISION_FIELDS) if (diff[field]) values[field] = diff[field]?.after;
  return values;
}
