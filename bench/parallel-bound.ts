// The time a perfectly parallel client needs for a given set of requests under Seedbed's politeness rules:
// per host one request at a time and at least `gapMs` from the end of one to the start of the next, at most
// `cap` requests in flight in all, each request taking what the server actually took. Computed by simulating
// a greedy client that always starts the host with the longest remaining chain first, next to the analytic
// lower bound.

export interface HostRequests {
  host: string;
  /** Service time of each request, in the order they were served. */
  durationsMs: number[];
  /** The host's gap between two request starts (Seedbed's minimum, or its Crawl-delay). */
  gapMs: number;
}

export interface ParallelBound {
  /** The greedy client's finishing time: reachable, so an honest target. */
  makespanMs: number;
  /** No client can beat this: all work over the cap, or the longest single host chain. */
  lowerBoundMs: number;
}

/** Start to end of one host's requests when nothing else gets in the way. */
export function chainMs(durationsMs: readonly number[], gapMs: number): number {
  if (durationsMs.length === 0) return 0;
  return durationsMs.reduce((sum, d) => sum + d, 0) + (durationsMs.length - 1) * gapMs;
}

interface HostState {
  durations: number[];
  gapMs: number;
  next: number;
  busy: boolean;
  /** Earliest start of the next request: the gap after the end of the last one. */
  readyAt: number;
  /** Remaining chain from `next`, for the longest-first choice. */
  remaining: number[];
}

export function perfectlyParallel(hosts: readonly HostRequests[], cap: number): ParallelBound {
  const states: HostState[] = hosts
    .filter((h) => h.durationsMs.length > 0)
    .map((h) => {
      const remaining = h.durationsMs.map((_, i) => chainMs(h.durationsMs.slice(i), h.gapMs));
      return { durations: h.durationsMs, gapMs: h.gapMs, next: 0, busy: false, readyAt: 0, remaining };
    });
  const totalWork = states.reduce((sum, s) => sum + s.durations.reduce((a, b) => a + b, 0), 0);
  const longestChain = Math.max(0, ...states.map((s) => s.remaining[0] ?? 0));
  const lowerBoundMs = Math.max(totalWork / cap, longestChain);

  // Running requests as [end time, host]; few enough events that plain arrays do.
  const running: Array<{ end: number; state: HostState }> = [];
  let now = 0;
  let makespanMs = 0;
  let left = states.reduce((sum, s) => sum + s.durations.length, 0);
  while (left > 0 || running.length > 0) {
    const ready = states.filter((s) => !s.busy && s.next < s.durations.length && s.readyAt <= now);
    ready.sort((a, b) => (b.remaining[b.next] ?? 0) - (a.remaining[a.next] ?? 0));
    for (const state of ready.slice(0, Math.max(0, cap - running.length))) {
      const duration = state.durations[state.next] as number;
      state.busy = true;
      state.next += 1;
      left -= 1;
      running.push({ end: now + duration, state });
    }
    // The next event: a request ends, or (with a free slot) a host's gap runs out.
    let nextAt = Number.POSITIVE_INFINITY;
    for (const r of running) nextAt = Math.min(nextAt, r.end);
    if (running.length < cap) {
      for (const s of states)
        if (!s.busy && s.next < s.durations.length && s.readyAt > now) nextAt = Math.min(nextAt, s.readyAt);
    }
    if (nextAt === Number.POSITIVE_INFINITY) break;
    now = nextAt;
    for (let i = running.length - 1; i >= 0; i -= 1) {
      const r = running[i] as { end: number; state: HostState };
      if (r.end > now) continue;
      running.splice(i, 1);
      r.state.busy = false;
      r.state.readyAt = r.end + r.state.gapMs;
      makespanMs = Math.max(makespanMs, r.end);
    }
  }
  return { makespanMs, lowerBoundMs };
}
