// The per-host gap as the sites saw it, from the fake internet's own timestamps: between two request starts
// (arrival to arrival) and between one answer's end and the next arrival, on one host. The fetcher's rule is end
// to start (docs/fetching.md, "The per-host gap"), so start to start is that gap plus the site's answer time.
import type { ServedRequest } from './latency-internet.js';

export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

export interface HostGaps {
  /** Arrival to next arrival on one host, ms. */
  startToStart: number[];
  /** End of an answer to the next arrival on that host, ms (negative when two were in flight at once). */
  endToStart: number[];
}

/** Consecutive pairs of each host's requests in arrival order; `keep` picks the hosts (all when absent). */
export function hostGaps(
  byHost: ReadonlyMap<string, readonly ServedRequest[]>,
  keep: (host: string) => boolean = () => true,
): HostGaps {
  const gaps: HostGaps = { startToStart: [], endToStart: [] };
  for (const [host, served] of byHost) {
    if (!keep(host)) continue;
    const requests = [...served].sort((a, b) => a.arrivedAt - b.arrivedAt);
    for (let i = 1; i < requests.length; i += 1) {
      const previous = requests[i - 1] as ServedRequest;
      const current = requests[i] as ServedRequest;
      gaps.startToStart.push(current.arrivedAt - previous.arrivedAt);
      gaps.endToStart.push(current.arrivedAt - previous.endedAt);
    }
  }
  return gaps;
}

/** "start→start median X ms, end→start median Y ms (n pairs)". */
export function describeGaps(gaps: HostGaps): string {
  return (
    `start→start median ${median(gaps.startToStart).toFixed(0)} ms, ` +
    `end→start median ${median(gaps.endToStart).toFixed(0)} ms (${gaps.startToStart.length} pairs)`
  );
}
