import { describe, expect, it } from 'vitest';
import {
  isConnectionFailure,
  isObjectStoreUnavailable,
  isPostgresUnavailable,
} from '../../../src/adapters/backend-errors.js';
import { BackendUnavailableError } from '../../../src/domain/errors.js';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });
const s3Error = (name: string, status?: number) =>
  Object.assign(new Error(name), { name, $metadata: status === undefined ? {} : { httpStatusCode: status } });

describe('isConnectionFailure', () => {
  it('finds a socket error inside an AggregateError or a cause', () => {
    const refused = new AggregateError([withCode('connect ECONNREFUSED ::1:5432', 'ECONNREFUSED')], '');
    expect(isConnectionFailure(refused)).toBe(true);
    expect(isConnectionFailure(new Error('x', { cause: withCode('read ECONNRESET', 'ECONNRESET') }))).toBe(
      true,
    );
    expect(isConnectionFailure(withCode('no such file', 'ENOENT'))).toBe(false);
  });
});

describe('isPostgresUnavailable', () => {
  it('is true for a lost or refused connection and for a server shutting down or starting', () => {
    expect(isPostgresUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:5432', 'ECONNREFUSED'))).toBe(true);
    expect(isPostgresUnavailable(new Error('Connection terminated unexpectedly'))).toBe(true);
    expect(
      isPostgresUnavailable(new Error('Client has encountered a connection error and is not queryable')),
    ).toBe(true);
    expect(
      isPostgresUnavailable(withCode('terminating connection due to administrator command', '57P01')),
    ).toBe(true);
    expect(isPostgresUnavailable(withCode('the database system is starting up', '57P03'))).toBe(true);
    expect(isPostgresUnavailable(withCode('connection failure', '08006'))).toBe(true);
  });

  it('is false for an answer about the statement: a constraint, a syntax error, a bad password', () => {
    expect(isPostgresUnavailable(withCode('duplicate key value violates unique constraint', '23505'))).toBe(
      false,
    );
    expect(isPostgresUnavailable(withCode('syntax error at or near "selec"', '42601'))).toBe(false);
    expect(isPostgresUnavailable(withCode('password authentication failed', '28P01'))).toBe(false);
    expect(isPostgresUnavailable(new Error('boom'))).toBe(false);
  });

  it('does not wrap what is already a BackendUnavailableError', () => {
    const error = new BackendUnavailableError('database', new Error('Connection terminated unexpectedly'));
    expect(isPostgresUnavailable(error)).toBe(false);
  });
});

describe('isObjectStoreUnavailable', () => {
  it('is true when no answer came (refused, reset, timed out) or the answer was 503', () => {
    expect(isObjectStoreUnavailable(withCode('connect ECONNREFUSED 127.0.0.1:9000', 'ECONNREFUSED'))).toBe(
      true,
    );
    expect(isObjectStoreUnavailable(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe(
      true,
    );
    expect(isObjectStoreUnavailable(s3Error('SlowDown', 503))).toBe(true);
  });

  it('is false for an answer: not found, precondition failed, access denied, a 500', () => {
    for (const [name, status] of [
      ['NotFound', 404],
      ['PreconditionFailed', 412],
      ['AccessDenied', 403],
      ['InternalError', 500],
    ] as const) {
      expect(isObjectStoreUnavailable(s3Error(name, status))).toBe(false);
    }
    expect(isObjectStoreUnavailable(new Error('S3 GetObject returned no stream'))).toBe(false);
  });
});
