import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { LIMITS } from '#shared/constants';
import { hmac, randomToken } from '#server/lib/crypto';
import { WROTE_COOKIE } from '#server/lib/own-writes';
import { sessionIdHash } from '#server/lib/session-store';
import type { AuthUser } from '#server/types';

export const SESSION_COOKIE = 'bb_session';

/**
 * A visitor's id starts with `v.`, which a signed-in id (base64url) never holds: it is stored nowhere,
 * so it is never looked up, and a visitor keeps browsing while the session store is away.
 */
const VISITOR_PREFIX = 'v.';
const visitorId = () => VISITOR_PREFIX + randomToken(32);
const isVisitorId = (id: string) => id.startsWith(VISITOR_PREFIX);

/**
 * Every browser carries an opaque random `bb_session` cookie. Signed-in sessions are stored
 * server-side (database, or Redis); a visitor's cookie is stored nowhere. The CSRF token is an HMAC
 * of the cookie value, so it changes whenever the session id rotates (sign-in, sign-out). While the
 * store cannot be read this throws (the request is answered 503): the member is not signed out.
 */
export async function resolveSession(
  app: FastifyInstance,
  cookieValue: string | undefined,
  readFresh = false,
): Promise<AuthUser | null> {
  if (!cookieValue || cookieValue.length > 100 || isVisitorId(cookieValue)) return null;
  // Kept in memory while the session, the member and their entitlements are unchanged (a sign-out,
  // a suspension or a role change is heard at once; lib/hot-cache.ts); entitlements that end by
  // the clock are seen within the entry's lifetime. `readFresh`: the member wrote something this
  // process may not have heard yet (lib/own-writes.ts), so the kept one is not used.
  const found = await app.deps.hotCache.read(
    sessionKey(cookieValue),
    SESSION_CACHE_MS,
    async (): Promise<KeptSession> => {
      const { sessions, services } = app.deps;
      // in the database: the session and its member in one statement; in Redis: the session, then the member
      if (sessions.kept === 'database') {
        const found = await services.users.findSessionUser(sessionIdHash(cookieValue));
        return found && !found.suspended ? { user: found.user, until: found.expiresAt } : SIGNED_OUT;
      }
      const record = await sessions.get(cookieValue);
      if (!record) return SIGNED_OUT;
      const found = await services.users.findAuthUser(record.userId);
      if (!found || found.suspended) return SIGNED_OUT;
      return { user: found.user, until: record.expiresAt };
    },
    ['sessions'],
    readFresh,
  );
  return userOf(found);
}

interface KeptSession {
  user: AuthUser | null;
  until: number;
}
const SIGNED_OUT: KeptSession = { user: null, until: 0 };
const sessionKey = (cookieValue: string) => `session:${cookieValue}`;
const userOf = (found: KeptSession) => (found.user && found.until > Date.now() ? found.user : null);

const SESSION_CACHE_MS = 15_000;

export const csrfTokenFor = (secret: string, sessionId: string) => hmac(secret, `csrf:${sessionId}`);

function cookieOptions(request: FastifyRequest, maxAge?: number) {
  const secure = request.protocol === 'https' || request.server.deps.config.appUrl.startsWith('https://');
  return { path: '/', httpOnly: true, sameSite: 'lax' as const, secure, ...(maxAge ? { maxAge } : {}) };
}

function setSessionId(request: FastifyRequest, reply: FastifyReply, id: string, maxAge?: number) {
  request.sessionId = id;
  reply.setCookie(SESSION_COOKIE, id, cookieOptions(request, maxAge));
  // API clients pick the rotated token up from here (the page's meta tag is now stale).
  reply.header('X-CSRF-TOKEN', request.csrfToken);
}

/** Sign in: a brand-new session id (no fixation), stored server-side. */
export async function signIn(request: FastifyRequest, reply: FastifyReply, userId: number, remember: boolean) {
  const { sessions, services } = request.server.deps;
  if (request.user) await sessions.destroy(request.sessionId);
  const id = randomToken(32);
  const ttl = remember ? LIMITS.rememberedSessionTtlSeconds : LIMITS.sessionTtlSeconds;
  await sessions.create(
    id,
    { userId, remember, expiresAt: Date.now() + ttl * 1000 },
    { userAgent: request.headers['user-agent'], ip: request.ip },
  );
  setSessionId(request, reply, id, remember ? ttl : undefined);
  request.user = (await services.users.findAuthUser(userId))?.user ?? null;
}

export async function signOut(request: FastifyRequest, reply: FastifyReply) {
  if (request.user) await request.server.deps.sessions.destroy(request.sessionId);
  request.user = null;
  setSessionId(request, reply, visitorId());
}

export const sessionPlugin = fp(async (app: FastifyInstance) => {
  app.decorateRequest('sessionId', '');
  // the token is an HMAC of the session id, worked out when something asks for it (a page, a
  // state-changing call), not on every read
  const secret = app.deps.config.sessionSecret;
  const memo = new WeakMap<FastifyRequest, { id: string; token: string }>();
  app.decorateRequest('csrfToken', {
    getter(this: FastifyRequest) {
      const known = memo.get(this);
      if (known?.id === this.sessionId) return known.token;
      const token = csrfTokenFor(secret, this.sessionId);
      memo.set(this, { id: this.sessionId, token });
      return token;
    },
  });
  app.decorateRequest('user', null);
  app.decorateRequest('readFresh', false);
  const { ownWrites } = app.deps;
  // Callback-style: a session already in memory is read without a promise (a hot read costs no more than it must).
  app.addHook('onRequest', (request, reply, done) => {
    // the build's files are the same for everyone: no session read, and no cookie on a cacheable answer
    if (request.routeOptions.config.builtFile) return done();
    const existing = request.cookies[SESSION_COOKIE];
    if (existing && existing.length >= 20 && existing.length <= 100) {
      request.sessionId = existing;
      if (ownWrites) request.readFresh = ownWrites.behind(request.cookies[WROTE_COOKIE]);
      if (isVisitorId(existing)) return done();
      const kept = request.readFresh ? undefined : app.deps.hotCache.lookup<KeptSession>(sessionKey(existing));
      if (kept !== undefined) {
        request.user = userOf(kept);
        return done();
      }
      resolveSession(app, existing, request.readFresh).then((user) => {
        request.user = user;
        done();
      }, done);
      return;
    }
    const id = visitorId();
    request.sessionId = id;
    reply.setCookie(SESSION_COOKIE, id, cookieOptions(request));
    done();
  });
});
