import type * as Redis from 'redis';

/**
 * Thrown by the app itself when it knows a backing service is away (Redis not answering) and does not
 * try it: answered as any other unavailability, without a log line per request (the service's monitor
 * logs its state).
 */
export class ServiceUnavailableError extends Error {
  constructor(readonly service: string) {
    super(`${service} is unavailable`);
    this.name = 'ServiceUnavailableError';
  }
}

type ErrorClass = abstract new (...args: never[]) => Error;
/** the errors that mean Redis is away: the Redis client's own join once lib/redis.ts loads it */
const REDIS_DOWN: ErrorClass[] = [ServiceUnavailableError];
let redisErrorReply: ErrorClass | null = null;

/** The Redis client library's errors, told by lib/redis.ts when it loads the library. */
export function recogniseRedisErrors(lib: typeof Redis): void {
  if (redisErrorReply) return;
  REDIS_DOWN.push(
    lib.ClientClosedError,
    lib.ClientOfflineError,
    lib.ConnectionTimeoutError,
    lib.DisconnectsClientError,
    lib.SocketClosedUnexpectedlyError,
    lib.SocketTimeoutError,
    lib.TimeoutError,
  );
  redisErrorReply = lib.ErrorReply;
}
/** Redis answering that it cannot serve yet: loading its data after a restart, a replica without its primary */
const REDIS_NOT_SERVING = /^(LOADING|MASTERDOWN|TRYAGAIN|CLUSTERDOWN|BUSY)\b/;
const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);

const isRedisNotServing = (error: unknown) =>
  redisErrorReply !== null &&
  error instanceof redisErrorReply &&
  REDIS_NOT_SERVING.test((error as Redis.ErrorReply).message);

/**
 * True when an error means a backing service (PostgreSQL, Redis) cannot be reached right now, rather
 * than a bug or a bad request: the connection was refused or cut, PostgreSQL is shutting down or
 * starting up (SQLSTATE 57P01-57P03), a connection exception (class 08), too many connections
 * (53300), no pooled connection within the pool's timeout, a Redis client that is offline or was
 * disconnected, or Redis answering that it is still loading its data.
 * Such a request is answered 503 "try again shortly"; drizzle wraps the driver's error in `cause`.
 */
export function isServiceUnavailable(error: unknown): boolean {
  for (
    let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0;
    e && depth < 4;
    e = e.cause as typeof e, depth++
  ) {
    if (REDIS_DOWN.some((cls) => e instanceof cls)) return true;
    if (isRedisNotServing(e)) return true;
    const code = typeof e.code === 'string' ? e.code : '';
    if (NETWORK_CODES.has(code) || /^(08...|57P0[123]|53300)$/.test(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    // node-postgres' own messages for a connection that died or could not be made in time
    if (
      /^Connection terminated|^timeout exceeded when trying to connect|^Client has encountered a connection error/.test(
        message,
      )
    )
      return true;
    // several causes (a dual-stack connect tried every address)
    if (e instanceof AggregateError && e.errors.some((inner) => isServiceUnavailable(inner))) return true;
  }
  return false;
}
