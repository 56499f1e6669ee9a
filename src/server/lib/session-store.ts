import { and, eq, gt, lt, ne } from 'drizzle-orm';
import type { Database } from '#server/db/client';
import { sessions } from '#server/db/schema/index';
import type { RedisClient } from './redis.ts';
import { afterPendingIo } from './timers.ts';
import { sha256 } from './crypto.ts';
import { ServiceUnavailableError } from './unavailable.ts';

export interface SessionRecord {
  userId: number;
  remember: boolean;
  expiresAt: number;
}
export interface SessionMeta {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

/**
 * Server-side sessions keyed by the sha-256 of the cookie value. The database holds them by
 * default; with REDIS_URL, Redis does, so every app process sees the same sessions.
 */
export interface SessionStore {
  /**
   * Where the sessions are kept. A session kept in the database is read with its member in one
   * statement (plugins/session.ts, by `sessionIdHash`) rather than through `get`.
   */
  kept: 'database' | 'redis';
  create(id: string, record: SessionRecord, meta: SessionMeta): Promise<void>;
  get(id: string): Promise<SessionRecord | null>;
  destroy(id: string): Promise<void>;
  /** sign a user out everywhere (optionally keeping one session) */
  destroyUser(userId: number, exceptId?: string): Promise<void>;
  /**
   * Sessions can be written now, as far as the app knows: checked before work that must not happen
   * without its session (an account made but not signed in, a reset link spent while other sessions live on).
   */
  available(): boolean;
}

/** the key a session is stored under: the cookie value itself is never stored */
export const sessionIdHash = (id: string) => sha256(id);

export function databaseSessionStore(db: Database): SessionStore {
  return {
    kept: 'database',
    // the database's own failures answer 503 as they come
    available: () => true,
    async create(id, record, meta) {
      await db.insert(sessions).values({
        idHash: sessionIdHash(id),
        userId: record.userId,
        remember: record.remember,
        expiresAt: new Date(record.expiresAt),
        userAgent: meta.userAgent?.slice(0, 300) ?? null,
        ip: meta.ip ?? null,
      });
      // housekeeping: drop this user's expired sessions
      await db.delete(sessions).where(and(eq(sessions.userId, record.userId), lt(sessions.expiresAt, new Date())));
    },
    async get(id) {
      const [row] = await db
        .select()
        .from(sessions)
        .where(and(eq(sessions.idHash, sessionIdHash(id)), gt(sessions.expiresAt, new Date())))
        .limit(1);
      return row ? { userId: row.userId, remember: row.remember, expiresAt: row.expiresAt.getTime() } : null;
    },
    async destroy(id) {
      await db.delete(sessions).where(eq(sessions.idHash, sessionIdHash(id)));
    },
    async destroyUser(userId, exceptId) {
      await db
        .delete(sessions)
        .where(
          exceptId
            ? and(eq(sessions.userId, userId), ne(sessions.idHash, sessionIdHash(exceptId)))
            : eq(sessions.userId, userId),
        );
    },
  };
}

/** how long a session read or write may wait for Redis before the request is answered 503 */
const REDIS_SESSION_WAIT_MS = 2000;

/**
 * `changed` is told when sessions end (processes that keep signed-in members in memory forget them).
 * `answering` says whether Redis answers now (RedisMonitor): while it does not, every call fails at
 * once with ServiceUnavailableError (the request is answered 503, never as a visitor's: a member must
 * not look signed out because their session cannot be read), and a call Redis leaves unanswered fails
 * the same way after REDIS_SESSION_WAIT_MS.
 */
export function redisSessionStore(
  redis: RedisClient,
  namespace: string,
  changed: () => void = () => undefined,
  answering: () => boolean = () => redis.isReady,
): SessionStore {
  const key = (hash: string) => `${namespace}:sess:${hash}`;
  const userKey = (userId: number) => `${namespace}:user-sess:${userId}`;
  function guarded<A extends unknown[], R>(op: (...args: A) => Promise<R>): (...args: A) => Promise<R> {
    return (...args) => {
      if (!answering()) return Promise.reject(new ServiceUnavailableError('Redis'));
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<never>(
        (_, reject) =>
          (timer = afterPendingIo(REDIS_SESSION_WAIT_MS, () => reject(new ServiceUnavailableError('Redis')))),
      );
      const work = op(...args);
      work.catch(() => undefined); // settles after the deadline, if at all: nobody is waiting then
      return Promise.race([work, late]).finally(() => clearTimeout(timer));
    };
  }
  return {
    kept: 'redis',
    available: answering,
    create: guarded(async (id: string, record: SessionRecord, meta: SessionMeta) => {
      const hash = sessionIdHash(id);
      const ttl = Math.max(1, Math.ceil((record.expiresAt - Date.now()) / 1000));
      await redis
        .multi()
        .set(key(hash), JSON.stringify({ ...record, ...meta }), { EX: ttl })
        .sAdd(userKey(record.userId), hash)
        .expire(userKey(record.userId), 60 * 60 * 24 * 60)
        .exec();
    }),
    get: guarded(async (id: string) => {
      const raw = await redis.get(key(sessionIdHash(id)));
      if (!raw) return null;
      const parsed = JSON.parse(raw) as SessionRecord;
      return parsed.expiresAt > Date.now()
        ? { userId: parsed.userId, remember: parsed.remember, expiresAt: parsed.expiresAt }
        : null;
    }),
    destroy: guarded(async (id: string) => {
      const hash = sessionIdHash(id);
      const raw = await redis.get(key(hash));
      await redis.del(key(hash));
      changed();
      if (raw) await redis.sRem(userKey((JSON.parse(raw) as SessionRecord).userId), hash);
    }),
    destroyUser: guarded(async (userId: number, exceptId?: string) => {
      const keep = exceptId ? sessionIdHash(exceptId) : null;
      const hashes = (await redis.sMembers(userKey(userId))).filter((h) => h !== keep);
      if (hashes.length === 0) return;
      await redis.multi().del(hashes.map(key)).sRem(userKey(userId), hashes).exec();
      changed();
    }),
  };
}
