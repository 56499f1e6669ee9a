import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { ReadScope } from '#server/lib/hot-cache';
import type { AuthUser } from '#server/types';

/** how long an answer may be served without a change being heard (time-dependent parts) */
export const HOT_READ_MS = 15_000;
const MAX_URL = 400;

type Handler = (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) => unknown;

declare module 'fastify' {
  interface FastifyRequest {
    hotRead: { key: string; scope: ReadScope } | null;
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
 * Authorisation, rate limits and validation run as before; only the handler's reading is skipped.
 */
export const hotReadsPlugin = fp(async (app: FastifyInstance) => {
  const cache = app.deps.hotCache;
  app.decorateRequest('hotRead', null);
  app.addHook('onRoute', (route) => {
    if (!(route.config as { hotRead?: boolean } | undefined)?.hotRead) return;
    const handler = route.handler as Handler;
    route.handler = async function (this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
      if (!cache.active || request.method !== 'GET' || request.url.length > MAX_URL) return handler.call(this, request, reply);
      const key = `route:${request.url}\u0000${viewerKey(request.user)}`;
      const body = cache.lookup<string>(key);
      if (body !== undefined) return reply.type('application/json; charset=utf-8').send(body);
      const scope = cache.begin();
      request.hotRead = { key, scope };
      return cache.track(scope, async () => handler.call(this, request, reply));
    };
  });
  // the answer as sent (serialised once): kept when it is a success
  app.addHook('onSend', async (request, reply, payload) => {
    const pending = request.hotRead;
    if (pending && reply.statusCode === 200 && typeof payload === 'string') cache.store(pending.key, pending.scope, payload, HOT_READ_MS);
    return payload;
  });
});
