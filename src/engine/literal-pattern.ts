// One regular expression that finds any of a list of plain strings: a page's text is scanned once instead of once
// per string.

/** `literal` with every character that means something in a pattern escaped. */
export function escapeRegExp(literal: string): string {
  return literal.replace(/[\\^$.*+?()[\]{}|/]/g, '\\$&');
}

/** A pattern matching any of `literals` as written. */
export function anyOfLiterals(literals: Iterable<string>, flags = ''): RegExp {
  return new RegExp([...literals].map(escapeRegExp).join('|'), flags);
}
