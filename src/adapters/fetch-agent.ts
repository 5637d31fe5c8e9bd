// The fetcher's connections: one undici Agent whose connect step applies the resolve map and the SSRF guard,
// with connections kept alive per origin (one per host slot), so a site's requests share one socket.
import { isIP } from 'node:net';
import { createSecureContext, rootCertificates } from 'node:tls';
import { Agent, buildConnector, type Dispatcher } from 'undici';
import { matchResolve, parseResolveSpec } from '../domain/fetch-resolve.js';
import type { FetcherSettings } from './fetch-settings.js';
import { createBlockList, type LookupAll, resolvePublicAddresses, systemLookup } from './ssrf-guard.js';

export interface FetchAgent {
  /** Closed by the fetcher's close(). */
  agent: Agent;
  /** The agent, with a hook for the moment a request goes on the wire. */
  dispatcher: Dispatcher;
  /**
   * Hooks by request options: the hook set for a request's options is called when undici writes it to its
   * socket, the moment the per-host gap counts from.
   */
  onStart: WeakMap<object, () => void>;
}

export function createFetchAgent(settings: FetcherSettings): FetchAgent {
  const agent = new Agent({
    connect: createConnector(settings, settings.connectTimeoutMs, settings.lookup ?? systemLookup),
    headersTimeout: settings.headersTimeoutMs,
    bodyTimeout: settings.bodyTimeoutMs,
    // One socket per host slot, kept alive between a site's requests: no second handshake per site.
    connections: settings.perHost,
    pipelining: 1,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    keepAliveMaxTimeout: settings.keepAliveMaxTimeoutMs,
  });
  const onStart = new WeakMap<object, () => void>();
  return { agent, dispatcher: agent.compose(onRequestStart(onStart)), onStart };
}

function createConnector(
  config: Pick<FetcherSettings, 'resolve' | 'extraCa'>,
  connectTimeoutMs: number,
  lookup: LookupAll,
): buildConnector.connector {
  const entries = parseResolveSpec(config.resolve);
  const blockList = createBlockList();
  const extraCa = config.extraCa ?? [];
  const base = buildConnector({
    timeout: connectTimeoutMs,
    // One context for every connection: a `ca` list alone makes Node parse every root certificate again for
    // each new connection, milliseconds of CPU per site.
    ...(extraCa.length > 0
      ? { secureContext: createSecureContext({ ca: [...rootCertificates, ...extraCa] }) }
      : {}),
  });
  return (options, callback) => {
    const port = Number(options.port) || (options.protocol === 'https:' ? 443 : 80);
    // SNI and the certificate check keep the URL's host even when we connect to a mapped address.
    const servername = isIP(options.hostname) === 0 ? options.hostname : undefined;
    const connectTo = (address: string, toPort: number) =>
      base(
        { ...options, hostname: address, port: String(toPort), ...(servername ? { servername } : {}) },
        callback,
      );
    const mapped = matchResolve(entries, options.hostname, port);
    // An operator-mapped host is trusted as mapped: that is how a local fake internet is reached.
    if (mapped) return connectTo(mapped.address, mapped.port);
    resolvePublicAddresses(options.hostname, { lookup, timeoutMs: connectTimeoutMs, blockList }).then(
      // Connect to the address that was checked, never to the name: a second lookup could answer differently.
      (addresses) => connectTo(addresses[0]!.address, port),
      (err: Error) => callback(err, null),
    );
  };
}

/** An interceptor that calls the hook registered for a request's options when undici writes it to its socket. */
function onRequestStart(hooks: WeakMap<object, () => void>): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) => (opts, handler) =>
    dispatch(opts, {
      onRequestStart(controller, context) {
        hooks.get(opts)?.();
        handler.onRequestStart?.(controller, context);
      },
      onRequestUpgrade: handler.onRequestUpgrade?.bind(handler),
      onResponseStart: handler.onResponseStart?.bind(handler),
      onResponseData: handler.onResponseData?.bind(handler),
      onResponseEnd: handler.onResponseEnd?.bind(handler),
      onResponseError: handler.onResponseError?.bind(handler),
    });
}
