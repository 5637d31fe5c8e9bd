// BENCH_TIMELINE=1 for the latency benches: every sample of the bench's progress loop, how busy each thread of
// this process and the fake internet's process were, how many requests were in flight at the sites, and how
// many items ended. Where a run loses time against its bound shows here as a stretch with requests in flight
// below the cap: a thread near 100 % in that stretch is what held it.
import { inFlightBetween, type ServedRequest } from './latency-internet.js';
import { threadsCpuMs } from './thread-cpu.js';

interface Sample {
  at: number;
  done: number;
  threads: Map<string, number>;
  net: number | null;
}

export class CpuTimeline {
  readonly #samples: Sample[] = [];

  constructor(private readonly netCpuMs: () => number | null) {}

  /** `at`: ms since the bench's clock started; `done`: items ended so far. */
  sample(at: number, done: number): void {
    this.#samples.push({ at, done, threads: threadsCpuMs(), net: this.netCpuMs() });
  }

  /** One line per stretch between samples (merged to at least `stepMs`); `startedAt` is the clock's epoch ms. */
  describe(log: readonly ServedRequest[], startedAt: number, stepMs = 500): string {
    const kept: Sample[] = [];
    for (const s of this.#samples) {
      const last = kept.at(-1);
      if (last === undefined || s.at - last.at >= stepMs) kept.push(s);
    }
    const names = [...new Set(kept.flatMap((s) => [...s.threads.keys()]))];
    const lines: string[] = [];
    for (let i = 1; i < kept.length; i += 1) {
      const from = kept[i - 1] as Sample;
      const to = kept[i] as Sample;
      const span = to.at - from.at;
      const requests = inFlightBetween(log, startedAt + from.at, startedAt + to.at);
      const share = (a: number | undefined, b: number | undefined) =>
        `${Math.round((((a ?? 0) - (b ?? 0)) / span) * 100)}`;
      const threads = names
        .map((n) => [n, share(to.threads.get(n), from.threads.get(n))] as const)
        .filter(([, pct]) => pct !== '0')
        .map(([n, pct]) => `${n} ${pct}`)
        .join(', ');
      const net = to.net !== null && from.net !== null ? `, internet ${share(to.net, from.net)}` : '';
      lines.push(
        `  ${(from.at / 1000).toFixed(1)}–${(to.at / 1000).toFixed(1)} s: in flight ${requests.toFixed(0)}, ` +
          `ended ${to.done - from.done}; CPU % ${threads}${net}`,
      );
    }
    return `${lines.join('\n')}\n`;
  }
}
