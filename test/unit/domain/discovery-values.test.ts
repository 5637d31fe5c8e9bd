// The CLI sends an imported list under a content type of its own choosing: the API must read each back as the
// format it was sent as.
import { describe, expect, it } from 'vitest';
import * as imports from '../../../src/domain/candidate-import.js';
import * as values from '../../../src/domain/discovery-values.js';

describe('import formats', () => {
  it('send each import format under a content type the API reads as that format', () => {
    for (const format of values.IMPORT_FORMATS) {
      const type = values.IMPORT_CONTENT_TYPES[format];
      expect(imports.importFormatOf(type), type).toBe(format);
      expect(imports.importFormatOf(`${type}; charset=utf-8`), type).toBe(format);
    }
  });
});
