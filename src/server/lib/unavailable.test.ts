import { beforeAll, describe, expect, it } from 'vitest';
import * as redis from 'redis';
import { ClientOfflineError, DisconnectsClientError, ErrorReply, TimeoutError } from 'redis';
import { isServiceUnavailable, recogniseRedisErrors, ServiceUnavailableError } from './unavailable.ts';

// as lib/redis.ts does when it loads the client library for the first connection
beforeAll(() => recogniseRedisErrors(redis));

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });
/** drizzle wraps the driver's error: "Failed query: ..." with the driver's error as `cause` */
const wrapped = (cause: unknown) => new Error('Failed query: select 1', { cause });

describe('isServiceUnavailable', () => {
  it('knows PostgreSQL going away, refusing or starting up, also when drizzle wraps the error', () => {
    expect(isServiceUnavailable(wrapped(pgError('57P01', 'terminating connection due to administrator command')))).toBe(
      true,
    );
    expect(isServiceUnavailable(pgError('57P03', 'the database system is starting up'))).toBe(true);
    expect(isServiceUnavailable(pgError('08006'))).toBe(true);
    expect(isServiceUnavailable(wrapped(pgError('ECONNREFUSED')))).toBe(true);
    expect(isServiceUnavailable(new AggregateError([pgError('ECONNREFUSED'), pgError('ECONNREFUSED')]))).toBe(true);
    expect(isServiceUnavailable(wrapped(new Error('Connection terminated unexpectedly')))).toBe(true);
    expect(isServiceUnavailable(new Error('timeout exceeded when trying to connect'))).toBe(true);
  });

  it('knows a Redis client that is offline or timed out', () => {
    expect(isServiceUnavailable(new ClientOfflineError())).toBe(true);
    expect(isServiceUnavailable(new TimeoutError('Command timeout'))).toBe(true);
    expect(isServiceUnavailable(new DisconnectsClientError())).toBe(true);
  });

  it('knows Redis still loading its data after a restart, and the app knowing a service is away', () => {
    expect(isServiceUnavailable(new ErrorReply('LOADING Redis is loading the dataset in memory'))).toBe(true);
    expect(isServiceUnavailable(new ServiceUnavailableError('Redis'))).toBe(true);
    expect(
      isServiceUnavailable(new ErrorReply('WRONGTYPE Operation against a key holding the wrong kind of value')),
    ).toBe(false);
  });

  it('leaves real errors alone: constraint violations, bad values, bugs', () => {
    expect(isServiceUnavailable(wrapped(pgError('23505', 'duplicate key')))).toBe(false);
    expect(isServiceUnavailable(pgError('22P02'))).toBe(false);
    expect(isServiceUnavailable(new TypeError('x is undefined'))).toBe(false);
    expect(isServiceUnavailable(undefined)).toBe(false);
  });
});
