// The CLI's HTTP client for a running Seedbed (SEEDBED_URL, SEEDBED_API_KEY): JSON in, JSON out, and errors
// that say which address was tried and what to change, since the person reading them is at a shell.

export interface ClientOptions {
  /** Where Seedbed answers; named in every error. */
  url: string;
  key?: string;
}

export class ClientError extends Error {
  override readonly name = 'ClientError';
}

export function clientOptions(env: Record<string, string | undefined>): ClientOptions {
  const url = env['SEEDBED_URL'] || `http://127.0.0.1:${env['PORT'] || 8080}`;
  const key = env['SEEDBED_API_KEY'];
  return key ? { url, key } : { url };
}

interface Problem {
  status?: number;
  code?: string;
  detail?: string;
  required_scope?: string;
  errors?: Array<{ path: string; message: string }>;
}

/** The causes a failed fetch() carries (undici wraps the socket error), as codes. */
function networkCode(error: unknown): string {
  for (let e: unknown = error; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    if (e instanceof AggregateError && e.errors.length > 0) return networkCode(e.errors[0]);
  }
  return error instanceof Error ? error.message : String(error);
}

/**
 * A body sent as it is, under its own content type (an imported list as CSV, OPML…), where every other body
 * is a value sent as JSON. The bytes are not decoded here: the service checks they are UTF-8 and says so.
 */
export class RawBody {
  constructor(
    readonly bytes: Uint8Array | string,
    readonly contentType: string,
  ) {}
}

export type Call = (method: string, path: string, body?: unknown) => Promise<unknown>;
/** A GET whose answer is streamed as it comes (an export), never held whole. */
export type Download = (path: string) => Promise<ReadableStream<Uint8Array>>;

export function baseOf(options: ClientOptions): URL {
  try {
    return new URL(options.url);
  } catch {
    throw new ClientError(
      `SEEDBED_URL ${JSON.stringify(options.url)} is not a URL (e.g. http://127.0.0.1:8080)`,
    );
  }
}

/** Sends one request; a network failure becomes an error naming the address and the fix. */
async function send(
  options: ClientOptions,
  base: URL,
  fetchImpl: typeof fetch,
  method: string,
  path: string,
  body: unknown,
  accept: string,
): Promise<Response> {
  const sent =
    body === undefined
      ? undefined
      : body instanceof RawBody
        ? body
        : new RawBody(JSON.stringify(body), 'application/json');
  try {
    return await fetchImpl(new URL(path, base), {
      method,
      headers: {
        accept,
        ...(sent ? { 'content-type': sent.contentType } : {}),
        ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
      },
      ...(sent ? { body: sent.bytes } : {}),
    });
  } catch (error) {
    throw new ClientError(
      `cannot reach Seedbed at ${base.origin} (${networkCode(error)}): is it running? set SEEDBED_URL to its address`,
    );
  }
}

/** Reads an answer as JSON: the parsed body, or the error a person at a shell can act on. */
async function jsonOf(
  response: Response,
  method: string,
  path: string,
  where: string,
  options: ClientOptions,
) {
  const text = await response.text();
  let parsed: unknown = null;
  try {
    parsed = text ? JSON.parse(text) : null;
  } catch {
    throw new ClientError(
      `${where} answered ${method} ${path} with ${response.status} and no JSON: is SEEDBED_URL the address of Seedbed?`,
    );
  }
  if (response.ok) return parsed;
  throw new ClientError(explain(method, path, where, response.status, (parsed ?? {}) as Problem, options));
}

export function createClient(options: ClientOptions, fetchImpl: typeof fetch = fetch): Call {
  const base = baseOf(options);
  return async function call(method, path, body) {
    const response = await send(options, base, fetchImpl, method, path, body, 'application/json');
    return jsonOf(response, method, path, base.origin, options);
  };
}

export function createDownload(options: ClientOptions, fetchImpl: typeof fetch = fetch): Download {
  const base = baseOf(options);
  return async function download(path) {
    const response = await send(options, base, fetchImpl, 'GET', path, undefined, '*/*');
    if (response.ok && response.body) return response.body;
    // A refusal is a problem document: explained like any other call's.
    await jsonOf(response, 'GET', path, base.origin, options);
    throw new ClientError(`${base.origin} answered GET ${path} with ${response.status} and no body`);
  };
}

/** A refusal read whole from a stream the caller opened itself (an import): the error a person can act on. */
export function refusal(
  method: string,
  path: string,
  where: string,
  status: number,
  text: string,
  options: ClientOptions,
): ClientError {
  let problem: Problem = {};
  try {
    problem = (JSON.parse(text) ?? {}) as Problem;
  } catch {
    return new ClientError(
      `${where} answered ${method} ${path} with ${status} and no JSON: is SEEDBED_URL the address of Seedbed?`,
    );
  }
  return new ClientError(explain(method, path, where, status, problem, options));
}

function explain(
  method: string,
  path: string,
  where: string,
  status: number,
  problem: Problem,
  options: ClientOptions,
): string {
  const said = `${where} answered ${method} ${path} with ${status}${problem.detail ? `: ${problem.detail}` : ''}`;
  if (status === 401)
    return options.key
      ? `${said}. The key in SEEDBED_API_KEY is not valid there: check it, or create one with \`seedbed keys create\``
      : `${said}. Set SEEDBED_API_KEY to an API key (create one with \`seedbed keys create\`)`;
  if (status === 403)
    return `${said}. The key in SEEDBED_API_KEY lacks the ${problem.required_scope ?? 'needed'} scope: use a key that has it`;
  const fields = (problem.errors ?? []).map((e) => `\n  ${e.path}: ${e.message}`).join('');
  return `${said}${fields}`;
}
