import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { detectTextLanguage, detectTitle, detectTitlesLanguage } from '../../../src/engine/title-language.js';

const { titles } = JSON.parse(
  readFileSync(new URL('../../fixtures/languages/titles.json', import.meta.url), 'utf8'),
) as { titles: Record<string, string[]> };

describe('title language detection (ELD small)', () => {
  it.each(Object.entries(titles))('a site whose titles are %s is detected as such', (lang, list) => {
    expect(detectTitlesLanguage(list.slice(0, 6))).toMatchObject({ code: lang });
    expect(detectTitlesLanguage(list.slice(6, 12))).toMatchObject({ code: lang });
  });

  it('gets nearly every single title right (192 titles, 16 languages, 11 scripts)', () => {
    const all = Object.entries(titles).flatMap(([lang, list]) => list.map((t) => [lang, t] as const));
    const wrong = all.filter(([lang, t]) => detectTitle(t) !== lang);
    // Measured: 190 of 192; the two misses are Hindi titles read as Marathi (same script).
    expect(wrong.length).toBeLessThanOrEqual(4);
  });

  it('an empty title is no answer', () => {
    expect(detectTitle('   ')).toBeNull();
    expect(detectTitlesLanguage([])).toBeNull();
  });

  it('repeats of one title count once', () => {
    expect(detectTitlesLanguage(Array(5).fill(titles['fr']![0]))).toBeNull();
  });

  it.each(
    Object.entries(titles),
  )('running text in %s (its titles as one paragraph) is detected as such', (lang, list) => {
    expect(detectTextLanguage(list.join('. '))).toMatchObject({ code: lang });
  });

  it('running text too short to tell, or not a string, is no language', () => {
    expect(detectTextLanguage('Cookies akzeptieren')).toBeNull();
    expect(detectTextLanguage(42 as unknown as string)).toBeNull();
  });
});
