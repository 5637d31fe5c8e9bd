// How far apart the dated items on a site's front page are. A newsroom's front dates its stories hours apart (a
// weekly's all on its issue day); a blog's, a university's or an association's front lists one post or event a week
// or a month, under a menu that can read like a newsroom's. Pure.
import type { PageFacts } from './page-facts.js';

/** Fewer distinct dates than this say nothing about a pace: a front shows a handful of anything. */
export const MIN_FRONT_DATES = 8;
/** A median gap of this many days or more between consecutive dated items is a blog's or an institution's pace. */
export const SLOW_FRONT_GAP_DAYS = 5;
/** A median gap of this many hours or fewer is a newsroom's: stories dated through the day. */
export const FREQUENT_FRONT_GAP_HOURS = 6;

const DAY_MS = 86_400_000;

export interface FrontCadence {
  /** Distinct parsable dates on the page. */
  dates: number;
  /** The median gap in days between consecutive dates, newest first. */
  medianGapDays: number;
}

/** The pace of a page's dated items (`<time datetime>`, JSON-LD dates, meta times), or null with too few of them. */
export function frontCadence(page: PageFacts): FrontCadence | null {
  const times = [...new Set(page.page_times.map((t) => Date.parse(t)).filter((t) => !Number.isNaN(t)))].sort(
    (a, b) => b - a,
  );
  if (times.length < MIN_FRONT_DATES) return null;
  const gaps = times
    .slice(1)
    .map((time, i) => ((times[i] as number) - time) / DAY_MS)
    .sort((a, b) => a - b);
  return { dates: times.length, medianGapDays: gaps[Math.floor(gaps.length / 2)] as number };
}

/** The front's pace when it is a slow one (SLOW_FRONT_GAP_DAYS or more between items at the median), else null. */
export function slowFrontCadence(cadence: FrontCadence | null): FrontCadence | null {
  return cadence !== null && cadence.medianGapDays >= SLOW_FRONT_GAP_DAYS ? cadence : null;
}

/** The front's pace when it is a newsroom's (FREQUENT_FRONT_GAP_HOURS or fewer between items at the median). */
export function frequentFrontCadence(cadence: FrontCadence | null): FrontCadence | null {
  return cadence !== null && cadence.medianGapDays * 24 <= FREQUENT_FRONT_GAP_HOURS ? cadence : null;
}
