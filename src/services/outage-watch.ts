// Remembers when the network canary last saw our own network down. With every domain of a batch in flight at
// once, a failure seen during an outage can be judged by a canary asked after the network came back; any
// failure of a domain that was running when the canary saw the network down is therefore not trusted.
import type { CanaryReport, NetworkCanary } from '../engine/network-canary.js';

export interface OutageWatch {
  /** The canary to hand to the engine: the same checks, watched. */
  canary: NetworkCanary | null;
  /** Monotonic milliseconds, for `since`. */
  now(): number;
  /** True when the canary reported the network down at or after `since` (a value of now()). */
  downSince(since: number): boolean;
}

export function watchOutages(
  canary: NetworkCanary | null,
  now: () => number = () => performance.now(),
): OutageWatch {
  let lastDownAt = Number.NEGATIVE_INFINITY;
  return {
    canary: canary && {
      async check(): Promise<CanaryReport> {
        const report = await canary.check();
        if (!report.up) lastDownAt = now();
        return report;
      },
    },
    now,
    downSince: (since) => lastDownAt >= since,
  };
}
