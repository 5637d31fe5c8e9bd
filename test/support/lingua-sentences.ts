// Lingua's test sentences kept as data (test/fixtures/languages/lingua-sentences/SOURCES.md), in runs of sentences
// joined as a page's running text is: 20 are about a page's text sample.
import { readFileSync } from 'node:fs';

export function linguaSentences(code: string): string[] {
  return readFileSync(new URL(`../fixtures/languages/lingua-sentences/${code}.txt`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** The sentences of `code` in consecutive runs of `size`, each joined with spaces (a last short run dropped). */
export function linguaRuns(code: string, size: number): string[] {
  return runsOf(linguaSentences(code), size).map((run) => run.join(' '));
}

/** The non-empty lines of a language test file under test/fixtures/languages/<folder>/ (its SOURCES.md names it). */
export function languageFixtureLines(folder: string, file: string): string[] {
  return readFileSync(new URL(`../fixtures/languages/${folder}/${file}`, import.meta.url), 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '');
}

/** `lines` in consecutive runs of `size` (a last short run dropped), as a page's titles or text sample come. */
export function runsOf(lines: readonly string[], size: number): string[][] {
  return Array.from({ length: Math.floor(lines.length / size) }, (_, i) =>
    lines.slice(i * size, (i + 1) * size),
  );
}
