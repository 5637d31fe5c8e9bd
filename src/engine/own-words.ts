// Telling a language from the neighbour a detector reads it as, by the words each writes its own way (galician.ts,
// serbian-croatian.ts): how many words of a text are on each list. A word on the first list is not counted again on
// the second. Pure.

/** How many of `text`'s words are on `mine` and how many on `theirs`, read lower-cased. */
export function countOwnWords(
  text: string,
  mine: ReadonlySet<string>,
  theirs: ReadonlySet<string>,
): { mine: number; theirs: number } {
  const counts = { mine: 0, theirs: 0 };
  for (const word of text.toLowerCase().match(/\p{L}+/gu) ?? []) {
    if (mine.has(word)) counts.mine += 1;
    else if (theirs.has(word)) counts.theirs += 1;
  }
  return counts;
}
