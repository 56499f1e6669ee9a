import { ClientClosedError, ClientOfflineError, ConnectionTimeoutError, SocketClosedUnexpectedlyError, SocketTimeoutError, TimeoutError } from 'redis';

const REDIS_DOWN = [ClientClosedError, ClientOfflineError, ConnectionTimeoutError, SocketClosedUnexpectedlyError, SocketTimeoutError, TimeoutError];
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * True when an error means a backing service (PostgreSQL, Redis) cannot be reached right now, rather
 * than a bug or a bad request: the connection was refused or cut, PostgreSQL is shutting down or
 * starting up (SQLSTATE 57P01-57P03), a connection exception (class 08), too many connections
 * (53300), no pooled connection within the pool's timeout, or a Redis client that is offline.
 * Such a request is answered 503 "try again shortly"; drizzle wraps the driver's error in `cause`.
 */
export function isServiceUnavailable(error: unknown): boolean {
  for (let e = error as { code?: unknown; cause?: unknown; message?: unknown } | undefined, depth = 0; e && depth < 4; e = e.cause as typeof e, depth++) {
    if (REDIS_DOWN.some((cls) => e instanceof cls)) return true;
    const code = typeof e.code === 'string' ? e.code : '';
    if (NETWORK_CODES.has(code) || /^(08...|57P0[123]|53300)$/.test(code)) return true;
    const message = typeof e.message === 'string' ? e.message : '';
    // node-postgres' own messages for a connection that died or could not be made in time
    if (/^Connection terminated|^timeout exceeded when trying to connect|^Client has encountered a connection error/.test(message)) return true;
    // several causes (a dual-stack connect tried every address)
    if (e instanceof AggregateError && e.errors.some((inner) => isServiceUnavailable(inner))) return true;
  }
  return false;
}
