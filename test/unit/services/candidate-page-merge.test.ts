// The candidate list merges its (state, verdict) groups' rows in memory: a deep offset page brings up to
// offset + limit rows a group. Found at a million candidates: `?offset=900000` answered 500, the merge's
// `push(...rows)` overflowing the call stack.
import { describe, expect, it } from 'vitest';
import { appendInOrder, type CandidateKeyRow } from '../../../src/services/candidates/list-query.js';

const byDomain = (a: CandidateKeyRow, b: CandidateKeyRow) =>
  a.domain < b.domain ? -1 : a.domain > b.domain ? 1 : 0;
const rows = (prefix: string, count: number): CandidateKeyRow[] =>
  Array.from({ length: count }, (_, i) => ({ domain: `${prefix}${String(i).padStart(7, '0')}.example` }));

describe('appendInOrder', () => {
  it('merges groups of 450,000 rows each without overflowing the stack', () => {
    const chosen: CandidateKeyRow[] = [];
    appendInOrder(chosen, [rows('b', 450_000), rows('a', 450_000)], byDomain, 900_051);
    expect(chosen).toHaveLength(900_000);
    expect(chosen[0]?.domain).toBe('a0000000.example');
    expect(chosen.at(-1)?.domain).toBe('b0449999.example');
  });

  it('keeps only the room left, in order, after what was chosen before', () => {
    const chosen: CandidateKeyRow[] = [{ domain: 'first.example' }];
    appendInOrder(
      chosen,
      [[{ domain: 'd.example' }, { domain: 'b.example' }], [{ domain: 'c.example' }]],
      byDomain,
      2,
    );
    expect(chosen.map((row) => row.domain)).toEqual(['first.example', 'b.example', 'c.example']);
  });
});
