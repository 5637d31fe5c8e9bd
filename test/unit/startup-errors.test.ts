import { describe, expect, it } from 'vitest';
import { databaseStartupError, listenStartupError } from '../../src/startup-errors.js';

const coded = (code: string, message = 'boom') => Object.assign(new Error(message), { code });

describe('start-up failures name the variable and the address', () => {
  const postgres = { kind: 'postgres', url: 'postgres://seedbed:hunter2@db.internal:6543/seeds' } as const;

  it('a refused PostgreSQL connection names DATABASE_URL and the address, never the password', () => {
    const error = databaseStartupError(
      new AggregateError([coded('ECONNREFUSED'), coded('ECONNREFUSED')]),
      postgres,
    );
    expect(error?.message).toBe(
      'DATABASE_URL: cannot connect to PostgreSQL at db.internal:6543/seeds (ECONNREFUSED: the connection was refused: is it running, on that port?)',
    );
    expect(error?.message).not.toContain('hunter2');
    expect(databaseStartupError(coded('28P01'), postgres)?.message).toMatch(/password was refused/);
    expect(databaseStartupError(coded('3D000'), postgres)?.message).toMatch(/database does not exist/);
    expect(
      databaseStartupError(coded('ENOTFOUND'), { kind: 'postgres', url: 'postgres:///x' })?.message,
    ).toMatch(/at localhost:5432\/x \(ENOTFOUND/);
  });

  it('a SQLite file that cannot be opened names the variable it came from', () => {
    const error = databaseStartupError(coded('SQLITE_CANTOPEN'), {
      kind: 'sqlite',
      path: '/srv/x/seedbed.db',
      variable: 'SEEDBED_DATA_DIR',
    });
    expect(error?.message).toBe(
      'SEEDBED_DATA_DIR: cannot open the SQLite database /srv/x/seedbed.db (SQLITE_CANTOPEN: the file cannot be opened)',
    );
  });

  it('anything else is not a configuration problem', () => {
    expect(databaseStartupError(new Error('syntax error'), postgres)).toBeNull();
    expect(listenStartupError(coded('EPIPE'), { host: '127.0.0.1', port: 1 })).toBeNull();
  });

  it.each([
    [
      'ENOTFOUND',
      /^HOST: no-such-host\.invalid does not resolve to an address \(ENOTFOUND\); cannot listen on no-such-host\.invalid:8080$/,
    ],
    ['EAI_AGAIN', /^HOST: .* \(EAI_AGAIN\)/],
    ['EADDRNOTAVAIL', /^HOST: no-such-host\.invalid is not an address of this machine/],
    ['EADDRINUSE', /^PORT: no-such-host\.invalid:8080 is already in use/],
    ['EACCES', /^PORT: no permission to listen on no-such-host\.invalid:8080/],
  ])('a listen failure %s names the variable', (code, message) => {
    expect(listenStartupError(coded(code), { host: 'no-such-host.invalid', port: 8080 })?.message).toMatch(
      message,
    );
  });
});
