// A publication time a page shows its readers rather than declares in markup: a date with a clock time in the visible
// text, "2023-11-07 15:03", "2020.02.19 20:29", "09.12.2014 17:02", "2021年8月3日 02:00", "06月24日 11時30分". Newsrooms
// stamp a story with the minute it went out; many of them (Chinese, Korean and Japanese ones above all, and older
// sites everywhere) write no article:published_time or datePublished. Pure.

/** Year first: 2023-11-07 15:03, 2023.11.07. 15:03, 2023/11/07 (火) 15:03, 2021年8月3日 02:00, 2021年08月03日02:00. */
const YEAR_FIRST = String.raw`(?:19|20)\d\d(?:[-./]\s?\d{1,2}[-./]\s?\d{1,2}\.?|年\s?\d{1,2}月\s?\d{1,2}日)`;
/** Day or month first: 09.12.2014 17:02, 10/04/2016 05:07, 09-12-2014, with "," or "um"/"à"/"в" before the time. */
const DAY_FIRST = String.raw`\d{1,2}[./-]\d{1,2}[./-](?:19|20)\d\d,?(?:\s(?:um|à|a las|alle|в|o|kl\.))?`;
/** A CJK month and day without a year: 06月24日 11時30分. */
const MONTH_DAY = String.raw`\d{1,2}月\s?\d{1,2}日`;
/** The clock time after the date, a weekday in brackets allowed between: 15:03, 15:03:30, 11時30分. */
const CLOCK = String.raw`\s*(?:[(（][^)）\s]{1,3}[)）]\s*)?(?:[01]?\d|2[0-3])(?::[0-5]\d|時[0-5]?\d分)`;

const SHOWN_TIME = new RegExp(`(?<![\\d.])(?:${YEAR_FIRST}|${DAY_FIRST}|${MONTH_DAY})${CLOCK}(?!\\d)`, 'u');

/** Where the search stops: a story's time sits near its headline, a comment's or an archive's further down. */
const SEARCHED_CHARS = 60_000;

/** The first date with a clock time in a page's visible text, as written (whitespace collapsed); null for none. */
export function shownTime(text: string): string | null {
  if (typeof text !== 'string') return null;
  const found = SHOWN_TIME.exec(text.slice(0, SEARCHED_CHARS));
  return found === null ? null : found[0].replace(/\s+/g, ' ').trim();
}
