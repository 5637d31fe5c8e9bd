// Text read off a page, a feed or a sitemap, made fit to show and to store: a seed's name goes into a Postgres
// text column, which refuses a NUL outright (the whole domain's write would fail), and a cut that splits a
// surrogate pair leaves a string that is not valid Unicode.

/** C0 and C1 controls (tab, newline and carriage return excepted, which the whitespace rule folds) and DEL. */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point
const CONTROLS = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]/g;

/** At most `max` UTF-16 units of `text`, never ending on the first half of a surrogate pair. */
export function cutText(text: string, max: number): string {
  if (text.length <= max) return text;
  const code = text.charCodeAt(max - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/**
 * Text as a person reads it: control characters dropped, whitespace runs collapsed to one space, trimmed, and
 * cut to `max` UTF-16 units on a character boundary; null when nothing is left.
 */
export function readableText(text: string, max: number): string | null {
  // toWellFormed: a parser may have turned an entity such as &#xD800; into a lone surrogate.
  const value = text.toWellFormed().replace(CONTROLS, '').replace(/\s+/g, ' ').trim();
  return value === '' ? null : cutText(value, max);
}
