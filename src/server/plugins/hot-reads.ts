import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler, onSendHookHandler } from 'fastify';
import fp from 'fastify-plugin';
import type { ReadScope } from '#server/lib/hot-cache';
import { WROTE_COOKIE } from '#server/lib/own-writes';
import type { AuthUser } from '#server/types';

/** how long an answer may be served without a change being heard (time-dependent parts) */
export const HOT_READ_MS = 15_000;
const MAX_URL = 400;
const READS = new Set(['GET', 'HEAD', 'OPTIONS']);

type Handler = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => unknown;

declare module 'fastify' {
  interface FastifyRequest {
    /** the cache key worked out in onRequest (null: this request is not a kept read) */
    hotReadKey: string | null;
    /** what a kept read's handler read (set when it ran: a miss), for storing its answer */
    hotReadScope: ReadScope | null;
  }
}

const viewers = new WeakMap<AuthUser, string>();
function viewerKey(user: AuthUser | null): string {
  if (!user) return '-';
  let key = viewers.get(user);
  if (!key) {
    key = `${user.id}:${user.role}:${user.isMentor ? 1 : 0}:${user.entitlements.join(',')}`;
    viewers.set(user, key);
  }
  return key;
}

/**
 * Routes with `config: { hotRead: true }` (GET, JSON): the answer is kept in memory per address and
 * viewer (their id, role and entitlements) until a table it read changes (lib/hot-cache.ts).
 * A kept answer is sent as soon as the session is known (onRequest): it was made for this very
 * address and this viewer state, so the access class, validation and handler it passed then would
 * pass again the same way (the viewer key holds everything access depends on; GET reads have no
 * abuse limits). A miss runs the whole chain, and its answer is kept when it is a 200.
 *
 * The hooks are the kept routes' own (added as each route is registered; they run after the app's
 * onRequest hooks, the session's among them) and callback-style: a kept answer costs no promise, no
 * read of the route's options and nothing on any other route.
 */
export const hotReadsPlugin = fp(async (app: FastifyInstance) => {
  const cache = app.deps.hotCache;
  app.decorateRequest('hotReadKey', null);
  app.decorateRequest('hotReadScope', null);
  const onRequest: onRequestHookHandler = (request, reply, done) => {
    const key =
      cache.active && request.method === 'GET' && request.url.length <= MAX_URL
        ? `route:${request.url}\u0000${viewerKey(request.user)}`
        : null;
    request.hotReadKey = key;
    // a member whose own write this process may not have heard yet reads the database (the answer is kept)
    const body = key === null || request.readFresh ? undefined : cache.lookup<Buffer>(key);
    if (body === undefined) return done();
    // answered here: the chain stops (a callback hook that sends does not call done)
    void reply.type('application/json; charset=utf-8').send(body);
  };
  // the answer as sent (serialised once): kept when it is a success
  const onSend: onSendHookHandler = (request, reply, payload, done) => {
    const { hotReadKey: key, hotReadScope: scope } = request;
    // kept as bytes: a string would be encoded again on every send
    if (key !== null && scope !== null && reply.statusCode === 200 && typeof payload === 'string')
      cache.store(key, scope, Buffer.from(payload), HOT_READ_MS);
    done(null, payload);
  };
  // a request that may have written: its answer carries the position after its commits, so that the
  // browser's next read, on whichever process, sees them (lib/own-writes.ts)
  const { ownWrites } = app.deps;
  if (ownWrites) {
    const cookieOptions = (request: FastifyRequest) => ({
      path: '/',
      httpOnly: true,
      sameSite: 'lax' as const,
      secure: request.protocol === 'https' || app.deps.config.appUrl.startsWith('https://'),
    });
    app.addHook('onSend', (request, reply, payload, done) => {
      if (READS.has(request.method) || reply.statusCode >= 400 || request.routeOptions.config?.builtFile)
        return done(null, payload);
      ownWrites.mark().then(
        (mark) => {
          reply.header('set-cookie', app.serializeCookie(WROTE_COOKIE, mark, cookieOptions(request)));
          done(null, payload);
        },
        // the write is done; without a position its reads on another process may lag a moment
        () => done(null, payload),
      );
    });
  }
  app.addHook('onRoute', (route) => {
    if (!route.config?.hotRead) return;
    route.onRequest = [...asList(route.onRequest), onRequest];
    route.onSend = [...asList(route.onSend), onSend];
    const handler = route.handler as Handler;
    route.handler = async function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      const key = request.hotReadKey;
      if (key === null) return handler.call(this, request, reply);
      const scope = cache.begin();
      request.hotReadScope = scope;
      return cache.track(scope, async () => handler.call(this, request, reply));
    };
  });
});

const asList = <T>(hooks: T | T[] | undefined): T[] =>
  hooks === undefined ? [] : Array.isArray(hooks) ? hooks : [hooks];
