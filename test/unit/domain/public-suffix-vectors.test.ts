// The Public Suffix List's own test vectors (test/fixtures/psl/tests.txt, publicsuffix/list) against our
// registrable-domain function: docs/design.md §2 says they all hold, private section included.
import { describe, expect, it } from 'vitest';
import { classifyHost, registrableDomainOf } from '../../../src/domain/domains.js';
import { pslVectors } from '../../fixtures/psl/vectors.js';

const vectors = pslVectors();

describe('Public Suffix List test vectors', () => {
  it('reads every vector of the file', () => {
    // 78 live vectors in the pinned copy; a broken reader would silently run none.
    expect(vectors).toHaveLength(78);
    expect(vectors.filter((v) => v.expected === null).length).toBeGreaterThan(20);
  });

  it.each(
    vectors.map((v) => [v.line, v.input, v.expected] as const),
  )('line %i: %s → %s', (_line, input, expected) => {
    expect(registrableDomainOf(input)).toBe(expected);
  });

  it('gives a reason for every host without a registrable domain', () => {
    for (const { input, expected } of vectors) {
      if (input === null || expected !== null) continue;
      const result = classifyHost(input);
      expect(result.ok, input).toBe(false);
      if (!result.ok) expect(result.reason.length, input).toBeGreaterThan(0);
    }
  });
});
