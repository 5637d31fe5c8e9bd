// The undici-backed Fetcher: one Agent whose connect step applies the resolve map and the SSRF guard, manual
// redirects, retries on 429/503, size caps per kind, and per-host politeness. It only moves bytes.
// Connections are kept alive per origin (one per host slot), so a site's requests share one socket.
//
// Assembled here from its parts: settings (fetch-settings), connections (fetch-agent), one request on the wire
// (fetch-hop), and a fetch() from start to answer (fetch-request).
import type { Fetcher } from '../ports/fetcher.js';
import { createFetchAgent } from './fetch-agent.js';
import { createHop } from './fetch-hop.js';
import { HostPoliteness, realSleep, Semaphore } from './fetch-politeness.js';
import { type ControlledFetch, createFetch } from './fetch-request.js';
import { fetcherSettings, type HttpFetcherConfig } from './fetch-settings.js';

export { parseRetryAfter } from './fetch-hop.js';
export { DEFAULT_FETCHER_SETTINGS, DEFAULT_MAX_BYTES, type HttpFetcherConfig } from './fetch-settings.js';

/** The http fetcher, whose fetch also takes the request's own AbortController (fetch-request.ts). */
export interface HttpFetcher extends Fetcher {
  fetch: ControlledFetch;
}

export function createHttpFetcher(config: HttpFetcherConfig): HttpFetcher {
  const settings = fetcherSettings(config);
  const connections = createFetchAgent(settings);
  const politeness = new HostPoliteness({
    perHostConcurrency: settings.perHost,
    minDelayMs: settings.perHostMinDelayMs,
    maxCrawlDelayMs: settings.maxCrawlDelayMs,
    global: new Semaphore(Math.max(1, settings.globalConcurrency)),
    sleep: config.sleep ?? realSleep,
    now: config.now ?? (() => performance.now()),
  });
  const hop = createHop({ settings, connections, politeness, random: config.random ?? Math.random });
  return {
    fetch: createFetch({ settings, hop, politeness }),
    setCrawlDelay(host, seconds) {
      politeness.setCrawlDelay(host, seconds);
    },
    async close() {
      await connections.agent.close();
    },
  };
}
