// The seven languages ELD does not know, read from their commonest words, on sentences the word lists were not chosen
// on (Lingua's test sentences 501–700: test/fixtures/languages/lingua-sentences/SOURCES.md).
import { describe, expect, it } from 'vitest';
import { functionWordLanguage } from '../../../src/engine/function-word-languages.js';
import { linguaRuns as runs } from '../../support/lingua-sentences.js';

const READ = ['zu', 'xh', 'sw', 'af', 'so', 'ga', 'cy'];
// biome-ignore format: a code list reads better packed
const OTHERS = ['nl', 'en', 'es', 'tl', 'yo', 'pt', 'de', 'fr', 'id', 'ms', 'st', 'tn', 'ts', 'sn', 'lg', 'mi'];

describe('functionWordLanguage', () => {
  it.each(READ)('reads %s in runs of 20 sentences (a page’s text sample)', (code) => {
    const found = runs(code, 20).map(functionWordLanguage);
    expect(found.length).toBe(10);
    // Every run read as its language; none as another.
    expect(found.filter((c) => c === code).length).toBeGreaterThanOrEqual(9);
    expect(found.filter((c) => c !== code && c !== null)).toEqual([]);
  });

  it.each(OTHERS)('never claims %s text, in runs of 20 or of 5 sentences', (code) => {
    for (const size of [20, 5])
      expect(runs(code, size).map(functionWordLanguage).filter(Boolean)).toEqual([]);
  });

  it('reads nothing into short text or a repeated word', () => {
    expect(functionWordLanguage('Ukuthi futhi kanye lokhu')).toBeNull();
    expect(functionWordLanguage(`${'die '.repeat(40)}`)).toBeNull();
    expect(functionWordLanguage('')).toBeNull();
  });
});
