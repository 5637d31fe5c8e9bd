// Failures at start that a setting causes — a database that refuses the connection, a HOST that does not
// resolve, a PORT in use — told as the variable to fix and the address tried, never as a stack trace.
import type { Config } from './config.js';
import { ConfigError } from './config.js';

const CONNECT_CODES: Record<string, string> = {
  ECONNREFUSED: 'the connection was refused: is it running, on that port?',
  ENOTFOUND: 'the host name does not resolve',
  EAI_AGAIN: 'the host name could not be resolved (DNS did not answer)',
  ETIMEDOUT: 'the connection timed out',
  EHOSTUNREACH: 'the host cannot be reached',
  ENETUNREACH: 'the network cannot be reached',
  ECONNRESET: 'the connection was reset',
  '28P01': 'the password was refused',
  '28000': 'the user is not allowed to connect',
  '3D000': 'the database does not exist',
  SQLITE_CANTOPEN: 'the file cannot be opened',
  SQLITE_READONLY: 'the file is read-only',
  SQLITE_NOTADB: 'the file is not a SQLite database',
};

/** The error codes of an error and of what it wraps (pg gives AggregateErrors for IPv4 + IPv6 attempts). */
function codesOf(error: unknown, into: string[] = []): string[] {
  if (!error || typeof error !== 'object') return into;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') into.push(code);
  if (error instanceof AggregateError) for (const inner of error.errors) codesOf(inner, into);
  const cause = (error as { cause?: unknown }).cause;
  if (cause && cause !== error) codesOf(cause, into);
  return into;
}

/** host:port/database of a PostgreSQL URL, without its credentials. */
export function postgresAddress(url: string): string {
  try {
    const parsed = new URL(url);
    return `${parsed.hostname || 'localhost'}:${parsed.port || '5432'}${parsed.pathname}`;
  } catch {
    return 'the configured address';
  }
}

/** The database could not be opened at start: a ConfigError naming the variable, or null when it is not that. */
export function databaseStartupError(error: unknown, database: Config['database']): ConfigError | null {
  const code = codesOf(error).find((c) => c in CONNECT_CODES);
  if (!code) return null;
  const why = `${code}: ${CONNECT_CODES[code]}`;
  if (database.kind === 'postgres')
    return new ConfigError(
      `DATABASE_URL: cannot connect to PostgreSQL at ${postgresAddress(database.url)} (${why})`,
    );
  return new ConfigError(`${database.variable}: cannot open the SQLite database ${database.path} (${why})`);
}

/** The HTTP server could not listen: a ConfigError naming HOST or PORT, or null when it is not that. */
export function listenStartupError(error: unknown, http: { host: string; port: number }): ConfigError | null {
  const code = codesOf(error)[0];
  const address = `${http.host}:${http.port}`;
  switch (code) {
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
    case 'EAI_NONAME':
      return new ConfigError(
        `HOST: ${http.host} does not resolve to an address (${code}); cannot listen on ${address}`,
      );
    case 'EADDRNOTAVAIL':
      return new ConfigError(
        `HOST: ${http.host} is not an address of this machine; cannot listen on ${address}`,
      );
    case 'EADDRINUSE':
      return new ConfigError(
        `PORT: ${address} is already in use; stop the other server or choose another PORT`,
      );
    case 'EACCES':
      return new ConfigError(
        `PORT: no permission to listen on ${address} (ports below 1024 need privileges)`,
      );
    default:
      return null;
  }
}
