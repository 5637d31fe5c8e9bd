// One fetch() from start to answer: the whole-request timeout and the caller's signal, then the chain of hops
// (manual redirects, checked for loops and a count; retries of a 429/503 after pushing the host's line back; one
// more try of a hop whose connection was reset before any answer).
import { FetchError, type FetchOptions, type FetchResponse } from '../ports/fetcher.js';
import { AfterHeadersError, toFetchError } from './fetch-errors.js';
import type { Hop, HopResult, OwnLine } from './fetch-hop.js';
import type { HostPoliteness } from './fetch-politeness.js';
import type { FetcherSettings } from './fetch-settings.js';

/** Socket errors of a connection the other side closed or reset. */
const RESET_CODES: ReadonlySet<string> = new Set(['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']);

/**
 * A hop that failed on a reset connection before any answer came: most often a kept-alive connection that the
 * server closed just as we sent on it (its idle timer and our reuse crossing; under load our side's view of the
 * connection's age lags). Browsers and curl send such a request once more on a new connection, and so do we, once
 * per fetch: a site whose every connection resets still fails, after two requests.
 */
export function isResetBeforeAnswer(err: unknown): boolean {
  if (err instanceof AfterHeadersError || !(err instanceof Error)) return false;
  const codes = [err, (err as { cause?: unknown }).cause].map((e) =>
    e instanceof Error ? String((e as { code?: unknown }).code ?? '') : '',
  );
  return codes.some((code) => RESET_CODES.has(code));
}

/** What every request of a fetcher shares. */
export interface RequestWiring {
  settings: Pick<FetcherSettings, 'maxRedirects' | 'totalTimeoutMs'>;
  hop: Hop;
  politeness: HostPoliteness;
}

/**
 * The whole-request timeout's clock: it runs only while the request is out of our own line (connecting, on the
 * wire, reading), so a long wait for a slot behind other domains never times a request out before it was sent.
 */
interface WireClock {
  run(): void;
  pause(): void;
}

function wireClock(limitMs: number, onTimeout: () => void): WireClock {
  let left = limitMs;
  let runningSince = 0;
  let timer: NodeJS.Timeout | undefined;
  return {
    run() {
      if (timer) return;
      runningSince = performance.now();
      timer = setTimeout(onTimeout, Math.max(0, left));
    },
    pause() {
      if (!timer) return;
      clearTimeout(timer);
      timer = undefined;
      left -= performance.now() - runningSince;
    },
  };
}

/** If-None-Match / If-Modified-Since from the validators of an earlier answer (RFC 9110 §13.1). */
function conditionalHeaders(validators: FetchOptions['conditional']): Record<string, string> {
  const headers: Record<string, string> = {};
  if (validators?.etag) headers['if-none-match'] = validators.etag;
  if (validators?.last_modified) headers['if-modified-since'] = validators.last_modified;
  return headers;
}

function parseHttpUrl(text: string, base?: URL): URL | null {
  try {
    const url = base ? new URL(text, base) : new URL(text);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url : null;
  } catch {
    return null;
  }
}

/**
 * Fetcher['fetch'], and for a caller that owns the request's AbortController (the fetch thread, which aborts it
 * when the calling thread's signal does) a way to give it: then the request has one signal, not two linked by a
 * listener (an AbortSignal costs about 5 µs to make, and a crawler sends thousands of requests a second).
 * `options.signal` is then ignored; the controller aborted by anything but the whole-request timeout reads as
 * the caller's abort (ABORTED), as a caller's signal does.
 */
export type ControlledFetch = (
  url: string,
  options: FetchOptions,
  control?: AbortController,
) => Promise<FetchResponse>;

export function createFetch({ settings: s, hop, politeness }: RequestWiring): ControlledFetch {
  async function followHops(
    requested: string,
    options: FetchOptions,
    signal: AbortSignal,
    wire: WireClock,
    /** The caller's signal as toFetchError reads it: aborted means cancelled by the caller. */
    callerSignal: () => AbortSignal | undefined,
  ): Promise<FetchResponse> {
    const started = performance.now();
    const method = options.method ?? 'GET';
    let current = parseHttpUrl(requested);
    if (current === null) {
      throw new FetchError('INVALID_URL', `not an http(s) URL: ${requested}`, { url: requested });
    }
    const redirects: string[] = [];
    const seen = new Set([current.href]);
    const conditional = conditionalHeaders(options.conditional);
    let waitedMs = 0;
    const line: OwnLine = {
      enter() {
        wire.pause();
        options.queueing?.(true);
      },
      leave(ms) {
        waitedMs += ms;
        wire.run();
        options.queueing?.(false);
      },
    };
    let attempt = 0;
    let resetRetried = false;
    // Every hop handed to a connection: redirects and 429/503 retries are requests the site had to answer.
    let requests = 0;
    const onWire = () => {
      requests += 1;
    };
    for (;;) {
      let result: HopResult;
      try {
        result = await hop({
          url: current,
          method,
          kind: options.kind,
          truncate: options.truncate === true,
          attempt,
          signal,
          priority: options.priority ?? 0,
          conditional,
          line,
          onWire,
        });
      } catch (err) {
        if (!resetRetried && !signal.aborted && isResetBeforeAnswer(err)) {
          resetRetried = true;
          continue;
        }
        throw toFetchError(err, {
          url: requested,
          finalUrl: current.href,
          signal,
          callerSignal: callerSignal(),
          requests,
        });
      }
      if (result.kind === 'retry') {
        attempt += 1;
        politeness.pushBack(current.hostname, result.waitMs);
        continue;
      }
      if (result.kind === 'final') {
        return {
          url: requested,
          finalUrl: current.href,
          status: result.status,
          headers: result.headers,
          body: result.body,
          ...(result.truncated ? { truncated: true } : {}),
          redirects,
          elapsedMs: Math.round(performance.now() - started),
          waitedMs: Math.round(waitedMs),
          requests,
        };
      }
      const next = parseHttpUrl(result.location, current);
      if (next === null) {
        throw new FetchError('INVALID_URL', `redirect to a non-http(s) location: ${result.location}`, {
          url: requested,
          finalUrl: current.href,
          status: result.status,
          requests,
        });
      }
      if (seen.has(next.href)) {
        throw new FetchError('REDIRECT_LOOP', `redirect loop: ${[...redirects, next.href].join(' -> ')}`, {
          url: requested,
          finalUrl: current.href,
          status: result.status,
          requests,
        });
      }
      if (redirects.length >= s.maxRedirects) {
        throw new FetchError(
          'TOO_MANY_REDIRECTS',
          `more than ${s.maxRedirects} redirects from ${requested}`,
          {
            url: requested,
            finalUrl: current.href,
            status: result.status,
            requests,
          },
        );
      }
      redirects.push(next.href);
      seen.add(next.href);
      current = next;
      attempt = 0;
    }
  }

  return async function fetch(url, options, control) {
    // One controller and one timer per request: AbortSignal.timeout and AbortSignal.any cost far more, and a
    // crawler sends thousands of requests a second.
    const controller = control ?? new AbortController();
    let timedOut = false;
    const wire = wireClock(s.totalTimeoutMs, () => {
      timedOut = true;
      controller.abort(new DOMException('the whole request took too long', 'TimeoutError'));
    });
    const caller = control ? undefined : options.signal;
    const callerSignal = control ? () => (timedOut ? undefined : control.signal) : () => caller;
    const onCallerAbort = () => controller.abort(caller?.reason);
    if (caller?.aborted) onCallerAbort();
    else caller?.addEventListener('abort', onCallerAbort, { once: true });
    try {
      return await followHops(url, options, controller.signal, wire, callerSignal);
    } finally {
      wire.pause();
      caller?.removeEventListener('abort', onCallerAbort);
    }
  };
}
