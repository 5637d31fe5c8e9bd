import { describe, expect, it } from 'vitest';
import { archiveSchema, decideAction } from '../../../src/domain/seed-actions.js';

describe('decideAction: the seed state machine for promote and archive', () => {
  it('promotes a draft only', () => {
    expect(decideAction('promote', 'a::news', 'draft')).toEqual({
      answer: { seed_id: 'a::news', result: 'promoted', status: 'active' },
      outcome: 'promoted',
    });
    for (const status of ['active', 'suspended', 'archived'] as const)
      expect(decideAction('promote', 'a::news', status)).toEqual({
        answer: {
          seed_id: 'a::news',
          result: 'skipped',
          reason: `status is ${status}; only drafts are promoted`,
          status,
        },
        outcome: 'not_draft',
      });
  });

  it('archives any seed but an archived one', () => {
    for (const status of ['draft', 'active', 'suspended'] as const)
      expect(decideAction('archive', 'a::news', status).outcome).toBe('archived');
    expect(decideAction('archive', 'a::news', 'archived')).toEqual({
      answer: { seed_id: 'a::news', result: 'skipped', reason: 'already archived', status: 'archived' },
      outcome: 'already_archived',
    });
  });

  it('skips a seed that does not exist, or no longer matches the filter', () => {
    expect(decideAction('archive', 'a::news', null).outcome).toBe('not_found');
    expect(decideAction('promote', 'a::news', 'draft', false)).toMatchObject({
      answer: { result: 'skipped', reason: 'no longer matches the filter (status is draft)' },
      outcome: 'no_longer_matches',
    });
  });
});

describe('archiveSchema', () => {
  it('takes a status among the filters, but never archived', () => {
    expect(archiveSchema.parse({ filter: { status: 'active', country: 'SG' } }).filter).toEqual({
      status: 'active',
      country: 'sg',
    });
    expect(archiveSchema.safeParse({ filter: { status: 'archived' } }).success).toBe(false);
    expect(archiveSchema.safeParse({ filter: {} }).success).toBe(false);
    expect(archiveSchema.safeParse({ seedIds: ['a'], filter: { country: 'sg' } }).success).toBe(false);
  });
});
