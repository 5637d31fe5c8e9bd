// The CLI's dependency-free copies of the candidate value lists must say what the API validates with: a value
// added to a schema's list and not to candidate-values.ts (or the other way) fails here.
import { describe, expect, it } from 'vitest';
import * as imports from '../../../src/domain/candidate-import.js';
import * as values from '../../../src/domain/candidate-values.js';
import * as candidates from '../../../src/domain/candidates.js';
import * as facts from '../../../src/domain/seed-facts.js';

describe('candidate value lists for the CLI', () => {
  it('are the lists of the schemas', () => {
    expect(values.CANDIDATE_STATES).toEqual(candidates.CANDIDATE_STATES);
    expect(values.CANDIDATE_SORTS).toEqual(candidates.CANDIDATE_SORTS);
    expect(values.NEWS_VERDICTS).toEqual(facts.NEWS_VERDICTS);
    expect(values.IMPORT_FORMATS).toEqual(imports.IMPORT_FORMATS);
  });

  it('send each import format under a content type the API reads as that format', () => {
    for (const format of values.IMPORT_FORMATS) {
      const type = values.IMPORT_CONTENT_TYPES[format];
      expect(imports.importFormatOf(type), type).toBe(format);
      expect(imports.importFormatOf(`${type}; charset=utf-8`), type).toBe(format);
    }
  });
});
