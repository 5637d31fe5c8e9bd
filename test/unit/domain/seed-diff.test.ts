// Field diffs and the "human edits win" split of a contract run (docs/design.md §3).
import { describe, expect, it } from 'vitest';
import {
  diffFields,
  planContractRun,
  proposalStillApplies,
  sameProposal,
} from '../../../src/domain/seed-diff.js';

const current = {
  name: 'MOF',
  entry_url: 'https://mof.gov.sg/',
  fetch: { type: 'rss', urls: ['https://mof.gov.sg/feed'] },
  schedule: '0 7 * * *',
  policy: { robots_allowed: true, crawl_delay: null },
};

describe('diffFields', () => {
  it('lists only the fields that differ, deeply, with before and after', () => {
    const diff = diffFields(current, {
      name: 'MOF',
      fetch: { type: 'rss', urls: ['https://mof.gov.sg/feed'] },
      policy: { robots_allowed: false, crawl_delay: null },
    });
    expect(diff).toEqual({
      policy: { before: current.policy, after: { robots_allowed: false, crawl_delay: null } },
    });
  });

  it('does not compare a field the next values leave out, and treats undefined as null', () => {
    expect(diffFields(current, { schedule: '0 7 * * *' })).toEqual({});
    expect(diffFields({}, { name: null })).toEqual({});
    expect(diffFields({}, { name: 'A' })).toEqual({ name: { before: null, after: 'A' } });
  });
});

describe('planContractRun', () => {
  const diff = diffFields(current, {
    name: 'Ministry',
    schedule: '0 * * * *',
    entry_url: 'https://www.mof.gov.sg/',
  });

  it('on a draft, applies the fields no person set and proposes the ones a person set', () => {
    const { apply, propose } = planContractRun('draft', ['name', 'schedule'], diff);
    expect(Object.keys(apply)).toEqual(['entry_url']);
    expect(Object.keys(propose).sort()).toEqual(['name', 'schedule']);
  });

  it('on an active, suspended or archived seed, applies nothing', () => {
    for (const status of ['active', 'suspended', 'archived'] as const) {
      const { apply, propose } = planContractRun(status, [], diff);
      expect(apply).toEqual({});
      expect(Object.keys(propose).sort()).toEqual(['entry_url', 'name', 'schedule']);
    }
  });
});

describe('proposals', () => {
  it('still apply while every field they change holds its before', () => {
    const diff = diffFields(current, { schedule: '0 * * * *' });
    expect(proposalStillApplies(current, diff)).toBe(true);
    expect(proposalStillApplies({ ...current, name: 'other' }, diff)).toBe(true);
    expect(proposalStillApplies({ ...current, schedule: '0 8 * * *' }, diff)).toBe(false);
  });

  it('are the same when they lead to the same values, whatever they started from', () => {
    const a = diffFields(current, { schedule: '0 * * * *' });
    const b = diffFields({ ...current, schedule: '0 9 * * *' }, { schedule: '0 * * * *' });
    expect(sameProposal(a, b)).toBe(true);
    expect(sameProposal(a, diffFields(current, { schedule: '5 * * * *' }))).toBe(false);
    expect(sameProposal(a, diffFields(current, { schedule: '0 * * * *', name: 'X' }))).toBe(false);
  });
});
