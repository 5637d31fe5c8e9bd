// Which active seeds a re-check tick takes (docs/design.md §11): SEEDBED_RECHECK_CRON's ticks of one UTC day share the
// directory out by a hash of each domain, so every seed is re-checked once a day and the load is spread evenly.
import { createHash } from 'node:crypto';
import { Cron } from 'croner';

const DAY_MS = 86_400_000;
/** A cron firing more often than every minute still splits the day into at most this many shares. */
const MAX_TICKS_PER_DAY = 1440;

export interface RecheckTick {
  /** The tick's place among the day's ticks (0-based). */
  index: number;
  /** How many ticks the cron has in that UTC day (at least 1). */
  count: number;
  /** The tick itself: the latest one at or before the time asked about (the day's start when none is). */
  at: Date;
}

/** The tick of `cron` that `at` belongs to: the latest one at or before it in the same UTC day. */
export function recheckTickOf(cron: string, at: Date): RecheckTick {
  const dayStart = Math.floor(at.getTime() / DAY_MS) * DAY_MS;
  const timer = new Cron(cron, { timezone: 'UTC', paused: true });
  try {
    const ticks = timer
      .nextRuns(MAX_TICKS_PER_DAY + 1, new Date(dayStart - 1))
      .map((tick) => tick.getTime())
      .filter((tick) => tick < dayStart + DAY_MS);
    if (ticks.length === 0) return { index: 0, count: 1, at: new Date(dayStart) };
    // A cron that fires less than daily (weekly, monthly) takes every seed on each of its days.
    let index = 0;
    for (let i = 0; i < ticks.length; i++) if ((ticks[i] as number) <= at.getTime()) index = i;
    return { index, count: ticks.length, at: new Date(ticks[index] as number) };
  } finally {
    timer.stop();
  }
}

/** Whether the domain's share of the day is this tick. */
export function isDueAt(registrableDomain: string, tick: Pick<RecheckTick, 'index' | 'count'>): boolean {
  if (tick.count <= 1) return true;
  const share = createHash('sha256').update(`recheck:${registrableDomain}`).digest().readUInt32BE(0);
  return share % tick.count === tick.index;
}
