// Domain errors. Services and workers throw these; http/errors.ts is the one place that maps them to
// problem+json, and isFinalFailure() is the one place that tells a queue runner whether to retry.

export interface FieldError {
  path: string;
  message: string;
}

export abstract class DomainError extends Error {
  abstract readonly status: number;
  abstract readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  constructor(message: string, details?: Record<string, unknown>) {
    super(message);
    this.name = new.target.name;
    this.details = details;
  }
}

export class ValidationError extends DomainError {
  readonly status = 400;
  readonly code = 'validation_failed';
  constructor(
    readonly errors: FieldError[],
    message = errors.map((e) => `${e.path}: ${e.message}`).join('; '),
  ) {
    super(message);
  }
  static field(path: string, message: string): ValidationError {
    return new ValidationError([{ path, message }]);
  }
}

export class NotFoundError extends DomainError {
  readonly status = 404;
  readonly code = 'not_found';
}

/** A domain error whose code the thrower names (conflict and unprocessable have many kinds). */
abstract class CodedError extends DomainError {
  readonly code: string;
  constructor(message: string, code: string, details?: Record<string, unknown>) {
    super(message, details);
    this.code = code;
  }
}

export class ConflictError extends CodedError {
  readonly status = 409;
  constructor(message: string, code = 'conflict', details?: Record<string, unknown>) {
    super(message, code, details);
  }
}

export class UnprocessableError extends CodedError {
  readonly status = 422;
  constructor(message: string, code = 'unprocessable', details?: Record<string, unknown>) {
    super(message, code, details);
  }
}

export class UnavailableError extends DomainError {
  readonly status = 503;
  readonly code = 'unavailable';
}

/** A failure that no retry can fix (bad payload, validation, NXDOMAIN): dead-letter at once. */
export class PermanentError extends Error {
  override readonly name = 'PermanentError';
  readonly permanent = true;
}

/** A failure worth retrying, not before retryAfterMs (429/503 with Retry-After). */
export class RetryLaterError extends Error {
  override readonly name = 'RetryLaterError';
  constructor(
    message: string,
    readonly retryAfterMs: number,
  ) {
    super(message);
  }
}

/**
 * Seedbed's own network was down while it worked (liveness answered NETWORK_UNAVAILABLE: the domain failed and
 * so did the network canary), so the work says nothing about its domains. Always retried, never stored as an
 * answer; it waits the longest backoff step, because an outage does not end within a second.
 */
export class NetworkUnavailableError extends Error {
  override readonly name = 'NetworkUnavailableError';
  readonly code = 'NETWORK_UNAVAILABLE';
}

/**
 * One of Seedbed's own backends (the database, the object store) could not be reached: the server is down,
 * restarting, or refused the connection. The job is not at fault, so it is handed back without using up an
 * attempt and the consumer backs off; an outage longer than all the attempts' backoff must not fail work.
 * Thrown by the adapters, which alone can tell a lost connection from a refused request.
 */
export class BackendUnavailableError extends Error {
  override readonly name = 'BackendUnavailableError';
  readonly backendUnavailable = true;
  constructor(
    readonly backend: 'database' | 'object store',
    cause: unknown,
  ) {
    // Connection errors are often AggregateErrors (IPv4 and IPv6 both refused) with an empty message.
    const reason = errorMessage(cause) || (cause as { code?: string } | null)?.code || String(cause);
    super(`the ${backend} is unavailable: ${reason}`, { cause });
  }
}

/** True for a BackendUnavailableError, also when a layer in between wrapped it as its cause. */
export function isBackendUnavailable(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof BackendUnavailableError) return true;
  }
  return false;
}

export function isPermanent(error: unknown): boolean {
  return (
    error instanceof PermanentError ||
    (error instanceof DomainError && !(error instanceof UnavailableError)) ||
    (typeof error === 'object' && error !== null && (error as { permanent?: unknown }).permanent === true)
  );
}

/** The one decision a queue makes on a failed attempt: dead-letter now, or retry later. */
export function isFinalFailure(error: unknown, attempt: number, maxAttempts: number): boolean {
  if (isBackendUnavailable(error)) return false;
  return attempt >= maxAttempts || isPermanent(error);
}

export interface BackoffPolicy {
  baseMs: number;
  maxMs: number;
}

export const DEFAULT_BACKOFF: BackoffPolicy = { baseMs: 1_000, maxMs: 60_000 };

/**
 * Exponential backoff with jitter (50–100% of the step), raised to any Retry-After the error carries; a network
 * outage takes the largest step from the first retry.
 */
export function retryDelayMs(
  error: unknown,
  attempt: number,
  policy: BackoffPolicy = DEFAULT_BACKOFF,
  random: () => number = Math.random,
): number {
  const step =
    error instanceof NetworkUnavailableError
      ? policy.maxMs
      : Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, attempt - 1));
  const jittered = Math.round(step / 2 + (random() * step) / 2);
  const floor = error instanceof RetryLaterError ? error.retryAfterMs : 0;
  return Math.max(jittered, floor);
}

/** What a queue does with one failed attempt: dead-letter it (final) or retry it after delayMs. */
export function failedAttempt(
  error: unknown,
  job: { attempt: number; maxAttempts: number },
  policy: BackoffPolicy,
): { final: boolean; delayMs: number; message: string } {
  return {
    final: isFinalFailure(error, job.attempt, job.maxAttempts),
    delayMs: retryDelayMs(error, job.attempt, policy),
    message: errorMessage(error).slice(0, 2000),
  };
}

export function errorMessage(error: unknown): string {
  if (error instanceof Error) return error.message;
  return String(error);
}

/** An error and its causes (and an AggregateError's members), outermost first; at most ten, each once. */
export function errorChain(error: unknown): Array<Error & { code?: unknown }> {
  const out: Array<Error & { code?: unknown }> = [];
  const queue: unknown[] = [error];
  while (queue.length > 0 && out.length < 10) {
    const next = queue.shift();
    if (!(next instanceof Error) || out.includes(next)) continue;
    out.push(next);
    if (next.cause !== undefined) queue.push(next.cause);
    if (next instanceof AggregateError) queue.push(...next.errors);
  }
  return out;
}
