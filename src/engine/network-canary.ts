// The network canary: before liveness calls a domain dead for a failure that our own network could have caused
// (no DNS answer, refused, timed out), it asks whether a few very stable hosts still answer through the same
// fetcher. One check serves every failure for a few seconds, so 1,000 dead domains cost one canary, not 1,000.
import { FetchError, type Fetcher } from '../ports/fetcher.js';

/** Two operators' connectivity-check endpoints: one of them down is not our network down. */
export const DEFAULT_CANARY_URLS: readonly string[] = [
  'https://www.google.com/generate_204',
  'https://cp.cloudflare.com/generate_204',
];
export const DEFAULT_CANARY_TTL_MS = 10_000;
export const DEFAULT_CANARY_TIMEOUT_MS = 10_000;

export interface CanaryProbe {
  url: string;
  /** The HTTP status it answered with (any status proves the network works), or null. */
  status: number | null;
  /** Why it did not answer (a FetchError code), or null. */
  error_code: string | null;
}

export interface CanaryReport {
  /** True when at least one canary URL gave any HTTP answer. */
  up: boolean;
  /** When this check ran: a report reused from the cache keeps its own time. */
  checked_at: string;
  probes: CanaryProbe[];
}

/** The port liveness asks. Built once per process by the composition root; tests pass their own. */
export interface NetworkCanary {
  check(): Promise<CanaryReport>;
}

export interface NetworkCanaryOptions {
  fetcher: Fetcher;
  urls: readonly string[];
  /** How long a report is reused, up or down. */
  ttlMs?: number;
  /** Per canary URL. */
  timeoutMs?: number;
  now?: () => Date;
}

async function probe(fetcher: Fetcher, url: string, timeoutMs: number): Promise<CanaryProbe> {
  try {
    const response = await fetcher.fetch(url, {
      kind: 'probe',
      method: 'HEAD',
      signal: AbortSignal.timeout(timeoutMs),
    });
    return { url, status: response.status, error_code: null };
  } catch (error) {
    return { url, status: null, error_code: error instanceof FetchError ? error.code : 'NETWORK' };
  }
}

export function createNetworkCanary(options: NetworkCanaryOptions): NetworkCanary {
  if (options.urls.length === 0) throw new Error('a network canary needs at least one URL');
  const ttlMs = options.ttlMs ?? DEFAULT_CANARY_TTL_MS;
  const timeoutMs = options.timeoutMs ?? DEFAULT_CANARY_TIMEOUT_MS;
  const now = options.now ?? (() => new Date());
  let cached: { report: CanaryReport; at: number } | null = null;
  // Failures arrive in bursts (a chunk checks several domains at once): they all wait for one check.
  let running: Promise<CanaryReport> | null = null;

  async function run(): Promise<CanaryReport> {
    const checkedAt = now();
    const probes: CanaryProbe[] = [];
    // Up as soon as one URL answers; down only once every one has failed.
    const up = await new Promise<boolean>((resolve) => {
      let pending = options.urls.length;
      for (const url of options.urls) {
        void probe(options.fetcher, url, timeoutMs).then((result) => {
          probes.push(result);
          pending -= 1;
          if (result.status !== null) resolve(true);
          else if (pending === 0) resolve(false);
        });
      }
    });
    const report = { up, checked_at: checkedAt.toISOString(), probes: [...probes] };
    cached = { report, at: now().getTime() };
    return report;
  }

  return {
    check() {
      if (running) return running;
      if (cached && now().getTime() - cached.at < ttlMs) return Promise.resolve(cached.report);
      running = run().finally(() => {
        running = null;
      });
      return running;
    },
  };
}
