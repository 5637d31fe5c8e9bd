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

export type Call = (method: string, path: string, body?: unknown) => Promise<unknown>;

export function createClient(options: ClientOptions, fetchImpl: typeof fetch = fetch): Call {
  let base: URL;
  try {
    base = new URL(options.url);
  } catch {
    throw new ClientError(
      `SEEDBED_URL ${JSON.stringify(options.url)} is not a URL (e.g. http://127.0.0.1:8080)`,
    );
  }
  const where = base.origin;

  return async function call(method, path, body) {
    let response: Response;
    try {
      response = await fetchImpl(new URL(path, base), {
        method,
        headers: {
          accept: 'application/json',
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...(options.key ? { authorization: `Bearer ${options.key}` } : {}),
        },
        ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
      });
    } catch (error) {
      throw new ClientError(
        `cannot reach Seedbed at ${where} (${networkCode(error)}): is it running? set SEEDBED_URL to its address`,
      );
    }
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
  };
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
