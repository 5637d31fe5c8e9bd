// Tells "our own backend could not be reached" (the database or object store is down, restarting, or cut
// the connection) from every other failure, so the adapters can raise BackendUnavailableError for exactly
// those: a job that failed on one is handed back unspent instead of using up its attempts.
import { BackendUnavailableError, errorChain } from '../domain/errors.js';

const CONNECTION_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EAI_AGAIN',
]);

// SQLSTATE class 08 (connection exception), and the server shutting down or starting up: admin_shutdown,
// crash_shutdown, cannot_connect_now. Any other SQLSTATE is an answer about the statement itself.
const PG_UNAVAILABLE_STATE = /^(08...|57P0[1-3])$/;

// What pg throws, with no SQLSTATE, for a connection that broke or was never made.
const PG_CONNECTION_MESSAGE =
  /Connection terminated|not queryable|Connection ended|timeout expired|terminating connection/i;

/** A socket-level failure: the peer refused, reset or never answered the connection. */
export function isConnectionFailure(error: unknown): boolean {
  return errorChain(error).some(
    (e) => (typeof e.code === 'string' && CONNECTION_CODES.has(e.code)) || e.name === 'TimeoutError',
  );
}

/** A PostgreSQL failure that says nothing about the statement: the connection or the server is gone. */
export function isPostgresUnavailable(error: unknown): boolean {
  if (error instanceof BackendUnavailableError) return false;
  if (isConnectionFailure(error)) return true;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return PG_UNAVAILABLE_STATE.test(code);
  return error instanceof Error && PG_CONNECTION_MESSAGE.test(error.message);
}

/** An S3 call that got no answer (or a 503): the object store is unreachable, not refusing this request. */
export function isObjectStoreUnavailable(error: unknown): boolean {
  if (error instanceof BackendUnavailableError) return false;
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  if (status !== undefined) return status === 503;
  return isConnectionFailure(error);
}
