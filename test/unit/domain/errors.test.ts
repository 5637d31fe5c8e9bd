import { describe, expect, it } from 'vitest';
import {
  BackendUnavailableError,
  ConflictError,
  DEFAULT_BACKOFF,
  errorMessage,
  isBackendUnavailable,
  isFinalFailure,
  isPermanent,
  NetworkUnavailableError,
  NotFoundError,
  PermanentError,
  RetryLaterError,
  retryDelayMs,
  UnavailableError,
  UnprocessableError,
  ValidationError,
} from '../../../src/domain/errors.js';

const POLICY = { baseMs: 1_000, maxMs: 60_000 };
const low = () => 0;
const high = () => 0.999_999;
const mid = () => 0.5;

describe('retryDelayMs', () => {
  it('doubles the step with every attempt', () => {
    const steps = [1, 2, 3, 4, 5, 6].map((attempt) => retryDelayMs(new Error('x'), attempt, POLICY, high));
    expect(steps).toEqual([1_000, 2_000, 4_000, 8_000, 16_000, 32_000]);
  });

  it('is jittered between 50% and 100% of the step', () => {
    expect(retryDelayMs(new Error('x'), 3, POLICY, low)).toBe(2_000);
    expect(retryDelayMs(new Error('x'), 3, POLICY, mid)).toBe(3_000);
    expect(retryDelayMs(new Error('x'), 3, POLICY, high)).toBe(4_000);
  });

  it('stays inside the jitter band for any random value', () => {
    for (let attempt = 1; attempt <= 10; attempt++) {
      const step = Math.min(POLICY.maxMs, POLICY.baseMs * 2 ** (attempt - 1));
      for (let i = 0; i < 50; i++) {
        const delay = retryDelayMs(new Error('x'), attempt, POLICY);
        expect(delay).toBeGreaterThanOrEqual(step / 2);
        expect(delay).toBeLessThanOrEqual(step);
      }
    }
  });

  it('is capped at maxMs', () => {
    expect(retryDelayMs(new Error('x'), 7, POLICY, high)).toBe(60_000);
    expect(retryDelayMs(new Error('x'), 50, POLICY, high)).toBe(60_000);
    expect(retryDelayMs(new Error('x'), 5_000, POLICY, high)).toBe(60_000);
    expect(retryDelayMs(new Error('x'), 50, POLICY, low)).toBe(30_000);
  });

  it('treats attempt 0 like the first attempt', () => {
    expect(retryDelayMs(new Error('x'), 0, POLICY, high)).toBe(1_000);
  });

  it('waits at least as long as a RetryLaterError asks', () => {
    expect(retryDelayMs(new RetryLaterError('429', 10_000), 1, POLICY, high)).toBe(10_000);
    expect(retryDelayMs(new RetryLaterError('429', 500), 3, POLICY, low)).toBe(2_000);
  });

  it('honours a Retry-After longer than maxMs', () => {
    expect(retryDelayMs(new RetryLaterError('503', 120_000), 1, POLICY, high)).toBe(120_000);
  });

  it('waits the largest step (50–100% of maxMs) from the first retry of a network outage', () => {
    const outage = new NetworkUnavailableError('canary down');
    expect(retryDelayMs(outage, 1, POLICY, low)).toBe(30_000);
    expect(retryDelayMs(outage, 1, POLICY, high)).toBe(60_000);
    expect(retryDelayMs(outage, 1, { baseMs: 20, maxMs: 200 }, high)).toBe(200);
  });

  it('uses the default policy when none is given', () => {
    expect(DEFAULT_BACKOFF).toEqual({ baseMs: 1_000, maxMs: 60_000 });
    expect(retryDelayMs(new Error('x'), 2, undefined, high)).toBe(2_000);
  });
});

describe('isFinalFailure', () => {
  const transient = new Error('ECONNRESET');

  it('retries a transient error before the last attempt', () => {
    expect(isFinalFailure(transient, 1, 3)).toBe(false);
    expect(isFinalFailure(transient, 2, 3)).toBe(false);
  });

  it('gives up on the last attempt whatever the error', () => {
    expect(isFinalFailure(transient, 3, 3)).toBe(true);
    expect(isFinalFailure(transient, 4, 3)).toBe(true);
    expect(isFinalFailure(new RetryLaterError('429', 1_000), 3, 3)).toBe(true);
    expect(isFinalFailure(new UnavailableError('down'), 3, 3)).toBe(true);
  });

  it.each([
    ['PermanentError', new PermanentError('NXDOMAIN')],
    ['ValidationError', ValidationError.field('country', 'bad')],
    ['NotFoundError', new NotFoundError('gone')],
    ['ConflictError', new ConflictError('exists')],
    ['UnprocessableError', new UnprocessableError('no')],
    ['an object marked permanent', Object.assign(new Error('x'), { permanent: true })],
  ])('gives up at once on %s', (_name, error) => {
    expect(isPermanent(error)).toBe(true);
    expect(isFinalFailure(error, 1, 3)).toBe(true);
  });

  it.each([
    ['UnavailableError', new UnavailableError('database down')],
    ['RetryLaterError', new RetryLaterError('429', 5_000)],
    ['NetworkUnavailableError', new NetworkUnavailableError('our network is down')],
    ['a plain Error', new Error('x')],
    ['a string', 'boom'],
    ['null', null],
    ['permanent: "yes"', { permanent: 'yes' }],
  ])('retries %s', (_name, error) => {
    expect(isPermanent(error)).toBe(false);
    expect(isFinalFailure(error, 1, 3)).toBe(false);
  });
});

describe('domain errors', () => {
  it('carry their status, code and name', () => {
    const error = new ValidationError([
      { path: 'country', message: 'bad' },
      { path: 'date', message: 'worse' },
    ]);
    expect(error.status).toBe(400);
    expect(error.code).toBe('validation_failed');
    expect(error.name).toBe('ValidationError');
    expect(error.message).toBe('country: bad; date: worse');
    expect(new ConflictError('x', 'illegal_transition').code).toBe('illegal_transition');
    expect(new UnavailableError('x').status).toBe(503);
  });

  it('gives a message for anything thrown', () => {
    expect(errorMessage(new Error('boom'))).toBe('boom');
    expect(errorMessage('text')).toBe('text');
    expect(errorMessage(42)).toBe('42');
  });
});

describe('BackendUnavailableError', () => {
  it('is never a final failure, not even on the last attempt', () => {
    const error = new BackendUnavailableError('object store', new Error('connect ECONNREFUSED'));
    expect(isFinalFailure(error, 4, 4)).toBe(false);
    expect(isFinalFailure(new Error('connect ECONNREFUSED'), 4, 4)).toBe(true);
  });

  it('is recognised when a layer in between wrapped it as its cause', () => {
    const inner = new BackendUnavailableError('database', new Error('Connection terminated unexpectedly'));
    expect(isBackendUnavailable(new Error('ingest failed', { cause: inner }))).toBe(true);
    expect(isBackendUnavailable(new Error('ingest failed', { cause: new Error('x') }))).toBe(false);
  });

  it("names the backend and the cause, the cause's code when it has no message", () => {
    const refused = Object.assign(new AggregateError([], ''), { code: 'ECONNREFUSED' });
    expect(new BackendUnavailableError('database', refused).message).toBe(
      'the database is unavailable: ECONNREFUSED',
    );
  });
});
